//! Puzzles on SQLite and PostgreSQL: the shipped set stored at start; answers checked move by move (the
//! engine's reply, a wrong move's refutation); Glicko-2 ratings of the player and the puzzle changed by the
//! first try only, with the streak and the history, each try counted however many run at once; and a
//! finished game of the site mined for its puzzle.

#[macro_use]
mod support;

use gridplay_server::db::{
    Db, User,
    puzzles::{NewPuzzle, PuzzleRow, puzzle_id},
};
use gridplay_server::game::puzzles::record_try;
use serde_json::{Value, json};
use support::{error_code, http, post, signup};

fn config(url: &str) -> gridplay_server::config::Config {
    let mut cfg = support::config(url);
    cfg.with_test_games = true;
    cfg
}

on_both_databases! {
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn puzzles_are_answered_rated_and_mined() {
    for (url, pg) in support::databases("puzzles").await {
        let server = gridplay_server::start(config(&url)).await.expect("server");
        let addr = server.addr;
        let db = server.state.db.clone();
        let registry = gridplay_games::registry_with_test_games();

        // The shipped set is stored at start, every puzzle of it.
        let shipped = gridplay_server::game::puzzles::shipped(registry).expect("the shipped set reads");
        let (stored, from_shipped) = db.count_puzzles(None, "shipped").await.unwrap();
        assert_eq!(from_shipped as usize, shipped.len());
        assert!(stored >= from_shipped);

        // Two puzzles of tic-tac-toe: one move (X wins at once on c3), and three moves from the empty board.
        use gridplay_server::db::puzzles::{NewPuzzle, puzzle_id};
        // A third has two right answers: c3 and c1 both win at once.
        let new = |position: &str, solution: &[&str], steps: &[&str]| NewPuzzle {
            game: "tictactoe".into(),
            spec: "tictactoe".into(),
            position: position.into(),
            solution: solution.iter().map(|m| (*m).to_owned()).collect(),
            proof: "forced win; every other move proved not to win (depth 9)".into(),
            steps: steps.iter().map(|s| s.parse().expect("a step")).collect(),
            source: "test".into(),
        };
        db.add_puzzles(
            &[
                new("XX1/OO1/3 X", &["c3"], &["c3=W* c2=S0 c1=L"]),
                new("3/3/3 X", &["b2", "a1", "c3"], &["b2=W* a1=S0", "c3=W* c2=S0"]),
                new("XX1/OX1/OO1 X", &["c3"], &["c3=W* c1=W* c2=S0"]),
            ],
            1,
        )
        .await
        .unwrap();
        let one = puzzle_id("tictactoe", "XX1/OO1/3 X");
        let three = puzzle_id("tictactoe", "3/3/3 X");
        let two_ways = puzzle_id("tictactoe", "XX1/OX1/OO1 X");

        let ann = signup(addr, "ann").await;
        let mv = |id: &str, moves: Value| {
            let path = format!("/api/puzzles/{id}/move");
            let ann = ann.clone();
            async move { post(addr, &path, &ann, json!({ "moves": moves })).await }
        };
        // A wrong move fails the puzzle: the engine's refutation (O wins on c2) and the solution; the first
        // try lowers the player's rating, raises the puzzle's, and ends the streak.
        let r = mv(&one, json!(["a1"])).await;
        assert_eq!(r.status, 200, "{}", r.body);
        let a = r.json();
        assert_eq!(a["result"], "failed");
        assert_eq!(a["refutation"][0], "c2", "{a}");
        assert_eq!(a["solution"], json!(["c3"]));
        assert_eq!(a["rating_before"], 1500);
        assert!(a["player"]["rating"].as_i64().unwrap() < 1500, "{a}");
        assert!(a["puzzle_rating"].as_i64().unwrap() > 1500, "{a}");
        assert_eq!(a["player"]["streak"], 0);
        let after_fail = a["player"]["rating"].as_i64().unwrap();
        // The panel's figures: the puzzle's rating and tries after the try.
        assert_eq!(a["puzzle"]["plays"], 1, "{a}");
        assert_eq!(a["puzzle"]["rating"], a["puzzle_rating"], "{a}");
        // Solving it afterwards changes no rating.
        let a = mv(&one, json!(["c3"])).await.json();
        assert_eq!(a["result"], "solved");
        assert_eq!(a["also_right"], false);
        assert!(a["rating_before"].is_null(), "{a}");
        assert_eq!(a["player"]["rating"], after_fail);
        assert_eq!(a["puzzle"]["plays"], 1, "{a}");

        // The move its proof also accepts solves a puzzle; the one that loses the win fails it.
        let a = mv(&two_ways, json!(["c1"])).await.json();
        assert_eq!(
            (a["result"].as_str(), a["also_right"].as_bool()),
            (Some("solved"), Some(true)),
            "{a}"
        );
        assert_eq!(a["solution"], json!(["c3"]));
        let r = post(
            addr,
            &format!("/api/puzzles/{two_ways}/move"),
            "",
            json!({"moves": ["c2"]}),
        )
        .await;
        assert_eq!(r.json()["result"], "failed", "{}", r.body);

        // Three moves: right, the reply comes back; right again, solved: the rating rises and the streak
        // counts it.
        let a = mv(&three, json!(["b2"])).await.json();
        assert_eq!(
            (a["result"].as_str(), a["reply"].as_str()),
            (Some("continue"), Some("a1")),
            "{a}"
        );
        let r = mv(&three, json!(["b2", "a1"])).await;
        assert_eq!(error_code(&r), (400, "bad-moves".into()), "{}", r.body);
        let r = mv(&three, json!(["b2", "a1", "zz"])).await;
        assert_eq!(error_code(&r), (400, "bad-move".into()), "{}", r.body);
        let r = mv(&three, json!(["b2", "c1", "c3"])).await;
        assert_eq!(error_code(&r), (400, "bad-moves".into()), "{}", r.body);
        let a = mv(&three, json!(["b2", "a1", "c3"])).await.json();
        assert_eq!(a["result"], "solved", "{a}");
        assert!(a["player"]["rating"].as_i64().unwrap() > after_fail, "{a}");
        assert_eq!(
            (
                a["player"]["streak"].as_i64(),
                a["player"]["best_streak"].as_i64()
            ),
            (Some(2), Some(2))
        );
        assert_eq!(
            (a["player"]["attempts"].as_i64(), a["player"]["solved"].as_i64()),
            (Some(3), Some(2))
        );
        // The history, newest first.
        let r = http(addr, "GET", "/api/puzzles/tictactoe/history", Some(&ann), None).await;
        assert_eq!(r.status, 200, "{}", r.body);
        let h = r.json();
        let solved: Vec<bool> = h["attempts"]
            .as_array()
            .unwrap()
            .iter()
            .map(|x| x["solved"].as_bool().unwrap())
            .collect();
        assert_eq!(solved, [true, true, false]);
        assert_eq!(h["player"]["streak"], 2);
        // A visitor gets a puzzle and its answers, and no rating.
        let r = http(addr, "GET", "/api/puzzles/tictactoe/next", None, None).await;
        assert_eq!(r.status, 200, "{}", r.body);
        assert!(r.json()["player"].is_null());
        let r = post(
            addr,
            &format!("/api/puzzles/{one}/move"),
            "",
            json!({"moves": ["c3"]}),
        )
        .await;
        assert_eq!(r.json()["result"], "solved");
        assert!(r.json()["player"].is_null());
        let r = http(addr, "GET", "/api/puzzles/nosuchgame/next", None, None).await;
        assert_eq!(r.status, 404, "{}", r.body);

        // A finished game between two players is mined: the position before its last move is a puzzle (O
        // wins on c2 and nowhere else); the game is mined once.
        let ben = signup(addr, "ben").await;
        let mut sockets = [
            support::socket(addr, Some(&ann)).await,
            support::socket(addr, Some(&ben)).await,
        ];
        let id = support::game_between(
            addr,
            &ann,
            &ben,
            &json!({"spec": "tictactoe", "color": "first", "opponent": "ben"}),
        )
        .await;
        for (k, m) in ["a3", "a2", "b3", "b2", "a1", "c2"].iter().enumerate() {
            let r = support::act(
                &mut sockets[k % 2],
                json!({"t": "move", "game": id, "move": m}),
                &format!("m{k}"),
            )
            .await;
            assert_eq!(r["t"], "ack", "{r}");
        }
        let pid = puzzle_id("tictactoe", "XX1/OO1/X2 O");
        let stored_before = db.puzzle(&pid).await.unwrap().is_some();
        let mined = gridplay_server::game::puzzles::mine_site(&server.state.hub, 10, 6)
            .await
            .unwrap();
        assert_eq!(
            (mined.games, mined.found, mined.added),
            (1, 1, u64::from(!stored_before))
        );
        let puzzle = db.puzzle(&pid).await.unwrap().expect("the mined puzzle");
        assert_eq!(puzzle.solution, ["c2"]);
        if !stored_before {
            assert_eq!(puzzle.source, format!("site:{id}"));
        }
        let again = gridplay_server::game::puzzles::mine_site(&server.state.hub, 10, 6)
            .await
            .unwrap();
        assert_eq!(again.games, 0, "a game is mined once");

        // A new shipped set retires the shipped puzzles not in it: they are not offered, and an answer to one
        // says so; the puzzles in it take its grades. The same set is stored once.
        let kept = shipped
            .iter()
            .find(|p| p.game == "tictactoe")
            .expect("a shipped puzzle")
            .clone();
        let mut regraded = kept.clone();
        regraded.proof = "a new proof".into();
        assert_eq!(
            db.store_shipped_set("another set", &[regraded], 5).await.unwrap(),
            Some(1)
        );
        assert_eq!(db.store_shipped_set("another set", &[], 6).await.unwrap(), None);
        assert_eq!(db.count_puzzles(None, "shipped").await.unwrap().1, 1);
        let kept_id = puzzle_id(&kept.spec, &kept.position);
        let row = db.puzzle(&kept_id).await.unwrap().expect("stored");
        assert_eq!((row.proof.as_str(), row.retired), ("a new proof", false));
        let gone = shipped
            .iter()
            .find(|p| p.game == "reversi")
            .expect("a shipped puzzle");
        let r = post(
            addr,
            &format!("/api/puzzles/{}/move", puzzle_id(&gone.spec, &gone.position)),
            "",
            json!({"moves": [gone.solution[0]]}),
        )
        .await;
        assert_eq!(error_code(&r), (410, "retired".into()), "{}", r.body);
        // Every Reversi puzzle was shipped, and none is offered now.
        let r = http(addr, "GET", "/api/puzzles/reversi/next", None, None).await;
        assert_eq!(r.status, 404, "{}", r.body);
        // Its own page still shows it, marked retired.
        let r = http(
            addr,
            "GET",
            &format!("/api/puzzle/{}", puzzle_id(&gone.spec, &gone.position)),
            None,
            None,
        )
        .await;
        assert_eq!(
            (r.status, r.json()["retired"].as_bool()),
            (200, Some(true)),
            "{}",
            r.body
        );

        drop(sockets);
        server.stop().await;
        support::drop_database(pg).await;
    }
}
}

