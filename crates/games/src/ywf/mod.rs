//! YWF (Yoi-ko, Warui-ko, Futsu-no-ko) on 9x9 (seed 001, rulings in `docs/rules/ywf.md`).
//!
//! Warui-ko (the first player) and Yoi-ko take turns to Play (place a piece), Change (turn a Futsu-no-ko into
//! their own) or, when neither is possible, Pass. Lines of Futsu-no-ko and opponent pieces between the acting
//! square and a piece of the actor's convert: Futsu-no-ko to the actor's, opponent pieces to Futsu-no-ko.

pub mod board;
mod ja;
pub mod notation;
#[cfg(test)]
mod tests;

use arrayvec::ArrayVec;
use gridplay_core::{
    BoardView, Cell, Game, GameInfo, GameSpec, Grid, IllegalMove, LayoutKind, LayoutPiece, MoveView, Outcome,
    ParseMoveError, Piece, Player, Position, PositionError, Reason, RuleExample, Score, SettingDoc,
    SettingKind, SideInfo, SpecError,
};

use self::board::{Board, SQUARES, Square};

/// One action.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Move {
    /// Place one's own piece on an empty square.
    Play(u8),
    /// Turn the Futsu-no-ko on this square into one's own piece.
    Change(u8),
    /// Only when neither Play nor Change is possible.
    Pass,
}

/// The default initial layout of RULINGS.md: the central 3x3 block, one piece of each kind in every row and
/// column.
pub const DEFAULT_LAYOUT: &str = "9/9/9/3YWF3/3WFY3/3FYW3/9/9/9";

/// How the platform presents YWF: its rules document, move entry, look and file format.
pub static MODULE: gridplay_core::GameModule = gridplay_core::GameModule {
    title: "YWF",
    about: "Yoi-ko, Warui-ko, Futsu-no-ko: convert lines of neutral and enemy pieces, Change with the token; most pieces wins.",
    settings: SETTINGS,
    examples: EXAMPLES,
    rules: &[
        gridplay_core::RulesDocument::english(include_str!("rules/en.md")),
        gridplay_core::RulesDocument::new("ja", include_str!("rules/ja.md")),
    ],
    entry: gridplay_core::MoveEntry::Place,
    look: gridplay_core::Look {
        light: "#efe3c8",
        dark: "#efe3c8",
        line: Some("#8c7a58"),
        coords: "#5d5038",
        checkered: false,
        cursor_tint: false,
        pieces: &[("futsu", gridplay_core::Sprite::RingedDisc)],
        helping: &[],
    },
    home: [None, None],
    move_kinds: &[("place", "Place"), ("change", "Change"), ("pass", "Pass")],
    legend: &[
        ("warui", "Black pieces are Warui-ko's, white pieces Yoi-ko's."),
        (
            "futsu",
            "Grey pieces with a light centre are Futsu-no-ko: they belong to nobody, and a line of them between your \
             pieces turns to yours.",
        ),
        (
            "token",
            "The token, shown beside the board, lies in the centre or on one player's side. You may not Change \
             while it lies on your opponent's side, and your Change moves it one step towards your opponent.",
        ),
    ],
    codec: &gridplay_core::MoveListCodec,
    pieces: &[
        gridplay_core::EditorPiece {
            kind: "warui",
            owner: Some(gridplay_core::Player::First),
            glyph: 'W',
            ghost: false,
        },
        gridplay_core::EditorPiece {
            kind: "yoi",
            owner: Some(gridplay_core::Player::Second),
            glyph: 'Y',
            ghost: false,
        },
        gridplay_core::EditorPiece {
            kind: "futsu",
            owner: None,
            glyph: 'F',
            ghost: false,
        },
    ],
    translations: &[ja::JA],
    // About 20 plays and changes a position: two plies are some 400 positions, past what the hint and analysis quotas let a player ask within a move.
    help_horizon: 2,
};

