//! Backups of a SQLite database: an online copy while servers run on it, and a restore that no open database
//! sees. Every [`Db`](super::Db) on a SQLite file holds a shared lock on the file beside it (`FILE.lock`); a
//! restore takes that lock alone, so it never replaces a database that a server has open, and no server opens
//! one while it is being replaced. PostgreSQL has its own tools (`pg_dump`, point-in-time recovery:
//! docs/operations.md).

use std::{
    fs::{File, OpenOptions, TryLockError},
    path::{Path, PathBuf},
    str::FromStr,
};

use sqlx::{
    Connection,
    sqlite::{SqliteConnectOptions, SqliteConnection},
};

/// What a backup or a restore can meet.
#[derive(Debug, thiserror::Error)]
pub enum BackupError {
    #[error("{0:?} is not a SQLite database file: on PostgreSQL use pg_dump (docs/operations.md)")]
    NotSqlite(String),
    #[error("{0} exists already: give a new file")]
    Exists(PathBuf),
    #[error("a server (or another program of gridplay's) has {0} open: stop it first")]
    InUse(PathBuf),
    #[error("{path} is not a gridplay database: {why}")]
    NotGridplay { path: PathBuf, why: String },
    #[error("{path}: {source}")]
    Io { path: PathBuf, source: std::io::Error },
    #[error("database: {0}")]
    Sqlx(#[from] sqlx::Error),
}

fn io(path: &Path) -> impl FnOnce(std::io::Error) -> BackupError + '_ {
    move |source| BackupError::Io {
        path: path.to_owned(),
        source,
    }
}

/// The file of a `sqlite://FILE` address; `None` for PostgreSQL and memory databases.
#[must_use]
pub fn sqlite_file(url: &str) -> Option<PathBuf> {
    if !url.starts_with("sqlite:") || url.contains(":memory:") {
        return None;
    }
    let options = SqliteConnectOptions::from_str(url).ok()?;
    Some(options.get_filename().to_owned())
}

/// The lock file beside a database file.
fn lock_path(db: &Path) -> PathBuf {
    let mut name = db.as_os_str().to_owned();
    name.push(".lock");
    PathBuf::from(name)
}

fn open_lock(db: &Path) -> Result<File, BackupError> {
    let path = lock_path(db);
    OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(&path)
        .map_err(io(&path))
}

/// A database file held open: the shared lock that keeps a restore away while it lasts.
#[derive(Debug)]
pub struct InUse(#[allow(dead_code)] File);

/// Takes the shared lock of a database file; fails while a restore replaces it.
pub fn hold(db: &Path) -> Result<InUse, BackupError> {
    let file = open_lock(db)?;
    match file.try_lock_shared() {
        Ok(()) => Ok(InUse(file)),
        Err(TryLockError::WouldBlock) => Err(BackupError::InUse(db.to_owned())),
        Err(TryLockError::Error(e)) => Err(io(&lock_path(db))(e)),
    }
}

/// Copies the database at `url` into the new file `to` while servers may be running on it: a consistent copy
/// of everything committed when the copy began (`VACUUM INTO`, one read transaction).
pub async fn backup(url: &str, to: &Path) -> Result<(), BackupError> {
    let db = sqlite_file(url).ok_or_else(|| BackupError::NotSqlite(url.to_owned()))?;
    if to.exists() {
        return Err(BackupError::Exists(to.to_owned()));
    }
    if !db.exists() {
        return Err(io(&db)(std::io::ErrorKind::NotFound.into()));
    }
    let options = SqliteConnectOptions::new()
        .filename(&db)
        .read_only(true)
        .busy_timeout(std::time::Duration::from_secs(5));
    let mut conn = SqliteConnection::connect_with(&options).await?;
    check_gridplay(&mut conn, &db).await?;
    sqlx::query("VACUUM INTO ?")
        .bind(to.to_string_lossy().into_owned())
        .execute(&mut conn)
        .await?;
    conn.close().await?;
    Ok(())
}

/// Whether an open database is gridplay's: its migrations table names at least one migration applied.
async fn check_gridplay(conn: &mut SqliteConnection, path: &Path) -> Result<(), BackupError> {
    let not = |why: String| BackupError::NotGridplay {
        path: path.to_owned(),
        why,
    };
    let check: String = sqlx::query_scalar("PRAGMA quick_check")
        .fetch_one(&mut *conn)
        .await
        .map_err(|e| not(e.to_string()))?;
    if check != "ok" {
        return Err(not(format!("the integrity check says {check}")));
    }
    let applied: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM _sqlx_migrations WHERE success")
        .fetch_one(&mut *conn)
        .await
        .map_err(|_| not("it has no table of gridplay's migrations".into()))?;
    if applied == 0 {
        return Err(not("no migration of gridplay's was applied to it".into()));
    }
    Ok(())
}

/// Replaces the database at `url` with the backup `from`, once no program has it open. The files replaced
/// (the database and its write-ahead log) are kept beside it, renamed `FILE.replaced-MS` and
/// `FILE.replaced-MS-wal` (MS the time, Unix ms): nothing that was stored is lost. Returns the name of the database file replaced, if there was one.
pub async fn restore(url: &str, from: &Path) -> Result<Option<PathBuf>, BackupError> {
    let db = sqlite_file(url).ok_or_else(|| BackupError::NotSqlite(url.to_owned()))?;
    if !from.is_file() {
        return Err(io(from)(std::io::ErrorKind::NotFound.into()));
    }
    let options = SqliteConnectOptions::new().filename(from).read_only(true);
    let mut conn = SqliteConnection::connect_with(&options).await?;
    check_gridplay(&mut conn, from).await?;
    conn.close().await?;
    if let Some(dir) = db.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).map_err(io(dir))?;
    }
    let lock = open_lock(&db)?;
    match lock.try_lock() {
        Ok(()) => {}
        Err(TryLockError::WouldBlock) => return Err(BackupError::InUse(db)),
        Err(TryLockError::Error(e)) => return Err(io(&lock_path(&db))(e)),
    }
    // Set aside as `FILE.replaced-MS` with its log as `FILE.replaced-MS-wal`, the names SQLite pairs: the
    // file replaced opens whole, with what its log held.
    let mut aside = db.as_os_str().to_owned();
    aside.push(format!(".replaced-{}", super::now_ms()));
    let aside = PathBuf::from(aside);
    let mut replaced = None;
    for suffix in ["", "-wal", "-shm"] {
        let with = |p: &Path| {
            let mut name = p.as_os_str().to_owned();
            name.push(suffix);
            PathBuf::from(name)
        };
        let file = with(&db);
        if file.exists() {
            std::fs::rename(&file, with(&aside)).map_err(io(&file))?;
            if suffix.is_empty() {
                replaced = Some(aside.clone());
            }
        }
    }
    // Copied beside it, then renamed into place: the database file is whole or absent, never half written.
    let mut part = db.as_os_str().to_owned();
    part.push(".restoring");
    let part = PathBuf::from(part);
    std::fs::copy(from, &part).map_err(io(&part))?;
    File::open(&part).and_then(|f| f.sync_all()).map_err(io(&part))?;
    std::fs::rename(&part, &db).map_err(io(&db))?;
    drop(lock);
    Ok(replaced)
}