const PUZZLES: usize = 16;
const PLAYERS: usize = 8;

on_both_databases! {
/// Tries at once, by one player of many puzzles and by many players of one puzzle, are each counted: on
/// PostgreSQL two transactions may read the same row before either writes it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tries_at_once_are_each_counted() {
    for (url, pg) in support::databases("puzzle_tries").await {
        let db = Db::connect(&url, 12, 1).await.expect("the database");
        let users: Vec<User> = (0..PLAYERS)
            .map(|k| User {
                id: format!("player-{k}"),
                name: format!("player{k}"),
                bot: false,
            })
            .collect();
        for u in &users {
            assert!(db.create_user(u, "-").await.expect("a user"));
        }
        let puzzles: Vec<NewPuzzle> = (0..PUZZLES)
            .map(|k| NewPuzzle {
                game: "reversi".into(),
                spec: "reversi".into(),
                position: format!("position {k}"),
                solution: vec!["d3".into()],
                proof: "test".into(),
                steps: vec!["d3=S100* c4=S-200 e6=S-300".parse().unwrap()],
                source: "shipped".into(),
            })
            .collect();
        assert_eq!(
            db.add_puzzles(&puzzles, 0).await.expect("puzzles"),
            PUZZLES as u64
        );
        let rows = stored_rows(&db, &puzzles).await;

        // One player tries every puzzle at once, solving the even ones.
        let tries: Vec<_> = rows
            .iter()
            .enumerate()
            .map(|(k, row)| {
                let (db, user, row) = (db.clone(), users[0].id.clone(), row.clone());
                tokio::spawn(async move { record_try(&db, &user, &row, k % 2 == 0).await })
            })
            .collect();
        for t in tries {
            assert!(t.await.expect("a try").expect("recorded").is_some());
        }
        let me = db
            .puzzle_player(&users[0].id, "reversi")
            .await
            .expect("the player");
        assert_eq!(
            (me.attempts, me.solved),
            (PUZZLES as i64, PUZZLES as i64 / 2),
            "{url}: every try counts"
        );

        // Every other player tries the first puzzle at once.
        let tries: Vec<_> = users[1..]
            .iter()
            .map(|u| {
                let (db, user, row) = (db.clone(), u.id.clone(), rows[0].clone());
                tokio::spawn(async move { record_try(&db, &user, &row, false).await })
            })
            .collect();
        for t in tries {
            assert!(t.await.expect("a try").expect("recorded").is_some());
        }
        let first = db.puzzle(&rows[0].id).await.expect("the puzzle").expect("stored");
        assert_eq!(first.plays, PLAYERS as i64, "{url}: every try counts");
        drop(db);
        support::drop_database(pg).await;
    }
}
}

