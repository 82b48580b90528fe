//! What clients see of a game: its state, events, replays and analyses, as JSON.

use gridplay_core::{
    BoardView, DynGame, GameModule, GameRecord, MoveView, Outcome, Player, Score, SideInfo, Termination,
};
use serde::{Deserialize, Serialize};

use crate::{
    clock::{Clocks, DAY_MS, TimeControl},
    db::{EndReason, GameRow, GameStatus, RatingRow},
};

/// One player slot as clients see it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PlayerJson {
    pub id: Option<String>,
    pub name: Option<String>,
    /// The engine's level when the engine plays this side.
    pub level: Option<u8>,
    /// The player's rating in this game (rounded), if rated before.
    pub rating: Option<i64>,
    /// Whether that rating is still provisional.
    pub provisional: bool,
}

/// How a game ended, in words and in data.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct OverJson {
    /// `None` for a draw.
    pub winner: Option<Player>,
    /// `rules`, `repetition`, `quiet-moves`, `agreement`, `resignation`, `timeout`, `abandoned` or `aborted`.
    pub termination: EndReason,
    pub text: String,
}

/// A tournament game's tournament and round.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TournamentRef {
    pub id: String,
    pub round: i64,
}

/// Everything a page needs to show a game: the board view from the rules library, the players, the moves.
#[derive(Clone, Debug, Serialize)]
pub struct GameState {
    pub id: String,
    pub spec: String,
    pub game: String,
    pub title: String,
    pub sides: [SideInfo; 2],
    pub players: [PlayerJson; 2],
    pub version: u64,
    pub moves: Vec<String>,
    /// Who made each move: `f` for the first player, `s` for the second, one letter a move, so that a page can
    /// number the moves by turns.
    pub movers: String,
    pub view: BoardView,
    pub last_move: Option<MoveView>,
    pub over: Option<OverJson>,
    pub draw_offer: Option<Player>,
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
    /// Whether players may ask the engine for hints (casual games only).
    pub hints: bool,
}

/// What changed from `old` to `new`, as `crate::messages::delta` writes it from the two states' JSON, but
/// serializing only the fields that changed.
#[must_use]
pub(super) fn state_delta(old: &GameState, new: &GameState) -> serde_json::Value {
    use serde_json::{Map, Value, to_value};
    let mut out = Map::new();
    let put = |out: &mut Map<String, Value>, key: &str, value: Result<Value, serde_json::Error>| {
        out.insert(key.to_owned(), value.unwrap_or_default());
    };
    macro_rules! fields {
        ($($f:ident),*) => {$(
            if old.$f != new.$f {
                put(&mut out, stringify!($f), to_value(&new.$f));
            }
        )*};
    }
    fields!(id, spec, game, title, sides, players, version);
    if old.moves != new.moves {
        if new.moves.len() > old.moves.len() && new.moves.starts_with(&old.moves) {
            put(&mut out, "moves+", to_value(&new.moves[old.moves.len()..]));
        } else {
            put(&mut out, "moves", to_value(&new.moves));
        }
    }
    fields!(movers);
    if old.view != new.view {
        let (a, b) = (&old.view, &new.view);
        let mut view = Map::new();
        macro_rules! view_fields {
            ($($f:ident),*) => {$(
                if a.$f != b.$f {
                    put(&mut view, stringify!($f), to_value(&b.$f));
                }
            )*};
        }
        view_fields!(width, height, files, ranks);
        if a.cells != b.cells {
            if a.cells.len() == b.cells.len() {
                let changed: Vec<Value> = a
                    .cells
                    .iter()
                    .zip(&b.cells)
                    .enumerate()
                    .filter(|(_, (x, y))| x != y)
                    .map(|(i, (_, y))| Value::Array(vec![i.into(), to_value(y).unwrap_or_default()]))
                    .collect();
                view.insert("cells@".into(), Value::Array(changed));
            } else {
                put(&mut view, "cells", to_value(&b.cells));
            }
        }
        view_fields!(turn, score, status, moves, info);
        out.insert("view".into(), Value::Object(view));
    }
    fields!(
        last_move,
        over,
        draw_offer,
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
        hints
    );
    Value::Object(out)
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
}

/// An engine's look at a whole game: a score for the first player after each move, and the moves that lost
/// much.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Analysis {
    /// `scores[n]` is the position after `n` moves, for the first player, in hundredths of a game unit.
    pub scores: Vec<i32>,
    /// Per move (index `n` is move `n + 1`): `null`, `"?"` (a mistake) or `"??"` (a blunder).
    pub marks: Vec<Option<String>>,
    /// The bound of the scores (a won position scores this).
    pub clamp: i32,
    pub per_position_ms: u64,
}

/// Scores lost by a move that make it a mistake, and a blunder.
pub const MISTAKE: i32 = 200;
pub const BLUNDER: i32 = 500;

/// A position of a game's replay: the board after `n` moves and the move that led there.
#[derive(Clone, Debug, Serialize)]
pub struct PlyJson {
    pub n: usize,
    pub view: BoardView,
    pub last_move: Option<MoveView>,
}

/// How a game ended, in one sentence with the final score: "Black wins by resignation. Black 34, White 30."
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
    };
    let result = match winner {
        Some(w) => format!("{} wins{how}", sides[w.index()].name),
        None => format!("Draw{how}"),
    };
    let text = format!(
        "{result}. {} {}, {} {}.",
        sides[0].name, score.first, sides[1].name, score.second
    );
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
        moves: record.moves().to_vec(),
        movers: facts
            .movers
            .iter()
            .map(|p| if *p == Player::First { 'f' } else { 's' })
            .collect(),
        view,
        last_move,
        draw_offer: record.draw_offer(),
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
        hints: !row.rated && row.tournament.is_none(),
    }
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
        level: row.levels[i],
    }
}

/// Whether each side sees the board turned: the side whose home edge is the top, so that its pieces start
/// nearest to it.
pub(super) fn rotation(module: Option<&GameModule>) -> [bool; 2] {
    module.map_or([false, false], |m| [m.rotated(0), m.rotated(1)])
}
