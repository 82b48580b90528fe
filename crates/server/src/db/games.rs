//! Games and their actions: a game's row, the actions in order, and the writer's way in.

use sqlx::AssertSqlSafe;
use tokio::sync::{mpsc, oneshot};

use super::{
    ActionKind, Db, DbError, EndReason, GameStatus, RateJob, Side, User, Winner,
    columns::{self, Flag, TimeColumns},
    now_ms,
    writer::{CreateJob, Job, WriteError, WriteJob, insert_game},
};
use gridplay_core::Player;

use crate::clock::TimeControl;

/// A row of `games`, with the players' names.
#[derive(Clone, Debug)]
pub struct GameRow {
    pub id: String,
    pub spec: String,
    pub game: String,
    pub users: [Option<User>; 2],
    pub levels: [Option<u8>; 2],
    /// Names for sides without a user (imported games).
    pub labels: [Option<String>; 2],
    pub status: GameStatus,
    /// The side to move; `None` once the game is over.
    pub turn: Option<Player>,
    pub winner: Option<Winner>,
    pub termination: Option<EndReason>,
    pub version: i64,
    pub created_at: i64,
    pub updated_at: i64,
    pub rated: bool,
    /// Whether both players agreed to engine hints (a casual game between people; `hints` in the state).
    pub help: bool,
    pub time: TimeControl,
    /// The tournament and round of a tournament game.
    pub tournament: Option<(String, i64)>,
}

impl GameRow {
    /// A new game in play, untimed and casual until the caller says otherwise, with a fresh id.
    #[must_use]
    pub fn new(spec: String, game: String, users: [Option<User>; 2], levels: [Option<u8>; 2]) -> GameRow {
        let now = now_ms();
        GameRow {
            id: crate::ids::short(8),
            spec,
            game,
            users,
            levels,
            labels: [None, None],
            status: GameStatus::Active,
            turn: Some(Player::First),
            winner: None,
            termination: None,
            version: 0,
            created_at: now,
            updated_at: now,
            rated: false,
            help: false,
            time: TimeControl::Untimed,
            tournament: None,
        }
    }
}

/// A row of `actions`: one move or one decision of a player.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ActionRow {
    pub seq: i64,
    pub side: Player,
    pub kind: ActionKind,
    pub body: String,
    /// When it was played, in Unix ms.
    pub at: i64,
    /// The mover's time left after a move, with a live clock.
    pub clock: Option<i64>,
}

/// What an action changes in its game's row.
#[derive(Clone, Debug)]
pub struct GameUpdate {
    pub status: GameStatus,
    pub turn: Option<Player>,
    pub winner: Option<Winner>,
    pub termination: Option<EndReason>,
}

pub(crate) const GAME_COLUMNS: &str = "g.id, g.spec, g.game, g.first_user, u1.name AS first_name, u1.bot AS first_bot, g.second_user, \
     u2.name AS second_name, u2.bot AS second_bot, g.first_level, g.second_level, g.first_label, g.second_label, g.status, g.turn, g.winner, g.termination, g.version, \
     g.created_at, g.updated_at, g.rated, g.help, g.clock_initial, g.clock_increment, g.days_per_move, g.tournament_id, \
     g.round FROM games g LEFT JOIN users u1 ON u1.id = g.first_user \
     LEFT JOIN users u2 ON u2.id = g.second_user";

/// A row of [`GAME_COLUMNS`], as stored.
#[derive(sqlx::FromRow)]
pub(crate) struct GameRecord {
    id: String,
    spec: String,
    game: String,
    first_user: Option<String>,
    first_name: Option<String>,
    first_bot: Option<Flag>,
    second_user: Option<String>,
    second_name: Option<String>,
    second_bot: Option<Flag>,
    first_level: Option<i64>,
    second_level: Option<i64>,
    first_label: Option<String>,
    second_label: Option<String>,
    status: GameStatus,
    turn: Option<Side>,
    winner: Option<Winner>,
    termination: Option<EndReason>,
    version: i64,
    created_at: i64,
    updated_at: i64,
    #[sqlx(try_from = "Flag")]
    rated: bool,
    #[sqlx(try_from = "Flag")]
    help: bool,
    #[sqlx(flatten, try_from = "TimeColumns")]
    time: TimeControl,
    tournament_id: Option<String>,
    round: Option<i64>,
}

impl From<GameRecord> for GameRow {
    fn from(r: GameRecord) -> GameRow {
        GameRow {
            id: r.id,
            spec: r.spec,
            game: r.game,
            users: [
                columns::user(r.first_user, r.first_name, r.first_bot),
                columns::user(r.second_user, r.second_name, r.second_bot),
            ],
            levels: [columns::level(r.first_level), columns::level(r.second_level)],
            labels: [r.first_label, r.second_label],
            status: r.status,
            turn: r.turn.map(Player::from),
            winner: r.winner,
            termination: r.termination,
            version: r.version,
            created_at: r.created_at,
            updated_at: r.updated_at,
            rated: r.rated,
            help: r.help,
            time: r.time,
            tournament: r.tournament_id.map(|t| (t, r.round.unwrap_or(0))),
        }
    }
}

