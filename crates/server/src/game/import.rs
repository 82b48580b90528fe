//! A game file made a replay: read by its game's format, its moves played through the rules (an illegal one
//! refused with its number, its text and the reason), a result the moves do not reach recorded as the
//! decisions that make it (a resignation, an agreed draw), and the replay stored with its actions.

use gridplay_core::{CodecError, GameRecord, Outcome, Player, RecordError, Registry};

use crate::{
    db::{ActionKind, ActionRow, Db, DbError, GameRow, GameStatus, Winner, now_ms},
    text::TextError,
    transcript,
};

/// Why a file was not imported.
#[derive(Debug, thiserror::Error)]
pub(crate) enum ImportError {
    /// The file is not a game the rules accept.
    #[error(transparent)]
    File(#[from] CodecError),
    /// A player's name in the file breaks the rule of free text.
    #[error("the {which} player's name in the file {error}")]
    Name { which: &'static str, error: TextError },
    #[error(transparent)]
    Db(#[from] DbError),
}

/// Imports the game file `text` as a replay; returns its id.
///
/// # Errors
///
/// The file's format, moves or names ([`ImportError`]), or the database's.
pub(crate) async fn import(db: &Db, registry: &Registry, text: &str) -> Result<String, ImportError> {
    let imported = transcript::import(registry, text)?;
    let labels = names(&imported.names)?;
    let mut record = imported.record;
    let mut actions = moves(&record)?;
    // A result the moves do not reach is recorded as those decisions.
    if record.outcome().is_none() {
        let decided = |error: RecordError| CodecError::Format(format!("the file's result: {error}"));
        match imported.result {
            Some(Outcome::Win { winner }) => {
                record.resign(!winner).map_err(decided)?;
                actions.push((!winner, ActionKind::Resign));
            }
            Some(Outcome::Draw) => {
                let p = record.position().turn();
                record.offer_draw(p).map_err(decided)?;
                record.accept_draw(!p).map_err(decided)?;
                actions.push((p, ActionKind::OfferDraw));
                actions.push((!p, ActionKind::AcceptDraw));
            }
            None => {}
        }
    }
    let now = now_ms();
    let mut row = GameRow::new(
        imported.spec,
        imported.game.info().name,
        [None, None],
        [None, None],
    );
    row.labels = labels;
    row.status = GameStatus::Imported;
    row.turn = None;
    row.winner = record.outcome().map(|(o, _)| Winner::from(o));
    row.version = actions.len() as i64;
    let mut texts = record.moves().iter();
    let rows: Vec<ActionRow> = actions
        .into_iter()
        .enumerate()
        .map(|(i, (side, kind))| ActionRow {
            seq: i as i64 + 1,
            side,
            kind,
            body: if kind == ActionKind::Move {
                texts.next().cloned().unwrap_or_default()
            } else {
                String::new()
            },
            at: now,
            clock: None,
        })
        .collect();
    db.create_imported(&row, &rows).await?;
    Ok(row.id)
}

/// The record's moves played again from its start through the rules, with who played each; an illegal move
/// is refused with its number, its text and the reason.
fn moves(record: &GameRecord) -> Result<Vec<(Player, ActionKind)>, CodecError> {
    let mut pos = record.start().box_clone();
    let mut actions = Vec::with_capacity(record.moves().len());
    for (i, m) in record.moves().iter().enumerate() {
        let side = pos.turn();
        pos.play(m).map_err(|e| CodecError::Move {
            number: i + 1,
            text: m.clone(),
            error: RecordError::Move(e),
        })?;
        actions.push((side, ActionKind::Move));
    }
    Ok(actions)
}

/// The players' names from a file, shown to others: the rule of free text, cut to 40 characters.
fn names(names: &[Option<String>; 2]) -> Result<[Option<String>; 2], ImportError> {
    let mut labels = [None, None];
    for (i, name) in names.iter().enumerate() {
        labels[i] = match name.as_deref().map(|n| crate::text::clean(n, usize::MAX)) {
            None | Some(Err(TextError::Empty)) => None,
            Some(Ok(n)) => Some(n.chars().take(40).collect::<String>()),
            Some(Err(error)) => {
                let which = if i == 0 { "first" } else { "second" };
                return Err(ImportError::Name { which, error });
            }
        };
    }
    Ok(labels)
}
