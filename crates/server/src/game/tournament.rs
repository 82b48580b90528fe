//! Tournaments: round-robin and Swiss, their pairings, standings and tie-breaks, and the director that pairs
//! the next round when the last game of a round ends.
//!
//! - Round-robin pairs by the circle method; with an odd number of players one rests each round (a bye worth
//!   nothing, since everyone rests once). A game against a withdrawn player is a forfeit win (1 point).
//! - Swiss pairs each round by a minimum-cost perfect matching (integer-blossom): players with close scores
//!   meet, a rematch costs more than any score gap, and with an odd number the bye (1 point) goes to a low
//!   scorer who has not had one.
//! - Standings: points (win 1, draw ½, bye or forfeit as above), then Buchholz (the sum of the opponents'
//!   points) and Sonneborn-Berger (the points of the opponents beaten, plus half those of the opponents drawn);
//!   Swiss ranks by Buchholz first, round-robin by Sonneborn-Berger first.

use std::collections::{HashMap, HashSet};

use serde::Serialize;

use crate::{
    db::{
        ByeKind, GameRow, GameStatus, TournamentBye, TournamentKind, TournamentPlayer, TournamentRow,
        TournamentStatus, User, Winner,
    },
    game::live::GameHub,
};

/// One player's line in the standings.
#[derive(Clone, Debug, Serialize, utoipa::ToSchema)]
pub struct Standing {
    pub rank: usize,
    pub name: String,
    /// A bot account.
    pub bot: bool,
    #[serde(skip)]
    pub user_id: String,
    pub points: f64,
    pub buchholz: f64,
    pub sonneborn_berger: f64,
    pub played: usize,
    pub withdrawn: bool,
}

/// A finished result for the standings: who played whom and the first player's score in half points.
struct Result2 {
    players: [String; 2],
    first_half_points: i64,
}

fn results(games: &[GameRow]) -> Vec<Result2> {
    games
        .iter()
        .filter(|g| g.status == GameStatus::Finished)
        .filter_map(|g| {
            let players = [g.users[0].as_ref()?.id.clone(), g.users[1].as_ref()?.id.clone()];
            let first_half_points = match g.winner {
                Some(Winner::First) => 2,
                Some(Winner::Second) => 0,
                _ => 1,
            };
            Some(Result2 {
                players,
                first_half_points,
            })
        })
        .collect()
}

/// The standings, best first.
#[must_use]
pub fn standings(
    kind: TournamentKind,
    players: &[TournamentPlayer],
    games: &[GameRow],
    byes: &[TournamentBye],
) -> Vec<Standing> {
    let results = results(games);
    let mut points: HashMap<&str, i64> = players.iter().map(|p| (p.user.id.as_str(), 0)).collect();
    for r in &results {
        for (i, p) in r.players.iter().enumerate() {
            let got = if i == 0 {
                r.first_half_points
            } else {
                2 - r.first_half_points
            };
            *points.entry(p.as_str()).or_default() += got;
        }
    }
    for b in byes {
        *points.entry(b.user_id.as_str()).or_default() += b.half_points;
    }
    let mut lines: Vec<Standing> = players
        .iter()
        .map(|p| {
            let me = p.user.id.as_str();
            let mut buchholz = 0;
            let mut sb = 0;
            let mut played = 0;
            for r in &results {
                let Some(i) = r.players.iter().position(|x| x == me) else {
                    continue;
                };
                let opp = points.get(r.players[1 - i].as_str()).copied().unwrap_or(0);
                let got = if i == 0 {
                    r.first_half_points
                } else {
                    2 - r.first_half_points
                };
                buchholz += opp;
                sb += got * opp;
                played += 1;
            }
            Standing {
                rank: 0,
                name: p.user.name.clone(),
                bot: p.user.bot,
                user_id: p.user.id.clone(),
                points: points.get(me).copied().unwrap_or(0) as f64 / 2.0,
                buchholz: buchholz as f64 / 2.0,
                sonneborn_berger: sb as f64 / 4.0,
                played,
                withdrawn: p.withdrawn.is_some(),
            }
        })
        .collect();
    let swiss = kind == TournamentKind::Swiss;
    lines.sort_by(|a, b| {
        let (a1, a2, b1, b2) = if swiss {
            (a.buchholz, a.sonneborn_berger, b.buchholz, b.sonneborn_berger)
        } else {
            (a.sonneborn_berger, a.buchholz, b.sonneborn_berger, b.buchholz)
        };
        b.points
            .total_cmp(&a.points)
            .then(b1.total_cmp(&a1))
            .then(b2.total_cmp(&a2))
            .then_with(|| a.name.to_lowercase().cmp(&b.name.to_lowercase()))
    });
    let mut rank = 0;
    for i in 0..lines.len() {
        let tied = i > 0 && {
            let (a, b) = (&lines[i - 1], &lines[i]);
            a.points == b.points && a.buchholz == b.buchholz && a.sonneborn_berger == b.sonneborn_berger
        };
        if !tied {
            rank = i + 1;
        }
        lines[i].rank = rank;
    }
    lines
}

