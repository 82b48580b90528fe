//! Grid Tactics: unit battles on a 16x16 to 32x32 grid (seed 003, rulings in `docs/rules/tactics.md`).
//!
//! A turn is many moves: each move activates one unused unit (a path of orthogonal steps into empty squares,
//! then an attack, its class ability, or nothing), and the side to move stays the same until every unit has
//! acted or the player ends the turn. A side wins by eliminating every enemy unit; after 200 turns in all, or
//! 30 turns in a row without damage, more total health wins.

pub mod army;
mod board;
mod ja;
pub mod notation;
pub mod policy;
#[cfg(test)]
mod tests;
pub mod units;

use gridplay_core::{
    BoardView, Cell, Game, GameInfo, GameSpec, Grid, IllegalMove, MoveView, Outcome, ParseMoveError, Piece,
    Player, Position, PositionError, Reason, RuleExample, Score, SettingDoc, SettingKind, SideInfo,
    SpecError,
};

pub use self::board::{Reach, TacticsPosition};
use self::{
    board::distance,
    notation::{Written, WrittenAction},
    units::{CLEAVE_DAMAGE, CLEAVE_RANGE, Class, HEAL_AMOUNT, SHOOT_DAMAGE, SHOOT_RANGE, SHOOT_STILL, Unit},
};

/// The total number of turns (both sides' together) after which the game ends on health.
pub const TURN_LIMIT: u16 = 200;
/// Turns in a row without damage after which the game ends on health.
pub const QUIET_LIMIT: u16 = 30;
/// The most units a side may field.
pub const MAX_UNITS: usize = 16;
/// The smallest and the largest grid (squares on a side).
pub const MIN_SIZE: u8 = 16;
pub const MAX_SIZE: u8 = 32;
/// The most units a position may hold, both sides together: a position text may describe more than two
/// armies' worth (rule 10), up to this many.
pub const MAX_UNITS_ON_BOARD: usize = 64;

/// What a unit does after moving.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Action {
    Wait,
    /// Attack the enemy on this square (within one square, diagonals included).
    Attack(u16),
    /// The class ability; Cleave has no target, Shoot and Heal name a square.
    Ability(Option<u16>),
}

/// One move: a unit activation, or ending the turn early.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Move {
    /// `unit` is the index in the position's unit list.
    Activate {
        unit: u8,
        to: u16,
        action: Action,
    },
    EndTurn,
}

/// The Grid Tactics game variant: board size and the two armies.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tactics {
    pub size: u8,
    pub armies: [Vec<Class>; 2],
}

impl Default for Tactics {
    fn default() -> Tactics {
        Tactics::with_size(16)
    }
}

impl Tactics {
    /// The default armies for a board size.
    #[must_use]
    pub fn with_size(size: u8) -> Tactics {
        let army = army::default_army(size);
        Tactics {
            size,
            armies: [army.clone(), army],
        }
    }

    fn read_spec(
        spec: &GameSpec,
        parse_army: fn(&str) -> Result<Vec<Class>, army::ArmyError>,
    ) -> Result<Tactics, SpecError> {
        let mut s = spec.reader();
        let size = s.int(
            "size",
            u32::from(MIN_SIZE),
            u32::from(MIN_SIZE)..=u32::from(MAX_SIZE),
        )? as u8;
        let default = army::default_army(size);
        let first = s.text("army", default, parse_army)?;
        let second = s.text("army2", first.clone(), parse_army)?;
        s.finish(&["size", "army", "army2"])?;
        Ok(Tactics {
            size,
            armies: [first, second],
        })
    }
}

