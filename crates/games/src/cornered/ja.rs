//! The module's texts in Japanese.

use gridplay_core::Translation;

pub(super) const JA: Translation = Translation {
    language: "ja",
    texts: &[
        ("Cornered Reversi", "コーナード・リバーシ"),
        (
            "Reversi on any size where placed pieces never flip: active lines fill with occupation; most crosses wins.",
            "好きな大きさの盤で遊ぶリバーシ。置いた石は裏返らず、石のある線は占有で埋まっていきます。交点の多いほうが勝ちです。",
        ),
        ("Board size", "盤の大きさ"),
        (
            "Crosses on each side of the board, from 2 to 25. On an odd size the game cannot end level.",
            "盤の一辺の交点の数（2〜25）。奇数の大きさでは同数では終わりません。",
        ),
        ("Equal crosses at the end", "終局で交点が同数のとき"),
        (
            "Who wins when both sides end with as many crosses, which can happen only on even sizes.",
            "両者の交点の数が同じで終わったときの勝者。偶数の大きさでだけ起こります。",
        ),
        ("A draw", "引き分け"),
        ("Black wins", "黒の勝ち"),
        ("The start", "はじめの局面"),
        (
            "Pieces go on the crosses, and White moves first. Every empty cross is a legal move.",
            "石は交点に置き、白が先手です。空いている交点はすべて合法手です。",
        ),
        ("Occupation", "占有"),
        (
            "On 5x5, White placed a3 and c3 on each side of Black's b2: the row through c3 is active, so White \
             occupies it from edge to edge, 5 crosses to 1. Black to move: try b4.",
            "5x5 の盤で、白は黒の b2 をはさむように a3 と c3 に置きました。c3 を通る行が有効になり、白はその行を端から端まで\
             占有して 5 対 1 です。黒の番です。b4 を試してください。",
        ),
        ("Occupation changes hands", "占有は持ち主が変わる"),
        (
            "Black's b4 made the column through its b2 active: the whole column is Black's now, White's \
             occupied b3 included. White's placed a3 and c3 stay.",
            "黒の b4 で、黒の b2 を通る列が有効になりました。白が占有していた b3 も含め、列全体が黒のものです。白の置いた \
             a3 と c3 はそのままです。",
        ),
        ("Pass", "パス"),
        (
            "Small pale pieces are occupied crosses: they count toward the score like placed pieces, can change colour, \
             and no one may place on them.",
            "小さく薄い石は占有された交点です。置いた石と同じく得点に数え、色が変わることがあり、誰もそこには置けません。",
        ),
        ("White", "白"),
        ("Black", "黒"),
        ("placed", "置いた石"),
        ("occupied", "占有"),
        ("difference", "差"),
    ],
};