/// Why a YWF move is not legal.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Illegal {
    #[error("you may pass only when you can neither Play nor Change")]
    PassWithActions,
    #[error("that square is not empty (to turn a Futsu-no-ko, Change it: *square)")]
    NotEmpty,
    #[error("a Play must change at least one piece")]
    PlayChangesNothing,
    #[error("only a Futsu-no-ko can be changed")]
    NotFutsu,
    #[error("you cannot Change right after your opponent's Change")]
    ChangeAfterChange,
    #[error("you cannot Change while the token lies on your opponent's side")]
    TokenAway,
    #[error("a Change must change at least one other piece")]
    ChangeChangesNothing,
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
        text: "The board starts with Yoi-ko, Warui-ko and Futsu-no-ko pieces in the centre. Play a piece to convert \
           lines of neutral and enemy pieces; the token allows a Change.",
        spec: "ywf",
        moves: &[],
    },
    RuleExample {
        id: "change",
        title: "A Change",
        text: "Warui-ko changed the Futsu-no-ko on d6 into its own piece and converted from there. The token moved \
               from the centre to Yoi-ko's side, and Yoi-ko may not Change right after its opponent's Change.",
        spec: "ywf",
        moves: &["*d6"],
    },
    RuleExample {
        id: "pass",
        title: "A forced pass",
        text: "Yoi-ko cannot Play anywhere, and may not Change while the token lies on Warui-ko's side: its one \
               move is to pass.",
        spec: "ywf",
        moves: &["f7", "*f4", "d3", "f8", "g8", "h8", "f3", "f2", "g4"],
    },
];

pub const SETTINGS: &[SettingDoc] = &[SettingDoc {
    key: "layout",
    label: "Starting layout",
    about: "Where the pieces stand at the start. The usual layout is the block of nine in the centre, with one \
            piece of each kind in every row and column.",
    kind: SettingKind::Layout(&LayoutKind {
        width: 9,
        height: 9,
        pieces: &[
            LayoutPiece {
                letter: 'W',
                kind: "warui",
                owner: Some("first"),
            },
            LayoutPiece {
                letter: 'Y',
                kind: "yoi",
                owner: Some("second"),
            },
            LayoutPiece {
                letter: 'F',
                kind: "futsu",
                owner: None,
            },
        ],
        default: DEFAULT_LAYOUT,
    }),
}];

/// The YWF game variant: its initial layout.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ywf {
    pub layout: Board,
}

impl Default for Ywf {
    fn default() -> Ywf {
        Ywf {
            layout: notation::parse_rows(DEFAULT_LAYOUT, 0).expect("the default layout is valid"),
        }
    }
}

/// A YWF position: the board, who acts, where the token lies (`None` = centre), and whether the previous
/// action was a Change.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct YwfPosition {
    board: Board,
    turn: Player,
    token: Option<Player>,
    last_change: bool,
}

impl YwfPosition {
    #[must_use]
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// Where the token lies: on a player's side, or `None` for the centre.
    #[must_use]
    pub fn token(&self) -> Option<Player> {
        self.token
    }

    /// Whether the previous action was a Change (which bans a Change now).
    #[must_use]
    pub fn last_change(&self) -> bool {
        self.last_change
    }

    /// Whether `p` may Change at all here (rule 5: no Change right after the opponent's Change, and none while
    /// the token lies on the opponent's side).
    fn change_allowed(&self, p: Player, last_change: bool) -> bool {
        !last_change && self.token != Some(!p)
    }

    /// Plays and Changes for `p`, in board order, Plays first.
    fn actions(&self, p: Player, last_change: bool, out: &mut ArrayVec<Move, 163>) {
        for (i, s) in self.board.squares.iter().enumerate() {
            if *s == Square::Empty && self.board.conversion(i, p) != 0 {
                out.push(Move::Play(i as u8));
            }
        }
        if self.change_allowed(p, last_change) {
            for (i, s) in self.board.squares.iter().enumerate() {
                if *s == Square::Futsu && self.board.conversion(i, p) != 0 {
                    out.push(Move::Change(i as u8));
                }
            }
        }
    }

    fn has_action(&self, p: Player, last_change: bool) -> bool {
        let mut list = ArrayVec::new();
        self.actions(p, last_change, &mut list);
        !list.is_empty()
    }