/// A row of `actions`, as stored.
#[derive(sqlx::FromRow)]
struct ActionRecord {
    seq: i64,
    side: Side,
    kind: ActionKind,
    body: String,
    created_at: i64,
    clock: Option<i64>,
}

impl From<ActionRecord> for ActionRow {
    fn from(r: ActionRecord) -> ActionRow {
        ActionRow {
            seq: r.seq,
            side: r.side.into(),
            kind: r.kind,
            body: r.body,
            at: r.created_at,
            clock: r.clock,
        }
    }
}

/// The games that `query` (a `SELECT` of [`GAME_COLUMNS`]) finds.
pub(crate) fn game_rows(
    query: String,
) -> sqlx::query::QueryAs<'static, sqlx::Any, GameRecord, sqlx::any::AnyArguments> {
    sqlx::query_as(AssertSqlSafe(query))
}

impl Db {
    /// A player's record of games left: of the finished games between two accounts the player played, how
    /// many the player left (lost as `left` or `abandoned`, or drawn as `left` by the opponent's claim), and
    /// how many there are.
    pub async fn left_record(&self, user: &str) -> Result<(i64, i64), DbError> {
        let (finished, gone) = sqlx::query_as(
            "SELECT COUNT(*) AS finished, COALESCE(SUM(CASE WHEN g.termination IN ('left', 'abandoned') AND ( \
                 (g.first_user = $1 AND g.winner = 'second') OR (g.second_user = $1 AND g.winner = 'first') \
                 OR (g.winner = 'draw' AND EXISTS (SELECT 1 FROM actions a WHERE a.game_id = g.id \
                     AND a.kind = 'claim-draw' AND a.side <> CASE WHEN g.first_user = $1 THEN 'first' ELSE 'second' END))) \
             THEN 1 ELSE 0 END), 0) AS gone FROM games g \
             WHERE g.status = $2 AND (g.first_user = $1 OR g.second_user = $1) \
             AND g.first_user IS NOT NULL AND g.second_user IS NOT NULL",
        )
        .bind(user)
        .bind(GameStatus::Finished.as_str())
        .fetch_one(&self.pool)
        .await?;
        Ok((gone, finished))
    }

    /// Inserts a new game with version 0, in the next group its writer commits (`writer::Job`).
    pub async fn create_game(&self, g: &GameRow) -> Result<(), DbError> {
        let (done, result) = oneshot::channel();
        let job = Job::Create(CreateJob {
            game: Box::new(g.clone()),
            done,
        });
        self.committed(&g.id, job, result).await
    }

    pub async fn game(&self, id: &str) -> Result<Option<GameRow>, DbError> {
        let row = game_rows(format!("SELECT {GAME_COLUMNS} WHERE g.id = $1"))
            .bind(id)
            .fetch_optional(&self.pool)
            .await?;
        Ok(row.map(GameRow::from))
    }

    /// The games of a user in a status (`active` or `finished`), the latest first.
    pub async fn games_of(
        &self,
        user_id: &str,
        status: GameStatus,
        limit: i64,
    ) -> Result<Vec<GameRow>, DbError> {
        let rows = game_rows(format!(
            "SELECT {GAME_COLUMNS} WHERE (g.first_user = $1 OR g.second_user = $1) AND g.status = $2 \
             ORDER BY g.updated_at DESC LIMIT $3"
        ))
        .bind(user_id)
        .bind(status.as_str())
        .bind(limit)
        .fetch_all(&self.pool)
        .await?;
        Ok(rows.into_iter().map(GameRow::from).collect())
    }

    /// The games in play of every account seen at network address `address` since `since` (milliseconds), most
    /// recently changed first: one query, however many accounts share the address.
    pub async fn active_games_seen_at(
        &self,
        address: &str,
        since: i64,
        limit: i64,
    ) -> Result<Vec<GameRow>, DbError> {
        let rows = game_rows(format!(
            "SELECT {GAME_COLUMNS} WHERE g.status = $1 AND (\
             g.first_user IN (SELECT user_id FROM seen_addresses WHERE address = $2 AND seen_at >= $3) OR \
             g.second_user IN (SELECT user_id FROM seen_addresses WHERE address = $2 AND seen_at >= $3)) \
             ORDER BY g.updated_at DESC LIMIT $4"
        ))
        .bind(GameStatus::Active.as_str())
        .bind(address)
        .bind(since)
        .bind(limit)
        .fetch_all(&self.pool)
        .await?;
        Ok(rows.into_iter().map(GameRow::from).collect())
    }

    /// A game's actions in order.
    pub async fn actions(&self, game_id: &str) -> Result<Vec<ActionRow>, DbError> {
        self.actions_after(game_id, 0).await
    }

