//! Tic-tac-toe: the smallest game of the gridplay shape. It is registered only in
//! [`registry_with_test_games`](crate::registry_with_test_games), for tests and development, to show that a game
//! is one module: the server, the command line and the browser play it with no line that names it.
//!
//! Squares are named as in chess, `a1` bottom-left to `c3` top-right. The position text is the rows from the
//! top as run-length rows (`X`, `O`, a count of empty squares), a space and the side to move: the start is
//! `3/3/3 X`.

mod ja;
#[cfg(test)]
mod tests;

use arrayvec::ArrayVec;
use gridplay_core::{
    BoardView, Cell, Game, GameInfo, GameSpec, Grid, IllegalMove, MoveView, Outcome, ParseMoveError, Piece,
    Player, Position, PositionError, Reason, RuleExample, Score, SettingDoc, SideInfo, SpecError,
    notation::{Lettered, read_rows, write_rows},
};

/// A square, 0-8 row by row from the top-left.
pub type Move = u8;

const SQUARES: Lettered = Lettered::new(3, 3, false);

const LINES: [[usize; 3]; 8] = [
    [0, 1, 2],
    [3, 4, 5],
    [6, 7, 8],
    [0, 3, 6],
    [1, 4, 7],
    [2, 5, 8],
    [0, 4, 8],
    [2, 4, 6],
];

/// How the platform presents tic-tac-toe.
pub static MODULE: gridplay_core::GameModule = gridplay_core::GameModule {
    title: "Tic-tac-toe",
    about: "Three in a row on 3x3: X moves first; a full board with no line is a draw.",
    settings: SETTINGS,
    examples: EXAMPLES,
    rules: &[
        gridplay_core::RulesDocument::english(include_str!("rules/en.md")),
        gridplay_core::RulesDocument::new("ja", include_str!("rules/ja.md")),
    ],
    entry: gridplay_core::MoveEntry::Place,
    look: gridplay_core::Look {
        light: "#f4f1ea",
        dark: "#f4f1ea",
        line: Some("#444"),
        coords: "#444",
        checkered: false,
        cursor_tint: false,
        pieces: &[
            ("x", gridplay_core::Sprite::Saltire),
            ("o", gridplay_core::Sprite::Ring),
        ],
        helping: &[],
    },
    home: [None, None],
    move_kinds: &[],
    legend: &[],
    codec: &gridplay_core::MoveListCodec,
    pieces: &[
        gridplay_core::EditorPiece {
            kind: "x",
            owner: Some(Player::First),
            glyph: 'X',
            ghost: false,
        },
        gridplay_core::EditorPiece {
            kind: "o",
            owner: Some(Player::Second),
            glyph: 'O',
            ghost: false,
        },
    ],
    translations: &[ja::JA],
    // A test game: nine squares.
    help_horizon: 2,
};

pub const EXAMPLES: &[RuleExample] = &[RuleExample {
    id: "fork",
    title: "A fork",
    text: "X has two lines to finish and O can block only one.",
    spec: "tictactoe",
    moves: &["a1", "b2", "c3", "a3", "c1", "b1"],
}];

pub const SETTINGS: &[SettingDoc] = &[];

/// Why a tic-tac-toe move is not legal.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Illegal {
    #[error("that square is off the board")]
    OffBoard,
    /// The mark on the square.
    #[error("{0} is already there")]
    Taken(char),
}

impl From<Illegal> for Reason {
    fn from(why: Illegal) -> Reason {
        Reason::rule(why)
    }
}

/// The game: it has no settings.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TicTacToe;

/// The nine squares and the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TicTacToePosition {
    cells: [Option<Player>; 9],
    turn: Player,
}

impl TicTacToePosition {
    fn line_winner(&self) -> Option<Player> {
        LINES.iter().find_map(|l| {
            let a = self.cells[l[0]]?;
            (self.cells[l[1]] == Some(a) && self.cells[l[2]] == Some(a)).then_some(a)
        })
    }
}

fn glyph(p: Player) -> char {
    match p {
        Player::First => 'X',
        Player::Second => 'O',
    }
}

impl Position for TicTacToePosition {
    type Move = Move;
    type Moves = ArrayVec<Move, 9>;

    fn turn(&self) -> Player {
        self.turn
    }

    fn legal_moves(&self) -> Self::Moves {
        if self.line_winner().is_some() {
            return ArrayVec::new();
        }
        (0..9).filter(|&i| self.cells[usize::from(i)].is_none()).collect()
    }

    fn play_unchecked(&mut self, m: Move) {
        self.cells[usize::from(m)] = Some(self.turn);
        self.turn = !self.turn;
    }

    fn outcome(&self) -> Option<Outcome> {
        if let Some(winner) = self.line_winner() {
            Some(Outcome::Win { winner })
        } else if self.cells.iter().all(Option::is_some) {
            Some(Outcome::Draw)
        } else {
            None
        }
    }

    fn score(&self) -> Score {
        match self.line_winner() {
            Some(Player::First) => Score::new(1, 0),
            Some(Player::Second) => Score::new(0, 1),
            None => Score::new(0, 0),
        }
    }

