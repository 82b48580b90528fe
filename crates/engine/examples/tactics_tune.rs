//! Grid Tactics evaluation weights, for tuning (`docs/engines.md`, "Grid Tactics"):
//!
//! `cargo run --release -p gridplay-engine --example tactics_tune -- SPEC GAMES DEPTH A [B]`
//!
//! where A and B are `now,next,approach[,width]` weights (width 0 searches every move; left out, the default
//! width), and DEPTH is one search depth for both sides or `DA/DB` for A and B. A depth written `NtT` (such
//! as `2t200`) plays like a weak level: every move is scored to depth N and one is drawn by softmax with
//! temperature T (`Level::choose`, the engine's own rule), and `NrP` (such as `2r30`) plays a random legal
//! move P percent of the time and its best move at depth N otherwise. With one weight set,
//! self-play: first-player wins, second-player wins, draws and how many games ended by elimination. With
//! two, A plays B with the colours swapped in each pair of games (same random opening), and A's score is
//! printed. Each side's search charges its own distance (`Eval::attacker`). Four random activations open
//! each game; game g's opening is seeded by g + 1 (a duel's pair by g / 2 + 1), plus the environment's
//! `SEED` (default 0), so that a second run with `SEED` set plays new games. The armies need not follow the
//! composition rule (rule 3 of docs/rules/tactics.md), so that the armies it excludes can be measured.

use gridplay_core::{Game, Outcome, Player, Position, playout};
use gridplay_engine::{Level, tactics::Eval};
use gridplay_games::tactics::{Tactics, TacticsPosition};
use gridplay_search::{Limits, Search, StopFlag, TranspositionTable, score_root_moves};
use rand::{RngExt, seq::IndexedRandom};

fn weights(text: &str) -> Eval {
    let w: Vec<i32> = text
        .split(',')
        .map(|v| v.parse().expect("weights are now,next,approach[,width]"))
        .collect();
    Eval {
        now: w[0],
        next: w[1],
        approach: w[2],
        attacker: None,
        width: match w.get(3) {
            None => Eval::default().width,
            Some(0) => None,
            Some(&n) => Some(n as usize),
        },
    }
}

/// A side's search: `N` (the best move at depth N), `NtT` (a softmax draw with temperature T among every
/// move scored to depth N) or `NrP` (the best move at depth N, but a random legal move P percent of the time,
/// like Grid Tactics' weak levels). Anything else ends the program with an error that quotes it.
fn level(text: &str) -> Level {
    let (search, random) = text.split_once('r').unwrap_or((text, "0"));
    let (depth, temperature) = search.split_once('t').unwrap_or((search, "0"));
    match (depth.parse(), temperature.parse(), random.parse()) {
        (Ok(depth), Ok(temperature), Ok(random)) if depth > 0 && random <= 100 => Level {
            depth,
            temperature,
            time: None,
            playouts: None,
            random,
        },
        _ => {
            eprintln!(
                "DEPTH: `{text}` is not a depth N, NtT (depth N at softmax temperature T) or NrP (depth N, P \
                 percent of moves at random), such as 2, 2t200 or 2r30"
            );
            std::process::exit(2);
        }
    }
}

/// Plays one game with `evals[0]` for the first player; returns the outcome, turns played and whether it ended
/// by elimination.
fn play(tactics: &Tactics, evals: [Eval; 2], levels: [Level; 2], seed: u64) -> (Option<Outcome>, u64, bool) {
    let mut rng = playout::seeded(seed);
    let mut pos: TacticsPosition = Game::start(tactics);
    let mut tts = [TranspositionTable::new(16), TranspositionTable::new(16)];
    let mut plies = 0;
    while pos.outcome().is_none() {
        let m = if plies < 4 {
            *pos.legal_moves().choose(&mut rng).expect("a legal move")
        } else {
            let side = pos.turn();
            let eval = Eval {
                attacker: Some(side),
                ..evals[side.index()]
            };
            let level = levels[side.index()];
            let tt = &mut tts[side.index()];
            if level.random > 0 && rng.random_range(0..100) < level.random {
                *pos.legal_moves().choose(&mut rng).expect("a legal move")
            } else if level.temperature > 0 {
                let scores =
                    score_root_moves(&pos, &eval, level.depth, tt, Limits::default(), &StopFlag::new())
                        .expect("a scoring without limits completes");
                level.choose(&scores, &mut |n| rng.random_range(0.0..n)).mv
            } else {
                Search::new(&eval, tt, Limits::depth(level.depth), StopFlag::new())
                    .run(&pos)
                    .best
                    .expect("a move")
            }
        };
        pos.play_unchecked(m);
        plies += 1;
    }
    let text = pos.to_text();
    let fields: Vec<&str> = text.split(' ').collect();
    let units = fields[5];
    let elimination = !units.chars().any(|c| "WAH".contains(c)) || !units.chars().any(|c| "wah".contains(c));
    (pos.outcome(), fields[2].parse().unwrap_or(0), elimination)
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.len() < 5 {
        eprintln!(
            "usage: tactics_tune SPEC GAMES DEPTH NOW,NEXT,APPROACH[,WIDTH] [NOW,NEXT,APPROACH[,WIDTH]]"
        );
        std::process::exit(2);
    }
    let spec = &args[1];
    let games: u64 = args[2].parse().expect("GAMES");
    let depth = &args[3];
    let (da, db) = depth.split_once('/').unwrap_or((depth, depth));
    let (da, db) = (level(da), level(db));
    let a = weights(&args[4]);
    // Balance research also measures the armies that the composition rule excludes (docs/rules/tactics.md,
    // rule 3), so the game is built as a stored one, without that rule.
    let tactics = match gridplay_games::registry().restore(spec) {
        Ok(game) => game.as_any().downcast_ref::<Tactics>().cloned(),
        Err(e) => {
            eprintln!("`{spec}`: {e}");
            std::process::exit(2);
        }
    };
    let Some(tactics) = tactics else {
        eprintln!("`{spec}` is not a Grid Tactics spec");
        std::process::exit(2);
    };
    let (mut wins, mut losses, mut draws, mut elim, mut turns) = (0, 0, 0, 0, 0);
    let b = args.get(5).map(|t| weights(t));
    let offset: u64 = std::env::var("SEED").map_or(0, |s| s.parse().expect("SEED is a number"));
    for g in 0..games {
        // A duel swaps colours within a pair of games sharing one opening.
        let (evals, levels, a_side) = match b {
            Some(b) if g % 2 == 1 => ([b, a], [db, da], Player::Second),
            Some(b) => ([a, b], [da, db], Player::First),
            None => ([a, a], [da, db], Player::First),
        };
        let seed = offset + if b.is_some() { g / 2 + 1 } else { g + 1 };
        let (outcome, t, e) = play(&tactics, evals, levels, seed);
        turns += t;
        elim += u64::from(e);
        match outcome.and_then(Outcome::winner) {
            Some(w) if w == a_side => wins += 1,
            Some(_) => losses += 1,
            None => draws += 1,
        }
    }
    let label = if b.is_some() {
        "A wins, losses"
    } else {
        "first wins, second wins"
    };
    println!(
        "{spec} depth {depth} {} {}: {label} {wins} {losses} draws {draws}; score {:.1}%; eliminations {elim}; {:.1} turns a game",
        args[4],
        args.get(5).map_or("", String::as_str),
        100.0 * (wins as f64 + 0.5 * draws as f64) / games as f64,
        turns as f64 / games as f64
    );
}
