//! American checkers (ACF rules; seed 002, rulings in `docs/rules/checkers.md`).
//!
//! One move is a whole capture path ([`movegen::Move`]). The position knows only the pieces and the side to
//! move; draws by repetition, by 40 moves each without progress, and by agreement belong to the game's
//! history and are applied by [`gridplay_core::GameRecord`] through [`Position::history_rules`].

pub mod bitboard;
mod ja;
pub mod movegen;
pub mod notation;
pub mod pdn;
#[cfg(test)]
mod tests;

use gridplay_core::{
    BoardView, Cell, Game, GameInfo, GameSpec, Grid, HistoryRules, IllegalMove, MoveView, Outcome,
    ParseMoveError, Piece, Player, Position, PositionError, Reason, RuleExample, Score, SettingDoc, SideInfo,
    SpecError,
};

use self::{
    bitboard::{Bb, Board, DIRECTIONS, Dir, forward, king_row},
    movegen::{Move, Moves},
    notation::Written,
};

/// How the platform presents Checkers: its rules document, move entry, look and file format.
pub static MODULE: gridplay_core::GameModule = gridplay_core::GameModule {
    title: "Checkers",
    about: "American checkers (ACF rules): captures are compulsory, multi-jumps complete, men crown on the far row.",
    settings: SETTINGS,
    examples: EXAMPLES,
    rules: &[
        gridplay_core::RulesDocument::english(include_str!("rules/en.md")),
        gridplay_core::RulesDocument::new("ja", include_str!("rules/ja.md")),
    ],
    entry: gridplay_core::MoveEntry::Path,
    look: gridplay_core::Look {
        light: "#f0dcb4",
        dark: "#9b6b43",
        line: None,
        coords: "#3b2a1a",
        checkered: true,
        cursor_tint: false,
        pieces: &[
            ("man", gridplay_core::Sprite::Checker),
            ("king", gridplay_core::Sprite::CrownedChecker),
        ],
        helping: &[],
    },
    home: [Some(gridplay_core::Edge::Top), Some(gridplay_core::Edge::Bottom)],
    move_kinds: &[],
    legend: &[],
    codec: &pdn::PdnCodec,
    pieces: &[
        gridplay_core::EditorPiece {
            kind: "man",
            owner: Some(gridplay_core::Player::First),
            glyph: 'b',
            ghost: false,
        },
        gridplay_core::EditorPiece {
            kind: "king",
            owner: Some(gridplay_core::Player::First),
            glyph: 'B',
            ghost: false,
        },
        gridplay_core::EditorPiece {
            kind: "man",
            owner: Some(gridplay_core::Player::Second),
            glyph: 'w',
            ghost: false,
        },
        gridplay_core::EditorPiece {
            kind: "king",
            owner: Some(gridplay_core::Player::Second),
            glyph: 'W',
            ghost: false,
        },
    ],
    translations: &[ja::JA],
    // About 8 moves a position: two plies (about 60 positions) cover a candidate move and each reply to it; a third would need hundreds of questions a move, past the quotas.
    help_horizon: 2,
};

/// Why a checkers move is not legal. Squares are their numbers, 1-32.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Illegal {
    #[error("there is no {0} piece on {1}")]
    NoPiece(&'static str, u32),
    /// Some of the captures available.
    #[error("a capture is available, so you must capture ({0})")]
    MustCapture(String),
    #[error("square {0} is occupied")]
    Occupied(u32),
    #[error("a man moves only forward; only kings move backward")]
    ManBackward,
    /// A legal capture that goes on from this one.
    #[error("the capture must be completed: it goes on, as in {0}")]
    Incomplete(String),
    #[error("a man captures only forward; only kings capture backward")]
    ManCapturesBackward,
    #[error("there is no opposing piece on {0} to jump")]
    NothingToJump(u32),
    #[error("the piece on {0} is already captured: no piece is jumped twice")]
    JumpedTwice(u32),
    #[error("square {0} is not free to land on")]
    LandingTaken(u32),
    #[error("a man that reaches the king row is crowned, and that ends the move")]
    CrownedEndsMove,
    #[error("not a legal move here")]
    NotHere,
}

impl From<Illegal> for Reason {
    fn from(why: Illegal) -> Reason {
        Reason::rule(why)
    }
}

