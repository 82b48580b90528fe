//! The engine-use review: each finished game between two people is analysed by the engine (the analysis its
//! replay shows), and each side's figures are stored: accuracy, agreement with the engine's best move (book
//! and forced moves left out), the counts of inaccuracies, mistakes and blunders, and the move times. A
//! player's recent rated games add up to a running profile, and the players whose window of recent games is
//! improbably engine-like by their game's rule (`gridplay_engine::review::rule`) make the admins' queue.

use gridplay_core::Player;
use gridplay_engine::review::{GameFigures, Rule, Window};

use super::{
    engine_pool::Lane,
    live::{GameHub, LiveError},
};
use crate::db::{ActionKind, Db, DbError, GameStatus, ReviewRow, now_ms};

/// The games a player's profile and the queue read: the most recent this many.
pub const WINDOW: usize = 20;
/// Games finished longer ago than this are not reviewed (a new server does not review the whole history).
const REVIEW_DAYS: i64 = 30;
/// A claim older than this is taken again (its server stopped before it stored the figures).
const STALE_MS: i64 = 10 * 60 * 1000;

/// Reviews up to `games` finished games between people that no server has reviewed, each while the engine's
/// analysis lane is free (people's analyses and hints come first): returns how many.
///
/// # Errors
///
/// The database's.
pub async fn review_site(hub: &GameHub, games: usize) -> Result<usize, DbError> {
    let db = hub.db();
    let mut done = 0;
    for _ in 0..games {
        if !hub.engines().idle(Lane::Analysis) {
            break;
        }
        let now = now_ms();
        let Some(id) = db
            .claim_review(now - REVIEW_DAYS * 86_400_000, now - STALE_MS, now)
            .await?
        else {
            break;
        };
        let rows = match figures(hub, &id).await {
            Ok(rows) => rows,
            Err(e) => {
                // Left claimed: it is taken again once the claim is stale.
                tracing::warn!("review of game {id}: {e:?}");
                continue;
            }
        };
        db.store_review(&id, &rows).await?;
        done += 1;
    }
    Ok(done)
}

/// Each side's figures in a finished game: from its analysis (computed now if no one asked for it yet) and
/// the times of its actions.
async fn figures(hub: &GameHub, id: &str) -> Result<Vec<ReviewRow>, LiveError> {
    let db = hub.db();
    let internal = |e: DbError| {
        tracing::error!("review of game {id}: {e}");
        LiveError::Internal
    };
    let Some(row) = db.game(id).await.map_err(internal)? else {
        return Err(LiveError::NotFound);
    };
    if row.status != GameStatus::Finished {
        return Ok(Vec::new());
    }
    let analysis = hub.analysis_for_review(id).await?;
    let Some(sides) = analysis.sides.as_ref() else {
        return Ok(Vec::new());
    };
    let actions = db.actions(id).await.map_err(internal)?;
    let mut rows = Vec::new();
    for side in [Player::First, Player::Second] {
        let (Some(user), Some(s)) = (&row.users[side.index()], sides.get(side.index())) else {
            continue;
        };
        let (Some(accuracy), Some(counted), Some(agreed)) = (s.accuracy, s.counted, s.agreed) else {
            continue;
        };
        let times = move_times(&actions, side);
        let (median, iqr) = quartiles(&times);
        rows.push(ReviewRow {
            game_id: id.to_owned(),
            side,
            user_id: user.id.clone(),
            game: row.game.clone(),
            rated: row.rated,
            finished_at: row.updated_at,
            accuracy,
            counted: counted as i64,
            agreed: agreed as i64,
            inaccuracies: s.inaccuracies as i64,
            mistakes: s.mistakes as i64,
            blunders: s.blunders as i64,
            moves: times.len() as i64 + i64::from(has_first_move(&actions, side)),
            move_ms_median: median,
            move_ms_iqr: iqr,
        });
    }
    Ok(rows)
}

/// Whether `side`'s first move is the game's first action (it has no time: nothing came before it).
fn has_first_move(actions: &[crate::db::ActionRow], side: Player) -> bool {
    actions
        .first()
        .is_some_and(|a| a.kind == ActionKind::Move && a.side == side)
}

/// The time each of `side`'s moves took: from the action before it to the move, in ms (the game's first
/// action has none).
fn move_times(actions: &[crate::db::ActionRow], side: Player) -> Vec<i64> {
    actions
        .windows(2)
        .filter(|w| w[1].kind == ActionKind::Move && w[1].side == side)
        .map(|w| (w[1].at - w[0].at).max(0))
        .collect()
}

/// The median and the interquartile range of `v` (`None` for fewer than two).
fn quartiles(v: &[i64]) -> (Option<i64>, Option<i64>) {
    if v.len() < 2 {
        return (None, None);
    }
    let mut s = v.to_vec();
    s.sort_unstable();
    let at = |p: f64| s[((s.len() - 1) as f64 * p).round() as usize];
    (Some(at(0.5)), Some(at(0.75) - at(0.25)))
}

