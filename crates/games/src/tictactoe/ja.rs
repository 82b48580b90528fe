//! The module's texts in Japanese.

use gridplay_core::Translation;

pub(super) const JA: Translation = Translation {
    language: "ja",
    texts: &[
        ("Tic-tac-toe", "三目並べ"),
        (
            "Three in a row on 3x3: X moves first; a full board with no line is a draw.",
            "3x3 で 3 つ並べたら勝ち。X が先手で、列ができないまま盤が埋まれば引き分けです。",
        ),
        ("A fork", "両取り"),
        (
            "X has two lines to finish and O can block only one.",
            "X には完成しそうな列が 2 つあり、O はその 1 つしか防げません。",
        ),
        ("X", "X"),
        ("O", "O"),
        ("x", "X"),
        ("o", "O"),
    ],
};
