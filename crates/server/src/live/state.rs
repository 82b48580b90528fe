//! What clients see of a game: its state, events, replays and analyses, as JSON.

use gridplay_core::{BoardView, DynGame, GameRecord, MoveView, Outcome, Player, SideInfo, Termination};
use serde::Serialize;

use crate::db::GameRow;

/// One player slot as clients see it.
#[derive(Clone, Debug, Serialize)]
pub struct PlayerJson {
    pub id: Option<String>,
    pub name: Option<String>,
    /// The engine's level when the engine plays this side.
    pub level: Option<u8>,
}

/// How a game ended, in words and in data.
#[derive(Clone, Debug, Serialize)]
pub struct OverJson {
    /// `None` for a draw.
    pub winner: Option<Player>,
    pub termination: Termination,
    pub text: String,
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
    pub view: BoardView,
    pub last_move: Option<MoveView>,
    pub over: Option<OverJson>,
    pub draw_offer: Option<Player>,
    /// For each side, whether its player sees the board turned half a turn, so that its own pieces start at
    /// the bottom (read from where the start position puts each side's pieces).
    pub rotate: [bool; 2],
}

/// One committed action as watchers receive it.
#[derive(Debug, Serialize)]
pub(super) struct EventJson<'a> {
    pub(super) t: &'static str,
    pub(super) game: &'a str,
    pub(super) v: u64,
    pub(super) action: ActionJson<'a>,
    pub(super) state: &'a GameState,
}

#[derive(Debug, Serialize)]
pub(super) struct ActionJson<'a> {
    pub(super) kind: &'a str,
    pub(super) side: Player,
    pub(super) text: &'a str,
}

/// An engine's look at a whole game: a score for the first player after each move, and the moves that lost
/// much.
#[derive(Clone, Debug, Serialize)]
pub struct Analysis {
    /// `scores[n]` is the position after `n` moves, for the first player, in hundredths of a game unit.
    pub scores: Vec<i32>,
    /// Per move (index `n` is move `n + 1`): `null`, `"?"` (a mistake) or `"??"` (a blunder).
    pub marks: Vec<Option<&'static str>>,
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

pub(super) fn side_name(p: Player) -> &'static str {
    p.as_str()
}

pub(super) fn termination_name(t: Termination) -> &'static str {
    match t {
        Termination::Rules => "rules",
        Termination::Repetition => "repetition",
        Termination::QuietMoves => "quiet-moves",
        Termination::Agreement => "agreement",
        Termination::Resignation => "resignation",
    }
}

pub(super) fn over_json(sides: &[SideInfo; 2], end: Option<(Outcome, Termination)>) -> Option<OverJson> {
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
    };
    let text = match winner {
        Some(w) => format!("{} wins{how}", sides[w.index()].name),
        None => format!("Draw{how}"),
    };
    Some(OverJson {
        winner,
        termination,
        text,
    })
}

/// The state clients see, from the game's row, its record and a fresh view.
pub(super) fn build_state(
    row: &GameRow,
    game: &dyn DynGame,
    record: &GameRecord,
    version: u64,
    rotate: [bool; 2],
    view: BoardView,
    last_move: Option<MoveView>,
) -> GameState {
    let info = game.info();
    GameState {
        id: row.id.clone(),
        spec: row.spec.clone(),
        game: info.name.clone(),
        title: info.title.clone(),
        players: [player_json(row, 0), player_json(row, 1)],
        over: over_json(&info.sides, record.outcome()),
        sides: info.sides,
        version,
        moves: record.moves().to_vec(),
        view,
        last_move,
        draw_offer: record.draw_offer(),
        rotate,
    }
}

pub(super) fn player_json(row: &GameRow, i: usize) -> PlayerJson {
    PlayerJson {
        id: row.users[i].as_ref().map(|u| u.id.clone()),
        name: row.users[i]
            .as_ref()
            .map(|u| u.name.clone())
            .or_else(|| row.labels[i].clone()),
        level: row.levels[i],
    }
}

/// Whether each side should see the board turned: when its pieces start nearer the top than the opponent's.
pub(super) fn rotation(start: &BoardView) -> [bool; 2] {
    let width = start.width.max(1) as usize;
    let mean_row = |p: Player| {
        let rows: Vec<usize> = start
            .cells
            .iter()
            .enumerate()
            .filter(|(_, c)| c.piece.as_ref().is_some_and(|pc| pc.owner == Some(p)))
            .map(|(i, _)| i / width)
            .collect();
        (!rows.is_empty()).then(|| rows.iter().sum::<usize>() as f64 / rows.len() as f64)
    };
    match (mean_row(Player::First), mean_row(Player::Second)) {
        (Some(a), Some(b)) if a < b => [true, false],
        (Some(a), Some(b)) if b < a => [false, true],
        _ => [false, false],
    }
}
