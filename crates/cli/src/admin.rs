//! `gridplay admin`: the site's admins, made and unmade on the server's database. There is no default admin;
//! the first is made here, by whoever runs the server. Each grant and revoke is recorded on the account's
//! moderation history as coming from the command line.

use clap::{Args, Subcommand};
use gridplay_server::db::{Act, Db, ModKind};

#[derive(Args, Debug)]
pub(crate) struct AdminArgs {
    #[command(subcommand)]
    what: AdminCommand,
    /// The server's database: `sqlite://FILE` or `postgres://...` [default: the server's default SQLite file].
    #[arg(long, env = "GRIDPLAY_DATABASE", global = true)]
    database: Option<String>,
}

#[derive(Debug, Subcommand)]
enum AdminCommand {
    /// Makes the account NAME an admin: it may read the reports and act on accounts.
    Grant {
        name: String,
        /// Why, kept on the account's moderation history.
        #[arg(long, default_value = "made an admin by the server's operator")]
        reason: String,
    },
    /// Takes admin rights back from NAME.
    Revoke {
        name: String,
        #[arg(long, default_value = "admin rights taken back by the server's operator")]
        reason: String,
    },
    /// Lists the admins.
    List,
}

pub(crate) fn admin(args: &AdminArgs) -> anyhow::Result<()> {
    let url = args
        .database
        .clone()
        .unwrap_or_else(gridplay_server::config::default_database);
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| anyhow::anyhow!("cannot start the runtime: {e}"))?;
    rt.block_on(async {
        let db = Db::connect(&url, 1, 1)
            .await
            .map_err(|e| anyhow::anyhow!("{url}: {e}"))?;
        run(&db, &args.what).await
    })
}

async fn run(db: &Db, what: &AdminCommand) -> anyhow::Result<()> {
    let (name, reason, grant) = match what {
        AdminCommand::Grant { name, reason } => (name, reason, true),
        AdminCommand::Revoke { name, reason } => (name, reason, false),
        AdminCommand::List => {
            for name in db.admins().await? {
                println!("{name}");
            }
            return Ok(());
        }
    };
    let s = db
        .standing(name)
        .await?
        .ok_or_else(|| anyhow::anyhow!("there is no account named {name}"))?;
    if s.closed {
        return Err(anyhow::anyhow!(
            "{} is closed: a closed account cannot be an admin",
            s.name
        ));
    }
    if s.admin == grant {
        eprintln!(
            "{} {} an admin already",
            s.name,
            if grant { "is" } else { "is not" }
        );
        return Ok(());
    }
    let kind = if grant { ModKind::Grant } else { ModKind::Revoke };
    db.moderate(&s.id, None, &Act::new(kind, reason)).await?;
    eprintln!(
        "{} {}",
        s.name,
        if grant {
            "is now an admin"
        } else {
            "is no longer an admin"
        }
    );
    Ok(())
}
