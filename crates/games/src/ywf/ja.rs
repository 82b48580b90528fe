//! The module's texts in Japanese, with the names of the original Japanese rules (良い子, 悪い子, 普通の子).

use gridplay_core::Translation;

pub(super) const JA: Translation = Translation {
    language: "ja",
    texts: &[
        ("YWF", "YWF"),
        (
            "Yoi-ko, Warui-ko, Futsu-no-ko: convert lines of neutral and enemy pieces, Change with the token; most pieces wins.",
            "良い子・悪い子・普通の子。普通の子と相手の駒の列を変え、トークンを使ってチェンジします。駒の多いほうが勝ちです。",
        ),
        (
            "9 rows of W Y F and digits, separated by /",
            "W Y F と数字の 9 行を / で区切ったもの",
        ),
        (
            "where the pieces start, as rows of the position text; the default is the block of nine in the centre",
            "駒の初期配置（局面テキストの行）。既定は中央の 9 マスのかたまりです",
        ),
        ("The start", "はじめの局面"),
        (
            "The board starts with Yoi-ko, Warui-ko and Futsu-no-ko pieces in the centre. Play a piece to convert \
             lines of neutral and enemy pieces; the token allows a Change.",
            "盤の中央に良い子・悪い子・普通の子の駒が並んで始まります。駒を置いて普通の子と相手の駒の列を変えます。\
             トークンがあればチェンジもできます。",
        ),
        ("Place", "プレイ"),
        ("Change", "チェンジ"),
        ("Pass", "パス"),
        ("Warui-ko", "悪い子"),
        ("Yoi-ko", "良い子"),
        ("warui", "悪い子"),
        ("yoi", "良い子"),
        ("futsu", "普通の子"),
        ("token", "トークン"),
        ("change", "チェンジ"),
        ("Warui-ko's side", "悪い子の側"),
        ("Yoi-ko's side", "良い子の側"),
        ("centre", "中央"),
        (
            "banned: the opponent just changed",
            "不可: 相手が直前にチェンジした",
        ),
        (
            "banned: the token is on the opponent's side",
            "不可: トークンが相手の側にある",
        ),
        ("allowed", "可"),
    ],
};
