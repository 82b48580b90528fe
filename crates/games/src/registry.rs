use std::sync::LazyLock;

use gridplay_core::Registry;

use crate::{checkers, cornered, reversi, tactics, ywf};

static REGISTRY: LazyLock<Registry> = LazyLock::new(|| {
    let mut r = Registry::new();
    r.register::<reversi::Reversi>(
        "Reversi",
        "Othello on 8x8: flank a line of the opponent's discs to flip them; most discs wins.",
        reversi::SETTINGS,
        reversi::EXAMPLES,
    );
    r.register::<cornered::Cornered>(
        "Cornered Reversi",
        "Reversi on any size where placed pieces never flip: active lines fill with occupation; most crosses wins.",
        cornered::SETTINGS,
        cornered::EXAMPLES,
    );
    r.register::<ywf::Ywf>(
        "YWF",
        "Yoi-ko, Warui-ko, Futsu-no-ko: convert lines of neutral and enemy pieces, Change with the token; most pieces wins.",
        ywf::SETTINGS,
        ywf::EXAMPLES,
    );
    r.register::<checkers::Checkers>(
        "Checkers",
        "American checkers (ACF rules): captures are compulsory, multi-jumps complete, men crown on the far row.",
        checkers::SETTINGS,
        checkers::EXAMPLES,
    );
    r.register::<tactics::Tactics>(
        "Grid Tactics",
        "Units move and fight on a 16x16 to 32x32 grid: warriors cleave, archers shoot, healers heal; eliminate the enemy.",
        tactics::SETTINGS,
        tactics::EXAMPLES,
    );
    r
});

/// Every gridplay game by name.
#[must_use]
pub fn registry() -> &'static Registry {
    &REGISTRY
}

#[cfg(test)]
mod tests {
    use gridplay_core::GameSpec;

    use super::registry;

    /// Every rules-page example builds, replays, and leaves a position with something to try.
    #[test]
    fn every_rule_example_replays_and_has_legal_moves() {
        for e in registry().entries() {
            assert!(!e.examples.is_empty(), "{} has no rule example", e.name);
            for x in e.examples {
                let spec: GameSpec = x.spec.parse().unwrap();
                assert_eq!(spec.name(), e.name, "{}", x.title);
                let game = registry().build(&spec).unwrap();
                let mut pos = game.start();
                for m in x.moves {
                    pos.play(m)
                        .unwrap_or_else(|err| panic!("{}: {}: {m}: {err}", e.name, x.title));
                }
                assert!(!pos.legal_moves().is_empty(), "{}: {}", e.name, x.title);
            }
        }
    }
}
