use std::sync::LazyLock;

use gridplay_core::Registry;

use crate::{checkers, cornered, reversi, tactics, ywf};

static REGISTRY: LazyLock<Registry> = LazyLock::new(|| {
    let mut r = Registry::new();
    r.register::<reversi::Reversi>(
        "Reversi",
        "Othello on 8x8: flank a line of the opponent's discs to flip them; most discs wins.",
        reversi::SETTINGS,
    );
    r.register::<cornered::Cornered>(
        "Cornered Reversi",
        "Reversi on any size where placed pieces never flip: active lines fill with occupation; most crosses wins.",
        cornered::SETTINGS,
    );
    r.register::<ywf::Ywf>(
        "YWF",
        "Yoi-ko, Warui-ko, Futsu-no-ko: convert lines of neutral and enemy pieces, Change with the token; most pieces wins.",
        ywf::SETTINGS,
    );
    r.register::<checkers::Checkers>(
        "Checkers",
        "American checkers (ACF rules): captures are compulsory, multi-jumps complete, men crown on the far row.",
        checkers::SETTINGS,
    );
    r.register::<tactics::Tactics>(
        "Grid Tactics",
        "Units move and fight on a 16x16 to 32x32 grid: warriors cleave, archers shoot, healers heal; eliminate the enemy.",
        tactics::SETTINGS,
    );
    r
});

/// Every gridplay game by name.
#[must_use]
pub fn registry() -> &'static Registry {
    &REGISTRY
}
