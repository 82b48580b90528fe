//! Several servers on one database: two moves raced at the same version through two
//! servers give one commit and one clean `stale` answer, and the server whose copy was out of date loads the
//! game afresh. Runs on SQLite (two servers on one file) and, when configured, PostgreSQL.

#[macro_use]
mod support;

use gridplay_server::{
    db::GameRow,
    game::live::{Action, LiveError},
};
use support::{config, signup};

on_both_databases! {
#[tokio::test]
async fn moves_raced_at_one_version_through_two_servers_commit_once_and_the_other_is_stale() {
    for (url, pg) in support::databases("race").await {
        let a = gridplay_server::start(config(&url)).await.expect("server A");
        let b = gridplay_server::start(config(&url)).await.expect("server B");
        signup(a.addr, "alice").await;
        signup(b.addr, "bob").await;
        let db = &a.state.db;
        let alice = db.user_named("alice").await.unwrap().expect("alice");
        let bob = db.user_named("bob").await.unwrap().expect("bob");
        let mut wins = [0; 2];
        for round in 0..100 {
            let game = GameRow::new(
                "reversi".into(),
                "reversi".into(),
                [Some(alice.clone()), Some(bob.clone())],
                [None, None],
            );
            db.create_game(&game).await.unwrap();
            let id = game.id.as_str();
            // Both servers hold the game at version 0.
            assert_eq!(a.state.hub.state(id).await.unwrap().version, 0);
            assert_eq!(b.state.hub.state(id).await.unwrap().version, 0);
            let (ra, rb) = tokio::join!(
                a.state
                    .hub
                    .act(id, &alice, Action::Move("d3".into()), None, Some(0)),
                b.state
                    .hub
                    .act(id, &alice, Action::Move("c4".into()), None, Some(0)),
            );
            let stale = Err(LiveError::Stale { version: 1 });
            match (&ra, &rb) {
                (Ok(1), r) if *r == stale => wins[0] += 1,
                (r, Ok(1)) if *r == stale => wins[1] += 1,
                _ => panic!("round {round}: {ra:?} and {rb:?}"),
            }
            let actions = db.actions(id).await.unwrap();
            assert_eq!(actions.len(), 1, "round {round}: one commit");
            // Each server now answers with the stored move: the one that lost loads the game afresh.
            let stored = actions[0].body.clone();
            for server in [&a, &b] {
                let s = server.state.hub.state(id).await.unwrap();
                assert_eq!(
                    (s.version, s.moves.clone()),
                    (1, vec![std::sync::Arc::from(stored.as_str())]),
                    "round {round}"
                );
            }
        }
        assert_eq!(wins[0] + wins[1], 100);
        a.stop().await;
        b.stop().await;
        support::drop_database(pg).await;
    }
}
}