pub const EXAMPLES: &[RuleExample] = &[
    RuleExample {
        id: "start",
        title: "The start",
        text: "Red (the men on squares 1-12) moves first: a man steps one square diagonally forward onto a free dark \
               square.",
        spec: "checkers",
        moves: &[],
    },
    RuleExample {
        id: "capture",
        title: "Captures are compulsory",
        text: "After 11-15 22-18, Red has one legal move: the jump 15x22. When a capture exists, a quiet move is \
               not allowed.",
        spec: "checkers",
        moves: &["11-15", "22-18"],
    },
    RuleExample {
        id: "multi",
        title: "A multiple jump",
        text: "White must capture and may choose: 25x18 takes one man, 26x17x10 jumps twice in one move and takes \
               two.",
        spec: "checkers",
        moves: &["10-14", "24-20", "11-15", "22-18", "15x22"],
    },
    RuleExample {
        id: "crown",
        title: "A new king",
        text: "Red's double jump 13x22x31 ended on White's back row: the man was crowned and now moves both ways.",
        spec: "checkers",
        moves: &["10-15", "22-18", "15x22", "26x17", "9-13", "31-26", "13x22x31"],
    },
];

pub const SETTINGS: &[SettingDoc] = &[];

/// The 3-move ballots of tournament play (the openings drawn by lot in ACF and match play), one per line, as
/// moves in gridplay's notation. A test plays every one.
pub const BALLOTS: &str = include_str!("ballots.txt");

/// The start position in FEN.
pub const START_FEN: &str = "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12";

/// American checkers. It has no settings.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Checkers;

/// A checkers position: the pieces and the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct CheckersPosition {
    board: Board,
    turn: Player,
}

/// The 8x8 cell (row by row from the top-left) of square index `sq`.
#[must_use]
pub const fn cell_of(sq: u8) -> u32 {
    let row = (sq / 4) as u32;
    let col = 2 * (sq % 4) as u32 + if row.is_multiple_of(2) { 1 } else { 0 };
    row * 8 + col
}

fn number(sq: u8) -> u32 {
    u32::from(sq) + 1
}

impl CheckersPosition {
    #[must_use]
    pub const fn board(&self) -> &Board {
        &self.board
    }

    #[must_use]
    pub const fn from_board(board: Board, turn: Player) -> CheckersPosition {
        CheckersPosition { board, turn }
    }

    /// The direction of a one-square step from `from` to `to`, if they are diagonal neighbours.
    fn step_dir(from: u8, to: u8) -> Option<Dir> {
        DIRECTIONS.into_iter().find(|d| d.step(1 << from) == 1 << to)
    }

    /// The direction of a jump from `from` to `to`, if `to` is two diagonal squares away.
    fn jump_dir(from: u8, to: u8) -> Option<Dir> {
        DIRECTIONS
            .into_iter()
            .find(|d| d.step(d.step(1 << from)) == 1 << to)
    }

    /// Why a move that is not in the legal list is refused.
    fn refusal(&self, m: Move) -> Illegal {
        let me = self.board.pieces[self.turn.index()];
        let from: Bb = 1 << m.from();
        let side = |p: Player| if p == Player::First { "Red" } else { "White" };
        if me & from == 0 {
            return Illegal::NoPiece(side(self.turn), number(m.from()));
        }
        let legal: Moves = self.legal_moves();
        let text = |m: &Move| self.move_text(*m);
        if !m.is_capture() {
            if legal.iter().any(Move::is_capture) {
                let examples: Vec<String> = legal.iter().take(3).map(text).collect();
                return Illegal::MustCapture(examples.join(", "));
            }
            if self.board.occupied() & (1 << m.to()) != 0 {
                return Illegal::Occupied(number(m.to()));
            }
            if self.board.kings & from == 0
                && Self::step_dir(m.from(), m.to()).is_some_and(|d| !forward(self.turn).contains(&d))
            {
                return Illegal::ManBackward;
            }
            return Illegal::NotHere;
        }
        // A capture that is the beginning of a legal path must go on.
        let path = m.path();
        let longer: Vec<&Move> = legal
            .iter()
            .filter(|l| l.from() == m.from() && l.path().len() > path.len() && l.path().starts_with(&path))
            .collect();
        if let Some(l) = longer.first() {
            return Illegal::Incomplete(text(l));
        }
        // Walk the path to find the first jump that is not possible.
        let opp = self.board.pieces[(!self.turn).index()];
        let is_king = self.board.kings & from != 0;
        let mut at = from;
        let mut taken: Bb = 0;
        for (i, d) in m.directions().enumerate() {
            let mid = d.step(at);
            let land = d.step(mid);
            if !is_king && !forward(self.turn).contains(&d) {
                return Illegal::ManCapturesBackward;
            }
            if mid & opp == 0 {
                return Illegal::NothingToJump(number(mid.trailing_zeros() as u8));
            }
            if mid & taken != 0 {
                return Illegal::JumpedTwice(number(mid.trailing_zeros() as u8));
            }
            if land & self.board.occupied() & !from != 0 || land & taken != 0 {
                return Illegal::LandingTaken(number(land.trailing_zeros() as u8));
            }
            if !is_king && land & king_row(self.turn) != 0 && i + 1 < path.len() - 1 {
                return Illegal::CrownedEndsMove;
            }
            taken |= mid;
            at = land;
        }
        Illegal::NotHere
    }
}

