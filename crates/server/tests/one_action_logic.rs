//! One action logic: what an action does is the same whether it is committed here, replayed when a game is
//! loaded from the database, or followed from another server. Random sequences of every action (moves, draw
//! and takeback offers and answers, resignations, aborts, claims and clock expiry) are played through one
//! hub; after each, the live game, the game loaded afresh by a new hub, and the copy of a second hub that
//! follows the database's new actions must be the same state. On SQLite and, when configured, PostgreSQL.

mod support;

use std::time::Duration;

use gridplay_core::Player;
use gridplay_server::{
    bus::Bus,
    clock::{DAY_MS, TimeControl},
    config::Limits,
    db::{Db, GameRow, GameStatus, User, now_ms},
    game::{
        engine_pool::EnginePool,
        live::{Action, GameHub},
        lobby::Lobby,
    },
};
use proptest::{prelude::*, test_runner::TestRunner};
use support::Backend;

/// One step of a sequence: an action of one side, or waiting for the live clock to run out.
#[derive(Clone, Debug)]
enum Step {
    /// The side to move plays its legal move number `n` (modulo their count).
    Move(usize),
    Resign(Player),
    /// An offer, then (`Some`) the opponent's answer: accepted (`true`) or declined.
    OfferDraw(Player, Option<bool>),
    /// By the side the offer waits for, if any (else the first player).
    AcceptDraw,
    /// By the side the offer waits for, if any (else the first player).
    DeclineDraw,
    /// An offer, then (`Some`) the opponent's answer: accepted (`true`) or declined.
    OfferTakeback(Player, Option<bool>),
    /// By the side the offer waits for, if any (else the first player).
    AcceptTakeback,
    /// By the side the offer waits for, if any (else the first player).
    DeclineTakeback,
    Abort(Player),
    Claim(Player),
    ClaimDraw(Player),
    /// Wait until the running live clock's flag falls and the game ends on time.
    Expire,
    /// Wait long enough for a player with no page open to be claimed against in a live game.
    Wait,
}

/// The game a sequence is played in.
#[derive(Clone, Debug)]
struct Setup {
    spec: &'static str,
    time: TimeControl,
    rated: bool,
    /// How long before now the game was created (a correspondence deadline can have passed before the first
    /// move).
    age_ms: i64,
}

fn side() -> impl Strategy<Value = Player> {
    prop_oneof![Just(Player::First), Just(Player::Second)]
}

fn step() -> impl Strategy<Value = Step> {
    prop_oneof![
        24 => any::<usize>().prop_map(Step::Move),
        1 => side().prop_map(Step::Resign),
        3 => (side(), any::<Option<bool>>()).prop_map(|(p, a)| Step::OfferDraw(p, a)),
        1 => Just(Step::AcceptDraw),
        1 => Just(Step::DeclineDraw),
        4 => (side(), any::<Option<bool>>()).prop_map(|(p, a)| Step::OfferTakeback(p, a)),
        1 => Just(Step::AcceptTakeback),
        1 => Just(Step::DeclineTakeback),
        1 => side().prop_map(Step::Abort),
        2 => side().prop_map(Step::Claim),
        2 => side().prop_map(Step::ClaimDraw),
        1 => Just(Step::Expire),
        2 => Just(Step::Wait),
    ]
}

fn setup() -> impl Strategy<Value = Setup> {
    let spec = prop_oneof![Just("reversi"), Just("checkers")];
    let time = prop_oneof![
        Just(TimeControl::Untimed),
        // Short enough for a flag to fall within the test.
        Just(TimeControl::Live {
            initial_ms: 1_500,
            increment_ms: 100
        }),
        Just(TimeControl::Correspondence { days: 1 }),
    ];
    (spec, time, any::<bool>(), prop_oneof![Just(0), Just(2 * DAY_MS)]).prop_map(
        |(spec, time, rated, age_ms)| Setup {
            spec,
            time,
            rated,
            age_ms,
        },
    )
}

fn hub(db: &Db) -> GameHub {
    GameHub::new(
        db.clone(),
        gridplay_games::registry(),
        EnginePool::new(1, 1),
        Lobby::default(),
        Bus::default(),
        // A live game can be claimed soon after a player's pages are gone (1500 / 30 + 2 * 100 ms).
        Limits {
            claim_floor_seconds: 0,
            ..Limits::lenient()
        },
        gridplay_server::tasks::Tasks::default(),
    )
}

