//! Loading a game's actor: its row and actions from the database, replayed into the record, the clocks, who
//! moved and what waits for an answer, as the actor keeps them.

use std::{collections::VecDeque, sync::Arc};

use tokio::sync::{broadcast, mpsc};

use super::{
    Actor, draw_waits,
    progress::{Progress, Timing, last_move_of},
};
use crate::{
    db::{GameStatus, now_ms},
    game::{
        live::{Action, Cmd, GameHub, LiveError},
        state::{LiveFacts, MoveTexts, build_state, rotation},
    },
};

impl Actor {
    /// The actor of game `id`, loaded from the database (`me` is its own channel, for the engine's replies).
    pub(in crate::game::live) async fn load(
        hub: GameHub,
        id: &str,
        me: mpsc::WeakSender<Cmd>,
    ) -> Result<Actor, LiveError> {
        let internal = |what: String| {
            tracing::error!("game {id}: {what}");
            LiveError::Internal
        };
        let db = &hub.0.db;
        let row = db
            .game(id)
            .await
            .map_err(|e| internal(e.to_string()))?
            .ok_or(LiveError::NotFound)?;
        let game = hub
            .0
            .registry
            .restore(&row.spec)
            .map_err(|e| internal(format!("bad spec {}: {e}", row.spec)))?;
        let actions = db.actions(id).await.map_err(|e| internal(e.to_string()))?;
        let rotate = rotation(hub.0.registry.entry(&game.info().name).map(|e| e.module));
        let mut progress = Progress::new(game.as_ref(), row.time, row.created_at);
        progress.movers.reserve(actions.len());
        for a in &actions {
            let action = Action::from_row(a.kind, &a.body);
            progress
                .act(a.side, &action, a.at, Timing::Stored(a.clock), row.time.is_live())
                .map_err(|e| internal(format!("action {} does not replay: {e:?}", a.seq)))?;
        }
        let last_move = last_move_of(&progress.record);
        if row.status == GameStatus::Active && !progress.over() {
            // Time while no server ran is charged to no one: the running clock (and a correspondence
            // deadline) starts again as if the last move had been made that much later.
            let away = db
                .downtime_between(progress.clocks.since, now_ms())
                .await
                .map_err(|e| internal(e.to_string()))?;
            progress.clocks.since += away;
        }
        let users: Vec<Option<String>> = row
            .users
            .iter()
            .map(|u| u.as_ref().map(|u| u.id.clone()))
            .collect();
        let mut ratings = [None, None];
        for (i, u) in users.iter().enumerate() {
            if let Some(u) = u {
                ratings[i] = db
                    .rating(u, &row.game)
                    .await
                    .map_err(|e| internal(e.to_string()))?;
            }
        }
        let version = actions.len() as u64;
        let view = progress.record.position().view();
        let (feed, _) = broadcast::channel(64);
        let mut texts = MoveTexts::default();
        let facts = LiveFacts {
            version,
            rotate,
            aborted: progress.aborted,
            clocks: &progress.clocks,
            both_moved: progress.both_moved(),
            ratings: &ratings,
            movers: &progress.movers,
            takeback: progress.takeback,
            draw_waits: draw_waits(
                &progress.draw_offered,
                progress.movers.len(),
                hub.0.limits.draw_offer_plies as usize,
            ),
            moves: texts.sync(&progress.record),
            gone: [None, None],
        };
        let state = Arc::new(build_state(
            &row,
            game.as_ref(),
            &progress.record,
            view,
            last_move,
            &facts,
        ));
        let mut actor = Actor {
            state,
            progress,
            texts,
            ratings,
            outdated: false,
            hub,
            me,
            row,
            game,
            version,
            events: VecDeque::new(),
            feed,
            acks: VecDeque::new(),
            engine: None,
            rotate,
            holds: false,
            held_elsewhere_until: 0,
            gone: [None, None],
        };
        actor.resume().await;
        Ok(actor)
    }
}

/// The record of a stored game, its actions replayed as a loading actor replays them, with its row: for those
/// that read the database's games without an actor (the puzzle miner, `gridplay puzzles mine --database`).
pub(in crate::game) async fn stored_record(
    db: &crate::db::Db,
    registry: &gridplay_core::Registry,
    id: &str,
) -> Result<(crate::db::GameRow, gridplay_core::GameRecord), LiveError> {
    let internal = |what: String| {
        tracing::error!("game {id}: {what}");
        LiveError::Internal
    };
    let row = db
        .game(id)
        .await
        .map_err(|e| internal(e.to_string()))?
        .ok_or(LiveError::NotFound)?;
    let game = registry
        .restore(&row.spec)
        .map_err(|e| internal(format!("bad spec {}: {e}", row.spec)))?;
    let actions = db.actions(id).await.map_err(|e| internal(e.to_string()))?;
    let mut progress = Progress::new(game.as_ref(), row.time, row.created_at);
    for a in &actions {
        let action = Action::from_row(a.kind, &a.body);
        progress
            .act(a.side, &action, a.at, Timing::Stored(a.clock), row.time.is_live())
            .map_err(|e| internal(format!("action {} does not replay: {e:?}", a.seq)))?;
    }
    Ok((row, progress.record))
}
