use std::sync::LazyLock;

use gridplay_core::Registry;

use crate::{checkers, cornered, reversi, tactics, tictactoe, ywf};

fn games() -> Registry {
    let mut r = Registry::new();
    r.register::<reversi::Reversi>(&reversi::MODULE)
        .register::<cornered::Cornered>(&cornered::MODULE)
        .register::<ywf::Ywf>(&ywf::MODULE)
        .register::<checkers::Checkers>(&checkers::MODULE)
        .register::<tactics::Tactics>(&tactics::MODULE);
    r
}

static REGISTRY: LazyLock<Registry> = LazyLock::new(games);

static WITH_TEST_GAMES: LazyLock<Registry> = LazyLock::new(|| {
    let mut r = games();
    r.register::<tictactoe::TicTacToe>(&tictactoe::MODULE);
    r
});

/// Every gridplay game by name.
#[must_use]
pub fn registry() -> &'static Registry {
    &REGISTRY
}

/// Every game, and the test games (tic-tac-toe) after them: for tests, and for `--with-test-games`.
#[must_use]
pub fn registry_with_test_games() -> &'static Registry {
    &WITH_TEST_GAMES
}

#[cfg(test)]
mod tests {
    use gridplay_core::{Edge, GameSpec, Player};

    use super::{registry, registry_with_test_games};

    /// The test games come after the real ones, and only in their own registry.
    #[test]
    fn test_games_are_only_in_their_registry() {
        let names = |r: &gridplay_core::Registry| r.entries().iter().map(|e| e.name).collect::<Vec<_>>();
        let all = names(registry_with_test_games());
        assert_eq!(all[..registry().entries().len()], names(registry())[..]);
        assert!(!names(registry()).contains(&"tictactoe"));
        assert!(all.contains(&"tictactoe"));
    }

    /// Each side's home edge is where its pieces start: the mean row of a side's pieces at the start is nearer
    /// the top than the other side's exactly when its home is the top.
    #[test]
    fn home_edges_match_the_start_positions() {
        for e in registry_with_test_games().entries() {
            let view = registry_with_test_games().game(e.name).unwrap().start().view();
            let width = view.width as usize;
            let mean_row = |p: Player| {
                let rows: Vec<usize> = view
                    .cells
                    .iter()
                    .enumerate()
                    .filter(|(_, c)| c.piece.as_ref().is_some_and(|pc| pc.owner == Some(p)))
                    .map(|(i, _)| i / width)
                    .collect();
                (!rows.is_empty()).then(|| rows.iter().sum::<usize>() as f64 / rows.len() as f64)
            };
            let expected = match (mean_row(Player::First), mean_row(Player::Second)) {
                (Some(a), Some(b)) if a < b => [Some(Edge::Top), Some(Edge::Bottom)],
                (Some(a), Some(b)) if b < a => [Some(Edge::Bottom), Some(Edge::Top)],
                _ => [None, None],
            };
            assert_eq!(e.module.home, expected, "{}", e.name);
        }
    }

    /// Every rules-page example builds, replays, and leaves a position with something to try.
    #[test]
    fn every_rule_example_replays_and_has_legal_moves() {
        for e in registry_with_test_games().entries() {
            assert!(!e.module.examples.is_empty(), "{} has no rule example", e.name);
            for x in e.module.examples {
                let spec: GameSpec = x.spec.parse().unwrap();
                assert_eq!(spec.name(), e.name, "{}", x.title);
                let game = registry_with_test_games().build(&spec).unwrap();
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
