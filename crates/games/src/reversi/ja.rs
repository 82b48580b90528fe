//! The module's texts in Japanese.

use gridplay_core::Translation;

pub(super) const JA: Translation = Translation {
    language: "ja",
    texts: &[
        ("A forced pass", "パスするしかない"),
        (
            "Black has no square where a disc would flank a white line, so its one move is to pass; then White \
             plays again.",
            "黒には白の列をはさめるマスがないので、指せる手はパスだけです。そのあと白が続けて打ちます。",
        ),
        ("Reversi", "リバーシ"),
        (
            "Othello on 8x8: flank a line of the opponent's discs to flip them; most discs wins.",
            "8x8 のオセロ。相手の石の列をはさんで裏返し、石の多いほうが勝ちです。",
        ),
        ("First to move", "先手"),
        (
            "Black moves first in standard Othello. With White first, the four centre discs are set the other way \
            round, so the game is the same with the colours swapped.",
            "ふつうのオセロでは黒が先手です。白を先手にすると中央の 4 つの石が逆向きに置かれ、色を入れ替えただけの同じゲームになります。",
        ),
        ("Black (standard Othello)", "黒（ふつうのオセロ）"),
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
