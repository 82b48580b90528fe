//! Cornered Reversi on N x N crosses, N from 2 to 25 (seed 000, rulings in `docs/rules/cornered.md`).
//!
//! White moves first. A move places a piece on any empty cross; active lines through it are filled with the
//! mover's occupation up to the edge or the first enemy placed piece. The game ends when no empty cross
//! remains, and placed plus occupied crosses decide it.

pub mod board;
mod ja;
pub mod notation;
#[cfg(test)]
mod tests;

use arrayvec::ArrayVec;
use gridplay_core::{
    BoardView, Cell, Game, GameInfo, GameSpec, Grid, IllegalMove, MoveView, Outcome, ParseMoveError, Piece,
    Player, Position, PositionError, Reason, RuleExample, Score, SettingChoice, SettingDoc, SettingKind,
    SideInfo, SpecError,
};

use self::board::{Board, Cross, MAX_CELLS, MAX_SIZE};

/// A move: the index of the cross placed on (row by row from the top-left).
pub type Move = u16;

/// Who wins a game with equal counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Tie {
    /// Equal counts are a draw (the ruling).
    Draw,
    /// Equal counts go to Black, as the author's game had it.
    Black,
}

/// The Cornered Reversi game variant.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Cornered {
    pub size: u8,
    pub tie: Tie,
}

impl Default for Cornered {
    fn default() -> Cornered {
        Cornered {
            size: 9,
            tie: Tie::Draw,
        }
    }
}

/// How the platform presents Cornered Reversi: its rules document, move entry, look and file format.
pub static MODULE: gridplay_core::GameModule = gridplay_core::GameModule {
    title: "Cornered Reversi",
    about: "Reversi on any size where placed pieces never flip: active lines fill with occupation; most crosses wins.",
    settings: SETTINGS,
    examples: EXAMPLES,
    rules: &[
        gridplay_core::RulesDocument::english(include_str!("rules/en.md")),
        gridplay_core::RulesDocument::new("ja", include_str!("rules/ja.md")),
    ],
    entry: gridplay_core::MoveEntry::Place,
    look: gridplay_core::Look {
        light: "#e9cf97",
        dark: "#e9cf97",
        line: Some("#7a5a2a"),
        coords: "#5a4320",
        checkered: false,
        cursor_tint: true,
        pieces: &[("occupied", gridplay_core::Sprite::SmallDisc)],
        helping: &[],
    },
    home: [None, None],
    move_kinds: &[("pass", "Pass")],
    legend: &[(
        "occupied",
        "Small pale pieces are occupied crosses: they count toward the score like placed pieces, can change colour, \
         and no one may place on them.",
    )],
    codec: &gridplay_core::MoveListCodec,
    pieces: &[
        gridplay_core::EditorPiece {
            kind: "placed",
            owner: Some(gridplay_core::Player::First),
            glyph: 'W',
            ghost: false,
        },
        gridplay_core::EditorPiece {
            kind: "placed",
            owner: Some(gridplay_core::Player::Second),
            glyph: 'B',
            ghost: false,
        },
        gridplay_core::EditorPiece {
            kind: "occupied",
            owner: Some(gridplay_core::Player::First),
            glyph: 'w',
            ghost: true,
        },
        gridplay_core::EditorPiece {
            kind: "occupied",
            owner: Some(gridplay_core::Player::Second),
            glyph: 'b',
            ghost: true,
        },
    ],
    translations: &[ja::JA],
    // A board of any size has up to size x size moves: one ply covers every candidate move, two would be millions of positions on a large board.
    help_horizon: 1,
};

pub const EXAMPLES: &[RuleExample] = &[
    RuleExample {
        id: "start",
        title: "The start",
        text: "Pieces go on the crosses, and White moves first. Every empty cross is a legal move.",
        spec: "cornered",
        moves: &[],
    },
    RuleExample {
        id: "occupy",
        title: "Occupation",
        text: "On 5x5, White placed a3 and c3 on each side of Black's b2: the row through c3 is active, so White \
               occupies it from edge to edge, 5 crosses to 1. Black to move: try b4.",
        spec: "cornered:size=5",
        moves: &["a3", "b2", "c3"],
    },
    RuleExample {
        id: "overwrite",
        title: "Occupation changes hands",
        text: "Black's b4 made the column through its b2 active: the whole column is Black's now, White's \
               occupied b3 included. White's placed a3 and c3 stay.",
        spec: "cornered:size=5",
        moves: &["a3", "b2", "c3", "b4"],
    },
];