/// How many rounds a round-robin of `n` players has.
#[must_use]
pub fn round_robin_rounds(n: usize) -> i64 {
    if n < 2 { 0 } else { (n + n % 2 - 1) as i64 }
}

/// The pairs of round `round` (1-based) of a round-robin of `n` players, by index, by the circle method;
/// `None` is the rest. The first of each pair plays first.
#[must_use]
pub fn round_robin_pairs(n: usize, round: i64) -> Vec<(Option<usize>, Option<usize>)> {
    let m = n + n % 2;
    if m < 2 || round < 1 {
        return Vec::new();
    }
    let r = (round - 1) as usize % (m - 1);
    // Seat 0 stays; the others turn one seat a round.
    let seat = |k: usize| -> usize { if k == 0 { 0 } else { 1 + (k - 1 + r) % (m - 1) } };
    let who = |s: usize| (s < n).then_some(s);
    (0..m / 2)
        .map(|k| {
            let (a, b) = (seat(k), seat(m - 1 - k));
            // Alternate colours: the fixed seat changes colour every round, the others by table.
            if (k == 0 && r % 2 == 1) || (k > 0 && k % 2 == 1) {
                (who(b), who(a))
            } else {
                (who(a), who(b))
            }
        })
        .collect()
}

/// A Swiss round: pairs (first player, second player) by user id, and the player who gets the bye.
#[derive(Debug, PartialEq, Eq)]
pub struct SwissRound {
    pub pairs: Vec<(String, String)>,
    pub bye: Option<String>,
}

/// Pairs a Swiss round among `active` (ids in standings order, best first) with their points in half points.
/// `met` holds the pairs that have played, `had_bye` the players who had a bye, and `firsts` how many games
/// each player has had the first move in.
#[must_use]
pub fn swiss_pairs(
    active: &[(String, i64)],
    met: &HashSet<(String, String)>,
    had_bye: &HashSet<String>,
    firsts: &HashMap<String, i64>,
) -> SwissRound {
    // Costs by priority: no rematch, then the bye to the lowest scorer, then the smallest score gaps.
    const REMATCH: i64 = 1_000_000_000_000;
    const BYE_PER_HALF_POINT: i64 = 1_000_000;
    let n = active.len();
    if n < 2 {
        return SwissRound {
            pairs: Vec::new(),
            bye: active.first().map(|a| a.0.clone()),
        };
    }
    let m = n + n % 2;
    let mut cost = vec![0_i64; m * m];
    for i in 0..n {
        for j in 0..n {
            if i == j {
                continue;
            }
            let gap = active[i].1 - active[j].1;
            // Score gaps cost their square; among equals, the ranking order (1 v 2 is cheaper than 1 v 4 only
            // a little: it breaks ties deterministically).
            let mut c = gap * gap * 1_000 + (i as i64 - j as i64).abs();
            if met.contains(&(active[i].0.clone(), active[j].0.clone())) {
                c += REMATCH;
            }
            cost[i * m + j] = c;
        }
        if m > n {
            // The bye: to the lowest scorer without one.
            let c = if had_bye.contains(&active[i].0) {
                REMATCH
            } else {
                0
            } + active[i].1 * BYE_PER_HALF_POINT
                + (n - i) as i64;
            cost[i * m + n] = c;
            cost[n * m + i] = c;
        }
    }
    let mate = integer_blossom::min_weight_perfect_matching(&cost, m);
    let mut pairs = Vec::new();
    let mut bye = None;
    for i in 0..n {
        let j = mate[i];
        if j == n {
            bye = Some(active[i].0.clone());
        } else if i < j {
            let (a, b) = (&active[i].0, &active[j].0);
            let fa = firsts.get(a).copied().unwrap_or(0);
            let fb = firsts.get(b).copied().unwrap_or(0);
            if fa <= fb {
                pairs.push((a.clone(), b.clone()));
            } else {
                pairs.push((b.clone(), a.clone()));
            }
        }
    }
    SwissRound { pairs, bye }
}

