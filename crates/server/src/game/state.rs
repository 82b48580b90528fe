//! What clients see of a game: its state, events, replays and analyses, as JSON.

use std::sync::Arc;

use gridplay_core::{
    BoardView, Cell, DynGame, GameModule, GameRecord, MoveView, Outcome, Player, Score, SideInfo, Termination,
};
use serde::{Deserialize, Serialize, Serializer, ser::SerializeMap};

use crate::{
    clock::{Clocks, DAY_MS, TimeControl},
    db::{EndReason, GameRow, GameStatus, RatingRow},
};

/// One player slot as clients see it.
#[derive(Clone, Debug, PartialEq, Serialize, utoipa::ToSchema)]
pub struct PlayerJson {
    pub id: Option<String>,
    pub name: Option<String>,
    /// A bot account.
    pub bot: bool,
    /// The engine's level when the engine plays this side.
    pub level: Option<u8>,
    /// The player's rating in this game (rounded), if rated before.
    pub rating: Option<i64>,
    /// Whether that rating is still provisional.
    pub provisional: bool,
}

/// How a game ended, in words and in data.
#[derive(Clone, Debug, PartialEq, Serialize, utoipa::ToSchema)]
pub struct OverJson {
    /// `None` for a draw.
    pub winner: Option<Player>,
    /// `rules`, `repetition`, `quiet-moves`, `agreement`, `resignation`, `timeout`, `abandoned` or `aborted`.
    pub termination: EndReason,
    pub text: String,
}

/// A tournament game's tournament and round.
#[derive(Clone, Debug, PartialEq, Serialize, utoipa::ToSchema)]
pub struct TournamentRef {
    pub id: String,
    pub round: i64,
}

/// Everything a page needs to show a game: the board view from the rules library, the players, the moves.
#[derive(Clone, Debug, Serialize, utoipa::ToSchema)]
pub struct GameState {
    pub id: String,
    pub spec: String,
    pub game: String,
    pub title: String,
    pub sides: [SideInfo; 2],
    pub players: [PlayerJson; 2],
    pub version: u64,
    /// The moves' texts, shared with the game's other states (a state is built for every move).
    #[schema(value_type = Vec<String>)]
    pub moves: Vec<Arc<str>>,
    /// Who made each move: `f` for the first player, `s` for the second, one letter a move, so that a page can
    /// number the moves by turns.
    pub movers: String,
    pub view: BoardView,
    pub last_move: Option<MoveView>,
    pub over: Option<OverJson>,
    pub draw_offer: Option<Player>,
    /// For each side, how many more moves must be played before it may offer a draw again (0: it may now).
    pub draw_again: [usize; 2],
    /// The side that asked to take back its last move, until the other answers or a move is played.
    pub takeback_offer: Option<Player>,
    /// Whether takebacks may be asked for (casual games outside tournaments).
    pub takebacks: bool,
    /// For each side, whether its player sees the board turned half a turn, so that its own pieces start at
    /// the bottom (read from where the start position puts each side's pieces).
    pub rotate: [bool; 2],
    pub time: TimeControl,
    /// `5+3`, `3 days` or `untimed`.
    pub time_label: String,
    /// The live clocks. A running clock's time left is `remaining[side] - (now - since)`, where `now` is the
    /// server time sent with every message.
    pub clock: Option<Clocks>,
    /// When the side to move runs out of time (a live clock's flag, or a correspondence deadline).
    pub deadline: Option<i64>,
    /// Whether the side not to move may claim the game once `deadline` has passed (correspondence games).
    pub claimable: bool,
    pub rated: bool,
    pub tournament: Option<TournamentRef>,
    /// Whether the game can still be aborted (neither a tournament game nor one where both sides have moved).
    pub abortable: bool,
    /// Whether the players may ask the engine for hints: in games against the engine, and in casual games
    /// between people who both agreed to help (`help`). Never in rated or tournament games.
    pub hints: bool,
    /// Whether this game between people allows hints because both players agreed to it.
    pub help: bool,
    /// Per side, in a live game between people: since when (server ms) all of that player's pages are gone,
    /// and from when the opponent may claim the win or a draw (`null` while a page of theirs is open).
    pub gone: [Option<Gone>; 2],
}

/// A player whose pages are all gone from a live game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, utoipa::ToSchema)]
pub struct Gone {
    /// Server ms.
    pub since: i64,
    /// Server ms: the opponent may claim from then on.
    pub claim_at: i64,
}

