//! The module's texts in Japanese.

use gridplay_core::Translation;

pub(super) const JA: Translation = Translation {
    language: "ja",
    texts: &[
        ("Grid Tactics", "グリッド・タクティクス"),
        (
            "Units move and fight on a 16x16 to 32x32 grid: warriors cleave, archers shoot, healers heal; eliminate the enemy.",
            "16x16 から 32x32 の盤でユニットが動いて戦います。戦士はなぎ払い、弓兵は射ち、治療師は癒やします。敵を全滅させれば勝ちです。",
        ),
        (
            "how many squares each side of the grid has, from 16 to 32",
            "盤の一辺のマスの数（16〜32）",
        ),
        (
            "3 to 16 of w a h: every class, none over half, healers at most a third, archers at least a third, \
             each class within one of a third",
            "w a h を 3〜16 個。全兵種を含み、どれも半分以下、治療師は 3 分の 1 以下、弓兵は 3 分の 1 以上、\
             各兵種は 3 分の 1 との差が 1 以内",
        ),
        (
            "the first player's units, one letter each (w a warrior, a an archer, h a healer), and the second player's too unless army2 is given",
            "先手のユニットを 1 文字ずつ（w 戦士、a 弓兵、h 治療師）。army2 がなければ後手も同じ",
        ),
        ("as army", "army と同じ"),
        (
            "the second player's units, written as for army",
            "後手のユニット。書き方は army と同じ",
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
