//! The module's texts in Japanese.

use gridplay_core::Translation;

pub(super) const JA: Translation = Translation {
    language: "ja",
    texts: &[
        ("Reversi", "リバーシ"),
        (
            "Othello on 8x8: flank a line of the opponent's discs to flip them; most discs wins.",
            "8x8 のオセロ。相手の石の列をはさんで裏返し、石の多いほうが勝ちです。",
        ),
        (
            "who moves first: black (the usual Othello start), or white, with the centre discs set the other way round",
            "先手: black（ふつうのオセロの始まり）か、white（中央の石を逆向きに置いて白から）",
        ),
        ("The start", "はじめの局面"),
        (
            "Black moves first. A disc must flank a line of white discs between itself and another black disc: \
             only the four marked squares do. Try one: the flanked disc turns black.",
            "黒が先手です。打つ石と別の黒石とで白石の列をはさまなければなりません。それができるのは印のついた 4 マスだけです。\
             打ってみてください。はさまれた石が黒に変わります。",
        ),
        ("Flipping in several directions", "いくつもの方向を裏返す"),
        (
            "After f5 d6 c3 d3 c4 (the Tiger opening), White to move. A disc flips every flanked line at once, \
             in all eight directions: some of White's moves here flip more than one line.",
            "f5 d6 c3 d3 c4（虎定石）のあと、白の番です。石は縦・横・斜めの 8 方向ではさんだ列をすべて同時に裏返します。\
             ここでは 2 列以上を裏返す白の手があります。",
        ),
        ("Pass", "パス"),
        ("Black", "黒"),
        ("White", "白"),
        ("disc", "石"),
    ],
};