    fn parse_move(&self, text: &str) -> Result<Move, ParseMoveError> {
        SQUARES
            .parse(text)
            .map(|i| i as Move)
            .map_err(|e| ParseMoveError::new(text, e.to_string()))
    }

    fn move_text(&self, m: Move) -> String {
        SQUARES.name(usize::from(m))
    }

    fn to_text(&self) -> String {
        let cells: Vec<Option<char>> = self.cells.iter().map(|c| c.map(glyph)).collect();
        format!("{} {}", write_rows(&cells, 3), glyph(self.turn))
    }

    fn validate(&self, m: Move) -> Result<(), IllegalMove> {
        let text = self.move_text(m);
        match self.cells.get(usize::from(m)) {
            None => Err(IllegalMove::new(text, Illegal::OffBoard)),
            Some(_) if self.outcome().is_some() => Err(IllegalMove::new(text, Reason::GameOver)),
            Some(Some(p)) => Err(IllegalMove::new(text, Illegal::Taken(glyph(*p)))),
            Some(None) => Ok(()),
        }
    }

    fn view(&self) -> BoardView {
        let cells = self
            .cells
            .iter()
            .map(|c| Cell {
                piece: c.map(|p| {
                    let g = glyph(p);
                    let kind = if g == 'X' { "x" } else { "o" };
                    Piece::new(kind, Some(p), g)
                }),
                label: None,
            })
            .collect();
        let moves = self
            .legal_moves()
            .into_iter()
            .map(|m| MoveView::new(self.move_text(m), "place", None, vec![u32::from(m)]))
            .collect();
        BoardView::of(self, Grid::lettered(3, 3, false), cells, moves, Vec::new())
    }
}

impl Game for TicTacToe {
    type Position = TicTacToePosition;
    const NAME: &'static str = "tictactoe";

    fn from_spec(spec: &GameSpec) -> Result<TicTacToe, SpecError> {
        spec.reader().finish(&[])?;
        Ok(TicTacToe)
    }

    fn spec(&self) -> GameSpec {
        GameSpec::new(Self::NAME)
    }

    fn info(&self) -> GameInfo {
        GameInfo {
            name: Self::NAME.into(),
            title: MODULE.title.into(),
            width: 3,
            height: 3,
            sides: [SideInfo::new("X", "#1f5fbf"), SideInfo::new("O", "#c0392b")],
        }
    }

    fn start(&self) -> TicTacToePosition {
        TicTacToePosition {
            cells: [None; 9],
            turn: Player::First,
        }
    }

    /// X moves first, so X has as many marks as O (X to move) or one more (O to move), and no game goes on
    /// after a line of three.
    fn setup(
        &self,
        _: &TicTacToePosition,
        cells: &[Option<char>],
        turn: Player,
    ) -> Result<TicTacToePosition, PositionError> {
        gridplay_core::check_cells(cells, 3, 3, "XO")?;
        let count = |g: char| cells.iter().filter(|c| **c == Some(g)).count();
        let (x, o) = (count('X'), count('O'));
        let expected = if x == o { Player::First } else { Player::Second };
        if x != o && x != o + 1 {
            return Err(PositionError::new(format!(
                "X moves first, so X has as many marks as O or one more, not {x} and {o}"
            )));
        }
        if turn != expected {
            return Err(PositionError::new(format!(
                "with {x} X and {o} O it is {} to move",
                glyph(expected)
            )));
        }
        let pos = self.parse_position(&format!("{} {}", write_rows(cells, 3), glyph(turn)))?;
        let mut wins = [false, false];
        for l in LINES {
            if let Some(p) = pos.cells[l[0]]
                && pos.cells[l[1]] == Some(p)
                && pos.cells[l[2]] == Some(p)
            {
                wins[p.index()] = true;
            }
        }
        if wins[0] && wins[1] {
            return Err(PositionError::new(
                "both sides have three in a row: the game ends at the first",
            ));
        }
        Ok(pos)
    }

    fn parse_position(&self, text: &str) -> Result<TicTacToePosition, PositionError> {
        let (rows, side) = text.trim().split_once(' ').ok_or_else(|| {
            PositionError::new("a position is the rows, a space and the side to move (X or O)")
        })?;
        let turn = match side.trim() {
            "X" => Player::First,
            "O" => Player::Second,
            other => {
                return Err(PositionError::new(format!(
                    "the side to move is X or O, not `{other}`"
                )));
            }
        };
        let read = read_rows(rows, 3, 3, |c| matches!(c, 'X' | 'O'))
            .map_err(|e| PositionError::at(e.at, e.reason.to_string()))?;
        let mut cells = [None; 9];
        for (cell, c) in cells.iter_mut().zip(read) {
            *cell = c.map(|c| if c == 'X' { Player::First } else { Player::Second });
        }
        let count = |p: Player| cells.iter().filter(|&&c| c == Some(p)).count();
        let expected = if count(Player::First) == count(Player::Second) {
            Player::First
        } else {
            Player::Second
        };
        if count(Player::First) < count(Player::Second)
            || count(Player::First) > count(Player::Second) + 1
            || turn != expected
        {
            return Err(PositionError::new(
                "X moves first and the sides take turns: the counts of X and O and the side to move disagree",
            ));
        }
        Ok(TicTacToePosition { cells, turn })
    }
}
