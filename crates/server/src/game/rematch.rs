//! A rematch: the same game again with the colours swapped. Against the engine the new game starts at once;
//! against a person it is a challenge to them, which they accept or decline.

use crate::{
    db::{ChallengeColor, ChallengeRow, ChallengeStatus, DbError, GameRow, GameStatus, User, now_ms},
    game::live::GameHub,
    ids,
};

/// What a rematch made.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Rematch {
    /// A game against the engine, started: its id.
    Game(String),
    /// A challenge to the opponent: its id.
    Challenge(String),
}

/// Why no rematch was made.
#[derive(Debug, thiserror::Error)]
pub enum RematchError {
    #[error("no such game")]
    NoSuchGame,
    #[error("you did not play this game")]
    NotAPlayer,
    #[error("the game is not over yet")]
    Ongoing,
    #[error("one of you blocks the other: there are no challenges between you")]
    Blocked,
    #[error("tournament games are paired by the tournament")]
    Tournament,
    #[error("this game has no opponent to ask")]
    NoOpponent,
    #[error("you have {0} open challenges, the most allowed: cancel one first")]
    TooManyChallenges(u32),
    #[error(transparent)]
    Db(#[from] DbError),
}

/// `me` asks for a rematch of game `id`, having at most `open_challenges` open challenges.
///
/// # Errors
///
/// A game that is not `me`'s, not over, a tournament's, or without an opponent; players who block each other;
/// too many open challenges ([`RematchError`]); or the database's.
pub async fn rematch(
    hub: &GameHub,
    me: &User,
    id: &str,
    open_challenges: u32,
) -> Result<Rematch, RematchError> {
    let db = hub.db();
    let g = db.game(id).await?.ok_or(RematchError::NoSuchGame)?;
    let mine = g
        .users
        .iter()
        .position(|u| u.as_ref().is_some_and(|u| u.id == me.id))
        .ok_or(RematchError::NotAPlayer)?;
    if g.status == GameStatus::Active {
        return Err(RematchError::Ongoing);
    }
    let other = 1 - mine;
    if let Some(them) = &g.users[other]
        && db.blocked_between(&me.id, &them.id).await?
    {
        return Err(RematchError::Blocked);
    }
    if g.tournament.is_some() {
        return Err(RematchError::Tournament);
    }
    if let Some(level) = g.levels[other] {
        // The engine accepts at once: the player takes the other side.
        let mut users = [None, None];
        let mut levels = [None, None];
        users[other] = Some(me.clone());
        levels[mine] = Some(level);
        let mut game = GameRow::new(g.spec.clone(), g.game.clone(), users, levels);
        game.time = g.time;
        db.create_game(&game).await?;
        if let Err(e) = hub.wake(&game.id).await {
            tracing::error!("game {}: {e:?}", game.id);
        }
        return Ok(Rematch::Game(game.id));
    }
    let opponent = g.users[other].clone().ok_or(RematchError::NoOpponent)?;
    if db.open_challenges_of(&me.id).await? >= u64::from(open_challenges) {
        return Err(RematchError::TooManyChallenges(open_challenges));
    }
    let row = ChallengeRow {
        id: ids::short(8),
        creator: me.clone(),
        target: Some(opponent.clone()),
        spec: g.spec.clone(),
        // The asker takes the side the opponent had.
        color: if other == 0 {
            ChallengeColor::First
        } else {
            ChallengeColor::Second
        },
        status: ChallengeStatus::Open,
        game_id: None,
        created_at: now_ms(),
        rated: g.rated,
        help: g.help,
        time: g.time,
        // A rematch is between two players who have just played: no record asked.
        good_record: false,
    };
    db.create_challenge(&row).await?;
    hub.lobby().rematch(&opponent.id, &g.id, &row.id, &me.name);
    hub.lobby().changed();
    Ok(Rematch::Challenge(row.id))
}
