//! The column types that rows are read into where a Rust type and its stored form differ, so that every row
//! is mapped by `#[derive(sqlx::FromRow)]`: a flag kept as an integer, a clock kept in three columns, a user
//! kept as the id, name and bot columns of a join.
//!
//! Flags are integers in both databases: SQLite has no boolean type, and the `Any` driver reads SQLite's
//! integers as integers only, so one schema for both keeps 0 and 1, and [`Flag`] reads them as a `bool`.

use sqlx::{
    Any, Decode, Encode, FromRow, Type,
    any::{AnyTypeInfo, AnyValueRef},
    encode::IsNull,
    error::BoxDynError,
};

use super::User;
use crate::clock::TimeControl;

/// A boolean stored as the integer 0 or 1. Read into a `bool` field with `#[sqlx(try_from = "Flag")]`, and
/// bound as `Flag(value)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Flag(pub bool);

impl Type<Any> for Flag {
    fn type_info() -> AnyTypeInfo {
        <i64 as Type<Any>>::type_info()
    }

    fn compatible(ty: &AnyTypeInfo) -> bool {
        <i64 as Type<Any>>::compatible(ty)
    }
}

impl<'r> Decode<'r, Any> for Flag {
    fn decode(value: AnyValueRef<'r>) -> Result<Flag, BoxDynError> {
        match <i64 as Decode<Any>>::decode(value)? {
            0 => Ok(Flag(false)),
            1 => Ok(Flag(true)),
            n => Err(format!("{n} is not a flag (0 or 1)").into()),
        }
    }
}

impl Encode<'_, Any> for Flag {
    fn encode_by_ref(
        &self,
        buf: &mut <Any as sqlx::Database>::ArgumentBuffer,
    ) -> Result<IsNull, BoxDynError> {
        <i64 as Encode<Any>>::encode(i64::from(self.0), buf)
    }
}

impl From<Flag> for bool {
    fn from(f: Flag) -> bool {
        f.0
    }
}

/// A row's clock columns: `clock_initial`, `clock_increment` and `days_per_move`. Read into a
/// [`TimeControl`] field with `#[sqlx(flatten, try_from = "TimeColumns")]`.
#[derive(FromRow)]
pub(crate) struct TimeColumns {
    clock_initial: Option<i64>,
    clock_increment: Option<i64>,
    days_per_move: Option<i64>,
}

impl From<TimeColumns> for TimeControl {
    fn from(c: TimeColumns) -> TimeControl {
        TimeControl::from_columns(c.clock_initial, c.clock_increment, c.days_per_move)
    }
}

/// The creator of a challenge or a tournament: the columns `creator`, `creator_name` and `creator_bot`. Read
/// into a [`User`] field with `#[sqlx(flatten, try_from = "Creator")]`.
#[derive(FromRow)]
pub(crate) struct Creator {
    creator: String,
    creator_name: String,
    #[sqlx(try_from = "Flag")]
    creator_bot: bool,
}

impl From<Creator> for User {
    fn from(c: Creator) -> User {
        User {
            id: c.creator,
            name: c.creator_name,
            bot: c.creator_bot,
        }
    }
}

/// A user read from a join that may find none: its id and name, and its bot flag. The rows that name two
/// users (a game's, a challenge's) read them as the prefixed columns of their own record, through [`user`].
#[must_use]
pub(crate) fn user(id: Option<String>, name: Option<String>, bot: Option<Flag>) -> Option<User> {
    id.zip(name).map(|(id, name)| User {
        id,
        name,
        bot: bot.is_some_and(bool::from),
    })
}

/// An engine level column: a number from 1, `None` when the side is not the engine's.
#[must_use]
pub(crate) fn level(stored: Option<i64>) -> Option<u8> {
    stored.and_then(|l| u8::try_from(l).ok())
}
