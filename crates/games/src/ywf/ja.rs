//! The module's texts in Japanese, with the names of the original Japanese rules (良い子, 悪い子, 普通の子).

use gridplay_core::Translation;

pub(super) const JA: Translation = Translation {
    language: "ja",
    texts: &[
        (
            "Black pieces are Warui-ko's, white pieces Yoi-ko's.",
            "黒い駒は悪い子、白い駒は良い子のものです。",
        ),
        (
            "Grey pieces with a light centre are Futsu-no-ko: they belong to nobody, and a line of them between your \
             pieces turns to yours.",
            "中央の明るい灰色の駒は普通の子です。誰のものでもなく、自分の駒にはさまれた列は自分の駒になります。",
        ),
        (
            "The token, shown beside the board, lies in the centre or on one player's side. You may not Change \
             while it lies on your opponent's side, and your Change moves it one step towards your opponent.",
            "トークンは盤の横に表示され、中央かどちらかの側にあります。相手の側にあるあいだはチェンジできず、自分が\
             チェンジするとトークンは相手のほうへ 1 歩動きます。",
        ),
        ("A Change", "チェンジ"),
        (
            "Warui-ko changed the Futsu-no-ko on d6 into its own piece and converted from there. The token moved \
             from the centre to Yoi-ko's side, and Yoi-ko may not Change right after its opponent's Change.",
            "悪い子は d6 の普通の子を自分の駒にし、そこから駒を変えました。トークンは中央から良い子の側へ動きました。\
             良い子は相手のチェンジの直後なのでチェンジできません。",
        ),
        ("A forced pass", "パスするしかない"),
        (
            "Yoi-ko cannot Play anywhere, and may not Change while the token lies on Warui-ko's side: its one \
             move is to pass.",
            "良い子はどこにもプレイできず、トークンが悪い子の側にあるのでチェンジもできません。指せる手はパスだけです。",
        ),
        ("YWF", "YWF"),
        (
            "Yoi-ko, Warui-ko, Futsu-no-ko: convert lines of neutral and enemy pieces, Change with the token; most pieces wins.",
            "良い子・悪い子・普通の子。普通の子と相手の駒の列を変え、トークンを使ってチェンジします。駒の多いほうが勝ちです。",
        ),
        ("Starting layout", "初期配置"),
        (
            "Where the pieces stand at the start. The usual layout is the block of nine in the centre, with one \
            piece of each kind in every row and column.",
            "はじめに駒が置かれる場所。ふつうは中央の 9 マスのかたまりで、どの行と列にも各種の駒が 1 つずつあります。",
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
