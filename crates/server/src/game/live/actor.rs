//! One game's actor: the only writer of its game, which checks, commits and publishes every action.

use std::{collections::VecDeque, sync::Arc, time::Duration};

use gridplay_core::{BoardView, DynGame, MoveView, Player, RecordError};
use tokio::sync::{broadcast, mpsc};

use super::{
    Action, Cmd, ENGINE_MIN, GameHub, IDLE, IDLE_OVER, KEEP_ACKS, KEEP_EVENTS, LiveError, PlyJson, Published,
    Watch,
};
use crate::game::state::{GameState, Gone, LiveFacts, MoveTexts, build_state, takebacks_allowed};
use crate::{
    clock::{DAY_MS, TimeControl},
    db::{GameRow, Lease, RatingRow, now_ms},
    game::{engine_pool::Lane, messages::ServerMsg},
};

mod commit;
mod load;
pub(in crate::game) use load::stored_record;
mod progress;
mod remote;

use progress::Progress;

pub(super) struct Actor {
    hub: GameHub,
    me: mpsc::WeakSender<Cmd>,
    row: GameRow,
    game: Box<dyn DynGame>,
    version: u64,
    state: Arc<GameState>,
    events: VecDeque<Published>,
    feed: broadcast::Sender<Published>,
    acks: VecDeque<(String, String, u64)>,
    engine: Option<(u64, gridplay_search::StopFlag)>,
    rotate: [bool; 2],
    /// The record, the clocks and what waits for an answer: what the game's actions decided.
    progress: Progress,
    /// The moves' texts for the states.
    texts: MoveTexts,
    ratings: [Option<RatingRow>; 2],
    /// Another server stored an action of this game that this copy does not have: stop after this command.
    outdated: bool,
    /// This server holds the game's lease: it flags the clock and runs the engine (`bus.rs`).
    holds: bool,
    /// Another server holds the lease until this time (ms) unless it renews it: no claim before then (the
    /// sweep of expired leases takes the game over if that server stops).
    held_elsewhere_until: i64,
    /// Per side, in a live game between people: the player whose pages are all gone, on every server.
    gone: [Option<Gone>; 2],
}

impl Actor {
    fn ply(&self, n: usize) -> Option<PlyJson> {
        let moves = self.progress.record.moves();
        if n > moves.len() {
            return None;
        }
        let mut pos = self.progress.record.start().box_clone();
        let mut last_move = None;
        for (i, m) in moves[..n].iter().enumerate() {
            if i + 1 == n {
                last_move = pos.view().moves.into_iter().find(|v| &v.text == m);
            }
            pos.play(m).ok()?;
        }
        Some(PlyJson {
            n,
            view: pos.view(),
            last_move,
        })
    }

    fn make_state(&mut self, view: BoardView, last_move: Option<MoveView>) -> GameState {
        let facts = LiveFacts {
            version: self.version,
            rotate: self.rotate,
            aborted: self.progress.aborted,
            clocks: &self.progress.clocks,
            both_moved: self.progress.both_moved(),
            ratings: &self.ratings,
            movers: &self.progress.movers,
            takeback: self.progress.takeback,
            draw_waits: draw_waits(
                &self.progress.draw_offered,
                self.progress.movers.len(),
                self.hub.0.limits.draw_offer_plies as usize,
            ),
            moves: self.texts.sync(&self.progress.record),
            gone: self.gone,
        };
        build_state(
            &self.row,
            self.game.as_ref(),
            &self.progress.record,
            view,
            last_move,
            &facts,
        )
    }

    fn sync_json(&self) -> Arc<str> {
        ServerMsg::Sync {
            game: &self.row.id,
            now: now_ms(),
            state: &self.state,
        }
        .text()
    }

    fn over(&self) -> bool {
        self.progress.over()
    }

    /// When the live clock of the side to move runs out.
    fn flag_at(&self) -> Option<i64> {
        match self.row.time {
            TimeControl::Live { .. } if !self.over() => self.progress.clocks.deadline(),
            _ => None,
        }
    }