/// What changed from `old` to `new`, as `crate::game::messages::delta` writes it from the two states' JSON: each
/// field is compared, and those that changed are written straight from the new state, with no JSON tree
/// built in between.
#[derive(Clone, Copy, Debug)]
pub(crate) struct StateDelta<'a> {
    pub(crate) old: &'a GameState,
    pub(crate) new: &'a GameState,
}

impl Serialize for StateDelta<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let (old, new) = (self.old, self.new);
        let mut out = s.serialize_map(None)?;
        macro_rules! fields {
            ($($f:ident),*) => {$(
                if old.$f != new.$f {
                    out.serialize_entry(stringify!($f), &new.$f)?;
                }
            )*};
        }
        fields!(id, spec, game, title, sides, players, version);
        if old.moves != new.moves {
            if new.moves.len() > old.moves.len() && new.moves.starts_with(&old.moves) {
                out.serialize_entry("moves+", &new.moves[old.moves.len()..])?;
            } else {
                out.serialize_entry("moves", &new.moves)?;
            }
        }
        fields!(movers);
        let view = ViewDelta::new(&old.view, &new.view);
        if view.any() {
            out.serialize_entry("view", &view)?;
        }
        fields!(
            last_move,
            over,
            draw_offer,
            draw_again,
            takeback_offer,
            takebacks,
            rotate,
            time,
            time_label,
            clock,
            deadline,
            claimable,
            rated,
            tournament,
            abortable,
            hints,
            help,
            gone
        );
        out.end()
    }
}

/// The board view's changed fields, each compared once; cells as `cells@`, a list of `[index, cell]` for
/// the cells that changed, when the board kept its size.
struct ViewDelta<'a> {
    old: &'a BoardView,
    new: &'a BoardView,
    /// Whether each field changed, in [`BoardView`]'s order but for the cells.
    changed: [bool; 9],
    /// The cells that changed (when the board kept its size), or `None` when all are written.
    cells: Option<Vec<usize>>,
}

impl<'a> ViewDelta<'a> {
    fn new(a: &'a BoardView, b: &'a BoardView) -> ViewDelta<'a> {
        let changed = [
            a.width != b.width,
            a.height != b.height,
            a.files != b.files,
            a.ranks != b.ranks,
            a.turn != b.turn,
            a.score != b.score,
            a.status != b.status,
            a.moves != b.moves,
            a.info != b.info,
        ];
        let cells = (a.cells.len() == b.cells.len()).then(|| {
            a.cells
                .iter()
                .zip(&b.cells)
                .enumerate()
                .filter(|(_, (x, y))| x != y)
                .map(|(i, _)| i)
                .collect()
        });
        ViewDelta {
            old: a,
            new: b,
            changed,
            cells,
        }
    }

    fn any(&self) -> bool {
        self.changed.contains(&true) || self.cells.as_ref().is_none_or(|c| !c.is_empty())
    }
}

impl Serialize for ViewDelta<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let b = self.new;
        let mut view = s.serialize_map(None)?;
        let mut changed = self.changed.iter();
        macro_rules! view_fields {
            ($($f:ident),*) => {$(
                if changed.next() == Some(&true) {
                    view.serialize_entry(stringify!($f), &b.$f)?;
                }
            )*};
        }
        view_fields!(width, height, files, ranks);
        match &self.cells {
            Some(cells) if !cells.is_empty() => view.serialize_entry(
                "cells@",
                &ChangedCells {
                    cells: &b.cells,
                    changed: cells,
                },
            )?,
            Some(_) => {}
            None if self.old.cells != b.cells => view.serialize_entry("cells", &b.cells)?,
            None => {}
        }
        view_fields!(turn, score, status, moves, info);
        view.end()
    }
}

/// The cells that changed, each as `[index, cell]`.
struct ChangedCells<'a> {
    cells: &'a [Cell],
    changed: &'a [usize],
}

impl Serialize for ChangedCells<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.changed.iter().map(|&i| (i, &self.cells[i])))
    }
}