on_postgres! {
/// On PostgreSQL the servers hear of each other through LISTEN/NOTIFY: a move committed through B reaches a
/// page watching the game on A (as the state of the new version), and a challenge made through B reaches a
/// page following the lobby on A.
#[tokio::test]
async fn a_move_and_a_challenge_through_one_server_reach_the_pages_of_another() {
    for (url, pg) in support::databases("bus").await {
        let a = gridplay_server::start(config(&url)).await.expect("server A");
        let b = gridplay_server::start(config(&url)).await.expect("server B");
        let alice_cookie = signup(a.addr, "alice").await;
        let bob_cookie = signup(b.addr, "bob").await;
        let db = &a.state.db;
        let alice = db.user_named("alice").await.unwrap().expect("alice");
        let bob = db.user_named("bob").await.unwrap().expect("bob");
        let game = GameRow::new(
            "reversi".into(),
            "reversi".into(),
            [Some(alice.clone()), Some(bob.clone())],
            [None, None],
        );
        db.create_game(&game).await.unwrap();
        let mut page = support::socket(a.addr, Some(&alice_cookie)).await;
        support::send(&mut page, serde_json::json!({"t": "watch", "game": game.id})).await;
        let sync = support::recv_until(&mut page, "sync").await;
        assert_eq!(sync["state"]["version"], 0);
        support::send(&mut page, serde_json::json!({"t": "lobby"})).await;
        // Alice's move through server B (her other tab).
        assert_eq!(
            b.state
                .hub
                .act(&game.id, &alice, Action::Move("d3".into()), None, Some(0))
                .await,
            Ok(1)
        );
        let seen = loop {
            let m = support::recv(&mut page).await;
            if m["t"] == "sync" || m["t"] == "event" {
                break m;
            }
        };
        // The page gets the move as an event, as if it had been made on A.
        assert_eq!(seen["t"], "event", "{seen}");
        assert_eq!(seen["v"], 1, "{seen}");
        assert_eq!(seen["delta"]["moves+"], serde_json::json!(["d3"]));
        // A challenge made through B: the lobby page on A hears of it. What the page had on its way before is
        // read first (up to a pong); then the notice that comes is the challenge's, and the lobby it says to
        // fetch again, on A, lists the challenge.
        support::send(&mut page, serde_json::json!({"t": "ping"})).await;
        support::recv_until(&mut page, "pong").await;
        let r = support::http(
            b.addr,
            "POST",
            "/api/challenges",
            Some(&bob_cookie),
            Some(r#"{"spec":"checkers","color":"first"}"#),
        )
        .await;
        assert_eq!(r.status, 200, "{}", r.body);
        let challenge = r.json()["id"].as_str().expect("an id").to_owned();
        support::recv_until(&mut page, "lobby").await;
        let lobby = support::http(a.addr, "GET", "/api/lobby", Some(&alice_cookie), None)
            .await
            .json();
        assert!(
            lobby["challenges"]
                .as_array()
                .expect("challenges")
                .iter()
                .any(|c| c["id"] == challenge.as_str()),
            "{lobby}"
        );
        a.stop().await;
        b.stop().await;
        support::drop_database(pg).await;
    }
}
}

/// A page's view of one game, kept from the `sync` and `event` messages its socket receives.
struct Page {
    ws: support::Socket,
    state: serde_json::Value,
}

impl Page {
    async fn watch(addr: std::net::SocketAddr, cookie: &str, game: &str) -> Page {
        let mut ws = support::socket(addr, Some(cookie)).await;
        support::send(&mut ws, serde_json::json!({"t": "watch", "game": game})).await;
        let sync = support::recv_until(&mut ws, "sync").await;
        Page {
            ws,
            state: sync["state"].clone(),
        }
    }

    fn version(&self) -> u64 {
        self.state["version"].as_u64().expect("a version")
    }

    /// Reads messages until the page shows version `v` or later; returns the other messages it skipped.
    async fn until_version(&mut self, v: u64) -> Vec<serde_json::Value> {
        let mut others = Vec::new();
        while self.version() < v {
            let m = support::recv(&mut self.ws).await;
            match m["t"].as_str() {
                Some("sync") => self.state = m["state"].clone(),
                Some("event") => gridplay_server::apply_delta(&mut self.state, &m["delta"]),
                _ => others.push(m),
            }
        }
        others
    }

    /// Plays a random legal move with an ack and waits for it: the new version.
    async fn play(&mut self, game: &str, rng: &mut u64) -> u64 {
        let moves = self.state["view"]["moves"].as_array().expect("moves").clone();
        assert!(!moves.is_empty(), "a move to play: {}", self.state);
        *rng = rng.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
        let mv = moves[(*rng >> 33) as usize % moves.len()]["text"].clone();
        let v = self.version();
        support::send(
            &mut self.ws,
            serde_json::json!({"t": "move", "game": game, "move": mv, "ack": format!("a{v}"), "v": v}),
        )
        .await;
        loop {
            let m = support::recv(&mut self.ws).await;
            match m["t"].as_str() {
                Some("ack") if m["ack"] == format!("a{v}") => break,
                Some("sync") => self.state = m["state"].clone(),
                Some("event") => gridplay_server::apply_delta(&mut self.state, &m["delta"]),
                Some("error") => panic!("move {mv} at version {v} refused: {m}"),
                _ => {}
            }
        }
        self.until_version(v + 1).await;
        v + 1
    }
}

/// Polls `check` every 100 ms for up to `secs` seconds.
async fn eventually<F, Fut>(secs: u64, what: &str, mut check: F)
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = bool>,
{
    let until = tokio::time::Instant::now() + std::time::Duration::from_secs(secs);
    while !check().await {
        assert!(tokio::time::Instant::now() < until, "not within {secs} s: {what}");
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
}

on_postgres! {
/// Three servers on one PostgreSQL database, each with its own hub, lobby, bus and connection pool (as three
/// processes would have): two players on two of them and a spectator on the third.
#[tokio::test]
async fn three_servers_play_as_one_site() {
    for (url, pg) in support::databases("three").await {
        let servers = [
            gridplay_server::start(config(&url)).await.expect("server A"),
            gridplay_server::start(config(&url)).await.expect("server B"),
            gridplay_server::start(config(&url)).await.expect("server C"),
        ];
        let [a, b, c] = [servers[0].addr, servers[1].addr, servers[2].addr];
        let alice = signup(a, "alice").await;
        let bob = signup(b, "bob").await;
        let carol = signup(c, "carol").await;
        let mut lobby_a = support::socket(a, Some(&alice)).await;
        support::send(&mut lobby_a, serde_json::json!({"t": "lobby"})).await;
        let mut lobby_b = support::socket(b, Some(&bob)).await;
        support::send(&mut lobby_b, serde_json::json!({"t": "lobby"})).await;
        let _lobby_c = support::socket(c, Some(&carol)).await;

        // The online list: every server shows the three users, each on their own server.
        for (addr, cookie) in [(a, &alice), (b, &bob), (c, &carol)] {
            eventually(5, "the online list of every server", || async move {
                let l = support::http(addr, "GET", "/api/lobby", Some(cookie), None)
                    .await
                    .json();
                l["online_count"] == 3 && l["online"] == serde_json::json!(["alice", "bob", "carol"])
            })
            .await;
        }

        // A challenge made on A and accepted on B: Alice's page on A hears that the game started.
        let r = support::http(
            a,
            "POST",
            "/api/challenges",
            Some(&alice),
            Some(r#"{"spec":"reversi","color":"first","time":{"live":{"initial":600,"increment":0}}}"#),
        )
        .await;
        assert_eq!(r.status, 200, "{}", r.body);
        let challenge = r.json()["id"].as_str().unwrap().to_owned();
        // Bob's lobby page on B hears of it.
        loop {
            support::recv_until(&mut lobby_b, "lobby").await;
            let l = support::http(b, "GET", "/api/lobby", Some(&bob), None)
                .await
                .json();
            if l.to_string().contains(&challenge) {
                break;
            }
        }
        let r = support::http(
            b,
            "POST",
            &format!("/api/challenges/{challenge}/accept"),
            Some(&bob),
            Some("{}"),
        )
        .await;
        assert_eq!(r.status, 200, "{}", r.body);
        let game = r.json()["game"].as_str().unwrap().to_owned();
        let started = support::recv_until(&mut lobby_a, "started").await;
        assert_eq!(started["game"], game.as_str());

        // The whole game: Alice moves through A, Bob through B, Carol watches on C; each move is acknowledged
        // and reaches the other two pages; Bob hears that it is his turn.
        let mut pages = [
            Page::watch(a, &alice, &game).await,
            Page::watch(b, &bob, &game).await,
        ];
        let mut spectator = Page::watch(c, &carol, &game).await;
        eventually(5, "the spectator counted on every server", || {
            let game = game.clone();
            async move {
                let mut all = true;
                for addr in [a, b, c] {
                    let r = support::http(addr, "GET", &format!("/api/games/{game}/spectators"), None, None)
                        .await;
                    all &= r.json()["spectators"] == 1;
                }
                all
            }
        })
        .await;
        let mut rng = 7;
        let mut turns = 0;
        while pages[0].state["over"].is_null() {
            let side = usize::from(pages[0].state["view"]["turn"] != "first");
            let v = pages[side].play(&game, &mut rng).await;
            let skipped = pages[1 - side].until_version(v).await;
            if side == 0 && pages[0].state["view"]["turn"] == "second" {
                turns += usize::from(
                    skipped
                        .iter()
                        .any(|m| m["t"] == "turn" && m["game"] == game.as_str()),
                );
            }
            spectator.until_version(v).await;
            assert_eq!(pages[1 - side].state, pages[side].state, "version {v}");
            assert_eq!(
                spectator.state["moves"], pages[side].state["moves"],
                "version {v}"
            );
            // Carol reconnects now and then, to another server: she gets the game as it is.
            if v % 20 == 0 {
                spectator = Page::watch([a, b, c][(v / 20) as usize % 3], &carol, &game).await;
                assert_eq!(spectator.version(), v);
            }
        }
        assert!(turns > 0, "Bob's page on B heard of his turns");
        let db = &servers[0].state.db;
        let actions = db.actions(&game).await.unwrap();
        assert_eq!(
            actions.len() as u64,
            pages[0].version(),
            "every acknowledged move once"
        );
        drop(pages);
        drop(spectator);

        // A live clock that runs out flags once, whoever watches on which server.
        let game = support::game_between(
            a,
            &alice,
            &bob,
            &serde_json::json!({"spec": "reversi", "color": "first", "opponent": "bob",
                                "time": {"live": {"initial": 2, "increment": 0}}}),
        )
        .await;
        let mut pages = [
            Page::watch(a, &alice, &game).await,
            Page::watch(b, &bob, &game).await,
            Page::watch(c, &carol, &game).await,
        ];
        let mut rng = 3;
        let v = pages[0].play(&game, &mut rng).await;
        pages[1].until_version(v).await;
        let v = pages[1].play(&game, &mut rng).await;
        for p in &mut pages {
            p.until_version(v + 1).await;
            assert_eq!(p.state["over"]["termination"], "timeout", "{}", p.state);
        }
        tokio::time::sleep(std::time::Duration::from_secs(1)).await;
        let actions = db.actions(&game).await.unwrap();
        assert_eq!(actions.len(), 3, "two moves and one flag: {actions:?}");

        // An engine game made on C and watched from A and B: the engine's replies come once each.
        let game = support::computer_game(c, &carol, r#"{"spec":"reversi","level":1,"color":"second"}"#).await;
        let mut watchers = [
            Page::watch(a, &alice, &game).await,
            Page::watch(b, &bob, &game).await,
        ];
        let mut carol_page = Page::watch(c, &carol, &game).await;
        let mut rng = 11;
        carol_page.until_version(1).await;
        for _ in 0..3 {
            let v = carol_page.play(&game, &mut rng).await;
            carol_page.until_version(v + 1).await;
            for w in &mut watchers {
                w.until_version(v + 1).await;
            }
        }
        tokio::time::sleep(std::time::Duration::from_secs(1)).await;
        let actions = db.actions(&game).await.unwrap();
        assert_eq!(
            actions.len(),
            7,
            "the engine's four moves and Carol's three, once each"
        );
        assert_eq!(carol_page.version(), 7);
        drop((watchers, carol_page, lobby_a, lobby_b));
        for s in servers {
            s.stop().await;
        }
        support::drop_database(pg).await;
    }
}
}

on_both_databases! {
/// A game's lease: a server that holds it renews it by claiming again; another server's claim only reads
/// when the lease is alive, and says until when it lasts; an expired lease goes to whoever claims it; a
/// stopping server's leases expire at once, so that the sweep of expired leases finds them.
#[tokio::test]
async fn a_lease_is_held_by_one_server_until_it_expires_or_is_given_up() {
    use gridplay_server::db::{Db, Lease};
    for (url, pg) in support::databases("lease").await {
        let db = Db::connect(&url, 2, 1).await.expect("database");
        let now = 1_000_000;
        assert_eq!(db.claim_lease("g1", "a", now).await.unwrap(), Lease::Held);
        assert_eq!(
            db.claim_lease("g1", "b", now + 10).await.unwrap(),
            Lease::Elsewhere {
                until_ms: now + 3_000
            }
        );
        assert_eq!(db.claim_lease("g1", "a", now + 1_000).await.unwrap(), Lease::Held);
        assert_eq!(
            db.claim_lease("g1", "b", now + 3_500).await.unwrap(),
            Lease::Elsewhere {
                until_ms: now + 4_000
            },
            "renewed by its holder's claim"
        );
        assert_eq!(
            db.claim_lease("g1", "b", now + 4_001).await.unwrap(),
            Lease::Held,
            "expired"
        );
        assert_eq!(db.claim_lease("g2", "a", now + 4_001).await.unwrap(), Lease::Held);
        assert!(db.expired_leases(now + 4_002).await.unwrap().is_empty());
        db.release_leases("b").await.unwrap();
        assert_eq!(
            db.expired_leases(now + 4_002).await.unwrap(),
            vec!["g1".to_owned()],
            "a given-up lease is found by the sweep; the other server's is not"
        );
        assert_eq!(db.claim_lease("g1", "a", now + 4_002).await.unwrap(), Lease::Held);
        drop(db);
        support::drop_database(pg).await;
    }
}
}
