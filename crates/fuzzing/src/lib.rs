//! The fuzz targets' bodies. Each reads arbitrary bytes and panics only on a fault: a crash in a reader, or an
//! accepted input that does not read back the same. `fuzz/` (in this crate, outside the workspace) runs them under
//! libFuzzer (cargo-fuzz, run from `crates/fuzzing`);
//! `tests/fuzz.rs` runs each for a fixed time on every test run, on mutations of the seeds given here.

use gridplay_core::GameRecord;
use gridplay_games::{checkers::pdn, registry};
use gridplay_server::transcript;

mod socket;

use socket::socket_session;

/// A fuzz target: its name (as in `fuzz/fuzz_targets/`), its body, and valid inputs to start from.
#[derive(Clone, Copy, Debug)]
pub struct Target {
    pub name: &'static str,
    pub run: fn(&[u8]),
    pub seeds: fn() -> Vec<Vec<u8>>,
}

/// Every target.
#[must_use]
pub fn targets() -> Vec<Target> {
    vec![
        Target {
            name: "position_text",
            run: position_text,
            seeds: position_seeds,
        },
        Target {
            name: "move_text",
            run: move_text,
            seeds: move_seeds,
        },
        Target {
            name: "game_spec",
            run: game_spec,
            seeds: spec_seeds,
        },
        Target {
            name: "checkers_pdn",
            run: checkers_pdn,
            seeds: pdn_seeds,
        },
        Target {
            name: "game_import",
            run: game_import,
            seeds: import_seeds,
        },
        Target {
            name: "socket_messages",
            run: socket_messages,
            seeds: socket_seeds,
        },
    ]
}

/// Every game's position parser: whatever is accepted writes back to a text that reads the same, and its
/// generated moves play.
pub fn position_text(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    for entry in registry().entries() {
        let game = registry().game(entry.name).expect("registered");
        if let Ok(pos) = game.parse_position(text) {
            let written = pos.to_text();
            let again = game.parse_position(&written).expect("own text reads back");
            assert_eq!(again.to_text(), written);
            for m in pos.legal_moves() {
                pos.box_clone().play(&m).expect("generated moves are legal");
            }
        }
    }
}

/// Every game's move reader on the start position and a few plies in: an accepted move is a legal one.
pub fn move_text(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    for entry in registry().entries() {
        let game = registry().game(entry.name).expect("registered");
        let mut pos = game.start();
        for _ in 0..3 {
            let legal = pos.legal_moves();
            let mut trial = pos.box_clone();
            if trial.play(text).is_ok() {
                let canonical = pos.normalize_move(text).expect("accepted moves normalise");
                assert!(legal.contains(&canonical), "{text:?} accepted but not listed");
            }
            let Some(first) = legal.first() else { break };
            pos.play(first).expect("legal");
        }
    }
}

/// Game specs: an accepted spec's canonical form builds the same game.
pub fn game_spec(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(game) = registry().game(text) {
        let canonical = game.spec().to_string();
        let again = registry().game(&canonical).expect("canonical spec builds");
        assert_eq!(again.spec().to_string(), canonical);
    }
}

/// Checkers PDN: an accepted game writes back to a text that reads the same.
pub fn checkers_pdn(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(game) = pdn::parse(text) {
        let written = pdn::write(&game.tags, &game.start, &game.moves, game.result);
        let again = pdn::parse(&written).expect("written PDN reads back");
        assert_eq!(again.moves, game.moves);
        assert_eq!(again.result, game.result);
    }
}

/// Game import (the platform's `/api/import`): an accepted file exports and imports back to the same game.
pub fn game_import(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(game) = transcript::import(registry(), text) else {
        return;
    };
    let names = game.names.clone().map(|n| n.unwrap_or_default());
    let (_, written) = transcript::export(
        registry(),
        "fuzz",
        &game.spec,
        [names[0].as_str(), names[1].as_str()],
        &game.record,
        None,
    );
    let again = transcript::import(registry(), &written)
        .unwrap_or_else(|e| panic!("an exported game does not import: {e}\n{written}"));
    assert_eq!(again.spec, game.spec);
    assert_eq!(again.record.moves(), game.record.moves());
}