/// What the actor knows besides the record: the clocks, whether both sides moved, the players' ratings.
pub(super) struct LiveFacts<'a> {
    pub(super) version: u64,
    pub(super) rotate: [bool; 2],
    pub(super) aborted: bool,
    pub(super) clocks: &'a Clocks,
    pub(super) both_moved: bool,
    pub(super) ratings: &'a [Option<RatingRow>; 2],
    /// The side that made each move.
    pub(super) movers: &'a [Player],
    /// The side whose takeback request waits for an answer.
    pub(super) takeback: Option<Player>,
    /// For each side, the moves still to be played before it may offer a draw again.
    pub(super) draw_waits: [usize; 2],
    /// The record's moves, as [`MoveTexts`] keeps them.
    pub(super) moves: &'a [Arc<str>],
    /// Per side, the player whose pages are all gone.
    pub(super) gone: [Option<Gone>; 2],
}

/// A game's move texts, each allocated once and shared by every state built from them.
#[derive(Default)]
pub(super) struct MoveTexts(Vec<Arc<str>>);

impl MoveTexts {
    /// The texts of `record`'s moves, reusing the kept texts of the moves they share.
    pub(super) fn sync(&mut self, record: &GameRecord) -> &[Arc<str>] {
        let moves = record.moves();
        let kept = self.0.iter().zip(moves).take_while(|(t, m)| ***t == ***m).count();
        self.0.truncate(kept);
        self.0.extend(moves[kept..].iter().map(|m| Arc::from(m.as_str())));
        &self.0
    }
}

/// An engine's look at a whole game: a score for the first player after each move, and the moves that lost
/// much.
#[derive(Clone, Debug, Serialize, Deserialize, utoipa::ToSchema)]
pub struct Analysis {
    /// `scores[n]` is the position after `n` moves, for the first player, in hundredths of a game unit.
    pub scores: Vec<i32>,
    /// Per move (index `n` is move `n + 1`): `null`, `"?!"` (an inaccuracy), `"?"` (a mistake) or `"??"` (a
    /// blunder), by the chance of winning the move gave away (`gridplay_engine::review`).
    pub marks: Vec<Option<String>>,
    /// The bound of the scores (a won position scores this).
    pub clamp: i32,
    pub per_position_ms: u64,
    /// Each side's accuracy and counts of inaccuracies, mistakes and blunders (absent from an analysis
    /// stored before they were computed).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sides: Option<[SideReviewJson; 2]>,
}

/// One side's play in an analysed game.
#[derive(Clone, Debug, Serialize, Deserialize, utoipa::ToSchema)]
pub struct SideReviewJson {
    /// In percent, one decimal (`null`: the side made no move).
    pub accuracy: Option<f64>,
    pub inaccuracies: usize,
    pub mistakes: usize,
    pub blunders: usize,
    /// The moves that count toward agreement with the engine's best move (neither from the opening book nor
    /// the only move), and of those the engine's best (absent from an analysis stored before they were
    /// counted).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub counted: Option<usize>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub agreed: Option<usize>,
}

impl From<&gridplay_engine::review::SideReview> for SideReviewJson {
    fn from(s: &gridplay_engine::review::SideReview) -> SideReviewJson {
        SideReviewJson {
            accuracy: s.accuracy.map(|a| (a * 10.0).round() / 10.0),
            inaccuracies: s.inaccuracies,
            mistakes: s.mistakes,
            blunders: s.blunders,
            counted: Some(s.counted),
            agreed: Some(s.agreed),
        }
    }
}

/// A position of a game's replay: the board after `n` moves and the move that led there.
#[derive(Clone, Debug, Serialize, utoipa::ToSchema)]
pub struct PlyJson {
    pub n: usize,
    pub view: BoardView,
    pub last_move: Option<MoveView>,
}

/// How a game ended, in one sentence, with the final score where the board decided it: "Black wins. Black 34,
/// White 30.", "Red wins by resignation."
pub(super) fn over_json(
    sides: &[SideInfo; 2],
    score: Score,
    end: Option<(Outcome, Termination)>,
) -> Option<OverJson> {
    let (outcome, termination) = end?;
    let winner = match outcome {
        Outcome::Win { winner } => Some(winner),
        Outcome::Draw => None,
    };
    let how = match termination {
        Termination::Rules => "",
        Termination::Repetition => " by repetition",
        Termination::QuietMoves => " by the quiet-move rule",
        Termination::Agreement => " by agreement",
        Termination::Resignation => " by resignation",
        Termination::Timeout => " on time",
        Termination::Abandoned => ": the opponent let the time for a move pass",
        Termination::Left => ": the opponent left the game",
    };
    let result = match winner {
        Some(w) => format!("{} wins{how}", sides[w.index()].name),
        None => format!("Draw{how}"),
    };
    // The score is the result's measure only when the board decided: after a resignation, a flag or an
    // agreement it would read as if it were ("Red wins by resignation. Red 12, White 12.").
    let text = if termination == Termination::Rules {
        format!(
            "{result}. {} {}, {} {}.",
            sides[0].name, score.first, sides[1].name, score.second
        )
    } else {
        format!("{result}.")
    };
    Some(OverJson {
        winner,
        termination: EndReason::from(termination),
        text,
    })
}

