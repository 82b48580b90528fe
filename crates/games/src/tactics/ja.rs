//! The module's texts in Japanese.

use gridplay_core::Translation;

pub(super) const JA: Translation = Translation {
    language: "ja",
    texts: &[
        ("The armies meet", "両軍がぶつかる"),
        (
            "Orange to move, its units within reach of Blue's: each can step in and attack, and a warrior can \
             Cleave every enemy next to it.",
            "オレンジの番で、ユニットは青のユニットに届く距離にいます。どれも近づいて攻撃でき、戦士はとなりのすべての敵を\
             なぎ払えます。",
        ),
        ("Grid Tactics", "グリッド・タクティクス"),
        (
            "Units move and fight on a 16x16 to 32x32 grid: warriors cleave, archers shoot, healers heal; eliminate the enemy.",
            "16x16 から 32x32 の盤でユニットが動いて戦います。戦士はなぎ払い、弓兵は射ち、治療師は癒やします。敵を全滅させれば勝ちです。",
        ),
        ("Grid size", "盤の大きさ"),
        (
            "Squares on each side of the grid, from 16 to 32.",
            "盤の一辺のマスの数（16〜32）。",
        ),
        ("First player's army", "先手の軍"),
        (
            "The first player's units; the second player fields the same army unless given one of their own.",
            "先手のユニット。後手の軍を別に決めなければ、後手も同じ軍になります。",
        ),
        ("Second player's army", "後手の軍"),
        (
            "The second player's units, when they differ from the first player's.",
            "後手のユニット（先手と違う軍にするとき）。",
        ),
        ("From 3 to 16 units", "ユニットは 3〜16"),
        ("Every class at least once", "どの兵種も 1 つ以上"),
        (
            "Warriors and archers: each at most half of the army",
            "戦士と弓兵: それぞれ軍の半分以下",
        ),
        (
            "Healers: at most a third of the army",
            "治療師: 軍の 3 分の 1 以下",
        ),
        (
            "Archers: at least a third of the army",
            "弓兵: 軍の 3 分の 1 以上",
        ),
        (
            "Every class within one unit of a third of the army",
            "どの兵種も軍の 3 分の 1 との差が 1 以内",
        ),
        ("The armies", "両軍"),
        (
            "Each side's warriors, archers and healers stand mirrored. One activation moves a unit along a path within \
             its move budget, then it attacks, uses its ability, or does nothing; end the turn when done.",
            "両軍の戦士・弓兵・治療師は鏡写しに並びます。1 回の行動でユニットを移動力の範囲で動かし、攻撃するか、\
             特技を使うか、何もしません。終わったらターンを終えます。",
        ),
        ("Move only", "移動のみ"),
        ("Attack", "攻撃"),
        ("Shoot", "射撃"),
        ("Heal", "治療"),
        ("Cleave", "なぎ払い"),
        ("End turn", "ターン終了"),
        (
            "Sword and shield: a warrior. The number is its health; a faded unit has acted this turn.",
            "剣と盾: 戦士。数字は体力です。薄く見えるユニットはこのターンに行動済みです。",
        ),
        (
            "Bow: an archer, which shoots from where it starts.",
            "弓: 弓兵。動く前の場所から射ちます。",
        ),
        ("Cross: a healer.", "十字: 治療師。"),
        ("Blue", "青"),
        ("Orange", "オレンジ"),
        ("warrior", "戦士"),
        ("archer", "弓兵"),
        ("healer", "治療師"),
        ("turn", "ターン"),
        ("turns without damage", "ダメージのないターン"),
    ],
};
