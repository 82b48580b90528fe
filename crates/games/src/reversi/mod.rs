//! Reversi / Othello on 8x8 (seed 004, rulings in `docs/rules/reversi.md`).
//!
//! The board is side-relative and copied on every move ([`bitboard::Board`]); the position adds whose turn it
//! is in colour terms. Standard Othello is the default (Black moves first); `first=white` plays the seed's own
//! setup, in which White moves first with the colours of the centre swapped. The game trees are the same.

pub mod bitboard;
mod ja;
pub mod notation;
#[cfg(test)]
mod tests;

use arrayvec::ArrayVec;
use gridplay_core::{
    BoardView, Cell, Game, GameInfo, GameSpec, Grid, IllegalMove, MoveError, MoveView, Outcome,
    ParseMoveError, Piece, Player, Position, PositionError, Reason, RuleExample, Score, SettingChoice,
    SettingDoc, SettingKind, SideInfo, SpecError,
};

use self::bitboard::{Board, Square};

/// A move: a placement on a square, or a pass when no placement is legal.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Move {
    Place(Square),
    Pass,
}

/// Which colour moves first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Colour {
    Black,
    White,
}

/// The Reversi game variant.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Reversi {
    /// The colour of the first player: Black in standard Othello, White in the seed's setup.
    pub first: Colour,
}

impl Default for Reversi {
    fn default() -> Reversi {
        Reversi { first: Colour::Black }
    }
}

/// How the platform presents Reversi: its rules document, move entry, look and file format.
pub static MODULE: gridplay_core::GameModule = gridplay_core::GameModule {
    title: "Reversi",
    about: "Othello on 8x8: flank a line of the opponent's discs to flip them; most discs wins.",
    settings: SETTINGS,
    examples: EXAMPLES,
    rules: &[
        gridplay_core::RulesDocument::english(include_str!("rules/en.md")),
        gridplay_core::RulesDocument::new("ja", include_str!("rules/ja.md")),
    ],
    entry: gridplay_core::MoveEntry::Place,
    look: gridplay_core::Look {
        light: "#2e7d4f",
        dark: "#2e7d4f",
        line: Some("#1b4d31"),
        coords: "#cfe8d8",
        checkered: false,
        cursor_tint: false,
        pieces: &[],
        helping: &[],
    },
    home: [None, None],
    move_kinds: &[("pass", "Pass")],
    legend: &[],
    codec: &notation::TranscriptCodec,
    pieces: &[
        gridplay_core::EditorPiece {
            kind: "disc",
            owner: Some(gridplay_core::Player::First),
            glyph: 'X',
            ghost: false,
        },
        gridplay_core::EditorPiece {
            kind: "disc",
            owner: Some(gridplay_core::Player::Second),
            glyph: 'O',
            ghost: false,
        },
    ],
    translations: &[ja::JA],
    // About 10 moves a position: two plies (about 100 positions) cover a candidate move and each reply to it; a third would need about a thousand questions a move, past the quotas.
    help_horizon: 2,
};

pub const EXAMPLES: &[RuleExample] = &[
    RuleExample {
        id: "start",
        title: "The start",
        text: "Black moves first. A disc must flank a line of white discs between itself and another black disc: \
               only the four marked squares do. Try one: the flanked disc turns black.",
        spec: "reversi",
        moves: &[],
    },
    RuleExample {
        id: "flip",
        title: "Flipping in several directions",
        text: "After f5 d6 c3 d3 c4 (the Tiger opening), White to move. A disc flips every flanked line at once, \
               in all eight directions: some of White's moves here flip more than one line.",
        spec: "reversi",
        moves: &["f5", "d6", "c3", "d3", "c4"],
    },
    RuleExample {
        id: "pass",
        title: "A forced pass",
        text: "Black has no square where a disc would flank a white line, so its one move is to pass; then White \
               plays again.",
        spec: "reversi",
        moves: &["d3", "c3", "b3", "b2", "e6", "a3", "a1", "c1"],
    },
];

pub const SETTINGS: &[SettingDoc] = &[SettingDoc {
    key: "first",
    label: "First to move",
    about: "Black moves first in standard Othello. With White first, the four centre discs are set the other way \
            round, so the game is the same with the colours swapped.",
    kind: SettingKind::Choice {
        options: &[
            SettingChoice {
                value: "black",
                label: "Black (standard Othello)",
            },
            SettingChoice {
                value: "white",
                label: "White",
            },
        ],
        default: "black",
    },
}];

/// Why a Reversi move is not legal.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Illegal {
    #[error("you may pass only when no placement flips a disc")]
    PassWithPlacements,
    #[error("no placement flips a disc: you must pass")]
    MustPass,
    #[error("that square is occupied")]
    Occupied,
    #[error("a placement must flip at least one disc")]
    NoFlip,
}

impl From<Illegal> for Reason {
    fn from(why: Illegal) -> Reason {
        Reason::rule(why)
    }
}

/// A Reversi position: the side-relative board, whose turn it is, and which colour moved first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ReversiPosition {
    board: Board,
    turn: Player,
    first: Colour,
}

