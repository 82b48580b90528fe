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
        (
            "how many crosses each side of the board has, from 2 to 25",
            "盤の一辺の交点の数（2〜25）",
        ),
        (
            "who wins when both sides end with as many crosses (it can happen only on even sizes): nobody (a draw), or Black, as the game's author ruled",
            "交点の数が同じで終わったときの勝者（偶数の大きさでだけ起こります）: draw（引き分け）か、\
             作者の裁定どおり black（黒の勝ち）",
        ),
        ("The start", "はじめの局面"),
        (
            "Pieces go on the crosses. Only the marked crosses are legal: a piece never flips, and the lines that \
             hold pieces decide where the next one may go.",
            "石は交点に置きます。置けるのは印のついた交点だけです。石は裏返らず、石のある線が次に置ける場所を決めます。",
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
