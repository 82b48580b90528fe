//! The same invariant checks for every game, in the manner of OpenSpiel's `basic_tests`.
//!
//! A game's test suite calls [`check_game`] with a few seeds; it plays random games and checks at every
//! position that the moves, texts, views and outcome agree with each other. It panics with the position text
//! and the move history when a check fails.

use std::collections::HashSet;

use crate::{DynGame, Game, Position, Status, playout};

/// What to check and how long.
#[derive(Clone, Debug)]
pub struct Plan {
    /// Random games to play.
    pub games: usize,
    /// Seed of the first game; game `i` uses `seed + i`.
    pub seed: u64,
    /// A game longer than this fails the check: every game must end.
    pub max_plies: usize,
}

impl Default for Plan {
    fn default() -> Plan {
        Plan {
            games: 40,
            seed: 1,
            max_plies: 2_000,
        }
    }
}

/// Text inputs that no parser may panic on.
pub const GARBAGE: &[&str] = &[
    "",
    " ",
    "\n",
    "pass pass",
    "z99",
    "a0",
    "a",
    "1",
    "-",
    "x",
    "*",
    "é",
    "a1a1a1a1a1a1a1a1a1a1a1a1",
    "99999999999999999999",
    "/",
    "//////////",
    "\u{0}",
    "W:W:B",
    "-1",
    "a-1",
    "1-2-3",
    "0x0",
];

/// Runs every generic check on a game variant; `extra` adds the game's own invariants for each position.
///
/// # Panics
///
/// When a check fails, with the position, its history and what went wrong.
pub fn check_game<G: Game>(game: &G, plan: &Plan, extra: impl Fn(&G::Position)) {
    check_parsers_never_panic(game);
    check_start(game);
    for i in 0..plan.games {
        let seed = plan.seed + i as u64;
        let mut rng = playout::seeded(seed);
        let mut history: Vec<String> = Vec::new();
        let start = game.start();
        let (last, moves) = playout::random_playout(&start, &mut rng, plan.max_plies, |pos| {
            check_position(game, pos, &history);
            extra(pos);
            history.push(pos.to_text());
        });
        assert!(
            last.is_over(),
            "{}: game with seed {seed} did not end within {} plies; moves {:?}",
            G::NAME,
            plan.max_plies,
            moves
        );
    }
}

fn fail(game: &str, pos: &impl Position, history: &[String], what: &str) -> ! {
    panic!(
        "{game}: {what}\n  position: {}\n  after {} positions: {:?}",
        pos.to_text(),
        history.len(),
        history
    )
}

/// Checks one position for internal consistency.
pub fn check_position<G: Game>(game: &G, pos: &G::Position, history: &[String]) {
    let name = G::NAME;
    let moves = pos.legal_moves();
    let over = pos.outcome().is_some();
    if over != moves.is_empty() {
        fail(
            name,
            pos,
            history,
            "a position has legal moves exactly when the game is not over",
        );
    }
    if pos.perft(1) != moves.len() as u64 {
        fail(
            name,
            pos,
            history,
            "perft(1) differs from the number of legal moves",
        );
    }

    // Moves are distinct, legal, and their texts round-trip.
    let mut seen = HashSet::new();
    let mut texts = Vec::with_capacity(moves.len());
    for &m in moves.iter() {
        if !seen.insert(m) {
            fail(name, pos, history, &format!("move {m:?} is generated twice"));
        }
        if let Err(e) = pos.validate(m) {
            fail(name, pos, history, &format!("generated move is refused: {e}"));
        }
        let text = pos.move_text(m);
        match pos.parse_move(&text) {
            Ok(back) if back == m => {}
            other => fail(
                name,
                pos,
                history,
                &format!("move text `{text}` reads back as {other:?}"),
            ),
        }
        let checked = pos
            .clone()
            .play(m)
            .unwrap_or_else(|e| fail(name, pos, history, &e.to_string()));
        let mut unchecked = pos.clone();
        unchecked.play_unchecked(m);
        if checked.to_text() != unchecked.to_text() {
            fail(
                name,
                pos,
                history,
                &format!("play and play_unchecked differ for `{text}`"),
            );
        }
        texts.push(text);
    }

    // The position text round-trips and describes the same state.
    let text = pos.to_text();
    if text.contains('\n') {
        fail(name, pos, history, "the position text is not one line");
    }
    match game.parse_position(&text) {
        Ok(back) => {
            if back.to_text() != text {
                fail(
                    name,
                    pos,
                    history,
                    &format!("position text reads back as `{}`", back.to_text()),
                );
            }
            let back_moves: Vec<String> = back.legal_moves().iter().map(|&m| back.move_text(m)).collect();
            if back_moves != texts || back.turn() != pos.turn() || back.outcome() != pos.outcome() {
                fail(
                    name,
                    pos,
                    history,
                    "the position read back from its text plays differently",
                );
            }
        }
        Err(e) => fail(name, pos, history, &format!("own position text refused: {e}")),
    }

    // The view agrees with the position.
    let view = pos.view();
    let info = game.info();
    if view.width != info.width || view.height != info.height {
        fail(name, pos, history, "the view's size differs from the game's");
    }
    if view.cells.len() != (view.width * view.height) as usize
        || view.files.len() != view.width as usize
        || view.ranks.len() != view.height as usize
    {
        fail(
            name,
            pos,
            history,
            "the view's cells or labels do not match its size",
        );
    }
    let view_moves: Vec<&str> = view.moves.iter().map(|m| m.text.as_str()).collect();
    if view_moves != texts {
        fail(name, pos, history, "the view's moves differ from the legal moves");
    }
    let cells = view.cells.len() as u32;
    if view.moves.iter().any(|m| {
        m.from.is_some_and(|c| c >= cells)
            || m.target.is_some_and(|c| c >= cells)
            || m.path.iter().any(|&c| c >= cells)
    }) {
        fail(name, pos, history, "a move in the view points outside the board");
    }
    if view.turn != (!over).then(|| pos.turn()) || view.status != Status::from(pos.outcome()) {
        fail(name, pos, history, "the view's turn or status is wrong");
    }
    if view.score != pos.score() {
        fail(name, pos, history, "the view's score differs from the position's");
    }
    if glyphs_unprintable(&view) {
        fail(
            name,
            pos,
            history,
            "the view has a glyph that is not printable ASCII",
        );
    }
    let json = serde_json::to_string(&view).unwrap_or_else(|e| fail(name, pos, history, &e.to_string()));
    match serde_json::from_str::<crate::BoardView>(&json) {
        Ok(back) if back == view => {}
        _ => fail(name, pos, history, "the view does not round-trip through JSON"),
    }
}