/// The actions each sequence had accepted, by kind, over the whole run: every kind must have been played.
type Seen = std::sync::Mutex<std::collections::BTreeMap<String, usize>>;

fn saw(seen: &Seen, kind: &str) {
    *seen
        .lock()
        .expect("the counts")
        .entry(kind.to_owned())
        .or_default() += 1;
}

/// The game's state, as JSON, in the live hub, in a hub that loads it afresh, and in the following hub,
/// once all three are at the database's version (a flag can fall meanwhile: then they are read again).
async fn states(db: &Db, live: &GameHub, follower: &GameHub, id: &str) -> Result<(), String> {
    for _ in 0..20 {
        let stored = db.game(id).await.map_err(|e| e.to_string())?.ok_or("no game")?;
        let version = u64::try_from(stored.version).map_err(|e| e.to_string())?;
        for h in [live, follower] {
            h.heard(id, version, None).await;
        }
        let fresh = hub(db);
        let read = |h: &GameHub| {
            let h = h.clone();
            async move { h.state(id).await.map_err(|e| format!("{e:?}")) }
        };
        let (a, b, c) = (read(live).await?, read(&fresh).await?, read(follower).await?);
        if a.version != version || b.version != version || c.version != version {
            tokio::time::sleep(Duration::from_millis(20)).await;
            continue;
        }
        // Everything but `gone`, which is who has a page open (presence, as each server sees its pages), not
        // what the actions did.
        let [a, b, c] = [&*a, &*b, &*c].map(|s| {
            let mut json = serde_json::to_value(s).expect("a state's JSON");
            json.as_object_mut().expect("an object").remove("gone");
            json
        });
        if a != b {
            return Err(format!("at version {version}, live {a}\n loaded afresh {b}"));
        }
        if a != c {
            return Err(format!("at version {version}, live {a}\n followed {c}"));
        }
        return Ok(());
    }
    Err("the three copies never reached one version".into())
}

/// The side that answers an offer of `by`.
fn answers(by: Option<Player>) -> Player {
    by.map_or(Player::First, |p| !p)
}