/// The WebSocket reader: the lines of the input are one page's messages, on a server where that page's user
/// plays a game of reversi (`GAME` names it). Every answer is JSON with a type, and the server stays up.
pub fn socket_messages(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let messages: Vec<String> = text.split('\n').take(16).map(str::to_owned).collect();
    let _ = socket_session(&messages);
}

fn bytes(texts: impl IntoIterator<Item = String>) -> Vec<Vec<u8>> {
    texts.into_iter().map(String::into_bytes).collect()
}

fn position_seeds() -> Vec<Vec<u8>> {
    bytes(
        registry()
            .entries()
            .iter()
            .map(|e| registry().game(e.name).expect("registered").start().to_text()),
    )
}

fn move_seeds() -> Vec<Vec<u8>> {
    bytes(registry().entries().iter().flat_map(|e| {
        registry()
            .game(e.name)
            .expect("registered")
            .start()
            .legal_moves()
            .into_iter()
            .take(4)
    }))
}

fn spec_seeds() -> Vec<Vec<u8>> {
    let mut specs: Vec<String> = registry().entries().iter().map(|e| e.name.to_owned()).collect();
    specs.extend(
        [
            "cornered:size=8",
            "cornered:size=25",
            "tactics:size=24",
            "reversi",
            "checkers",
            "ywf",
        ]
        .map(str::to_owned),
    );
    bytes(specs)
}

fn pdn_seeds() -> Vec<Vec<u8>> {
    bytes([
        "[Event \"x\"]\n[Black \"B\"]\n[White \"W\"]\n[Result \"*\"]\n\n1. 9-13 21-17 2. 6-9 17-14 3. 9x18 22x15x6 *"
            .to_owned(),
        "1. 11-15 23-19 2. 8-11 22-17 1-0".to_owned(),
    ])
}

fn import_seeds() -> Vec<Vec<u8>> {
    let mut out = Vec::new();
    for e in registry().entries() {
        let game = registry().game(e.name).expect("registered");
        let mut record = GameRecord::new(game.start());
        for _ in 0..6 {
            let Some(m) = record.position().legal_moves().first().cloned() else {
                break;
            };
            record.play(&m).expect("legal");
        }
        let (_, text) = transcript::export(
            registry(),
            "seed",
            &game.spec().to_string(),
            ["ann", "ben"],
            &record,
            None,
        );
        out.push(text);
    }
    bytes(out)
}

fn socket_seeds() -> Vec<Vec<u8>> {
    bytes([
        "{\"t\":\"ping\"}\n{\"t\":\"lobby\"}".to_owned(),
        "{\"t\":\"watch\",\"game\":\"GAME\"}\n{\"t\":\"move\",\"game\":\"GAME\",\"move\":\"d3\",\"ack\":\"a1\",\"v\":0}"
            .to_owned(),
        "{\"t\":\"watch\",\"game\":\"GAME\",\"v\":3}\n{\"t\":\"draw\",\"game\":\"GAME\",\"answer\":\"offer\",\"ack\":\"a2\"}"
            .to_owned(),
        "{\"t\":\"takeback\",\"game\":\"GAME\",\"answer\":\"offer\"}\n{\"t\":\"resign\",\"game\":\"GAME\",\"ack\":\"z\"}"
            .to_owned(),
        "{\"t\":\"abort\",\"game\":\"GAME\"}\n{\"t\":\"claim\",\"game\":\"nosuchgame\"}".to_owned(),
    ])
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The socket target reaches the server's game, not only its message parser.
    #[test]
    fn the_socket_session_plays_on_the_servers_game() {
        let out = socket_session(&[
            "{\"t\":\"ping\"}".to_owned(),
            "{\"t\":\"watch\",\"game\":\"GAME\"}".to_owned(),
            "{\"t\":\"move\",\"game\":\"GAME\",\"move\":\"zz\",\"ack\":\"a1\"}".to_owned(),
            "not json".to_owned(),
        ]);
        let kinds: Vec<String> = out
            .iter()
            .map(|t| {
                serde_json::from_str::<serde_json::Value>(t).unwrap()["t"]
                    .as_str()
                    .unwrap()
                    .to_owned()
            })
            .collect();
        // Watching gives the state, then the chat lines the page may read.
        assert_eq!(
            kinds,
            ["hello", "pong", "sync", "chat", "error", "error"],
            "{out:?}"
        );
        assert!(out[4].contains("zz"), "{}", out[4]);
    }
}