/// A player's running figures over their most recent reviewed games of one game.
#[derive(Clone, Debug, PartialEq)]
pub struct Profile {
    /// The game's registry name.
    pub game: String,
    pub window: Window,
    /// The median of the games' median move times, in ms, where they have one.
    pub move_ms_median: Option<i64>,
    /// The games, newest first.
    pub games: Vec<ReviewRow>,
    /// Whether the window is improbably engine-like by the game's rule.
    pub flagged: bool,
    /// The rule, where the game has one.
    pub rule: Option<Rule>,
}

/// A player's profiles, one per game with reviewed games: the most recent [`WINDOW`] games of each (rated
/// ones only when `rated_only`), and whether each window is flagged by its game's rule with at least
/// `min_games` games.
///
/// # Errors
///
/// The database's.
pub async fn profiles(
    db: &Db,
    user_id: &str,
    rated_only: bool,
    min_games: usize,
) -> Result<Vec<Profile>, DbError> {
    let rows = db.reviews_of(user_id, rated_only, 200).await?;
    let mut by_game: Vec<(String, Vec<ReviewRow>)> = Vec::new();
    for r in rows {
        match by_game.iter_mut().find(|(g, _)| *g == r.game) {
            Some((_, v)) if v.len() >= WINDOW => {}
            Some((_, v)) => v.push(r),
            None => by_game.push((r.game.clone(), vec![r])),
        }
    }
    Ok(by_game
        .into_iter()
        .map(|(game, games)| {
            let figures: Vec<GameFigures> = games
                .iter()
                .map(|r| GameFigures {
                    accuracy: r.accuracy,
                    counted: usize::try_from(r.counted).unwrap_or(0),
                    agreed: usize::try_from(r.agreed).unwrap_or(0),
                })
                .collect();
            let window = Window::of(&figures);
            let rule = gridplay_engine::review::rule(&game).map(|r| Rule { min_games, ..r });
            let mut medians: Vec<i64> = games.iter().filter_map(|r| r.move_ms_median).collect();
            Profile {
                flagged: rule.is_some_and(|r| window.flagged(&r)),
                move_ms_median: quartiles(&medians).0.or_else(|| medians.pop()),
                game,
                window,
                games,
                rule,
            }
        })
        .collect())
}

/// The players whose recent rated games of some game are improbably engine-like: each with the flagged
/// profiles, most engine-like first.
///
/// # Errors
///
/// The database's.
pub async fn queue(db: &Db, min_games: usize) -> Result<Vec<(String, Vec<Profile>)>, DbError> {
    let since = now_ms() - 90 * 86_400_000;
    let mut users: Vec<String> = Vec::new();
    for game in gridplay_engine::ENGINES.iter().map(|e| e.game) {
        if gridplay_engine::review::rule(game).is_none() {
            continue;
        }
        for u in db.reviewed_players(game, since, min_games as i64).await? {
            if !users.contains(&u) {
                users.push(u);
            }
        }
    }
    let mut out = Vec::new();
    for u in users {
        let flagged: Vec<Profile> = profiles(db, &u, true, min_games)
            .await?
            .into_iter()
            .filter(|p| p.flagged)
            .collect();
        if !flagged.is_empty() {
            out.push((u, flagged));
        }
    }
    out.sort_by(|a, b| {
        let top = |p: &[Profile]| p.iter().map(|p| p.window.agreement).fold(0.0, f64::max);
        top(&b.1).total_cmp(&top(&a.1))
    });
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::db::ActionRow;

    fn action(seq: i64, side: Player, kind: ActionKind, at: i64) -> ActionRow {
        ActionRow {
            seq,
            side,
            kind,
            body: String::new(),
            at,
            clock: None,
        }
    }

    #[test]
    fn a_move_s_time_runs_from_the_action_before_it() {
        use Player::{First, Second};
        let actions = [
            action(1, First, ActionKind::Move, 1_000),
            action(2, Second, ActionKind::Move, 4_000),
            action(3, First, ActionKind::OfferDraw, 5_000),
            action(4, First, ActionKind::Move, 7_000),
            action(5, Second, ActionKind::Move, 7_500),
        ];
        assert_eq!(move_times(&actions, First), [2_000]);
        assert_eq!(move_times(&actions, Second), [3_000, 500]);
        assert!(has_first_move(&actions, First));
        assert!(!has_first_move(&actions, Second));
        assert_eq!(quartiles(&[500, 3_000]), (Some(3_000), Some(2_500)));
        assert_eq!(quartiles(&[7]), (None, None));
        assert_eq!(quartiles(&[1, 2, 3, 4, 5]), (Some(3), Some(2)));
    }
}