    /// Whether the game has timed work now: a live clock running, or an engine to move.
    fn timed_work(&self) -> bool {
        !self.over()
            && (self.flag_at().is_some()
                || self.row.levels[self.progress.record.position().turn().index()].is_some())
    }

    /// Takes the game's lease if it has timed work and this server does not hold it yet (the upkeep task
    /// renews it), unless another server's lease on it is known to run still, and starts the engine if it is
    /// to move.
    async fn resume(&mut self) {
        if self.timed_work() {
            if !self.holds && now_ms() > self.held_elsewhere_until {
                match self.hub.0.bus.claim(&self.row.id).await {
                    Lease::Held => self.holds = true,
                    Lease::Elsewhere { until_ms } => self.held_elsewhere_until = until_ms,
                }
            }
            self.maybe_engine();
        }
    }

    /// Ends the game on time if the clock of the side to move has run out.
    async fn check_flag(&mut self) {
        if self.flag_at().is_some_and(|at| now_ms() >= at) {
            let side = self.progress.record.position().turn();
            let gone = self.gone[side.index()].is_some();
            if let Err(e) = self.commit(side, Action::Timeout { gone }).await {
                tracing::error!("game {}: cannot flag: {e:?}", self.row.id);
            }
        }
    }

    /// Takes this actor's slot out of the hub, so that the next request for the game loads it again.
    async fn leave_hub(&self) {
        let mut games = self.hub.0.games();
        if let Some(tx) = self.me.upgrade()
            && games
                .get(&self.row.id)
                .and_then(|slot| slot.get())
                .is_some_and(|t| t.same_channel(&tx))
        {
            games.remove(&self.row.id);
        }
    }

    pub(super) async fn run(mut self, mut rx: mpsc::Receiver<Cmd>) {
        let _held = crate::telemetry::Held::new(crate::telemetry::ACTORS);
        loop {
            let outdated = self.serve(&mut rx).await;
            if outdated && self.holds {
                // This server does the game's timed work: it goes on from the game's new state, in place (its
                // watching pages, whose feed closes, watch again and get the new state).
                if let Some((_, stop)) = self.engine.take() {
                    stop.stop();
                }
                match Actor::load(self.hub.clone(), &self.row.id, self.me.clone()).await {
                    Ok(fresh) => {
                        self = fresh;
                        if !self.holds {
                            self.hub.0.bus.release(&self.row.id).await;
                        }
                        continue;
                    }
                    Err(e) => tracing::warn!("game {}: cannot reload it: {e:?}", self.row.id),
                }
            }
            if outdated {
                self.leave_hub().await;
            }
            break;
        }
        if self.holds {
            self.hub.0.bus.release(&self.row.id).await;
        }
    }

    /// Whether a player who leaves this game can be claimed against: a live game in play between two people
    /// who have both moved (a bot plays through its event stream, not a page; before both have moved, a game
    /// can be aborted).
    fn claims_apply(&self) -> bool {
        let [Some(a), Some(b)] = &self.row.users else {
            return false;
        };
        self.row.time.is_live()
            && !self.over()
            && self.progress.both_moved()
            && !a.bot
            && !b.bot
            && a.id != b.id
    }

    /// Notes which players have no page open on the game, on this server or (as last read) another; when that
    /// changes, every page gets the new state (a `sync` of the same version).
    fn check_gone(&mut self) {
        let now = now_ms();
        let mut gone = [None, None];
        let floor = i64::from(self.hub.0.limits.claim_floor_seconds) * 1000;
        if self.claims_apply()
            && let Some(after) = self.row.time.claim_after_ms(floor)
        {
            for (i, slot) in gone.iter_mut().enumerate() {
                let Some(user) = &self.row.users[i] else { continue };
                if !self.hub.lobby().watching(&self.row.id, &user.id) {
                    let since = self.gone[i].map_or(now, |g| g.since);
                    *slot = Some(Gone {
                        since,
                        claim_at: since + after,
                    });
                }
            }
        }
        if gone != self.gone {
            self.gone = gone;
            let (view, last_move) = (self.state.view.clone(), self.state.last_move.clone());
            self.state = Arc::new(self.make_state(view, last_move));
            let _ = self.feed.send(Published {
                version: self.version,
                json: self.sync_json(),
                ended: false,
            });
        }
    }