/// How the platform presents Grid Tactics: its rules document, move entry, look and file format.
pub static MODULE: gridplay_core::GameModule = gridplay_core::GameModule {
    title: "Grid Tactics",
    about: "Units move and fight on a 16x16 to 32x32 grid: warriors cleave, archers shoot, healers heal; eliminate the enemy.",
    settings: SETTINGS,
    examples: EXAMPLES,
    rules: &[
        gridplay_core::RulesDocument::english(include_str!("rules/en.md")),
        gridplay_core::RulesDocument::new("ja", include_str!("rules/ja.md")),
    ],
    entry: gridplay_core::MoveEntry::Activate,
    look: gridplay_core::Look {
        light: "#a6d47c",
        dark: "#98c96d",
        line: Some("rgba(0,0,0,.08)"),
        coords: "#2f4a1e",
        checkered: true,
        cursor_tint: false,
        pieces: &[
            ("warrior", gridplay_core::Sprite::Sword),
            ("archer", gridplay_core::Sprite::Bow),
            ("healer", gridplay_core::Sprite::Cross),
        ],
        helping: &["heal"],
    },
    home: [Some(gridplay_core::Edge::Bottom), Some(gridplay_core::Edge::Top)],
    move_kinds: &[
        ("move", "Move only"),
        ("attack", "Attack"),
        ("shoot", "Shoot"),
        ("heal", "Heal"),
        ("cleave", "Cleave"),
        ("end-turn", "End turn"),
    ],
    legend: &[
        (
            "warrior",
            "Sword and shield: a warrior. The number is its health; a faded unit has acted this turn.",
        ),
        ("archer", "Bow: an archer, which shoots from where it starts."),
        ("healer", "Cross: a healer."),
    ],
    codec: &gridplay_core::MoveListCodec,
    pieces: &[
        gridplay_core::EditorPiece {
            kind: "warrior",
            owner: Some(gridplay_core::Player::First),
            glyph: 'W',
            ghost: false,
        },
        gridplay_core::EditorPiece {
            kind: "archer",
            owner: Some(gridplay_core::Player::First),
            glyph: 'A',
            ghost: false,
        },
        gridplay_core::EditorPiece {
            kind: "healer",
            owner: Some(gridplay_core::Player::First),
            glyph: 'H',
            ghost: false,
        },
        gridplay_core::EditorPiece {
            kind: "warrior",
            owner: Some(gridplay_core::Player::Second),
            glyph: 'w',
            ghost: false,
        },
        gridplay_core::EditorPiece {
            kind: "archer",
            owner: Some(gridplay_core::Player::Second),
            glyph: 'a',
            ghost: false,
        },
        gridplay_core::EditorPiece {
            kind: "healer",
            owner: Some(gridplay_core::Player::Second),
            glyph: 'h',
            ghost: false,
        },
    ],
    translations: &[ja::JA],
    // A turn is many unit actions, each with many targets: one action ahead already covers every first step of the turn.
    help_horizon: 1,
};

/// Why a Grid Tactics activation is not legal. Squares are their names.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Illegal {
    #[error("there is no such unit")]
    NoSuchUnit,
    #[error("that unit is not yours")]
    NotYours,
    #[error("that unit has already acted this turn")]
    AlreadyActed,
    #[error(
        "{from} cannot reach {to}: a {class} moves up to {moves} squares along rows and columns, through empty squares"
    )]
    OutOfReach {
        from: String,
        to: String,
        class: &'static str,
        moves: u32,
    },
    #[error("not a legal move here")]
    NotHere,
    #[error("you cannot attack your own unit")]
    AttackOwn,
    #[error("{0} is out of reach: an attack hits a unit within one square")]
    AttackOutOfReach(String),
    #[error("there is no unit on {0} to attack")]
    NothingToAttack(String),
    #[error("Cleave needs an enemy next to the warrior")]
    CleaveAlone,
    #[error("Cleave takes no target: write *")]
    CleaveTarget,
    #[error("Shoot needs a target: write *square")]
    ShootNoTarget,
    /// The square the archer starts on.
    #[error("an archer shoots only from the square it starts on: write {0}-{0}*target")]
    ShootAfterMoving(String),
    #[error("{target} is at distance {distance}: Shoot reaches 2 to {SHOOT_RANGE} squares")]
    ShootRange { target: String, distance: u32 },
    #[error("there is no enemy on {0} to shoot")]
    NothingToShoot(String),
    #[error("Heal needs a target: write *square")]
    HealNoTarget,
    #[error("that unit already has full health")]
    FullHealth,
    #[error("Heal reaches an ally within one square")]
    HealOutOfReach,
    #[error("there is no other unit of yours on {0} to heal")]
    NothingToHeal(String),
}

