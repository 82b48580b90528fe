use std::sync::LazyLock;

use gridplay_core::Registry;

use crate::reversi;

static REGISTRY: LazyLock<Registry> = LazyLock::new(|| {
    let mut r = Registry::new();
    r.register::<reversi::Reversi>(
        "Reversi",
        "Othello on 8x8: flank a line of the opponent's discs to flip them; most discs wins.",
        reversi::SETTINGS,
    );
    r
});

/// Every gridplay game by name.
#[must_use]
pub fn registry() -> &'static Registry {
    &REGISTRY
}
