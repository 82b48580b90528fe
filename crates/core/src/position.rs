use std::{fmt::Debug, hash::Hash};

use crate::{
    BoardView, HistoryRules, IllegalMove, MoveError, MoveList, Outcome, ParseMoveError, PlayError, Player,
    Reason, Score,
};

/// A state of play of one game.
///
/// Required methods are few; the checked API is provided on top of them:
/// - [`legal_moves`](Position::legal_moves) and [`play_unchecked`](Position::play_unchecked) are the hot path
///   used by search and perft;
/// - [`play`](Position::play), [`validate`](Position::validate) and [`parse_move`](Position::parse_move) are the
///   checked path used with moves from people, clients and files: parse, then validate, then play.
///
/// A game that has ended has no legal moves. A game where a side must pass lists the pass as its only move, so
/// that every state that is not over has at least one legal move.
pub trait Position: Clone + Debug + Send + Sync + 'static {
    /// One whole move of the game (for checkers a complete capture path, for Grid Tactics one unit activation).
    type Move: Copy + Eq + Hash + Debug + Send + Sync + 'static;
    /// The list type returned by [`legal_moves`](Position::legal_moves).
    type Moves: MoveList<Self::Move>;

    /// The side to move. When the game is over this is the side that would have moved next.
    fn turn(&self) -> Player;

    /// All legal moves, in a fixed order for a given position. Empty exactly when the game is over.
    fn legal_moves(&self) -> Self::Moves;

    /// Plays a move without checking it.
    ///
    /// # Panics
    ///
    /// May panic, or leave a position that breaks the game's invariants, if `m` is not in
    /// [`legal_moves`](Position::legal_moves). Use [`play`](Position::play) for moves that were not generated.
    fn play_unchecked(&mut self, m: Self::Move);

    /// `None` while the game goes on.
    fn outcome(&self) -> Option<Outcome>;

    /// The current counts as the game scores them.
    fn score(&self) -> Score;

    /// Reads a move's text. This checks syntax only; [`validate`](Position::validate) checks legality.
    fn parse_move(&self, text: &str) -> Result<Self::Move, ParseMoveError>;

    /// The move's text, which [`parse_move`](Position::parse_move) reads back.
    fn move_text(&self, m: Self::Move) -> String;

    /// The one-line text form of the position, which the game's `parse_position` reads back.
    fn to_text(&self) -> String;

    /// A serializable picture of the position for user interfaces, with the legal moves.
    fn view(&self) -> BoardView;

    /// Why `m` is not legal here, or `Ok`. Games override this to give a precise reason.
    fn validate(&self, m: Self::Move) -> Result<(), IllegalMove> {
        if self.legal_moves().contains(&m) {
            Ok(())
        } else if self.is_over() {
            Err(IllegalMove::new(self.move_text(m), Reason::GameOver))
        } else {
            Err(IllegalMove::new(self.move_text(m), Reason::NotLegal))
        }
    }

    /// Whether `m` is legal here.
    fn is_legal(&self, m: Self::Move) -> bool {
        self.validate(m).is_ok()
    }

    /// Whether the game has ended.
    fn is_over(&self) -> bool {
        self.outcome().is_some()
    }

    /// Plays a checked move. A refused move hands back the untouched position.
    fn play(mut self, m: Self::Move) -> Result<Self, PlayError<Self>> {
        match self.validate(m) {
            Ok(()) => {
                self.play_unchecked(m);
                Ok(self)
            }
            Err(error) => Err(PlayError {
                position: self,
                error,
            }),
        }
    }

    /// Parses, validates and plays a move given as text, in place. On error the position is untouched.
    fn play_text(&mut self, text: &str) -> Result<Self::Move, MoveError> {
        let m = self.parse_move(text)?;
        self.validate(m)?;
        self.play_unchecked(m);
        Ok(m)
    }

    /// Draw rules that depend on the game's history, which [`crate::GameRecord`] applies. None by default.
    fn history_rules(&self) -> HistoryRules {
        HistoryRules::default()
    }

    /// Whether `m` is irreversible progress that resets the quiet-move count of
    /// [`HistoryRules::quiet_plies`] (in checkers: a capture or a man's move).
    fn is_progress(&self, _m: Self::Move) -> bool {
        true
    }

    /// A key that is equal for positions that count as the same for repetition: same pieces, same side to move.
    fn repetition_key(&self) -> u64 {
        use std::hash::{BuildHasher, BuildHasherDefault, DefaultHasher};
        BuildHasherDefault::<DefaultHasher>::default().hash_one(self.to_text())
    }

    /// The key under which an opening explorer counts this position: positions the rules treat alike share
    /// one key (Reversi's images under the eight symmetries of the board), so that an explorer counts a move
    /// as the position it reaches. By default the position text.
    fn explorer_key(&self) -> String {
        self.to_text()
    }

    /// The key under which the fair-play rule recognises a position: positions that are the same contest share
    /// it, whatever names them (Reversi's images under the eight symmetries, and the same discs with the
    /// colours swapped; checkers' board turned round with the colours swapped). By default the explorer's key.
    fn fair_play_key(&self) -> String {
        self.explorer_key()
    }

    /// The number of move sequences of exactly `depth` plies. A game that ends earlier is not extended.
    ///
    /// The default counts the moves of the last ply in bulk; games override it with a faster walk.
    fn perft(&self, depth: u32) -> u64 {
        crate::perft::perft_generic(self, depth)
    }
}

/// Where a symmetry of a square board takes the cell at (row, column), given the last index.
type Symmetry = fn(usize, usize, usize) -> (usize, usize);

/// The least of the eight images of a square board under its symmetries (turns and reflections), as text:
/// `cells` holds `size * size` symbols, row by row. For a game whose rules are the same under every symmetry,
/// it names the position whichever way the board is turned ([`Position::fair_play_key`]).
#[must_use]
pub fn least_image(size: usize, cells: &[u8]) -> String {
    assert_eq!(cells.len(), size * size, "a square board");
    let last = size.saturating_sub(1);
    let maps: [Symmetry; 8] = [
        |r, c, _| (r, c),
        |r, c, l| (c, l - r),
        |r, c, l| (l - r, l - c),
        |r, c, l| (l - c, r),
        |r, c, l| (r, l - c),
        |r, c, l| (l - r, c),
        |r, c, _| (c, r),
        |r, c, l| (l - c, l - r),
    ];
    maps.iter()
        .map(|map| {
            let mut image = vec![0u8; cells.len()];
            for r in 0..size {
                for c in 0..size {
                    let (r2, c2) = map(r, c, last);
                    image[r2 * size + c2] = cells[r * size + c];
                }
            }
            image
        })
        .min()
        .map(|image| String::from_utf8_lossy(&image).into_owned())
        .unwrap_or_default()
}