    /// Rule 7's end conditions. Two compulsory passes in a row end the game; as in Reversi the second is not
    /// played: a side that cannot act, whose opponent could not act after its pass either, has reached the end.
    fn ended(&self) -> bool {
        let [w, y] = self.board.counts();
        !self.board.has_empty()
            || w == 0
            || y == 0
            || (!self.has_action(self.turn, self.last_change) && !self.has_action(!self.turn, false))
    }
}

impl Position for YwfPosition {
    type Move = Move;
    type Moves = ArrayVec<Move, 163>;

    /// The squares as the side to move sees them (its own pieces, the other's, Futsu-no-ko), the least image
    /// under the board's eight symmetries, with the token's side and whether the last action was a Change,
    /// both as the side to move sees them: the rules treat the two sides alike once play has begun.
    fn fair_play_key(&self) -> String {
        let cells: Vec<u8> = self
            .board
            .squares
            .iter()
            .map(|s| match *s {
                Square::Empty => b'-',
                Square::Own(p) if p == self.turn => b'm',
                Square::Own(_) => b't',
                Square::Futsu => b'f',
            })
            .collect();
        let token = match self.token {
            None => 'c',
            Some(p) if p == self.turn => 'm',
            Some(_) => 't',
        };
        let change = if self.last_change { '1' } else { '0' };
        format!(
            "{token}{change}{}",
            gridplay_core::least_image(board::SIZE, &cells)
        )
    }

    fn turn(&self) -> Player {
        self.turn
    }

    fn legal_moves(&self) -> Self::Moves {
        let mut list = ArrayVec::new();
        let [w, y] = self.board.counts();
        if !self.board.has_empty() || w == 0 || y == 0 {
            return list;
        }
        self.actions(self.turn, self.last_change, &mut list);
        if list.is_empty() && self.has_action(!self.turn, false) {
            list.push(Move::Pass);
        }
        list
    }

    fn play_unchecked(&mut self, m: Move) {
        let p = self.turn;
        match m {
            Move::Play(i) => {
                let i = usize::from(i);
                let set = self.board.conversion(i, p);
                self.board.squares[i] = Square::Own(p);
                self.board.convert(set, p);
                self.last_change = false;
            }
            Move::Change(i) => {
                let i = usize::from(i);
                let set = self.board.conversion(i, p);
                self.board.squares[i] = Square::Own(p);
                self.board.convert(set, p);
                self.last_change = true;
                self.token = match self.token {
                    Some(side) if side == p => None,
                    _ => Some(!p),
                };
            }
            Move::Pass => self.last_change = false,
        }
        self.turn = !p;
    }

    fn outcome(&self) -> Option<Outcome> {
        if !self.ended() {
            return None;
        }
        let tie = match self.token {
            Some(winner) => Outcome::Win { winner },
            None => Outcome::Draw,
        };
        Some(Outcome::by_score(self.score(), tie))
    }

    fn score(&self) -> Score {
        let [w, y] = self.board.counts();
        Score::new(w, y)
    }

    fn parse_move(&self, text: &str) -> Result<Move, ParseMoveError> {
        notation::parse_move(text)
    }

    fn move_text(&self, m: Move) -> String {
        notation::move_text(m)
    }

    fn to_text(&self) -> String {
        notation::write(&self.board, self.turn, self.token, self.last_change)
    }

    fn validate(&self, m: Move) -> Result<(), IllegalMove> {
        let text = self.move_text(m);
        let refuse = |why: Illegal| Err(IllegalMove::new(text.clone(), why));
        let moves = self.legal_moves();
        if moves.is_empty() {
            return Err(IllegalMove::new(text, Reason::GameOver));
        }
        if moves.contains(&m) {
            return Ok(());
        }
        let p = self.turn;
        match m {
            Move::Pass => refuse(Illegal::PassWithActions),
            Move::Play(i) if self.board.squares[usize::from(i)] != Square::Empty => refuse(Illegal::NotEmpty),
            Move::Play(_) => refuse(Illegal::PlayChangesNothing),
            Move::Change(i) if self.board.squares[usize::from(i)] != Square::Futsu => {
                refuse(Illegal::NotFutsu)
            }
            Move::Change(_) if self.last_change => refuse(Illegal::ChangeAfterChange),
            Move::Change(_) if self.token == Some(!p) => refuse(Illegal::TokenAway),
            Move::Change(_) => refuse(Illegal::ChangeChangesNothing),
        }
    }

