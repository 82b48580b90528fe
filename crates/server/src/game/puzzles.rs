//! Puzzles in the game layer: the set the server ships (`puzzles/shipped.tsv.deflate`, made by `gridplay
//! puzzles mine` and `pack`), stored at start, and puzzles mined from the site's finished games between two
//! accounts, a few games at a time in the engine's analysis lane, so that mining never delays a game.

use std::io::Read;

use gridplay_core::{DynPosition, Registry};

use skillratings::{
    Outcomes,
    glicko2::{Glicko2Config, Glicko2Rating, glicko2},
};

use crate::{
    db::{
        Db, DbError, now_ms,
        puzzles::{NewPuzzle, PuzzlePlayer, PuzzleRow, Rated},
    },
    game::live::GameHub,
};

/// The shipped set, deflated: one puzzle a line, `spec`, position, solution, proof and grades separated by
/// tabs (`gridplay puzzles prove`).
const SHIPPED: &[u8] = include_bytes!("../../puzzles/shipped.tsv.deflate");

/// The shipped puzzles of the games `registry` offers, each checked by the rules library (its position read,
/// its solution played).
///
/// # Errors
///
/// A line that is not a puzzle of a registered game, with its number.
pub fn shipped(registry: &Registry) -> Result<Vec<NewPuzzle>, ShippedError> {
    parse_shipped(&shipped_text()?, registry)
}