/// The games and byes of round `round` of `t`.
fn pair_round(
    t: &TournamentRow,
    players: &[TournamentPlayer],
    games: &[GameRow],
    byes: &[TournamentBye],
    round: i64,
) -> (Vec<(User, User)>, Vec<TournamentBye>) {
    let by_id: HashMap<&str, &TournamentPlayer> = players.iter().map(|p| (p.user.id.as_str(), p)).collect();
    let active = |id: &str| by_id.get(id).is_some_and(|p| p.withdrawn.is_none());
    let mut pairs = Vec::new();
    let mut out_byes = Vec::new();
    if t.kind == TournamentKind::RoundRobin {
        for (a, b) in round_robin_pairs(players.len(), round) {
            let a = a.map(|i| &players[i]);
            let b = b.map(|i| &players[i]);
            match (a, b) {
                (Some(a), Some(b)) => match (active(&a.user.id), active(&b.user.id)) {
                    (true, true) => pairs.push((a.user.clone(), b.user.clone())),
                    (true, false) | (false, true) => {
                        let winner = if active(&a.user.id) { a } else { b };
                        out_byes.push(TournamentBye {
                            round,
                            user_id: winner.user.id.clone(),
                            kind: ByeKind::Forfeit,
                            half_points: 2,
                        });
                    }
                    (false, false) => {}
                },
                (Some(p), None) | (None, Some(p)) if active(&p.user.id) => out_byes.push(TournamentBye {
                    round,
                    user_id: p.user.id.clone(),
                    kind: ByeKind::Bye,
                    half_points: 0,
                }),
                _ => {}
            }
        }
        return (pairs, out_byes);
    }
    let table = standings(t.kind, players, games, byes);
    let ranked: Vec<(String, i64)> = table
        .iter()
        .filter(|s| active(&s.user_id))
        .map(|s| (s.user_id.clone(), (s.points * 2.0).round() as i64))
        .collect();
    let mut met = HashSet::new();
    let mut firsts: HashMap<String, i64> = HashMap::new();
    for g in games {
        if let [Some(a), Some(b)] = &g.users {
            met.insert((a.id.clone(), b.id.clone()));
            met.insert((b.id.clone(), a.id.clone()));
            *firsts.entry(a.id.clone()).or_default() += 1;
        }
    }
    let had_bye: HashSet<String> = byes
        .iter()
        .filter(|b| b.kind == ByeKind::Bye)
        .map(|b| b.user_id.clone())
        .collect();
    let round_pairs = swiss_pairs(&ranked, &met, &had_bye, &firsts);
    for (a, b) in round_pairs.pairs {
        if let (Some(a), Some(b)) = (by_id.get(a.as_str()), by_id.get(b.as_str())) {
            pairs.push((a.user.clone(), b.user.clone()));
        }
    }
    if let Some(b) = round_pairs.bye {
        out_byes.push(TournamentBye {
            round,
            user_id: b,
            kind: ByeKind::Bye,
            half_points: 2,
        });
    }
    (pairs, out_byes)
}

/// The director: pairs the rounds of the tournaments the hub tells of (a game ended, a player withdrew), one
/// after another, after looking at every running tournament once (a restart may have left a round to pair).
pub fn direct(hub: &GameHub) {
    let Some(mut told) = hub.tournament_feed() else {
        return;
    };
    let hub = hub.clone();
    hub.clone().tasks().spawn(async move {
        match hub.db().running_tournaments().await {
            Ok(ids) => {
                for id in ids {
                    advance(&hub, &id).await;
                }
            }
            Err(e) => tracing::error!("cannot list the running tournaments: {e}"),
        }
        while let Some(id) = told.recv().await {
            advance(&hub, &id).await;
        }
    });
}