    fn view(&self) -> BoardView {
        let cells = self
            .board
            .squares
            .iter()
            .map(|s| Cell {
                label: None,
                piece: match *s {
                    Square::Empty => None,
                    Square::Own(Player::First) => Some(Piece::new("warui", Some(Player::First), 'W')),
                    Square::Own(Player::Second) => Some(Piece::new("yoi", Some(Player::Second), 'Y')),
                    Square::Futsu => Some(Piece::new("futsu", None, 'F')),
                },
            })
            .collect();
        let moves = self
            .legal_moves()
            .into_iter()
            .map(|m| match m {
                Move::Play(i) => MoveView::new(self.move_text(m), "place", None, vec![u32::from(i)]),
                Move::Change(i) => MoveView::new(self.move_text(m), "change", None, vec![u32::from(i)]),
                Move::Pass => MoveView::new(self.move_text(m), "pass", None, Vec::new()),
            })
            .collect();
        let token = match self.token {
            Some(Player::First) => "Warui-ko's side",
            Some(Player::Second) => "Yoi-ko's side",
            None => "centre",
        };
        let change = if self.last_change {
            "banned: the opponent just changed"
        } else if self.token == Some(!self.turn) {
            "banned: the token is on the opponent's side"
        } else {
            "allowed"
        };
        BoardView::of(
            self,
            Grid::lettered(9, 9, true),
            cells,
            moves,
            vec![("token".into(), token.into()), ("change".into(), change.into())],
        )
    }
}

impl Game for Ywf {
    type Position = YwfPosition;
    const NAME: &'static str = "ywf";

    fn from_spec(spec: &GameSpec) -> Result<Ywf, SpecError> {
        let mut s = spec.reader();
        let layout = s.text("layout", Ywf::default().layout, |text| {
            let board = notation::parse_rows(text, 0).map_err(|e| format!("a 9x9 layout ({})", e.reason))?;
            let [w, y] = board.counts();
            if w == 0 || y == 0 || !board.has_empty() {
                return Err("a layout with pieces of both players and at least one empty square".to_owned());
            }
            Ok(board)
        })?;
        s.finish(&["layout"])?;
        Ok(Ywf { layout })
    }

    fn spec(&self) -> GameSpec {
        let spec = GameSpec::new(Self::NAME);
        let rows = notation::write_rows(&self.layout);
        if rows == DEFAULT_LAYOUT {
            spec
        } else {
            spec.with("layout", rows)
        }
    }

    fn info(&self) -> GameInfo {
        GameInfo {
            name: Self::NAME.into(),
            title: "YWF".into(),
            width: 9,
            height: 9,
            sides: [
                SideInfo::new("Warui-ko", "black"),
                SideInfo::new("Yoi-ko", "white"),
            ],
        }
    }

    fn start(&self) -> YwfPosition {
        YwfPosition {
            board: self.layout,
            turn: Player::First,
            token: None,
            last_change: false,
        }
    }

    /// The token stays where it was; the last action is taken as a Play, so that a Change may follow.
    fn setup(
        &self,
        base: &YwfPosition,
        cells: &[Option<char>],
        turn: Player,
    ) -> Result<YwfPosition, PositionError> {
        gridplay_core::check_cells(cells, 9, 9, "WYF")?;
        let board = notation::parse_rows(&gridplay_core::notation::write_rows(cells, 9), 0)?;
        Ok(YwfPosition {
            board,
            turn,
            token: base.token,
            last_change: false,
        })
    }

    fn parse_position(&self, text: &str) -> Result<YwfPosition, PositionError> {
        let s = notation::parse(text)?;
        Ok(YwfPosition {
            board: s.board,
            turn: s.turn,
            token: s.token,
            last_change: s.last_change,
        })
    }
}

const _: () = assert!(SQUARES == 81);