pub const SETTINGS: &[SettingDoc] = &[
    SettingDoc {
        key: "size",
        label: "Board size",
        about: "Crosses on each side of the board, from 2 to 25. On an odd size the game cannot end level.",
        kind: SettingKind::Number {
            min: 2,
            max: 25,
            default: 9,
        },
    },
    SettingDoc {
        key: "tie",
        label: "Equal crosses at the end",
        about: "Who wins when both sides end with as many crosses, which can happen only on even sizes.",
        kind: SettingKind::Choice {
            options: &[
                SettingChoice {
                    value: "draw",
                    label: "A draw",
                },
                SettingChoice {
                    value: "black",
                    label: "Black wins",
                },
            ],
            default: "draw",
        },
    },
];

/// A Cornered Reversi position.
/// Why a Cornered Reversi move is not legal.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Illegal {
    #[error("that cross is off the board")]
    OffBoard,
    /// A piece of that colour is placed there.
    #[error("a {0} piece is already placed there")]
    Placed(&'static str),
    /// The cross is occupied by that colour.
    #[error("that cross is occupied by {0}: placing on an occupied cross is forbidden")]
    Occupied(&'static str),
}

impl From<Illegal> for Reason {
    fn from(why: Illegal) -> Reason {
        Reason::rule(why)
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct CorneredPosition {
    board: Board,
    turn: Player,
    tie: Tie,
}

impl CorneredPosition {
    #[must_use]
    pub fn board(&self) -> &Board {
        &self.board
    }

    fn name(&self, index: usize) -> String {
        notation::square_name(index, self.board.size())
    }
}

impl Position for CorneredPosition {
    type Move = Move;
    type Moves = ArrayVec<Move, MAX_CELLS>;

    /// The crosses as the side to move sees them (its own, the other's, placed or occupied), the least image
    /// under the board's eight symmetries; where a tie goes to Black, which colour moves too.
    fn fair_play_key(&self) -> String {
        let cells: Vec<u8> = self
            .board
            .cells()
            .iter()
            .map(|c| match *c {
                Cross::Empty => b'-',
                Cross::Placed(p) if p == self.turn => b'P',
                Cross::Placed(_) => b'p',
                Cross::Occupied(p) if p == self.turn => b'O',
                Cross::Occupied(_) => b'o',
            })
            .collect();
        let colour = match self.tie {
            Tie::Draw => "",
            Tie::Black if self.turn == Player::Second => "b:",
            Tie::Black => "w:",
        };
        format!(
            "{colour}{}",
            gridplay_core::least_image(self.board.size(), &cells)
        )
    }

    fn turn(&self) -> Player {
        self.turn
    }

    /// Every empty cross, in board order. A move that occupies nothing is legal, so there is never a pass.
    fn legal_moves(&self) -> Self::Moves {
        let mut list = ArrayVec::new();
        for (i, c) in self.board.cells().iter().enumerate() {
            if *c == Cross::Empty {
                list.push(i as Move);
            }
        }
        list
    }

    fn play_unchecked(&mut self, m: Move) {
        self.board.place(usize::from(m), self.turn);
        self.turn = !self.turn;
    }

    fn outcome(&self) -> Option<Outcome> {
        if self.board.has_empty() {
            return None;
        }
        let tie = match self.tie {
            Tie::Draw => Outcome::Draw,
            Tie::Black => Outcome::Win {
                winner: Player::Second,
            },
        };
        Some(Outcome::by_score(self.score(), tie))
    }

    fn score(&self) -> Score {
        let [w, b] = self.board.counts();
        Score::new(w, b)
    }

    fn parse_move(&self, text: &str) -> Result<Move, ParseMoveError> {
        notation::parse_square(text, self.board.size()).map(|i| i as Move)
    }

    fn move_text(&self, m: Move) -> String {
        self.name(usize::from(m))
    }

    fn to_text(&self) -> String {
        notation::write(&self.board, self.turn)
    }

    fn validate(&self, m: Move) -> Result<(), IllegalMove> {
        let i = usize::from(m);
        let text = self.move_text(m);
        if i >= self.board.cells().len() {
            return Err(IllegalMove::new(text, Illegal::OffBoard));
        }
        if !self.board.has_empty() {
            return Err(IllegalMove::new(text, Reason::GameOver));
        }
        let side = |p: Player| if p == Player::First { "White" } else { "Black" };
        match self.board.get(i) {
            Cross::Empty => Ok(()),
            Cross::Placed(p) => Err(IllegalMove::new(text, Illegal::Placed(side(p)))),
            Cross::Occupied(p) => Err(IllegalMove::new(text, Illegal::Occupied(side(p)))),
        }
    }

    fn view(&self) -> BoardView {
        let n = self.board.size();
        let cells = self
            .board
            .cells()
            .iter()
            .map(|c| {
                let piece = match *c {
                    Cross::Empty => None,
                    Cross::Placed(p) => Some(Piece::new("placed", Some(p), glyph(p))),
                    Cross::Occupied(p) => Some(Piece {
                        ghost: true,
                        ..Piece::new("occupied", Some(p), glyph(p).to_ascii_lowercase())
                    }),
                };
                Cell { piece, label: None }
            })
            .collect();
        let moves = self
            .legal_moves()
            .into_iter()
            .map(|m| MoveView::new(self.move_text(m), "place", None, vec![u32::from(m)]))
            .collect();
        BoardView::of(
            self,
            Grid::lettered(n as u32, n as u32, false),
            cells,
            moves,
            vec![(
                "difference".into(),
                format!("{:+}", self.score().margin(Player::First)),
            )],
        )
    }
}

fn glyph(p: Player) -> char {
    match p {
        Player::First => 'W',
        Player::Second => 'B',
    }
}

impl Game for Cornered {
    type Position = CorneredPosition;
    const NAME: &'static str = "cornered";

    fn from_spec(spec: &GameSpec) -> Result<Cornered, SpecError> {
        let mut s = spec.reader();
        let size = s.int("size", 9, 2..=MAX_SIZE as u32)? as u8;
        let tie = match s.choice("tie", &["draw", "black"], "draw")? {
            "black" => Tie::Black,
            _ => Tie::Draw,
        };
        s.finish(&["size", "tie"])?;
        Ok(Cornered { size, tie })
    }

    fn spec(&self) -> GameSpec {
        let mut spec = GameSpec::new(Self::NAME);
        if self.size != 9 {
            spec = spec.with("size", self.size.to_string());
        }
        if self.tie == Tie::Black {
            spec = spec.with("tie", "black");
        }
        spec
    }

    fn info(&self) -> GameInfo {
        GameInfo {
            name: Self::NAME.into(),
            title: "Cornered Reversi".into(),
            width: u32::from(self.size),
            height: u32::from(self.size),
            sides: [SideInfo::new("White", "white"), SideInfo::new("Black", "black")],
        }
    }

    fn start(&self) -> CorneredPosition {
        CorneredPosition {
            board: Board::new(self.size),
            turn: Player::First,
            tie: self.tie,
        }
    }

    fn setup(
        &self,
        _: &CorneredPosition,
        cells: &[Option<char>],
        turn: Player,
    ) -> Result<CorneredPosition, PositionError> {
        let n = u32::from(self.size);
        gridplay_core::check_cells(cells, n, n, "WBwb")?;
        let side = if turn == Player::First { 'W' } else { 'B' };
        self.parse_position(&format!(
            "{} {side}",
            gridplay_core::notation::write_rows(cells, n as usize)
        ))
    }

    fn parse_position(&self, text: &str) -> Result<CorneredPosition, PositionError> {
        let (board, turn) = notation::parse(text)?;
        if board.size() != usize::from(self.size) {
            return Err(PositionError::new(format!(
                "the board is {0}x{0} but this game is {1}x{1} (use the spec cornered:size={0})",
                board.size(),
                self.size
            )));
        }
        Ok(CorneredPosition {
            board,
            turn,
            tie: self.tie,
        })
    }
}