    /// Answers commands until the actor should stop; returns whether it stops because another server moved
    /// the game on.
    async fn serve(&mut self, rx: &mut mpsc::Receiver<Cmd>) -> bool {
        let mut idle_since = std::time::Instant::now();
        loop {
            let flag = if self.holds { self.flag_at() } else { None };
            let idle = if self.over() { IDLE_OVER } else { IDLE };
            let idle_left = idle.saturating_sub(idle_since.elapsed());
            // Who has left is looked at each second while it matters.
            let watch_gone = self.claims_apply() || self.gone.iter().any(Option::is_some);
            // A running flag is waited for (a game with one never idles out); otherwise the idle time left.
            let mut wait = flag.map_or(idle_left, |at| {
                Duration::from_millis(u64::try_from(at - now_ms()).unwrap_or(0)).min(idle)
            });
            if watch_gone {
                wait = wait.min(Duration::from_secs(1));
            }
            match tokio::time::timeout(wait, rx.recv()).await {
                Ok(Some(cmd)) => {
                    idle_since = std::time::Instant::now();
                    self.handle(cmd).await;
                    if self.outdated {
                        return true;
                    }
                }
                Ok(None) => return false,
                Err(_) => {
                    if watch_gone {
                        self.check_gone();
                    }
                    if flag.is_some() {
                        self.check_flag().await;
                    } else if idle_since.elapsed() >= idle {
                        if self.feed.receiver_count() == 0 && self.engine.is_none() {
                            self.leave_hub().await;
                            rx.close();
                            while let Some(cmd) = rx.recv().await {
                                self.handle(cmd).await;
                            }
                            return false;
                        }
                        // Still watched: another idle period.
                        idle_since = std::time::Instant::now();
                    }
                }
            }
        }
    }

    async fn handle(&mut self, cmd: Cmd) {
        match cmd {
            Cmd::Watch { since, reply } => {
                let feed = self.feed.subscribe();
                let catchup = match since {
                    // Up to date, unless someone has left since: who has is told only in a full state.
                    Some(v) if v == self.version && self.gone == [None, None] => Vec::new(),
                    Some(v)
                        if v < self.version && self.events.front().is_some_and(|e| e.version <= v + 1) =>
                    {
                        self.events
                            .iter()
                            .filter(|e| e.version > v)
                            .map(|e| e.json.clone())
                            .collect()
                    }
                    _ => vec![self.sync_json()],
                };
                let _ = reply.send(Watch { catchup, feed });
            }
            Cmd::State { reply } => {
                let _ = reply.send(self.state.clone());
            }
            Cmd::Ply { n, reply } => {
                let _ = reply.send(self.ply(n));
            }
            Cmd::Current { reply } => {
                let _ = reply.send(self.progress.record.position().box_clone());
            }
            Cmd::Refresh { version, action } => self.catch_up(version, action).await,
            Cmd::TakeOver { reply } => {
                if self.timed_work() {
                    // The lease expired: claim it afresh, even if this copy thought it held it.
                    self.holds = false;
                    self.held_elsewhere_until = 0;
                    self.resume().await;
                } else if let Err(e) = self.hub.0.db.drop_expired_lease(&self.row.id, now_ms()).await {
                    tracing::warn!("game {}: cannot drop its lease: {e}", self.row.id);
                }
                let _ = reply.send(());
            }
            Cmd::Positions { reply } => {
                let mut pos = self.progress.record.start().box_clone();
                let mut all = vec![pos.box_clone()];
                for m in self.progress.record.moves() {
                    if pos.play(m).is_err() {
                        break;
                    }
                    all.push(pos.box_clone());
                }
                let _ = reply.send((all, self.progress.record.moves().to_vec()));
            }
            Cmd::Export { reply } => {
                let names = [0, 1].map(|i| {
                    let p = &self.state.players[i];
                    p.name.clone().unwrap_or_else(|| {
                        p.level
                            .map_or_else(|| "?".into(), |l| format!("gridplay level {l}"))
                    })
                });
                let file = crate::transcript::export(
                    self.hub.0.registry,
                    &self.row.id,
                    &self.row.spec,
                    [&names[0], &names[1]],
                    &self.progress.record,
                    self.state.over.as_ref().map(|o| o.termination.as_str()),
                );
                let _ = reply.send(file);
            }
            Cmd::Act {
                user,
                action,
                ack,
                base,
                reply,
            } => {
                let result = self.act_as_user(&user, action, ack, base).await;
                let _ = reply.send(result);
            }
            Cmd::Engine { version, best } => {
                if self.engine.as_ref().is_some_and(|(v, _)| *v == version) {
                    self.engine = None;
                }
                if version != self.version {
                    return;
                }
                self.check_flag().await;
                if self.version != version {
                    return;
                }
                let side = self.progress.record.position().turn();
                match best {
                    Some(mv) if self.row.levels[side.index()].is_some() => {
                        if let Err(e) = self.commit(side, Action::Move(mv)).await {
                            tracing::error!("game {}: the engine's move was refused: {e:?}", self.row.id);
                        }
                    }
                    _ => tracing::error!("game {}: the engine found no move", self.row.id),
                }
            }
        }
    }