fn glyphs_unprintable(view: &crate::BoardView) -> bool {
    view.cells
        .iter()
        .flat_map(|c| &c.piece)
        .any(|p| !p.glyph.is_ascii_graphic())
}

fn check_start<G: Game>(game: &G) {
    let spec = game.spec();
    let again = G::from_spec(&spec).unwrap_or_else(|e| panic!("{}: own spec `{spec}` refused: {e}", G::NAME));
    assert_eq!(again.spec(), spec, "{}: the spec does not round-trip", G::NAME);
    let dynamic: &dyn DynGame = game;
    assert_eq!(dynamic.start().to_text(), game.start().to_text());
    assert!(
        !game.start().is_over(),
        "{}: the game is over before it starts",
        G::NAME
    );
}

/// No parser may panic, whatever it is given; each bad input gets an error.
pub fn check_parsers_never_panic<G: Game>(game: &G) {
    let start = game.start();
    let legal: HashSet<String> = start.legal_moves().iter().map(|&m| start.move_text(m)).collect();
    for junk in GARBAGE {
        let _ = game.parse_position(junk);
        if let Ok(m) = start.parse_move(junk) {
            let ok = start.validate(m).is_ok();
            assert_eq!(
                ok,
                legal.contains(&start.move_text(m)),
                "{}: `{junk}` validated wrongly",
                G::NAME
            );
        }
    }
    // Every prefix and every one-character corruption of the start text is handled without panicking.
    let text = start.to_text();
    for cut in 0..=text.len() {
        if text.is_char_boundary(cut) {
            let _ = game.parse_position(&text[..cut]);
        }
    }
    for (i, _) in text.char_indices() {
        for c in ['?', ' ', '/', 'X', '9', '-'] {
            let mut s = String::with_capacity(text.len());
            s.push_str(&text[..i]);
            s.push(c);
            s.push_str(&text[i + text[i..].chars().next().map_or(0, char::len_utf8)..]);
            let _ = game.parse_position(&s);
        }
    }
}

/// A game's rules written apart from its module, on positions' text, for [`differential`]: the legal moves'
/// texts of a position (none once it is over), and the text of the position a move leads to.
pub trait Reference {
    fn moves(&self, position: &str) -> std::collections::BTreeSet<String>;
    fn play(&self, position: &str, mv: &str) -> String;

    /// Perft by the reference alone.
    fn perft(&self, position: &str, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        self.moves(position)
            .iter()
            .map(|m| self.perft(&self.play(position, m), depth - 1))
            .sum()
    }
}

/// Plays a random game from each start, comparing at every position the module's legal moves with the
/// reference's, and after each move the module's position text with the reference's. Returns the moves
/// played, game by game, in order. Panics with the position at the first difference.
pub fn differential<P: Position>(
    reference: &impl Reference,
    starts: impl IntoIterator<Item = P>,
    seed: u64,
) -> Vec<Vec<String>> {
    use rand::RngExt;
    let mut rng = playout::seeded(seed);
    let mut games = Vec::new();
    for mut p in starts {
        let mut played = Vec::new();
        loop {
            let text = p.to_text();
            let expected = reference.moves(&text);
            let got: std::collections::BTreeSet<String> =
                p.legal_moves().into_iter().map(|m| p.move_text(m)).collect();
            assert_eq!(got, expected, "the legal moves of {text}");
            if p.outcome().is_some() {
                assert!(expected.is_empty(), "{text} is over, but the reference has moves");
                break;
            }
            let list: Vec<&String> = expected.iter().collect();
            let mv = list[rng.random_range(0..list.len())].clone();
            p.play_text(&mv).unwrap_or_else(|e| panic!("{text}: {mv}: {e}"));
            assert_eq!(p.to_text(), reference.play(&text, &mv), "{text}, after {mv}");
            played.push(mv);
        }
        games.push(played);
    }
    games
}