impl Position for CheckersPosition {
    type Move = Move;
    type Moves = Moves;

    /// The board as the side to move sees it: with White to move, turned half round and the colours swapped,
    /// so that a position and its colour-swapped copy share the key.
    fn fair_play_key(&self) -> String {
        let b = &self.board;
        let (own, other, kings) = match self.turn {
            Player::First => (b.pieces[0], b.pieces[1], b.kings),
            Player::Second => (
                b.pieces[1].reverse_bits(),
                b.pieces[0].reverse_bits(),
                b.kings.reverse_bits(),
            ),
        };
        format!("{own:08x}{other:08x}{kings:08x}")
    }

    fn turn(&self) -> Player {
        self.turn
    }

    /// None once the game is over: a side with no pieces has lost, even in a set-up position.
    fn legal_moves(&self) -> Moves {
        let mut out = Moves::new();
        if self.board.pieces[(!self.turn).index()] != 0 {
            movegen::generate(&self.board, self.turn, &mut out);
        }
        out
    }

    fn play_unchecked(&mut self, m: Move) {
        self.board = movegen::apply(&self.board, self.turn, m);
        self.turn = !self.turn;
    }

    /// A side that cannot move, or has no pieces, loses: the side to move, or its opponent when a set-up
    /// position leaves the opponent with no piece.
    fn outcome(&self) -> Option<Outcome> {
        if self.board.pieces[(!self.turn).index()] == 0 {
            return Some(Outcome::Win { winner: self.turn });
        }
        (movegen::count(&self.board, self.turn) == 0).then_some(Outcome::Win { winner: !self.turn })
    }

    fn score(&self) -> Score {
        Score::new(
            self.board.pieces[0].count_ones() as i32,
            self.board.pieces[1].count_ones() as i32,
        )
    }

    /// Reads PDN: `11-15`, `9x18x27`. The short form `9x27` is accepted when exactly one legal capture path
    /// leads from 9 to 27.
    fn parse_move(&self, text: &str) -> Result<Move, ParseMoveError> {
        match notation::parse_move(text)? {
            Written::Step(from, to) => match Self::step_dir(from, to) {
                Some(_) => Ok(Move::step(from, to)),
                None if Self::jump_dir(from, to).is_some() => Err(ParseMoveError::new(
                    text,
                    format!(
                        "{}-{} is a jump: write it {}x{}",
                        number(from),
                        number(to),
                        number(from),
                        number(to)
                    ),
                )),
                None => Err(ParseMoveError::new(
                    text,
                    format!("{} and {} are not diagonal neighbours", number(from), number(to)),
                )),
            },
            Written::Jumps(squares) => {
                let dirs: Option<Vec<Dir>> = squares.windows(2).map(|w| Self::jump_dir(w[0], w[1])).collect();
                if let Some(dirs) = dirs {
                    return Move::jumps(squares[0], &dirs)
                        .ok_or_else(|| ParseMoveError::new(text, "a capture path has at most 12 jumps"));
                }
                let (from, to) = (squares[0], squares[squares.len() - 1]);
                if squares.len() == 2 {
                    let matches: Vec<Move> = self
                        .legal_moves()
                        .into_iter()
                        .filter(|m| m.from() == from && m.to() == to && m.is_capture())
                        .collect();
                    match matches.as_slice() {
                        [one] => return Ok(*one),
                        [] => {}
                        many => {
                            let options: Vec<String> = many.iter().map(|m| self.move_text(*m)).collect();
                            return Err(ParseMoveError::new(
                                text,
                                format!(
                                    "ambiguous: write every landing square, one of {}",
                                    options.join(", ")
                                ),
                            ));
                        }
                    }
                }
                let bad = squares
                    .windows(2)
                    .find(|w| Self::jump_dir(w[0], w[1]).is_none())
                    .expect("one pair is not a jump");
                Err(ParseMoveError::new(
                    text,
                    format!(
                        "{} to {} is not a jump over one square; give every landing square",
                        number(bad[0]),
                        number(bad[1])
                    ),
                ))
            }
        }
    }

