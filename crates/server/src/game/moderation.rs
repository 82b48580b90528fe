//! Moderation's actions on an account: what each does and what it must not do, checked before it is taken,
//! then taken and recorded in one transaction (`Db::moderate`) and told to the lobby.

use crate::{
    db::{Act, Db, DbError, ModKind, Standing, User, now_ms},
    game::lobby::Lobby,
    ids,
};

/// The longest mute, in minutes: 30 days.
pub const MUTE_MAX_MINUTES: i64 = 30 * 24 * 60;

/// What an admin does to an account.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sanction {
    /// A warning the player reads on their account page.
    Warn,
    /// No chat for `minutes` (1 to [`MUTE_MAX_MINUTES`]).
    Mute { minutes: i64 },
    /// The name replaced by a neutral one no one has, `player-` and six letters or digits.
    Rename,
    /// Marked as an engine user: off the leaderboards.
    Engine,
    /// The account closed: no sign-in, every session ended, its open challenges cancelled.
    Close,
}

impl Sanction {
    #[must_use]
    pub fn kind(self) -> ModKind {
        match self {
            Sanction::Warn => ModKind::Warn,
            Sanction::Mute { .. } => ModKind::Mute,
            Sanction::Rename => ModKind::Rename,
            Sanction::Engine => ModKind::Engine,
            Sanction::Close => ModKind::Close,
        }
    }
}

/// Why an action was not taken.
#[derive(Debug, thiserror::Error)]
pub enum ActError {
    #[error("no such player")]
    NoSuchPlayer,
    #[error("an admin does not act on their own account")]
    OwnAccount,
    #[error("{0} is closed already")]
    Closed(String),
    #[error("a mute lasts 1 to {MUTE_MAX_MINUTES} minutes (30 days)")]
    BadMinutes,
    #[error("no neutral name was free")]
    NoFreeName,
    #[error(transparent)]
    Db(#[from] DbError),
}

/// `admin` takes `sanction` on the account named `name` (in any case), for the reason `why` (checked text):
/// returns the account's standing after it.
///
/// # Errors
///
/// No such account, one's own, a closed one, a mute's length out of range ([`ActError`]), or the database's.
pub async fn act(
    db: &Db,
    lobby: &Lobby,
    admin: &User,
    name: &str,
    sanction: Sanction,
    why: &str,
) -> Result<Standing, ActError> {
    let target = db.standing(name).await?.ok_or(ActError::NoSuchPlayer)?;
    if target.id == admin.id {
        return Err(ActError::OwnAccount);
    }
    if target.closed {
        return Err(ActError::Closed(target.name));
    }
    let mut act = Act::new(sanction.kind(), why);
    let mut new_name = None;
    match sanction {
        Sanction::Mute { minutes } => {
            if !(1..=MUTE_MAX_MINUTES).contains(&minutes) {
                return Err(ActError::BadMinutes);
            }
            act.until = Some(now_ms() + minutes * 60_000);
            act.detail = format!("{minutes} minutes");
        }
        Sanction::Rename => {
            let name = free_name(db).await?;
            act.detail = format!("{} → {name}", target.name);
            new_name = Some(name);
        }
        Sanction::Warn | Sanction::Engine | Sanction::Close => {}
    }
    act.new_name = new_name.as_deref();
    db.moderate(&target.id, Some(&admin.id), &act).await?;
    if sanction == Sanction::Close {
        lobby.signed_out(&target.id);
    }
    if matches!(sanction, Sanction::Rename | Sanction::Close) {
        lobby.changed();
    }
    let shown = new_name.unwrap_or(target.name);
    db.standing(&shown).await?.ok_or(ActError::NoSuchPlayer)
}

/// A neutral name no one has: `player-` and six lower-case letters or digits (a valid name by construction).
async fn free_name(db: &Db) -> Result<String, ActError> {
    for _ in 0..5 {
        let name = format!("player-{}", ids::short(6).to_lowercase());
        if db.user_named(&name).await?.is_none() {
            return Ok(name);
        }
    }
    Err(ActError::NoFreeName)
}