impl From<Illegal> for Reason {
    fn from(why: Illegal) -> Reason {
        Reason::rule(why)
    }
}

pub const EXAMPLES: &[RuleExample] = &[
    RuleExample {
        id: "armies",
        title: "The armies",
        text: "Each side's warriors, archers and healers stand mirrored. One activation moves a unit along a path \
               within its move budget, then it attacks, uses its ability, or does nothing; end the turn when done.",
        spec: "tactics:size=16",
        moves: &[],
    },
    RuleExample {
        id: "fight",
        title: "The armies meet",
        text: "Orange to move, its units within reach of Blue's: each can step in and attack, and a warrior can \
               Cleave every enemy next to it.",
        spec: "tactics:size=16",
        moves: &[
            "n2-n5", "n1-o4", "i1-h4", "i2-i5", "c2-c5", "c1-c4", "i16-j13", "n15-n12", "n16-m13", "i15-i12",
            "c15-c12", "c16-c13", "o4-o8", "h4-h8", "n5-n8", "c5-c8", "c4-c7", "i5-i8",
        ],
    },
];

pub const SETTINGS: &[SettingDoc] = &[
    SettingDoc {
        key: "size",
        label: "Grid size",
        about: "Squares on each side of the grid, from 16 to 32.",
        kind: SettingKind::Number {
            min: MIN_SIZE as u32,
            max: MAX_SIZE as u32,
            default: MIN_SIZE as u32,
        },
    },
    SettingDoc {
        key: "army",
        label: "First player's army",
        about: "The first player's units; the second player fields the same army unless given one of their own.",
        kind: SettingKind::Army(&army::ARMY),
    },
    SettingDoc {
        key: "army2",
        label: "Second player's army",
        about: "The second player's units, when they differ from the first player's.",
        kind: SettingKind::Army(&army::ARMY2),
    },
];

impl Position for TacticsPosition {
    type Move = Move;
    type Moves = Vec<Move>;

    fn turn(&self) -> Player {
        self.turn
    }

    /// Every activation of every unused unit (each reachable square with each action), then `end`.
    fn legal_moves(&self) -> Vec<Move> {
        let mut list = Vec::new();
        if self.outcome().is_some() {
            return list;
        }
        let mut actions = Vec::new();
        for (i, u) in self.units.iter().enumerate() {
            if u.owner != self.turn || u.used {
                continue;
            }
            for (to, _) in self.reach(i).squares {
                actions.clear();
                self.actions_from(i, to, &mut actions);
                list.extend(actions.iter().map(|&action| Move::Activate {
                    unit: i as u8,
                    to,
                    action,
                }));
            }
        }
        list.push(Move::EndTurn);
        list
    }

    fn play_unchecked(&mut self, m: Move) {
        let Move::Activate { unit, to, action } = m else {
            self.end_turn();
            return;
        };
        let i = usize::from(unit);
        let (owner, class, attack) = {
            let u = &mut self.units[i];
            u.square = to;
            u.used = true;
            (u.owner, u.class, u.class.stats().attack)
        };
        let n = self.size();
        match action {
            Action::Wait => {}
            Action::Attack(target) => self.hurt(target, attack),
            Action::Ability(None) => {
                let targets: Vec<u16> = self
                    .units
                    .iter()
                    .filter(|e| e.owner != owner && distance(to, e.square, n) <= CLEAVE_RANGE)
                    .map(|e| e.square)
                    .collect();
                for t in targets {
                    self.hurt(t, CLEAVE_DAMAGE);
                }
            }
            Action::Ability(Some(target)) => match class {
                Class::Healer => {
                    if let Some(a) = self.unit_at(target) {
                        let max = self.units[a].class.stats().health;
                        self.units[a].health = (self.units[a].health + HEAL_AMOUNT).min(max);
                    }
                }
                _ => self.hurt(target, SHOOT_DAMAGE),
            },
        }
        if self.alive(!owner) && !self.units.iter().any(|u| u.owner == owner && !u.used) {
            self.end_turn();
        }
    }

