//! The WebSocket session the `socket_messages` target drives: the server's socket loop
//! (`gridplay_server::ws::serve`), fed arbitrary messages on an in-memory server with one game.

use std::sync::OnceLock;

use gridplay_server::{
    AppState, Config,
    config::Limits,
    db::{GameRow, User},
    ws::Message,
};
use tokio::{runtime::Runtime, sync::mpsc};

struct Bench {
    runtime: Runtime,
    state: AppState,
    user: User,
    game: String,
}

fn bench() -> &'static Bench {
    static BENCH: OnceLock<Bench> = OnceLock::new();
    BENCH.get_or_init(|| {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .expect("a runtime");
        let (state, user, game) = runtime.block_on(async {
            let state = AppState::new(Config {
                database: "sqlite::memory:".into(),
                ws_per_second: 1_000_000,
                ws_burst: 1_000_000,
                limits: Limits::lenient(),
                ..Config::default()
            })
            .await
            .expect("an in-memory server");
            let user = User {
                id: "fuzzuser0001".into(),
                name: "fuzz".into(),
                bot: false,
            };
            let other = User {
                id: "fuzzuser0002".into(),
                name: "other".into(),
                bot: false,
            };
            for u in [&user, &other] {
                state.db.create_user(u, "-").await.expect("a user");
            }
            let game = GameRow::new(
                "reversi".into(),
                "reversi".into(),
                [Some(user.clone()), Some(other)],
                [None, None],
            );
            state.db.create_game(&game).await.expect("a game");
            (state, user, game.id)
        });
        Bench {
            runtime,
            state,
            user,
            game,
        }
    })
}

/// One page's socket session on a server with one game of reversi between this page's user and another:
/// `messages` are sent in order (`GAME` in them names that game), then the page leaves. Returns what the server
/// sent back, each a text message.
///
/// # Panics
///
/// When the server sends anything but JSON text with a `t` field: that is a fault the fuzz targets look for.
#[must_use]
pub(crate) fn socket_session(messages: &[String]) -> Vec<String> {
    let b = bench();
    b.runtime.block_on(async {
        let (to_server, from_page) = mpsc::unbounded_channel::<Message>();
        let (to_page, mut from_server) = mpsc::unbounded_channel::<Message>();
        let stream = Box::pin(futures_util::stream::unfold(from_page, |mut rx| async move {
            rx.recv().await.map(|m| (Ok::<_, ()>(m), rx))
        }));
        let sink = Box::pin(futures_util::sink::unfold(to_page, |tx, m: Message| async move {
            tx.send(m).map(|()| tx).map_err(|_| ())
        }));
        for m in messages {
            let _ = to_server.send(Message::Text(m.replace("GAME", &b.game).into()));
        }
        drop(to_server);
        gridplay_server::ws::serve(b.state.clone(), Some(b.user.clone()), sink, stream).await;
        let mut out = Vec::new();
        while let Ok(m) = from_server.try_recv() {
            let Message::Text(t) = m else {
                panic!("the server sent a message that is not text: {m:?}");
            };
            let v: serde_json::Value = serde_json::from_str(&t).expect("the server sends JSON");
            assert!(v["t"].is_string(), "a server message without a type: {t}");
            out.push(t.to_string());
        }
        out
    })
}