/// The stored rows of `puzzles`, in order.
async fn stored_rows(db: &Db, puzzles: &[NewPuzzle]) -> Vec<PuzzleRow> {
    let mut rows = Vec::new();
    for p in puzzles {
        rows.push(
            db.puzzle(&puzzle_id(&p.spec, &p.position))
                .await
                .expect("a puzzle")
                .expect("stored"),
        );
    }
    rows
}

/// Every shipped puzzle is graded as its proof says: each step's marks follow from its moves' values by the
/// puzzle rule, and every legal move of each of the solver's turns is right exactly when its step accepts it
/// (the solution's move goes on or solves, another accepted move solves, any other fails). A few puzzles of
/// each game are proved again from their positions and come out the same.
#[test]
fn every_shipped_puzzle_grades_every_move_by_its_proof() {
    use gridplay_engine::puzzles::{classify, effort, find};
    use gridplay_server::game::puzzles::{Verdict, verdict};
    let registry = gridplay_games::registry_with_test_games();
    let shipped = gridplay_server::game::puzzles::shipped(registry).expect("the shipped set reads");
    let mut graded = 0;
    let mut alternatives = 0;
    let mut proved_again = std::collections::BTreeMap::<String, usize>::new();
    for p in &shipped {
        let row = PuzzleRow {
            id: puzzle_id(&p.spec, &p.position),
            game: p.game.clone(),
            spec: p.spec.clone(),
            position: p.position.clone(),
            solution: p.solution.clone(),
            proof: p.proof.clone(),
            steps: p.steps.clone(),
            source: p.source.clone(),
            retired: false,
            rating: 1500.0,
            deviation: 350.0,
            plays: 0,
        };
        let margin = effort(&p.game).margin;
        for (j, step) in p.steps.iter().enumerate() {
            let values = step.0.iter().map(|g| (g.mv.clone(), g.value)).collect();
            let (_, again) =
                classify(values, margin).unwrap_or_else(|| panic!("{}: step {j} is no puzzle", row.id));
            assert_eq!(&again, step, "{}: step {j}'s marks", row.id);
            assert!(
                step.accepts(&p.solution[2 * j]),
                "{}: the solution's move is accepted",
                row.id
            );
            for g in &step.0 {
                let mut moves = p.solution[..2 * j].to_vec();
                moves.push(g.mv.clone());
                let v = verdict(&row, registry, &moves).unwrap_or_else(|e| panic!("{}: {e}", row.id));
                let right = matches!(v, Verdict::Continue { .. } | Verdict::Solved | Verdict::AlsoRight);
                assert_eq!(right, g.keeps, "{}: step {j}, {} graded {v:?}", row.id, g.mv);
                assert_eq!(
                    matches!(v, Verdict::AlsoRight),
                    g.keeps && g.mv != p.solution[2 * j]
                );
                graded += 1;
            }
            alternatives += usize::from(step.accepted().count() > 1);
        }
        // The first two of each game (the first of YWF and Grid Tactics, whose proofs take seconds) are
        // proved again.
        let n = proved_again.entry(p.game.clone()).or_default();
        let quota = if matches!(p.game.as_str(), "ywf" | "tactics") {
            1
        } else {
            2
        };
        if *n < quota {
            *n += 1;
            let game = registry.game(&p.spec).expect("its game");
            let pos = game.parse_position(&p.position).expect("its position");
            let found = find(pos.as_ref(), effort(&p.game), &gridplay_search::StopFlag::new())
                .unwrap_or_else(|| panic!("{}: no longer a puzzle", row.id));
            // The same moves accepted at each step (a search's estimates may differ by a few hundredths
            // with what its tables held before).
            let accepted = |steps: &[gridplay_engine::puzzles::Step]| -> Vec<Vec<String>> {
                steps
                    .iter()
                    .map(|s| s.accepted().map(str::to_owned).collect())
                    .collect()
            };
            assert_eq!(
                (&found.solution, accepted(&found.steps)),
                (&p.solution, accepted(&p.steps)),
                "{}",
                row.id
            );
        }
    }
    assert!(graded > 10 * shipped.len() / 2, "{graded} moves graded");
    assert!(alternatives > 0, "some step accepts more than one move");
}