    fn outcome(&self) -> Option<Outcome> {
        match (self.alive(Player::First), self.alive(Player::Second)) {
            (true, false) => {
                return Some(Outcome::Win {
                    winner: Player::First,
                });
            }
            (false, true) => {
                return Some(Outcome::Win {
                    winner: Player::Second,
                });
            }
            (false, false) => return Some(Outcome::Draw),
            (true, true) => {}
        }
        (self.turns >= TURN_LIMIT || self.quiet >= QUIET_LIMIT)
            .then(|| Outcome::by_score(self.score(), Outcome::Draw))
    }

    /// Total health of each side's units.
    fn score(&self) -> Score {
        Score::new(self.health(Player::First), self.health(Player::Second))
    }

    fn parse_move(&self, text: &str) -> Result<Move, ParseMoveError> {
        match notation::parse_move(text, self.size())? {
            Written::EndTurn => Ok(Move::EndTurn),
            Written::Activate { from, to, action } => {
                let unit = self.unit_at(from).ok_or_else(|| {
                    ParseMoveError::new(text, format!("there is no unit on {}", self.name(from)))
                })?;
                let action = match action {
                    WrittenAction::Wait => Action::Wait,
                    WrittenAction::Attack(t) => Action::Attack(t),
                    WrittenAction::Ability(t) => Action::Ability(t),
                };
                Ok(Move::Activate {
                    unit: unit as u8,
                    to,
                    action,
                })
            }
        }
    }

    fn move_text(&self, m: Move) -> String {
        match m {
            Move::EndTurn => "end".to_owned(),
            Move::Activate { unit, to, action } => {
                let from = self.units.get(usize::from(unit)).map_or(to, |u| u.square);
                let head = format!("{}-{}", self.name(from), self.name(to));
                match action {
                    Action::Wait => head,
                    Action::Attack(t) => format!("{head}x{}", self.name(t)),
                    Action::Ability(None) => format!("{head}*"),
                    Action::Ability(Some(t)) => format!("{head}*{}", self.name(t)),
                }
            }
        }
    }

    fn to_text(&self) -> String {
        notation::write(&notation::Setup {
            size: self.size(),
            turn: self.turn,
            turns: self.turns,
            quiet: self.quiet,
            damaged: self.damaged,
            units: self.units.to_vec(),
        })
    }

