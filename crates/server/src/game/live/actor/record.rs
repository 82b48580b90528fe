//! What a player's action does to a game record: the rules' part of an actor's work, shared by the actions
//! committed here and those caught up from another server.

use gridplay_core::{GameRecord, MoveView, Player, RecordError, Termination};

use crate::game::live::{Action, LiveError};

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
pub(super) fn apply(
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