async fn play(db: &Db, setup: &Setup, steps: &[Step], seen: &Seen) -> Result<(), String> {
    // Players of their own, whose ratings no other game changes.
    let tag = gridplay_server::ids::short(6);
    let users = ["ann", "ben"].map(|n| User {
        id: format!("{n}-{tag}"),
        name: format!("{n}{tag}"),
        bot: false,
    });
    for u in &users {
        if !db.create_user(u, "-").await.map_err(|e| e.to_string())? {
            return Err(format!("cannot create user {}", u.name));
        }
    }
    let mut row = GameRow::new(
        setup.spec.into(),
        setup.spec.into(),
        [Some(users[0].clone()), Some(users[1].clone())],
        [None, None],
    );
    row.time = setup.time;
    row.rated = setup.rated;
    row.created_at -= setup.age_ms;
    db.create_game(&row).await.map_err(|e| e.to_string())?;
    let id = row.id.as_str();
    let live = hub(db);
    let follower = hub(db);
    states(db, &live, &follower, id).await?;
    for step in steps {
        let state = live.state(id).await.map_err(|e| format!("{e:?}"))?;
        let mut answer = None;
        let (side, action) = match step {
            Step::Move(n) => {
                let moves = &state.view.moves;
                let Some(turn) = state.view.turn else {
                    continue;
                };
                if moves.is_empty() {
                    continue;
                }
                (turn, Action::Move(moves[n % moves.len()].text.clone()))
            }
            Step::Resign(p) => (*p, Action::Resign),
            Step::OfferDraw(p, then) => {
                answer = then.map(|yes| {
                    let a = if yes {
                        Action::AcceptDraw
                    } else {
                        Action::DeclineDraw
                    };
                    (!*p, a)
                });
                (*p, Action::OfferDraw)
            }
            Step::AcceptDraw => (answers(state.draw_offer), Action::AcceptDraw),
            Step::DeclineDraw => (answers(state.draw_offer), Action::DeclineDraw),
            Step::OfferTakeback(p, then) => {
                answer = then.map(|yes| {
                    let a = if yes {
                        Action::AcceptTakeback
                    } else {
                        Action::DeclineTakeback
                    };
                    (!*p, a)
                });
                (*p, Action::OfferTakeback)
            }
            Step::AcceptTakeback => (answers(state.takeback_offer), Action::AcceptTakeback),
            Step::DeclineTakeback => (answers(state.takeback_offer), Action::DeclineTakeback),
            Step::Abort(p) => (*p, Action::Abort),
            Step::Claim(p) | Step::ClaimDraw(p) => {
                // In a live game, the opponent's pages are gone (no page is open here): claim once allowed.
                if let Some(g) = state.gone[(!*p).index()] {
                    let wait = u64::try_from((g.claim_at - now_ms()).max(0)).unwrap_or(0);
                    tokio::time::sleep(Duration::from_millis(wait + 5)).await;
                }
                let claim = if matches!(step, Step::Claim(_)) {
                    Action::Claim
                } else {
                    Action::ClaimDraw
                };
                (*p, claim)
            }
            Step::Wait => {
                tokio::time::sleep(Duration::from_millis(300)).await;
                continue;
            }
            Step::Expire => {
                let (Some(deadline), true) = (state.deadline, matches!(setup.time, TimeControl::Live { .. }))
                else {
                    continue;
                };
                // The holder of the game's timed work flags it: wait for the game to end.
                tokio::time::sleep(Duration::from_millis(
                    u64::try_from((deadline - now_ms()).max(0)).unwrap_or(0) + 20,
                ))
                .await;
                let mut over = false;
                for _ in 0..100 {
                    let g = db.game(id).await.map_err(|e| e.to_string())?.ok_or("no game")?;
                    if g.status != GameStatus::Active {
                        over = true;
                        break;
                    }
                    tokio::time::sleep(Duration::from_millis(20)).await;
                }
                if !over {
                    return Err("the flag fell and the game did not end".into());
                }
                let actions = db.actions(id).await.map_err(|e| e.to_string())?;
                if let Some(last) = actions.last() {
                    saw(seen, &format!("{:?} {}", last.kind, last.body));
                }
                states(db, &live, &follower, id).await?;
                continue;
            }
        };
        // Accepted or refused (with its reason), the three copies must agree after it.
        for (side, action) in std::iter::once((side, action)).chain(answer) {
            let kind = format!("{action:?}");
            if live
                .act(id, &users[side.index()], action, None, None)
                .await
                .is_ok()
            {
                saw(seen, kind.split('(').next().unwrap_or_default());
            }
            states(db, &live, &follower, id).await?;
        }
    }
    Ok(())
}

#[test]
fn every_action_does_the_same_live_loaded_and_followed_on_sqlite() {
    check(Backend::Sqlite);
}

#[test]
#[ignore = "needs PostgreSQL: scripts/test runs it"]
fn every_action_does_the_same_live_loaded_and_followed_on_postgres() {
    check(Backend::Postgres);
}

fn check(backend: Backend) {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("a runtime");
    {
        let (url, pg) = rt.block_on(support::database(backend, "one_action_logic"));
        let db = rt.block_on(Db::connect(&url, 4, 1)).expect("the database");
        // A fixed seed, so that every run plays the same sequences (and sees every kind of action).
        let rng =
            proptest::test_runner::TestRng::deterministic_rng(proptest::test_runner::RngAlgorithm::ChaCha);
        let mut runner = TestRunner::new_with_rng(
            proptest::test_runner::Config {
                cases: 64,
                failure_persistence: None,
                ..proptest::test_runner::Config::default()
            },
            rng,
        );
        let strategy = (setup(), proptest::collection::vec(step(), 1..60));
        let seen = Seen::default();
        let result = runner.run(&strategy, |(setup, steps)| {
            rt.block_on(play(&db, &setup, &steps, &seen))
                .map_err(TestCaseError::fail)
        });
        if let Err(e) = result {
            panic!("on {url}: {e}");
        }
        let seen = seen.into_inner().expect("the counts");
        eprintln!("{url}: accepted {seen:?}");
        for kind in [
            "Move",
            "Resign",
            "OfferDraw",
            "AcceptDraw",
            "DeclineDraw",
            "OfferTakeback",
            "AcceptTakeback",
            "DeclineTakeback",
            "Abort",
            "Claim",
            "ClaimDraw",
        ] {
            assert!(
                seen.contains_key(kind),
                "on {url}: no {kind} was accepted: {seen:?}"
            );
        }
        assert!(
            seen.keys().any(|k| k.starts_with("Timeout")),
            "on {url}: no clock ran out: {seen:?}"
        );
        rt.block_on(support::drop_database(pg));
    }
}
