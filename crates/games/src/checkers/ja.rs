//! The module's texts in Japanese.

use gridplay_core::Translation;

pub(super) const JA: Translation = Translation {
    language: "ja",
    texts: &[
        ("A multiple jump", "連続ジャンプ"),
        (
            "White must capture and may choose: 25x18 takes one man, 26x17x10 jumps twice in one move and takes \
             two.",
            "白は取らなければなりませんが、取り方は選べます。25x18 は 1 つ取り、26x17x10 は 1 手で 2 回跳んで 2 つ取ります。",
        ),
        ("A new king", "新しい王"),
        (
            "Red's double jump 13x22x31 ended on White's back row: the man was crowned and now moves both ways.",
            "赤の連続ジャンプ 13x22x31 は白の一番奥の列で終わりました。コマは王になり、前にも後ろにも動けます。",
        ),
        ("Checkers", "チェッカー"),
        (
            "American checkers (ACF rules): captures are compulsory, multi-jumps complete, men crown on the far row.",
            "アメリカン・チェッカー（ACF ルール）。取れるときは必ず取り、連続ジャンプは最後まで跳び、\
             コマは相手側の端の列に着くと王になります。",
        ),
        ("The start", "はじめの局面"),
        (
            "Red (the men on squares 1-12) moves first: a man steps one square diagonally forward onto a free dark \
             square.",
            "赤（1〜12 番のマスのコマ）が先手です。コマは斜め前の空いている黒マスへ 1 つ進みます。",
        ),
        ("Captures are compulsory", "取りは義務"),
        (
            "After 11-15 22-18, Red has one legal move: the jump 15x22. When a capture exists, a quiet move is \
             not allowed.",
            "11-15 22-18 のあと、赤に指せる手は 15x22 のジャンプ 1 つだけです。取れる手があるときは、取らない手は指せません。",
        ),
        ("Red", "赤"),
        ("White", "白"),
        ("man", "コマ"),
        ("king", "王"),
    ],
};
