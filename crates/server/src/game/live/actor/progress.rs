//! What an action does to a game, written once: [`Progress::act`] is called for an action committed here,
//! for each stored action when a game is loaded, and for an action another server committed. The three
//! differ only in where the mover's time comes from ([`Timing`]).

use gridplay_core::{DynGame, GameRecord, MoveView, Player, RecordError, Termination};

use crate::{
    clock::{Clocks, TimeControl},
    game::live::{Action, LiveError},
};

/// A game's progress apart from its row: the record, and everything else its actions decide.
#[derive(Clone)]
pub(super) struct Progress {
    pub(super) record: GameRecord,
    pub(super) clocks: Clocks,
    /// Whether each side has made a move.
    pub(super) moved: [bool; 2],
    /// The side that made each move, in order.
    pub(super) movers: Vec<Player>,
    pub(super) aborted: bool,
    /// The side whose takeback request waits for an answer.
    pub(super) takeback: Option<Player>,
    /// For each side, the number of moves played when it last offered a draw.
    pub(super) draw_offered: [Option<usize>; 2],
}

/// Where a move's clock comes from.
#[derive(Clone, Copy, Debug)]
pub(super) enum Timing {
    /// The move is made now: the mover's clock is charged by the time control.
    Live(TimeControl),
    /// The move was stored with the mover's time left (none off a live clock).
    Stored(Option<i64>),
}

/// What [`Progress::act`] did.
#[derive(Debug)]
pub(super) struct Acted {
    /// The action as its row's body (a move's canonical text).
    pub(super) text: String,
    /// The mover's time left to store with a move on a live clock.
    pub(super) clock: Option<i64>,
}

impl Progress {
    /// A game at its start, its clocks set at `start` (ms).
    pub(super) fn new(game: &dyn DynGame, time: TimeControl, start: i64) -> Progress {
        Progress {
            record: GameRecord::new(game.start()),
            clocks: Clocks::new(time, start),
            moved: [false; 2],
            movers: Vec::new(),
            aborted: false,
            takeback: None,
            draw_offered: [None; 2],
        }
    }

    /// Whether the game is over (ended or aborted).
    pub(super) fn over(&self) -> bool {
        self.aborted || self.record.outcome().is_some()
    }

    /// Both sides have made a move.
    pub(super) fn both_moved(&self) -> bool {
        self.moved[0] && self.moved[1]
    }

    /// Plays `side`'s action at `at` (ms): the record, the clocks, who moved, and what waits for an answer.
    /// `live`: the game has a live clock (a claim is then of an opponent who left). On an error nothing
    /// changed.
    pub(super) fn act(
        &mut self,
        side: Player,
        action: &Action,
        at: i64,
        timing: Timing,
        live: bool,
    ) -> Result<Acted, LiveError> {
        if self.aborted {
            return Err(RecordError::GameOver.into());
        }
        let text = apply(&mut self.record, side, action, &self.movers, live)?;
        let over = self.record.outcome().is_some() || *action == Action::Abort;
        let turn = (!over).then(|| self.record.position().turn());
        let mut clock = None;
        match action {
            Action::Move(_) => {
                self.moved[side.index()] = true;
                self.movers.push(side);
                self.takeback = None;
                let both = self.both_moved();
                match timing {
                    Timing::Live(time) => {
                        let left = self.clocks.on_move(time, side, at, turn, both);
                        clock = matches!(time, TimeControl::Live { .. }).then_some(left);
                    }
                    Timing::Stored(left) => {
                        self.clocks.replay_move(side, left, at, turn, both);
                        clock = left;
                    }
                }
            }
            Action::AcceptTakeback => {
                self.takeback = None;
                self.movers.truncate(self.record.moves().len());
                let both = self.both_moved();
                self.clocks.on_takeback(at, self.record.position().turn(), both);
            }
            Action::OfferTakeback => self.takeback = Some(side),
            Action::DeclineTakeback => self.takeback = None,
            Action::OfferDraw => self.draw_offered[side.index()] = Some(self.movers.len()),
            _ => {}
        }
        if *action == Action::Abort {
            self.aborted = true;
        }
        if over && !matches!(action, Action::Move(_)) {
            self.clocks.stop(at);
        }
        Ok(Acted { text, clock })
    }
}

/// The record with the moves back to and including `asker`'s last one taken back.
fn take_back(record: &GameRecord, movers: &[Player], asker: Player) -> Result<GameRecord, LiveError> {
    let Some(from) = movers.iter().rposition(|p| *p == asker) else {
        return Err(LiveError::Refused(
            "there is no move of yours to take back".into(),
        ));
    };
    GameRecord::replay(
        record.start().box_clone(),
        record.moves()[..from].iter().map(String::as_str),
    )
    .map_err(|(i, e)| {
        tracing::error!("a takeback does not replay at move {i}: {e}");
        LiveError::Internal
    })
}

/// The last move of a record as the board showed it, for marking it after a takeback.
pub(super) fn last_move_of(record: &GameRecord) -> Option<MoveView> {
    let (last, before) = record.moves().split_last()?;
    let mut pos = record.start().box_clone();
    for m in before {
        pos.play(m).ok()?;
    }
    pos.view().moves.into_iter().find(|v| &v.text == last)
}

/// Plays `action` of `side` on `record` (`live`: the game has a live clock); returns the action's text.
fn apply(
    record: &mut GameRecord,
    side: Player,
    action: &Action,
    movers: &[Player],
    live: bool,
) -> Result<String, LiveError> {
    Ok(match action {
        Action::Move(text) => {
            if record.outcome().is_some() {
                return Err(RecordError::GameOver.into());
            }
            if record.position().turn() != side {
                return Err(LiveError::NotYourTurn);
            }
            record.play(text)?
        }
        Action::Resign => {
            record.resign(side)?;
            String::new()
        }
        Action::OfferDraw => {
            record.offer_draw(side)?;
            String::new()
        }
        Action::AcceptDraw => {
            record.accept_draw(side)?;
            String::new()
        }
        Action::DeclineDraw => {
            record.decline_draw(side)?;
            String::new()
        }
        Action::Timeout { gone: false } => {
            record.forfeit(side, Termination::Timeout)?;
            String::new()
        }
        // A clock run out while the player's pages were all gone: the game was left.
        Action::Timeout { gone: true } => {
            record.forfeit(side, Termination::Left)?;
            super::super::TIMEOUT_GONE.to_owned()
        }
        Action::Claim => {
            // A live game's claim is of an opponent who left; a correspondence game's of a deadline passed.
            let why = if live {
                Termination::Left
            } else {
                Termination::Abandoned
            };
            record.forfeit(!side, why)?;
            String::new()
        }
        Action::ClaimDraw => {
            record.draw(Termination::Left)?;
            String::new()
        }
        Action::Abort | Action::OfferTakeback | Action::DeclineTakeback => {
            if record.outcome().is_some() {
                return Err(RecordError::GameOver.into());
            }
            String::new()
        }
        Action::AcceptTakeback => {
            if record.outcome().is_some() {
                return Err(RecordError::GameOver.into());
            }
            *record = take_back(record, movers, !side)?;
            String::new()
        }
    })
}