/// The state clients see, from the game's row, its record and a fresh view.
pub(super) fn build_state(
    row: &GameRow,
    game: &dyn DynGame,
    record: &GameRecord,
    view: BoardView,
    last_move: Option<MoveView>,
    facts: &LiveFacts<'_>,
) -> GameState {
    let info = game.info();
    let over = if facts.aborted {
        Some(OverJson {
            winner: None,
            termination: EndReason::Aborted,
            text: "Game aborted".into(),
        })
    } else {
        over_json(&info.sides, record.position().score(), record.outcome())
    };
    let deadline = match row.time {
        _ if over.is_some() => None,
        TimeControl::Live { .. } => facts.clocks.deadline(),
        TimeControl::Correspondence { days } => Some(facts.clocks.since + days * DAY_MS),
        TimeControl::Untimed => None,
    };
    let over_is_none = over.is_none();
    let claimable = matches!(row.time, TimeControl::Correspondence { .. }) && deadline.is_some();
    let abortable =
        over.is_none() && !facts.both_moved && row.tournament.is_none() && row.status != GameStatus::Imported;
    GameState {
        id: row.id.clone(),
        spec: row.spec.clone(),
        game: info.name.clone(),
        title: info.title.clone(),
        players: [
            player_json(row, 0, facts.ratings),
            player_json(row, 1, facts.ratings),
        ],
        over,
        sides: info.sides,
        version: facts.version,
        moves: facts.moves.to_vec(),
        movers: facts
            .movers
            .iter()
            .map(|p| if *p == Player::First { 'f' } else { 's' })
            .collect(),
        view,
        last_move,
        draw_offer: record.draw_offer(),
        draw_again: facts.draw_waits,
        takeback_offer: facts.takeback,
        takebacks: takebacks_allowed(row) && over_is_none,
        rotate: facts.rotate,
        time: row.time,
        time_label: row.time.label(),
        clock: matches!(row.time, TimeControl::Live { .. }).then_some(*facts.clocks),
        deadline,
        claimable,
        rated: row.rated,
        tournament: row.tournament.as_ref().map(|(id, round)| TournamentRef {
            id: id.clone(),
            round: *round,
        }),
        abortable,
        hints: hints_allowed(row),
        help: row.help && hints_allowed(row),
        gone: if over_is_none { facts.gone } else { [None, None] },
    }
}

/// Whether a game's players may ask the engine for a move: against the engine, or between people who agreed
/// to it in a casual game (the challenge allowed help, and the other player accepted it). Never in a rated or
/// tournament game, whatever the row says.
pub(crate) fn hints_allowed(row: &GameRow) -> bool {
    let vs_engine = row.levels.iter().any(Option::is_some);
    !row.rated && row.tournament.is_none() && (vs_engine || row.help)
}

/// Whether a game's players may take moves back: casual games outside tournaments.
pub(super) fn takebacks_allowed(row: &GameRow) -> bool {
    !row.rated && row.tournament.is_none() && row.status != GameStatus::Imported
}

pub(super) fn player_json(row: &GameRow, i: usize, ratings: &[Option<RatingRow>; 2]) -> PlayerJson {
    PlayerJson {
        rating: ratings[i].as_ref().map(|r| r.rating.round() as i64),
        provisional: ratings[i].as_ref().is_none_or(|r| r.provisional),
        id: row.users[i].as_ref().map(|u| u.id.clone()),
        name: row.users[i]
            .as_ref()
            .map(|u| u.name.clone())
            .or_else(|| row.labels[i].clone()),
        bot: row.users[i].as_ref().is_some_and(|u| u.bot),
        level: row.levels[i],
    }
}

/// Whether each side sees the board turned: the side whose home edge is the top, so that its pieces start
/// nearest to it.
pub(super) fn rotation(module: Option<&GameModule>) -> [bool; 2] {
    module.map_or([false, false], |m| [m.rotated(0), m.rotated(1)])
}
