//! Puzzles in the game layer: the set the server ships (`puzzles/shipped.tsv.deflate`, made by `gridplay
//! puzzles mine` and `pack`), stored at start, and puzzles mined from the site's finished games between two
//! accounts, a few games at a time in the engine's analysis lane, so that mining never delays a game.

use std::io::Read;

use gridplay_core::Registry;

use crate::{
    db::{Db, DbError, now_ms, puzzles::NewPuzzle},
    game::live::GameHub,
};

/// The shipped set, deflated: one puzzle a line, `spec`, position, solution and proof separated by tabs.
const SHIPPED: &[u8] = include_bytes!("../../puzzles/shipped.tsv.deflate");

/// The shipped puzzles of the games `registry` offers, each checked by the rules library (its position read,
/// its solution played).
///
/// # Errors
///
/// A line that is not a puzzle of a registered game, with its number.
pub fn shipped(registry: &Registry) -> Result<Vec<NewPuzzle>, String> {
    parse_shipped(&shipped_text()?, registry)
}

/// The puzzles of the inflated set `text`, as [`shipped`] gives them.
fn parse_shipped(text: &str, registry: &Registry) -> Result<Vec<NewPuzzle>, String> {
    shipped_lines(text, registry)
        .map(|(n, l)| {
            let at = |e: String| format!("shipped puzzle {}: {e}", n + 1);
            let fields: Vec<&str> = l.split('\t').collect();
            let [spec, position, solution, proof] = fields[..] else {
                return Err(at("four fields separated by tabs".into()));
            };
            let game = registry.game(spec).map_err(|e| at(e.to_string()))?;
            let mut pos = game.parse_position(position).map_err(|e| at(e.to_string()))?;
            let solution: Vec<String> = solution.split(' ').map(str::to_owned).collect();
            for m in &solution {
                pos.play(m).map_err(|e| at(e.to_string()))?;
            }
            Ok(NewPuzzle {
                game: game.info().name,
                spec: game.spec().to_string(),
                position: position.to_owned(),
                solution,
                proof: proof.to_owned(),
                source: "shipped".into(),
            })
        })
        .collect()
}

/// The shipped set, inflated.
fn shipped_text() -> Result<String, String> {
    let mut text = String::new();
    flate2::read::DeflateDecoder::new(SHIPPED)
        .read_to_string(&mut text)
        .map_err(|e| format!("the shipped puzzles: {e}"))?;
    Ok(text)
}

/// The shipped set's lines of the games `registry` offers, each with its index in the file (the test games'
/// puzzles are left out).
fn shipped_lines<'a>(text: &'a str, registry: &Registry) -> impl Iterator<Item = (usize, &'a str)> {
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .filter(move |(_, l)| {
            let name = l.split(['\t', ':']).next().unwrap_or_default();
            registry.entry(name).is_some()
        })
}

/// Stores the shipped puzzles that are not stored yet; returns how many were added. Where as many are stored
/// as the set has, the set is not read further (a server's every start after its first).
///
/// # Errors
///
/// The database's.
pub async fn store_shipped(db: &Db, registry: &Registry) -> Result<u64, DbError> {
    let (_, stored) = db.count_puzzles(None, "shipped").await?;
    let text = shipped_text().map_err(DbError::Writer)?;
    if usize::try_from(stored).unwrap_or(0) >= shipped_lines(&text, registry).count() {
        return Ok(0);
    }
    let puzzles = parse_shipped(&text, registry).map_err(DbError::Writer)?;
    db.add_puzzles(&puzzles, now_ms()).await
}

/// A stored game of the site to mine: its id, its variant's spec, and its start and moves.
#[derive(Debug)]
pub struct SiteGame {
    pub id: String,
    pub spec: String,
    pub game: String,
    pub record: gridplay_core::GameRecord,
}

/// Up to `limit` of the site's finished games between two accounts not mined yet, the latest first, their
/// moves replayed from the database.
///
/// # Errors
///
/// The database's; a game that does not replay is left out (and logged).
pub async fn site_games(db: &Db, registry: &Registry, limit: i64) -> Result<Vec<SiteGame>, DbError> {
    let mut out = Vec::new();
    for id in db.unmined_games(limit).await? {
        match crate::game::live::stored_record(db, registry, &id).await {
            Ok((row, record)) => out.push(SiteGame {
                id,
                spec: row.spec,
                game: row.game,
                record,
            }),
            Err(e) => tracing::warn!("game {id} is left unmined: {e:?}"),
        }
    }
    Ok(out)
}

/// Mines up to `games` of the site's finished games between two accounts not mined yet: at most one puzzle
/// from each, of its last `positions` positions worth judging.
///
/// # Errors
///
/// The database's.
pub async fn mine_site(hub: &GameHub, games: i64, positions: usize) -> Result<Mined, DbError> {
    let db = hub.db();
    let mut mined = Mined::default();
    for g in site_games(db, hub.registry(), games).await? {
        if let Some(p) = mine_game(hub, &g, positions).await {
            mined.found += 1;
            mined.added += db.add_puzzles(&[p], now_ms()).await?;
        }
        db.mark_mined(&g.id, now_ms()).await?;
        mined.games += 1;
    }
    Ok(mined)
}

/// What a round of mining did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Mined {
    pub games: u64,
    /// Puzzles found.
    pub found: u64,
    /// Of those, the ones not stored before (a position is stored once).
    pub added: u64,
}

async fn mine_game(hub: &GameHub, g: &SiteGame, positions: usize) -> Option<NewPuzzle> {
    let start = g.record.start().box_clone();
    for pos in gridplay_engine::puzzles::candidates(start.as_ref(), g.record.moves())
        .into_iter()
        .rev()
        .take(positions)
    {
        let position = pos.to_text();
        if let Some(found) = hub.engines().puzzle(pos, g.game.clone()).await {
            return Some(NewPuzzle {
                game: g.game.clone(),
                spec: g.spec.clone(),
                position,
                solution: found.solution,
                proof: found.proof,
                source: format!("site:{}", g.id),
            });
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_shipped_set_reads_and_holds_enough_puzzles_of_every_game() {
        let registry = gridplay_games::registry_with_test_games();
        let puzzles = shipped(registry).expect("the shipped puzzles read");
        // The count that lets a later start skip the reading is the count of puzzles read.
        let text = shipped_text().unwrap();
        assert_eq!(shipped_lines(&text, registry).count(), puzzles.len());
        for entry in registry.entries() {
            let n = puzzles.iter().filter(|p| p.game == entry.name).count();
            // 500 of Reversi and checkers and 150 of each other game (docs/performance.md).
            let least = match entry.name {
                "reversi" | "checkers" => 500,
                _ => 150,
            };
            assert!(n >= least, "{}: {n} puzzles", entry.name);
        }
        // A server without the test games leaves theirs out.
        let without = shipped(gridplay_games::registry()).unwrap();
        assert!(without.iter().all(|p| p.game != "tictactoe"));
        assert!(without.len() < puzzles.len());
    }
}