impl ReversiPosition {
    /// The board's least image under its eight symmetries, the side to move's discs first.
    fn least_image(&self) -> Board {
        let (player, opponent) = (0..8)
            .map(|i| {
                (
                    bitboard::symmetry(i, self.board.player),
                    bitboard::symmetry(i, self.board.opponent),
                )
            })
            .min()
            .expect("eight symmetries");
        Board { player, opponent }
    }

    /// The side-relative board, for engines.
    #[must_use]
    pub const fn board(&self) -> Board {
        self.board
    }

    /// A position from a side-relative board.
    #[must_use]
    pub const fn from_board(board: Board, turn: Player, first: Colour) -> ReversiPosition {
        ReversiPosition { board, turn, first }
    }

    /// Whether Black is to move.
    #[must_use]
    pub fn black_to_move(&self) -> bool {
        (self.turn == Player::First) == (self.first == Colour::Black)
    }

    /// The black and white discs.
    #[must_use]
    pub fn discs(&self) -> (u64, u64) {
        if self.black_to_move() {
            (self.board.player, self.board.opponent)
        } else {
            (self.board.opponent, self.board.player)
        }
    }

    fn player_of_black(&self) -> Player {
        if self.first == Colour::Black {
            Player::First
        } else {
            Player::Second
        }
    }

    /// Plays a whole transcript such as `f5d6c3d3c4`: squares written one after another, with forced passes
    /// inserted where a side cannot place. Spaces and explicit `pass`/`PS` are accepted too.
    ///
    /// # Errors
    ///
    /// The first move that cannot be read or is not legal, with its 1-based number.
    pub fn play_transcript(&self, text: &str) -> Result<(ReversiPosition, Vec<Move>), (usize, MoveError)> {
        let mut pos = *self;
        let mut played = Vec::new();
        let compact: String = text.chars().filter(|c| !c.is_whitespace()).collect();
        let mut rest = compact.as_str();
        let mut number = 0;
        while !rest.is_empty() {
            number += 1;
            let len = if rest.get(..4).is_some_and(|p| p.eq_ignore_ascii_case("pass")) {
                4
            } else {
                rest.char_indices().nth(2).map_or(rest.len(), |(i, _)| i)
            };
            let token = &rest[..len];
            rest = &rest[len..];
            let m = notation::parse_move(token).map_err(|e| (number, e.into()))?;
            if m != Move::Pass && pos.board.must_pass() {
                pos.play_unchecked(Move::Pass);
                played.push(Move::Pass);
            }
            pos.validate(m).map_err(|e| (number, e.into()))?;
            pos.play_unchecked(m);
            played.push(m);
        }
        Ok((pos, played))
    }

    /// The transcript of a move list, passes left out.
    #[must_use]
    pub fn transcript(moves: &[Move]) -> String {
        moves
            .iter()
            .filter_map(|m| match *m {
                Move::Place(sq) => Some(notation::square_name(sq)),
                Move::Pass => None,
            })
            .collect()
    }
}

impl Position for ReversiPosition {
    type Move = Move;
    type Moves = ArrayVec<Move, 64>;

    fn turn(&self) -> Player {
        self.turn
    }

    fn legal_moves(&self) -> Self::Moves {
        let mut list = ArrayVec::new();
        let mut m = self.board.moves();
        if m == 0 {
            if get_opponent_moves(self.board) != 0 {
                list.push(Move::Pass);
            }
            return list;
        }
        while m != 0 {
            list.push(Move::Place(m.trailing_zeros() as Square));
            m &= m - 1;
        }
        list
    }

    fn play_unchecked(&mut self, m: Move) {
        self.board = match m {
            Move::Place(sq) => self.board.play(sq),
            Move::Pass => self.board.pass(),
        };
        self.turn = !self.turn;
    }

    fn outcome(&self) -> Option<Outcome> {
        self.board
            .is_over()
            .then(|| Outcome::by_score(self.score(), Outcome::Draw))
    }

    fn score(&self) -> Score {
        let mover = self.board.player.count_ones() as i32;
        let other = self.board.opponent.count_ones() as i32;
        match self.turn {
            Player::First => Score::new(mover, other),
            Player::Second => Score::new(other, mover),
        }
    }

    fn parse_move(&self, text: &str) -> Result<Move, ParseMoveError> {
        notation::parse_move(text)
    }

    /// The least of the position's eight images under the symmetries of the board, with the side to move:
    /// the rules treat them alike, so that an explorer counts transpositions and mirror images together.
    fn explorer_key(&self) -> String {
        let Board { player, opponent } = self.least_image();
        ReversiPosition {
            board: Board { player, opponent },
            ..*self
        }
        .to_text()
    }

    /// The side to move's discs and the other's, the least image of the eight: the colours do not matter.
    fn fair_play_key(&self) -> String {
        let Board { player, opponent } = self.least_image();
        format!("{player:016x}{opponent:016x}")
    }