/// Pairs the next round when the current one is over, or ends the tournament after the last. Runs one at a
/// time per server (the hub's director lock); the database refuses a round paired twice.
pub async fn advance(hub: &GameHub, id: &str) {
    let _director = hub.director().await;
    // A round where nobody plays (all byes and forfeits) is over at once: go on to the next.
    for _ in 0..64 {
        match advance_once(hub, id).await {
            Ok(true) => {}
            Ok(false) => return,
            Err(e) => {
                tracing::error!("tournament {id}: {e}");
                return;
            }
        }
    }
}

/// One step: returns whether a round without games was paired (and the caller should look again).
async fn advance_once(hub: &GameHub, id: &str) -> Result<bool, crate::db::DbError> {
    let db = hub.db();
    let Some(t) = db.tournament(id).await? else {
        return Ok(false);
    };
    if t.status != TournamentStatus::Running {
        return Ok(false);
    }
    let games = db.tournament_games(id).await?;
    if games.iter().any(|g| g.status == GameStatus::Active) {
        return Ok(false);
    }
    let players = db.tournament_players(id).await?;
    let active = players.iter().filter(|p| p.withdrawn.is_none()).count();
    if t.round >= t.rounds || (t.kind == TournamentKind::Swiss && active < 2) {
        db.finish_tournament(id).await?;
        hub.lobby().changed();
        return Ok(false);
    }
    let byes = db.tournament_byes(id).await?;
    let round = t.round + 1;
    let (pairs, new_byes) = pair_round(&t, &players, &games, &byes, round);
    let rows: Vec<GameRow> = pairs
        .into_iter()
        .map(|(a, b)| {
            let mut g =
                crate::db::GameRow::new(t.spec.clone(), t.game.clone(), [Some(a), Some(b)], [None, None]);
            g.rated = t.rated;
            g.time = t.time;
            g.tournament = Some((t.id.clone(), round));
            g
        })
        .collect();
    if !db.start_round(id, round, &rows, &new_byes).await? {
        return Ok(false);
    }
    for g in &rows {
        let users: Vec<&str> = g.users.iter().flatten().map(|u| u.id.as_str()).collect();
        hub.lobby().started(&g.id, &users);
        if let Err(e) = hub.wake(&g.id).await {
            tracing::error!("tournament {id}: game {}: {e:?}", g.id);
        }
    }
    hub.lobby().changed();
    Ok(rows.is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_robin_meets_everyone_once() {
        for n in 2..=9 {
            let rounds = round_robin_rounds(n);
            let mut met = HashSet::new();
            let mut rests = vec![0; n];
            for r in 1..=rounds {
                let mut seen = HashSet::new();
                for (a, b) in round_robin_pairs(n, r) {
                    for x in [a, b].into_iter().flatten() {
                        assert!(seen.insert(x), "n={n} round {r}: {x} twice");
                    }
                    match (a, b) {
                        (Some(a), Some(b)) => {
                            assert!(met.insert((a.min(b), a.max(b))), "n={n}: {a}-{b} again");
                        }
                        (Some(x), None) | (None, Some(x)) => rests[x] += 1,
                        (None, None) => unreachable!(),
                    }
                }
            }
            assert_eq!(met.len(), n * (n - 1) / 2, "n={n}");
            assert!(rests.iter().all(|&r| r == n % 2), "n={n}: rests {rests:?}");
        }
    }

    fn ids(n: usize) -> Vec<(String, i64)> {
        (0..n).map(|i| (format!("p{i}"), 0)).collect()
    }

    #[test]
    fn swiss_pairs_close_scores_and_avoids_rematches() {
        let mut active = ids(4);
        active[0].1 = 2;
        active[1].1 = 2;
        let mut met = HashSet::new();
        let r = swiss_pairs(&active, &met, &HashSet::new(), &HashMap::new());
        let norm: HashSet<(String, String)> = r
            .pairs
            .iter()
            .map(|(a, b)| {
                if a < b {
                    (a.clone(), b.clone())
                } else {
                    (b.clone(), a.clone())
                }
            })
            .collect();
        assert!(norm.contains(&("p0".into(), "p1".into())), "{r:?}");
        assert!(norm.contains(&("p2".into(), "p3".into())), "{r:?}");
        // Once 0-1 and 2-3 have met, they are not paired again although the scores say so.
        for (a, b) in [("p0", "p1"), ("p2", "p3")] {
            met.insert((a.into(), b.into()));
            met.insert((b.into(), a.into()));
        }
        let r = swiss_pairs(&active, &met, &HashSet::new(), &HashMap::new());
        for (a, b) in &r.pairs {
            assert!(!met.contains(&(a.clone(), b.clone())), "{r:?}");
        }
        assert_eq!(r.pairs.len(), 2);
    }

    #[test]
    fn the_swiss_bye_goes_to_a_low_scorer_without_one() {
        let mut active = ids(5);
        for (i, a) in active.iter_mut().enumerate() {
            a.1 = 8 - 2 * i as i64;
        }
        let r = swiss_pairs(&active, &HashSet::new(), &HashSet::new(), &HashMap::new());
        assert_eq!(r.bye.as_deref(), Some("p4"));
        let had: HashSet<String> = ["p4".to_owned()].into();
        let r = swiss_pairs(&active, &HashSet::new(), &had, &HashMap::new());
        assert_eq!(r.bye.as_deref(), Some("p3"));
        assert_eq!(r.pairs.len(), 2);
    }

    #[test]
    fn colours_go_to_who_had_fewer_first_moves() {
        let active = ids(2);
        let firsts: HashMap<String, i64> = [("p0".to_owned(), 2), ("p1".to_owned(), 1)].into();
        let r = swiss_pairs(&active, &HashSet::new(), &HashSet::new(), &firsts);
        assert_eq!(r.pairs, vec![("p1".to_owned(), "p0".to_owned())]);
    }

    fn player(id: &str) -> TournamentPlayer {
        TournamentPlayer {
            user: User {
                id: id.into(),
                name: id.to_uppercase(),
                bot: false,
            },
            joined_at: 0,
            withdrawn: None,
        }
    }

    fn game(a: &str, b: &str, winner: &str) -> GameRow {
        let name = gridplay_games::registry().entries()[0].name;
        let mut g = crate::db::GameRow::new(
            name.into(),
            name.into(),
            [Some(player(a).user), Some(player(b).user)],
            [None, None],
        );
        g.status = GameStatus::Finished;
        g.winner = Some(Winner::parse(winner).unwrap());
        g
    }

    #[test]
    fn standings_count_points_buchholz_and_sonneborn_berger() {
        let players: Vec<_> = ["a", "b", "c", "d"].into_iter().map(player).collect();
        // a beats b and c; b beats c; c draws d; d has a bye.
        let games = vec![
            game("a", "b", "first"),
            game("c", "a", "second"),
            game("b", "c", "first"),
            game("c", "d", "draw"),
        ];
        let byes = vec![TournamentBye {
            round: 1,
            user_id: "d".into(),
            kind: ByeKind::Bye,
            half_points: 2,
        }];
        let s = standings(TournamentKind::Swiss, &players, &games, &byes);
        let get = |n: &str| s.iter().find(|x| x.user_id == n).unwrap();
        assert_eq!(get("a").points, 2.0);
        assert_eq!(get("b").points, 1.0);
        assert_eq!(get("c").points, 0.5);
        assert_eq!(get("d").points, 1.5);
        // a's opponents: b (1) and c (0.5).
        assert_eq!(get("a").buchholz, 1.5);
        assert_eq!(get("a").sonneborn_berger, 1.5);
        // c drew d (1.5): SB 0.75; Buchholz a + b + d = 4.5.
        assert_eq!(get("c").sonneborn_berger, 0.75);
        assert_eq!(get("c").buchholz, 4.5);
        assert_eq!(s[0].user_id, "a");
        assert_eq!(s[1].user_id, "d");
        assert_eq!(s.iter().map(|x| x.rank).collect::<Vec<_>>(), vec![1, 2, 3, 4]);
    }
}