    fn validate(&self, m: Move) -> Result<(), IllegalMove> {
        let text = self.move_text(m);
        let refuse = |why: Illegal| Err(IllegalMove::new(text.clone(), why));
        if self.outcome().is_some() {
            return Err(IllegalMove::new(text, Reason::GameOver));
        }
        let Move::Activate { unit, to, action } = m else {
            return Ok(());
        };
        let i = usize::from(unit);
        let Some(u) = self.units.get(i) else {
            return refuse(Illegal::NoSuchUnit);
        };
        if u.owner != self.turn {
            return refuse(Illegal::NotYours);
        }
        if u.used {
            return refuse(Illegal::AlreadyActed);
        }
        let Some((_, _)) = self.reach(i).squares.into_iter().find(|(s, _)| *s == to) else {
            return refuse(Illegal::OutOfReach {
                from: self.name(u.square),
                to: self.name(to),
                class: u.class.name(),
                moves: u.class.stats().moves,
            });
        };
        let mut actions = Vec::new();
        self.actions_from(i, to, &mut actions);
        if actions.contains(&action) {
            return Ok(());
        }
        let n = self.size();
        let why = match action {
            Action::Wait => Illegal::NotHere,
            Action::Attack(t) => match self.unit_at(t) {
                Some(e) if self.units[e].owner == u.owner => Illegal::AttackOwn,
                Some(_) => Illegal::AttackOutOfReach(self.name(t)),
                None => Illegal::NothingToAttack(self.name(t)),
            },
            Action::Ability(target) => match (u.class, target) {
                (Class::Warrior, None) => Illegal::CleaveAlone,
                (Class::Warrior, Some(_)) => Illegal::CleaveTarget,
                (Class::Archer, None) => Illegal::ShootNoTarget,
                (Class::Archer, Some(_)) if SHOOT_STILL && to != u.square => {
                    Illegal::ShootAfterMoving(self.name(u.square))
                }
                (Class::Archer, Some(t)) => match self.unit_at(t) {
                    Some(e) if self.units[e].owner != u.owner => Illegal::ShootRange {
                        target: self.name(t),
                        distance: distance(to, t, n),
                    },
                    _ => Illegal::NothingToShoot(self.name(t)),
                },
                (Class::Healer, None) => Illegal::HealNoTarget,
                (Class::Healer, Some(t)) => match self.unit_at(t) {
                    Some(a) if self.units[a].owner == u.owner && a != i => {
                        if self.units[a].health >= self.units[a].class.stats().health {
                            Illegal::FullHealth
                        } else {
                            Illegal::HealOutOfReach
                        }
                    }
                    _ => Illegal::NothingToHeal(self.name(t)),
                },
            },
        };
        refuse(why)
    }

    fn view(&self) -> BoardView {
        let n = self.size();
        let mut cells = vec![Cell::default(); n * n];
        for u in &self.units {
            let letter = u.class.letter();
            let glyph = if u.owner == Player::First {
                letter.to_ascii_uppercase()
            } else {
                letter
            };
            cells[usize::from(u.square)].piece = Some(Piece {
                kind: u.sprite().into(),
                owner: Some(u.owner),
                glyph,
                ghost: u.used,
                label: Some(u.health.to_string()),
            });
        }
        let mut moves = Vec::new();
        if self.outcome().is_none() {
            let mut actions = Vec::new();
            for (i, u) in self.units.iter().enumerate() {
                if u.owner != self.turn || u.used {
                    continue;
                }
                for (to, path) in self.reach(i).squares {
                    actions.clear();
                    self.actions_from(i, to, &mut actions);
                    for &action in &actions {
                        let m = Move::Activate {
                            unit: i as u8,
                            to,
                            action,
                        };
                        let mut view = MoveView::new(
                            self.move_text(m),
                            self.action_kind(i, action),
                            Some(u32::from(u.square)),
                            path.iter().map(|&s| u32::from(s)).collect(),
                        );
                        view.target = match action {
                            Action::Attack(t) | Action::Ability(Some(t)) => Some(u32::from(t)),
                            _ => None,
                        };
                        moves.push(view);
                    }
                }
            }
            moves.push(MoveView::new("end".into(), "end-turn", None, Vec::new()));
        }
        BoardView::of(
            self,
            Grid {
                width: n as u32,
                height: n as u32,
                files: (0..n).map(notation::file_name).collect(),
                ranks: (1..=n).rev().map(|r| r.to_string()).collect(),
            },
            cells,
            moves,
            vec![
                ("turn".into(), format!("{}/{TURN_LIMIT}", self.turns + 1)),
                (
                    "turns without damage".into(),
                    format!("{}/{QUIET_LIMIT}", self.quiet),
                ),
            ],
        )
    }
}

impl Game for Tactics {
    type Position = TacticsPosition;
    const NAME: &'static str = "tactics";

    fn from_spec(spec: &GameSpec) -> Result<Tactics, SpecError> {
        Tactics::read_spec(spec, army::parse_army)
    }