    async fn act_as_user(
        &mut self,
        user: &str,
        action: Action,
        ack: Option<String>,
        base: Option<u64>,
    ) -> Result<u64, LiveError> {
        if let Some(ack) = &ack
            && let Some((_, _, v)) = self.acks.iter().find(|(u, a, _)| u == user && a == ack)
        {
            return Ok(*v);
        }
        let sides: Vec<Player> = Player::BOTH
            .into_iter()
            .filter(|p| self.row.users[p.index()].as_ref().is_some_and(|u| u.id == user))
            .collect();
        let side = match (sides.as_slice(), &action) {
            ([], _) => return Err(LiveError::NotAPlayer),
            ([one], _) => *one,
            // One user on both sides (a game against oneself) moves for the side to move.
            (_, _) => self.progress.record.position().turn(),
        };
        if let Some(base) = base
            && base != self.version
        {
            return Err(LiveError::Stale {
                version: self.version,
            });
        }
        // A clock that ran out ends the game before anything else is played; who has left is looked at afresh.
        self.check_flag().await;
        self.check_gone();
        let asks_takeback = action == Action::OfferTakeback;
        let mut version = self.commit(side, action).await?;
        // The engine grants a takeback at once.
        if asks_takeback && self.row.levels[(!side).index()].is_some() {
            version = self.commit(!side, Action::AcceptTakeback).await?;
        }
        if let Some(ack) = ack {
            if self.acks.len() == KEEP_ACKS {
                self.acks.pop_front();
            }
            self.acks.push_back((user.to_owned(), ack, version));
        }
        Ok(version)
    }

    /// How many more moves must be played before `side` may offer a draw again.
    fn draw_offer_waits(&self, side: Player) -> usize {
        let plies = self.hub.0.limits.draw_offer_plies as usize;
        draw_waits(&self.progress.draw_offered, self.progress.movers.len(), plies)[side.index()]
    }