    /// A game's actions numbered above `seq`, in order.
    pub async fn actions_after(&self, game_id: &str, seq: i64) -> Result<Vec<ActionRow>, DbError> {
        let rows: Vec<ActionRecord> = sqlx::query_as(
            "SELECT seq, side, kind, body, created_at, clock FROM actions WHERE game_id = $1 AND seq > $2 \
             ORDER BY seq",
        )
        .bind(game_id)
        .bind(seq)
        .fetch_all(&self.pool)
        .await?;
        Ok(rows.into_iter().map(ActionRow::from).collect())
    }

    /// Appends action number `action.seq` (the game's new version) and updates the game, in one transaction
    /// (shared with other games' actions waiting at the same moment), with a finished game's ratings and
    /// explorer counts. Fails if another writer got there first:
    /// the primary key forbids two actions with one number.
    pub async fn append_action(
        &self,
        game_id: &str,
        action: &ActionRow,
        update: &GameUpdate,
        rate: Option<RateJob>,
        explore: Option<super::explorer::ExploreJob>,
        notice: Option<String>,
    ) -> Result<(), DbError> {
        let (done, result) = oneshot::channel();
        let job = WriteJob {
            game_id: game_id.to_owned(),
            action: action.clone(),
            status: update.status,
            turn: update.turn,
            winner: update.winner,
            termination: update.termination,
            rate,
            explore,
            notice,
            done,
        };
        self.committed(game_id, Job::Action(job), result).await
    }

    /// Gives `job` to the writer of game `game_id` and waits for the commit, whose answer comes on `result`.
    async fn committed(
        &self,
        game_id: &str,
        job: Job,
        result: oneshot::Receiver<Result<(), WriteError>>,
    ) -> Result<(), DbError> {
        let stopped = || DbError::Writer("the writer has stopped".into());
        self.writer_of(game_id).send(job).await.map_err(|_| stopped())?;
        result.await.map_err(|_| stopped())?.map_err(|e| match e {
            WriteError::Conflict => DbError::Conflict,
            WriteError::Other(e) => DbError::Writer(e),
        })
    }

    /// The writer of a game's actions: always the same one for one game.
    fn writer_of(&self, game_id: &str) -> &mpsc::Sender<Job> {
        let lane = if self.writers.len() == 1 {
            0
        } else {
            // Any hash that stays the same within the process would do; this one needs no state.
            let hash = std::hash::BuildHasher::hash_one(
                &std::hash::BuildHasherDefault::<std::hash::DefaultHasher>::default(),
                game_id,
            );
            usize::try_from(hash % self.writers.len() as u64).unwrap_or(0)
        };
        &self.writers[lane]
    }

    /// Stores an imported game and its actions in one transaction.
    pub async fn create_imported(&self, g: &GameRow, actions: &[ActionRow]) -> Result<(), DbError> {
        let mut writing = self.writing().await?;
        let mut tx = writing.begin().await?;
        insert_game(&mut *tx, g).await?;
        for a in actions {
            insert_action(&mut *tx, &g.id, a).await?;
        }
        tx.commit().await?;
        Ok(())
    }

    /// Active games with an engine on one side or a live clock: at start the server wakes them so that
    /// engines to move move and clocks flag.
    pub async fn active_engine_games(&self) -> Result<Vec<String>, DbError> {
        Ok(sqlx::query_scalar(
            "SELECT id FROM games WHERE status = 'active' AND (first_level IS NOT NULL OR second_level IS NOT NULL \
             OR clock_initial IS NOT NULL)",
        )
        .fetch_all(&self.pool)
        .await?)
    }

    /// How many moves all games hold (the load benchmark checks that none was lost).
    pub async fn count_moves(&self) -> Result<u64, DbError> {
        let n: i64 = sqlx::query_scalar("SELECT COUNT(*) AS n FROM actions WHERE kind = 'move'")
            .fetch_one(&self.pool)
            .await?;
        Ok(u64::try_from(n).unwrap_or(0))
    }

    /// How many moves one game holds.
    pub async fn count_game_moves(&self, game_id: &str) -> Result<u64, DbError> {
        let n: i64 =
            sqlx::query_scalar("SELECT COUNT(*) AS n FROM actions WHERE game_id = $1 AND kind = 'move'")
                .bind(game_id)
                .fetch_one(&self.pool)
                .await?;
        Ok(u64::try_from(n).unwrap_or(0))
    }
}

pub(super) async fn insert_action<'e, E>(executor: E, game_id: &str, a: &ActionRow) -> Result<(), sqlx::Error>
where
    E: sqlx::Executor<'e, Database = sqlx::Any>,
{
    sqlx::query(
        "INSERT INTO actions (game_id, seq, side, kind, body, created_at, clock) \
         VALUES ($1, $2, $3, $4, $5, $6, $7)",
    )
    .bind(game_id)
    .bind(a.seq)
    .bind(a.side.as_str())
    .bind(a.kind.as_str())
    .bind(&a.body)
    .bind(a.at)
    .bind(a.clock)
    .execute(executor)
    .await?;
    Ok(())
}