    fn move_text(&self, m: Move) -> String {
        let path = m.path();
        let sep = if m.is_capture() { "x" } else { "-" };
        path.iter()
            .map(|&sq| number(sq).to_string())
            .collect::<Vec<_>>()
            .join(sep)
    }

    fn to_text(&self) -> String {
        notation::write_fen(&self.board, self.turn)
    }

    fn validate(&self, m: Move) -> Result<(), IllegalMove> {
        if self.outcome().is_some() {
            return Err(IllegalMove::new(self.move_text(m), Reason::GameOver));
        }
        if self.legal_moves().contains(&m) {
            return Ok(());
        }
        Err(IllegalMove::new(self.move_text(m), self.refusal(m)))
    }

    fn view(&self) -> BoardView {
        let mut cells = vec![Cell::default(); 64];
        for sq in 0..32u8 {
            let bit: Bb = 1 << sq;
            let cell = &mut cells[cell_of(sq) as usize];
            cell.label = Some(number(sq).to_string());
            let king = self.board.kings & bit != 0;
            for p in [Player::First, Player::Second] {
                if self.board.pieces[p.index()] & bit != 0 {
                    let glyph = match (p, king) {
                        (Player::First, false) => 'b',
                        (Player::First, true) => 'B',
                        (Player::Second, false) => 'w',
                        (Player::Second, true) => 'W',
                    };
                    cell.piece = Some(Piece::new(if king { "king" } else { "man" }, Some(p), glyph));
                }
            }
        }
        let moves = self
            .legal_moves()
            .into_iter()
            .map(|m| {
                let path = m.path();
                MoveView::new(
                    self.move_text(m),
                    if m.is_capture() { "jump" } else { "step" },
                    Some(cell_of(path[0])),
                    path[1..].iter().map(|&sq| cell_of(sq)).collect(),
                )
            })
            .collect();
        BoardView::of(self, Grid::lettered(8, 8, false), cells, moves, Vec::new())
    }

    fn history_rules(&self) -> HistoryRules {
        HistoryRules {
            repetitions: Some(3),
            quiet_plies: Some(80),
        }
    }

    /// A capture or a man's move resets the count of 40 moves each.
    fn is_progress(&self, m: Move) -> bool {
        m.is_capture() || self.board.kings & (1 << m.from()) == 0
    }

    fn perft(&self, depth: u32) -> u64 {
        movegen::perft(&self.board, self.turn, depth)
    }
}

impl Game for Checkers {
    type Position = CheckersPosition;
    const NAME: &'static str = "checkers";

    fn from_spec(spec: &GameSpec) -> Result<Checkers, SpecError> {
        spec.reader().finish(&[])?;
        Ok(Checkers)
    }

    fn spec(&self) -> GameSpec {
        GameSpec::new(Self::NAME)
    }

    fn info(&self) -> GameInfo {
        GameInfo {
            name: Self::NAME.into(),
            title: "Checkers".into(),
            width: 8,
            height: 8,
            sides: [SideInfo::new("Red", "#c0392b"), SideInfo::new("White", "white")],
        }
    }

    fn start(&self) -> CheckersPosition {
        CheckersPosition {
            board: Board::START,
            turn: Player::First,
        }
    }

    /// Pieces stand on the dark squares; the FEN reader's checks apply (at most 12 a side, no man on its king
    /// row).
    fn setup(
        &self,
        _: &CheckersPosition,
        cells: &[Option<char>],
        turn: Player,
    ) -> Result<CheckersPosition, PositionError> {
        gridplay_core::check_cells(cells, 8, 8, "bBwW")?;
        let mut board = bitboard::Board::default();
        for sq in 0..32u8 {
            let bit: Bb = 1 << sq;
            let (owner, king) = match cells[cell_of(sq) as usize] {
                None => continue,
                Some('b') => (Player::First, false),
                Some('B') => (Player::First, true),
                Some('w') => (Player::Second, false),
                Some(_) => (Player::Second, true),
            };
            board.pieces[owner.index()] |= bit;
            if king {
                board.kings |= bit;
            }
        }
        let dark: Vec<usize> = (0..32u8).map(|sq| cell_of(sq) as usize).collect();
        if let Some(i) = (0..64).find(|i| cells[*i].is_some() && !dark.contains(i)) {
            return Err(PositionError::new(format!(
                "a piece stands on a light square (cell {}): pieces stand on the dark squares only",
                i + 1
            )));
        }
        self.parse_position(&notation::write_fen(&board, turn))
    }

    fn parse_position(&self, text: &str) -> Result<CheckersPosition, PositionError> {
        let (board, turn) = notation::parse_fen(text)?;
        Ok(CheckersPosition { board, turn })
    }
}
