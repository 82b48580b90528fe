//! Loading a game's actor: its row and actions from the database, replayed into the record, the clocks, who
//! moved and what waits for an answer, as the actor keeps them.

use std::{collections::VecDeque, sync::Arc};

use gridplay_core::GameRecord;
use tokio::sync::{broadcast, mpsc};

use super::{
    Actor, draw_waits,
    record::{apply, last_move_of},
};
use crate::{
    clock::Clocks,
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
        let mut record = GameRecord::new(game.start());
        let mut last_move = None;
        let mut clocks = Clocks::new(row.time, row.created_at);
        let mut moved = [false; 2];
        let mut movers = Vec::with_capacity(actions.len());
        let mut aborted = false;
        let mut takeback = None;
        let mut draw_offered = [None; 2];
        for a in &actions {
            let side = a.side;
            let action = Action::from_row(a.kind, &a.body);
            let before = matches!(action, Action::Move(_)).then(|| record.position().view());
            let text = apply(&mut record, side, &action, &movers, row.time.is_live())
                .map_err(|e| internal(format!("action {} does not replay: {e:?}", a.seq)))?;
            match action {
                Action::OfferDraw => draw_offered[side.index()] = Some(movers.len()),
                Action::OfferTakeback => takeback = Some(side),
                Action::Move(_) | Action::DeclineTakeback => takeback = None,
                Action::AcceptTakeback => {
                    takeback = None;
                    movers.truncate(record.moves().len());
                    last_move = last_move_of(&record);
                    clocks.on_takeback(a.at, record.position().turn(), moved[0] && moved[1]);
                }
                _ => {}
            }
            if let Some(view) = before {
                last_move = view.moves.into_iter().find(|m| m.text == text);
                moved[side.index()] = true;
                movers.push(side);
                let next = record.outcome().is_none().then(|| record.position().turn());
                clocks.replay_move(side, a.clock, a.at, next, moved[0] && moved[1]);
            } else if action == Action::Abort {
                aborted = true;
                clocks.running = None;
            } else if record.outcome().is_some() {
                clocks.stop(a.at);
            }
        }
        if row.status == GameStatus::Active && record.outcome().is_none() && !aborted {
            // Time while no server ran is charged to no one: the running clock (and a correspondence
            // deadline) starts again as if the last move had been made that much later.
            let away = db
                .downtime_between(clocks.since, now_ms())
                .await
                .map_err(|e| internal(e.to_string()))?;
            clocks.since += away;
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
        let view = record.position().view();
        let (feed, _) = broadcast::channel(64);
        let mut texts = MoveTexts::default();
        let facts = LiveFacts {
            version,
            rotate,
            aborted,
            clocks: &clocks,
            both_moved: moved[0] && moved[1],
            ratings: &ratings,
            movers: &movers,
            takeback,
            draw_waits: draw_waits(
                &draw_offered,
                movers.len(),
                hub.0.limits.draw_offer_plies as usize,
            ),
            moves: texts.sync(&record),
            gone: [None, None],
        };
        let state = Arc::new(build_state(&row, game.as_ref(), &record, view, last_move, &facts));
        let mut actor = Actor {
            state,
            clocks,
            moved,
            movers,
            texts,
            aborted,
            ratings,
            takeback,
            draw_offered,
            outdated: false,
            hub,
            me,
            row,
            game,
            record,
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
) -> Result<(crate::db::GameRow, GameRecord), LiveError> {
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
    let mut record = GameRecord::new(game.start());
    let mut movers = Vec::with_capacity(actions.len());
    for a in &actions {
        let action = Action::from_row(a.kind, &a.body);
        let is_move = matches!(action, Action::Move(_));
        apply(&mut record, a.side, &action, &movers, row.time.is_live())
            .map_err(|e| internal(format!("action {} does not replay: {e:?}", a.seq)))?;
        if is_move {
            movers.push(a.side);
        } else if action == Action::AcceptTakeback {
            movers.truncate(record.moves().len());
        }
    }
    Ok((row, record))
}