    /// A game stored before the composition rule (rule 3) may field any army of 1 to 16 units. Balance
    /// research (`tactics_tune`) builds its games this way too, to measure the armies the rule excludes.
    fn from_stored_spec(spec: &GameSpec) -> Result<Tactics, SpecError> {
        Tactics::read_spec(spec, army::parse_letters)
    }

    fn spec(&self) -> GameSpec {
        let mut spec = GameSpec::new(Self::NAME);
        if self.size != 16 {
            spec = spec.with("size", self.size.to_string());
        }
        let [first, second] = &self.armies;
        if *first != army::default_army(self.size) {
            spec = spec.with("army", army::army_text(first));
        }
        if second != first {
            spec = spec.with("army2", army::army_text(second));
        }
        spec
    }

    fn info(&self) -> GameInfo {
        GameInfo {
            name: Self::NAME.into(),
            title: "Grid Tactics".into(),
            width: u32::from(self.size),
            height: u32::from(self.size),
            sides: [
                SideInfo::new("Blue", "#2e86de"),
                SideInfo::new("Orange", "#e67e22"),
            ],
        }
    }

    fn start(&self) -> TacticsPosition {
        let units = army::deploy(self.size, &self.armies);
        TacticsPosition {
            size: self.size,
            turn: Player::First,
            turns: 0,
            quiet: 0,
            damaged: false,
            units,
        }
    }

    /// A unit left on its square keeps its health (and, with the same side to move, whether it has acted);
    /// a unit placed anew comes at its class's full health. The turn counters are the edited position's.
    fn setup(
        &self,
        base: &TacticsPosition,
        cells: &[Option<char>],
        turn: Player,
    ) -> Result<TacticsPosition, PositionError> {
        let n = u32::from(self.size);
        gridplay_core::check_cells(cells, n, n, "WAHwah")?;
        let same_turn = turn == base.turn;
        let mut next_id = base
            .units
            .iter()
            .map(|u| u.id)
            .max()
            .map_or(0, |m| m.saturating_add(1));
        let mut units = Vec::new();
        for (i, c) in cells.iter().enumerate() {
            let Some(c) = *c else { continue };
            let owner = if c.is_ascii_uppercase() {
                Player::First
            } else {
                Player::Second
            };
            let Some(class) = Class::from_letter(c) else {
                continue;
            };
            let kept = base
                .units
                .iter()
                .find(|u| usize::from(u.square) == i && u.owner == owner && u.class == class);
            units.push(match kept {
                Some(u) => Unit {
                    used: u.used && same_turn,
                    ..*u
                },
                None => {
                    let id = next_id;
                    next_id = next_id.saturating_add(1);
                    Unit {
                        id,
                        owner,
                        class,
                        square: i as u16,
                        health: class.stats().health,
                        used: false,
                    }
                }
            });
        }
        // In the order of their ids, as the game keeps them.
        units.sort_by_key(|u| u.id);
        self.parse_position(&notation::write(&notation::Setup {
            size: usize::from(self.size),
            turn,
            turns: base.turns,
            quiet: base.quiet,
            damaged: base.damaged && same_turn,
            units,
        }))
    }

    fn parse_position(&self, text: &str) -> Result<TacticsPosition, PositionError> {
        let s = notation::parse(text)?;
        if s.size != usize::from(self.size) {
            return Err(PositionError::new(format!(
                "the board is {0}x{0} but this game is {1}x{1} (use the spec tactics:size={0})",
                s.size, self.size
            )));
        }
        if s.units.len() > MAX_UNITS_ON_BOARD {
            return Err(PositionError::new(format!(
                "there are more than {MAX_UNITS_ON_BOARD} units"
            )));
        }
        Ok(TacticsPosition {
            size: self.size,
            turn: s.turn,
            turns: s.turns,
            quiet: s.quiet,
            damaged: s.damaged,
            units: s.units.into_iter().collect(),
        })
    }
}