/// Why the shipped puzzles could not be read.
#[derive(Debug, thiserror::Error)]
pub enum ShippedError {
    #[error("the shipped puzzles do not inflate: {0}")]
    Inflate(#[source] std::io::Error),
    #[error("shipped puzzle {line}: {reason}")]
    Line { line: usize, reason: String },
    #[error(transparent)]
    Db(#[from] DbError),
}

/// The puzzles of the inflated set `text`, as [`shipped`] gives them.
fn parse_shipped(text: &str, registry: &Registry) -> Result<Vec<NewPuzzle>, ShippedError> {
    shipped_lines(text, registry)
        .map(|(n, l)| {
            let at = |reason: String| ShippedError::Line { line: n + 1, reason };
            let fields: Vec<&str> = l.split('\t').collect();
            let [spec, position, solution, proof, grades] = fields[..] else {
                return Err(at("five fields separated by tabs".into()));
            };
            let game = registry.game(spec).map_err(|e| at(e.to_string()))?;
            let mut pos = game.parse_position(position).map_err(|e| at(e.to_string()))?;
            let solution: Vec<String> = solution.split(' ').map(str::to_owned).collect();
            let steps = gridplay_engine::puzzles::parse_steps(grades).map_err(|e| at(e.to_string()))?;
            if steps.len() != solution.len().div_ceil(2) {
                return Err(at("one step of grades for each of the solver's moves".into()));
            }
            for (i, m) in solution.iter().enumerate() {
                // Each of the solver's moves is an accepted move of its step, graded among the legal moves.
                if i % 2 == 0 {
                    let step = &steps[i / 2];
                    let mut legal = pos.legal_moves();
                    let mut graded: Vec<String> = step.0.iter().map(|g| g.mv.clone()).collect();
                    legal.sort();
                    graded.sort();
                    if legal != graded || !step.accepts(m) {
                        return Err(at(format!("move {} ({m}) and its step's grades disagree", i + 1)));
                    }
                }
                pos.play(m).map_err(|e| at(e.to_string()))?;
            }
            Ok(NewPuzzle {
                game: game.info().name,
                spec: game.spec().to_string(),
                position: position.to_owned(),
                solution,
                proof: proof.to_owned(),
                steps,
                source: "shipped".into(),
            })
        })
        .collect()
}

/// The shipped set, inflated.
fn shipped_text() -> Result<String, ShippedError> {
    let mut text = String::new();
    flate2::read::DeflateDecoder::new(SHIPPED)
        .read_to_string(&mut text)
        .map_err(ShippedError::Inflate)?;
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

/// Stores the shipped set once (a server's every start after its first finds it stored, by the hash of its
/// text and of the games offered): its puzzles are added or take the set's solution, proof and grades, and
/// the shipped puzzles no longer in it are retired. Returns how many puzzles were added or changed.
///
/// # Errors
///
/// The set's, or the database's.
pub async fn store_shipped(db: &Db, registry: &Registry) -> Result<u64, ShippedError> {
    let text = shipped_text()?;
    let games: Vec<&str> = registry.entries().iter().map(|e| e.name).collect();
    let hash = format!(
        "{:016x}",
        crate::db::explorer::key_hash(&format!("{}\n{text}", games.join(" "))) as u64
    );
    let puzzles = parse_shipped(&text, registry)?;
    Ok(db
        .store_shipped_set(&hash, &puzzles, now_ms())
        .await?
        .unwrap_or(0))
}

/// What the solver's moves on a puzzle come to, graded by the puzzle's proof.
pub enum Verdict {
    /// The solution's move so far: the engine's reply comes next.
    Continue { reply: String },
    /// The solution found.
    Solved,
    /// Another move that keeps the result the puzzle proved: solved.
    AlsoRight,
    /// A move that loses the proved result, and the position it reached (where the refutation starts).
    Failed { reached: Box<dyn DynPosition> },
}

impl std::fmt::Debug for Verdict {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Verdict::Continue { reply } => write!(f, "Continue({reply})"),
            Verdict::Solved => f.write_str("Solved"),
            Verdict::AlsoRight => f.write_str("AlsoRight"),
            Verdict::Failed { reached } => write!(f, "Failed({})", reached.to_text()),
        }
    }
}

/// Moves that cannot be graded.
#[derive(Debug, thiserror::Error)]
pub enum AnswerError {
    #[error("send the moves so far, the solver's new move last")]
    Count,
    #[error("move {0} is not the puzzle's so far")]
    NotSoFar(usize),
    #[error("move {number} ({text}): {why}")]
    Illegal {
        number: usize,
        text: String,
        why: String,
    },
    #[error("the puzzle's position or variant does not read")]
    Stored,
}

/// Grades `moves` from `puzzle`'s position: the solution's moves and the replies so far, then the solver's
/// new move. The new move is right when it is the solution's or when its step accepts it.
///
/// # Errors
///
/// Moves that are not the solution's so far, an even count, an illegal move.
pub fn verdict(puzzle: &PuzzleRow, registry: &Registry, moves: &[String]) -> Result<Verdict, AnswerError> {
    let k = moves.len();
    if k == 0 || k.is_multiple_of(2) || k > puzzle.solution.len() {
        return Err(AnswerError::Count);
    }
    let g = registry.game(&puzzle.spec).map_err(|_| AnswerError::Stored)?;
    let mut pos = g
        .parse_position(&puzzle.position)
        .map_err(|_| AnswerError::Stored)?;
    for (i, m) in moves.iter().enumerate() {
        let illegal = |e: gridplay_core::MoveError| AnswerError::Illegal {
            number: i + 1,
            text: m.clone(),
            why: e.to_string(),
        };
        let text = pos.normalize_move(m).map_err(illegal)?;
        pos.play(&text).map_err(illegal)?;
        if text == puzzle.solution[i] {
            continue;
        }
        if i + 1 < k {
            return Err(AnswerError::NotSoFar(i + 1));
        }
        if puzzle.steps.get(i / 2).is_some_and(|step| step.accepts(&text)) {
            return Ok(Verdict::AlsoRight);
        }
        return Ok(Verdict::Failed { reached: pos });
    }
    Ok(match puzzle.solution.get(k) {
        Some(reply) => Verdict::Continue { reply: reply.clone() },
        None => Verdict::Solved,
    })
}

/// What a player's first try of a puzzle does to the two ratings and to the player's record, as lichess rates
/// its puzzles: Glicko-2 (tau 0.75), a solve a win against the puzzle and a miss a loss; a solve adds one to
/// the streak (and to the best streak if it passes it), a miss ends the streak.
#[must_use]
pub fn rate_try(player: &PuzzlePlayer, puzzle: Glicko2Rating, solved: bool) -> (PuzzlePlayer, Glicko2Rating) {
    let config = Glicko2Config {
        tau: 0.75,
        ..Glicko2Config::new()
    };
    let me = Glicko2Rating {
        rating: player.rating,
        deviation: player.deviation,
        volatility: player.volatility,
    };
    let outcome = if solved { Outcomes::WIN } else { Outcomes::LOSS };
    let (me_after, puzzle_after) = glicko2(&me, &puzzle, &outcome, &config);
    let streak = if solved { player.streak + 1 } else { 0 };
    let after = PuzzlePlayer {
        rating: me_after.rating,
        deviation: me_after.deviation,
        volatility: me_after.volatility,
        attempts: player.attempts + 1,
        solved: player.solved + i64::from(solved),
        streak,
        best_streak: player.best_streak.max(streak),
    };
    (after, puzzle_after)
}

/// Records a signed-in player's first try of a puzzle, rated by [`rate_try`]; a puzzle tried before changes
/// nothing (`None`).
///
/// # Errors
///
/// The database's.
pub async fn record_try(
    db: &Db,
    user: &str,
    puzzle: &PuzzleRow,
    solved: bool,
) -> Result<Option<Rated>, DbError> {
    db.record_attempt(user, puzzle, solved, now_ms(), |player, rating| {
        rate_try(player, rating, solved)
    })
    .await
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
                steps: found.steps,
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
    fn a_solve_wins_against_the_puzzle_and_a_miss_ends_the_streak() {
        let player = PuzzlePlayer {
            streak: 2,
            best_streak: 2,
            attempts: 5,
            solved: 3,
            ..crate::db::puzzles::new_player()
        };
        let puzzle = Glicko2Rating {
            rating: 1500.0,
            deviation: 80.0,
            volatility: 0.09,
        };
        let (won, puzzle_lost) = rate_try(&player, puzzle, true);
        assert!(won.rating > player.rating && puzzle_lost.rating < puzzle.rating);
        assert!(won.deviation < player.deviation);
        assert_eq!(
            (won.attempts, won.solved, won.streak, won.best_streak),
            (6, 4, 3, 3)
        );
        let (lost, puzzle_won) = rate_try(&won, puzzle, false);
        assert!(lost.rating < won.rating && puzzle_won.rating > puzzle.rating);
        assert_eq!(
            (lost.attempts, lost.solved, lost.streak, lost.best_streak),
            (7, 4, 0, 3)
        );
    }

    #[test]
    fn the_shipped_set_reads_and_holds_enough_puzzles_of_every_game() {
        let registry = gridplay_games::registry_with_test_games();
        let puzzles = shipped(registry).expect("the shipped puzzles read");
        // The count that lets a later start skip the reading is the count of puzzles read.
        let text = shipped_text().unwrap();
        assert_eq!(shipped_lines(&text, registry).count(), puzzles.len());
        for entry in registry.entries() {
            let n = puzzles.iter().filter(|p| p.game == entry.name).count();
            // As many as the set proved again holds (docs/performance.md).
            let least = match entry.name {
                "reversi" => 500,
                "checkers" => 330,
                "cornered" | "tictactoe" => 150,
                _ => 70,
            };
            assert!(n >= least, "{}: {n} puzzles", entry.name);
        }
        // A server without the test games leaves theirs out.
        let without = shipped(gridplay_games::registry()).unwrap();
        assert!(without.iter().all(|p| p.game != "tictactoe"));
        assert!(without.len() < puzzles.len());
        // Every proof reads as one of the kinds the page shows in its own words.
        for p in &puzzles {
            assert!(
                p.proof.parse::<gridplay_engine::puzzles::HowProved>().is_ok(),
                "{}",
                p.proof
            );
        }
    }
}