    /// Checks what only the server's clock can tell: aborts, claims and flags.
    fn check_timing(&self, side: Player, action: &Action, now: i64) -> Result<(), LiveError> {
        match action {
            Action::Abort if self.over() => Err(RecordError::GameOver.into()),
            Action::Abort if self.row.tournament.is_some() => {
                Err(LiveError::Refused("a tournament game cannot be aborted".into()))
            }
            Action::Abort if self.progress.both_moved() => Err(LiveError::Refused(
                "a game can be aborted only until both sides have moved".into(),
            )),
            Action::Claim | Action::ClaimDraw if self.row.time.is_live() => {
                if self.over() {
                    return Err(RecordError::GameOver.into());
                }
                match self.gone[(!side).index()] {
                    Some(g) if now >= g.claim_at => Ok(()),
                    Some(g) => Err(LiveError::Refused(format!(
                        "your opponent may still come back: claim in {} s",
                        (g.claim_at - now + 999) / 1000
                    ))),
                    None => Err(LiveError::Refused(
                        "your opponent has the game open: there is nothing to claim".into(),
                    )),
                }
            }
            Action::ClaimDraw => Err(LiveError::Refused(
                "a draw can be claimed only when the opponent has left a live game".into(),
            )),
            Action::Claim => {
                let TimeControl::Correspondence { days } = self.row.time else {
                    return Err(LiveError::Refused(
                        "only a correspondence game, or a live game the opponent has left, can be claimed"
                            .into(),
                    ));
                };
                if self.over() {
                    return Err(RecordError::GameOver.into());
                }
                if self.progress.record.position().turn() == side {
                    return Err(LiveError::Refused(
                        "it is your move: there is nothing to claim".into(),
                    ));
                }
                if now < self.progress.clocks.since + days * DAY_MS {
                    return Err(LiveError::Refused(
                        "your opponent still has time for this move".into(),
                    ));
                }
                Ok(())
            }
            Action::Timeout { .. } if self.flag_at().is_none_or(|at| now < at) => {
                Err(LiveError::Refused("the clock has not run out".into()))
            }
            Action::OfferTakeback if !takebacks_allowed(&self.row) => Err(LiveError::Refused(
                "takebacks are only for casual games outside tournaments".into(),
            )),
            Action::OfferTakeback if self.progress.takeback == Some(side) => {
                Err(LiveError::Refused("you have asked for a takeback already".into()))
            }
            Action::OfferTakeback if self.progress.takeback == Some(!side) => Err(LiveError::Refused(
                "your opponent asks for a takeback: answer that first".into(),
            )),
            Action::OfferTakeback if !self.progress.movers.contains(&side) => Err(LiveError::Refused(
                "there is no move of yours to take back".into(),
            )),
            Action::OfferDraw if self.draw_offer_waits(side) > 0 => {
                let plies = self.hub.0.limits.draw_offer_plies;
                Err(LiveError::TooMany(format!(
                    "you may offer a draw again once {plies} more moves are played ({} to go)",
                    self.draw_offer_waits(side)
                )))
            }
            Action::AcceptTakeback | Action::DeclineTakeback if self.progress.takeback != Some(!side) => Err(
                LiveError::Refused("there is no takeback request to answer".into()),
            ),
            _ => Ok(()),
        }
    }

    /// Reads the players' ratings again (a rated game ended).
    async fn reload_ratings(&mut self) {
        for i in 0..2 {
            if let Some(u) = &self.row.users[i] {
                match self.hub.0.db.rating(&u.id, &self.row.game).await {
                    Ok(r) => self.ratings[i] = r,
                    Err(e) => tracing::error!("game {}: cannot read the new rating: {e}", self.row.id),
                }
            }
        }
    }

    /// Starts the engine if it is to move.
    fn maybe_engine(&mut self) {
        if self.over() || self.engine.is_some() || !self.holds {
            return;
        }
        let side = self.progress.record.position().turn();
        let Some(level) = self.row.levels[side.index()] else {
            return;
        };
        let stop = gridplay_search::StopFlag::new();
        self.engine = Some((self.version, stop.clone()));
        let record = self.progress.record.clone();
        let me = self.me.clone();
        let version = self.version;
        let engines = self.hub.0.engines.clone();
        let seed = seed_of(&self.row.id, version);
        self.hub.0.tasks.spawn(async move {
            let started = tokio::time::Instant::now();
            let best = engines.best_move(Lane::Game, record, level, seed, stop).await;
            tokio::time::sleep_until(started + ENGINE_MIN).await;
            if let Some(tx) = me.upgrade() {
                let _ = tx.send(Cmd::Engine { version, best }).await;
            }
        });
    }
}

/// A seed for the engine from the game and the version: the same game replays the same engine choices.
fn seed_of(id: &str, version: u64) -> u64 {
    id.bytes().fold(0xcbf2_9ce4_8422_2325_u64, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    }) ^ version.wrapping_mul(0x9e37_79b9_7f4a_7c15)
}

/// For each side, how many more moves must be played before it may offer a draw again: `plies` moves after
/// its last offer (made when `offered` moves had been played), and none before its first.
fn draw_waits(offered: &[Option<usize>; 2], played: usize, plies: usize) -> [usize; 2] {
    offered.map(|at| at.map_or(0, |at| (at + plies).saturating_sub(played)))
}
