//! `gridplay backup` and `gridplay restore`: a SQLite database copied while servers run on it, and put back
//! once none does (`gridplay_server::db::backup`). On PostgreSQL, `pg_dump` (docs/operations.md).

use std::path::PathBuf;

use clap::Args;
use gridplay_server::db::backup;

#[derive(Args, Debug)]
pub(crate) struct BackupArgs {
    /// The database to copy: `sqlite://FILE` [default: the server's default SQLite file].
    #[arg(long, env = "GRIDPLAY_DATABASE")]
    database: Option<String>,
    /// The new file to write the copy to (it must not exist).
    #[arg(long)]
    to: PathBuf,
}

#[derive(Args, Debug)]
pub(crate) struct RestoreArgs {
    /// A copy made by `gridplay backup`.
    file: PathBuf,
    /// The database to replace: `sqlite://FILE` [default: the server's default SQLite file]. The files
    /// replaced are kept beside it as `FILE.replaced-MS`.
    #[arg(long, env = "GRIDPLAY_DATABASE")]
    database: Option<String>,
}

fn database(given: Option<&String>) -> String {
    given
        .cloned()
        .unwrap_or_else(gridplay_server::config::default_database)
}

fn runtime() -> anyhow::Result<tokio::runtime::Runtime> {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| anyhow::anyhow!("cannot start the runtime: {e}"))
}

pub(crate) fn backup(args: &BackupArgs) -> anyhow::Result<()> {
    let url = database(args.database.as_ref());
    runtime()?.block_on(backup::backup(&url, &args.to))?;
    let bytes = std::fs::metadata(&args.to).map_or(0, |m| m.len());
    eprintln!("copied {url} to {} ({bytes} bytes)", args.to.display());
    Ok(())
}

pub(crate) fn restore(args: &RestoreArgs) -> anyhow::Result<()> {
    let url = database(args.database.as_ref());
    let replaced = runtime()?.block_on(backup::restore(&url, &args.file))?;
    match replaced {
        Some(old) => eprintln!(
            "restored {url} from {}; the database it replaced is kept as {}",
            args.file.display(),
            old.display()
        ),
        None => eprintln!("restored {url} from {}", args.file.display()),
    }
    Ok(())
}