    fn move_text(&self, m: Move) -> String {
        match m {
            Move::Place(sq) => notation::square_name(sq),
            Move::Pass => "pass".to_owned(),
        }
    }

    fn to_text(&self) -> String {
        let (black, white) = self.discs();
        notation::write_setup(black, white, self.black_to_move())
    }

    fn validate(&self, m: Move) -> Result<(), IllegalMove> {
        let text = self.move_text(m);
        if self.board.is_over() {
            return Err(IllegalMove::new(text, Reason::GameOver));
        }
        let moves = self.board.moves();
        match m {
            Move::Pass if moves == 0 => Ok(()),
            Move::Pass => Err(IllegalMove::new(text, Illegal::PassWithPlacements)),
            Move::Place(_) if moves == 0 => Err(IllegalMove::new(text, Illegal::MustPass)),
            Move::Place(sq) if !self.board.empty() & (1 << sq) != 0 => {
                Err(IllegalMove::new(text, Illegal::Occupied))
            }
            Move::Place(sq) if moves & (1 << sq) == 0 => Err(IllegalMove::new(text, Illegal::NoFlip)),
            Move::Place(_) => Ok(()),
        }
    }

    fn view(&self) -> BoardView {
        let (black, white) = self.discs();
        let black_player = self.player_of_black();
        let cells = (0..64)
            .map(|sq| {
                let bit = 1u64 << sq;
                let piece = if black & bit != 0 {
                    Some(Piece::new("disc", Some(black_player), 'X'))
                } else if white & bit != 0 {
                    Some(Piece::new("disc", Some(!black_player), 'O'))
                } else {
                    None
                };
                Cell { piece, label: None }
            })
            .collect();
        let moves = self
            .legal_moves()
            .into_iter()
            .map(|m| match m {
                Move::Place(sq) => MoveView::new(self.move_text(m), "place", None, vec![u32::from(sq)]),
                Move::Pass => MoveView::new(self.move_text(m), "pass", None, Vec::new()),
            })
            .collect();
        BoardView::of(self, Grid::lettered(8, 8, true), cells, moves, Vec::new())
    }

    fn perft(&self, depth: u32) -> u64 {
        bitboard::perft(self.board, depth)
    }
}

fn get_opponent_moves(b: Board) -> u64 {
    bitboard::get_moves(b.opponent, b.player)
}

impl Game for Reversi {
    type Position = ReversiPosition;
    const NAME: &'static str = "reversi";

    fn from_spec(spec: &GameSpec) -> Result<Reversi, SpecError> {
        let mut s = spec.reader();
        let first = match s.choice("first", &["black", "white"], "black")? {
            "white" => Colour::White,
            _ => Colour::Black,
        };
        s.finish(&["first"])?;
        Ok(Reversi { first })
    }

    fn spec(&self) -> GameSpec {
        let spec = GameSpec::new(Self::NAME);
        match self.first {
            Colour::Black => spec,
            Colour::White => spec.with("first", "white"),
        }
    }

    fn info(&self) -> GameInfo {
        let black = SideInfo::new("Black", "black");
        let white = SideInfo::new("White", "white");
        let sides = match self.first {
            Colour::Black => [black, white],
            Colour::White => [white, black],
        };
        GameInfo {
            name: Self::NAME.into(),
            title: "Reversi".into(),
            width: 8,
            height: 8,
            sides,
        }
    }

    /// Black holds d5 and e4, White d4 and e5. With `first=white` the colours of the centre are swapped
    /// (`B W / W B` as the seed draws it) and White moves first.
    fn start(&self) -> ReversiPosition {
        ReversiPosition {
            board: Board::START,
            turn: Player::First,
            first: self.first,
        }
    }

    /// The four centre squares hold discs from the start and are never emptied.
    fn setup(
        &self,
        _: &ReversiPosition,
        cells: &[Option<char>],
        turn: Player,
    ) -> Result<ReversiPosition, PositionError> {
        gridplay_core::check_cells(cells, 8, 8, "XO")?;
        for sq in [27, 28, 35, 36] {
            if cells[sq].is_none() {
                return Err(PositionError::new(format!(
                    "{} is empty, but the four centre squares hold discs from the start",
                    notation::square_name(sq as u8)
                )));
            }
        }
        let board: String = cells.iter().map(|c| c.unwrap_or('-')).collect();
        let black_to_move = (turn == Player::First) == (self.first == Colour::Black);
        self.parse_position(&format!("{board} {}", if black_to_move { 'X' } else { 'O' }))
    }

    fn parse_position(&self, text: &str) -> Result<ReversiPosition, PositionError> {
        let setup = notation::parse_setup(text)?;
        let (player, opponent) = if setup.black_to_move {
            (setup.black, setup.white)
        } else {
            (setup.white, setup.black)
        };
        let black_is_first = self.first == Colour::Black;
        let turn = if setup.black_to_move == black_is_first {
            Player::First
        } else {
            Player::Second
        };
        Ok(ReversiPosition {
            board: Board { player, opponent },
            turn,
            first: self.first,
        })
    }
}
