//! `gridplay review`: the engine-use review measured away from the server, with the same functions the server
//! runs on each finished game between people (`gridplay_engine::review`). `figures` reviews the games of PGN
//! files (such as the public WTHOR records, in the PGN that othello-games converts them to) side by side;
//! `engine` plays games in which one side is the engine at a level and reviews that side; `measure` reads
//! figures files, cuts each player's games into windows, and counts the windows the rule flags.

use std::{
    collections::BTreeMap,
    io::Write,
    path::PathBuf,
    sync::{
        Mutex, PoisonError,
        atomic::{AtomicUsize, Ordering},
    },
    time::Duration,
};

use clap::{Args, Subcommand};
use gridplay_core::{DynPosition, GameRecord, Player, playout};
use gridplay_engine::review::{self, GameFigures, Window};
use gridplay_search::StopFlag;

use crate::players::{PlayerOptions, Side};

/// The bound of the review's scores, as the server's analysis.
const CLAMP: i32 = 3_000;

#[derive(Args, Debug)]
pub(crate) struct ReviewArgs {
    #[command(subcommand)]
    what: ReviewWhat,
}

#[derive(Subcommand, Debug)]
enum ReviewWhat {
    /// Review the games of PGN files, both sides: one line per side per game in the figures file.
    Figures(FiguresArgs),
    /// Play games in which one side is the engine at a level, and review that side.
    Engine(EngineArgs),
    /// Cut each player's games of figures files into windows and count the windows the rule flags.
    Measure(MeasureArgs),
}

#[derive(Args, Debug)]
struct Effort {
    /// Search time per position, in milliseconds (the server's: `gridplay_engine::review::PER_POSITION`).
    #[arg(long, default_value_t = review::PER_POSITION.as_millis() as u64)]
    per_position_ms: u64,
    /// Games reviewed at once.
    #[arg(long, default_value_t = 1)]
    threads: usize,
}

#[derive(Args, Debug)]
struct FiguresArgs {
    /// PGN files whose games have `Black` and `White` tags and moves as squares (`1. F5 D6`).
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// The game, by registry name.
    #[arg(long, default_value = "reversi")]
    game: String,
    /// Only the games of players with at least this many games in the files.
    #[arg(long, default_value_t = 20)]
    min_games: usize,
    /// Review at most this many games (the first ones of the chosen players, in file order).
    #[arg(long)]
    limit: Option<usize>,
    #[command(flatten)]
    effort: Effort,
    #[arg(long)]
    out: PathBuf,
}

#[derive(Args, Debug)]
struct EngineArgs {
    /// The game, by registry name.
    #[arg(long, default_value = "reversi")]
    game: String,
    /// The engine side, as `gridplay match` names a player (`level=6`).
    #[arg(long)]
    engine: String,
    /// Its opponent.
    #[arg(long, default_value = "level=5")]
    opponent: String,
    /// Games to play; the engine takes each colour in turn.
    #[arg(long, default_value_t = 20)]
    games: usize,
    /// Plies of random moves before the engine and its opponent take over (the opening).
    #[arg(long, default_value_t = 6)]
    random_plies: usize,
    /// The seed of the openings and of the players' choices.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    #[command(flatten)]
    effort: Effort,
    #[arg(long)]
    out: PathBuf,
}

#[derive(Args, Debug)]
struct MeasureArgs {
    /// Figures files (`figures` or `engine`).
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// The game whose rule is measured, by registry name.
    #[arg(long, default_value = "reversi")]
    game: String,
    /// Window sizes, in games.
    #[arg(long, value_delimiter = ',', default_value = "10,20")]
    windows: Vec<usize>,
}

pub(crate) fn run(args: &ReviewArgs) -> anyhow::Result<()> {
    match &args.what {
        ReviewWhat::Figures(a) => figures(a),
        ReviewWhat::Engine(a) => engine(a),
        ReviewWhat::Measure(a) => measure(a),
    }
}

/// A game of a PGN file: its players and its moves as written.
struct PgnGame {
    players: [String; 2],
    moves: Vec<String>,
}

/// The games of a PGN file: each game's `Black` and `White` tags and the squares of its move text.
fn read_pgn(text: &str) -> Vec<PgnGame> {
    let mut games = Vec::new();
    let mut players = [String::new(), String::new()];
    let mut moves: Vec<String> = Vec::new();
    let tag = |line: &str, name: &str| {
        line.strip_prefix(&format!("[{name} \""))
            .and_then(|r| r.strip_suffix("\"]"))
            .map(str::to_owned)
    };
    let mut flush = |players: &mut [String; 2], moves: &mut Vec<String>| {
        if !moves.is_empty() && !players[0].is_empty() && !players[1].is_empty() {
            games.push(PgnGame {
                players: players.clone(),
                moves: std::mem::take(moves),
            });
        }
        moves.clear();
    };
    for line in text.lines() {
        let line = line.trim();
        if line.starts_with("[Event ") {
            flush(&mut players, &mut moves);
            players = [String::new(), String::new()];
        } else if let Some(name) = tag(line, "Black") {
            players[0] = name;
        } else if let Some(name) = tag(line, "White") {
            players[1] = name;
        } else if !line.starts_with('[') {
            for token in line.split_whitespace() {
                let b = token.as_bytes();
                if b.len() == 2 && b[0].is_ascii_alphabetic() && b[1].is_ascii_digit() {
                    moves.push(token.to_ascii_lowercase());
                }
            }
        }
    }
    flush(&mut players, &mut moves);
    games
}

/// The record of `moves` from the start of `game`, with the forced passes a transcript leaves out; `None`
/// when a move is not legal.
fn replay(start: &dyn DynPosition, moves: &[String]) -> Option<GameRecord> {
    let mut record = GameRecord::new(start.box_clone());
    for mv in moves {
        if record.play(mv).is_err() {
            let legal = record.position().legal_moves();
            if legal.len() != 1 || record.play(&legal[0]).is_err() || record.play(mv).is_err() {
                return None;
            }
        }
    }
    Some(record)
}

/// The review of a game's record, as the server reviews one: each position scored, then the figures.
fn review_record(record: &GameRecord, per_position: Duration) -> review::Review {
    let mut positions: Vec<Box<dyn DynPosition>> = vec![record.start().box_clone()];
    let mut pos = record.start().box_clone();
    for mv in record.moves() {
        pos.play(mv).expect("a recorded move is legal");
        positions.push(pos.box_clone());
    }
    let scored = review::score_positions(&positions, record.moves(), per_position, CLAMP, &StopFlag::new());
    review::review_scored(record.start(), &scored)
}

/// One line of a figures file: the player, the game's number in the file, and the side's figures.
fn figures_line(source: &str, player: &str, n: usize, side: &review::SideReview) -> Option<String> {
    let accuracy = side.accuracy?;
    Some(format!(
        "{source}\t{player}\t{n}\t{}\t{}\t{accuracy:.2}",
        side.counted, side.agreed
    ))
}

/// Runs `work` on `0..n` with `threads` threads and writes each result's lines to `out` in order, as they
/// come, with a progress count on standard error.
fn in_parallel(
    n: usize,
    threads: usize,
    out: &PathBuf,
    work: impl Fn(usize) -> Vec<String> + Sync,
) -> anyhow::Result<()> {
    let mut file = std::fs::File::create(out).map_err(|e| anyhow::anyhow!("{}: {e}", out.display()))?;
    let next = AtomicUsize::new(0);
    let done: Mutex<BTreeMap<usize, Vec<String>>> = Mutex::new(BTreeMap::new());
    let written = Mutex::new((0usize, &mut file));
    std::thread::scope(|s| {
        for _ in 0..threads.max(1) {
            s.spawn(|| {
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= n {
                        break;
                    }
                    let lines = work(i);
                    let mut d = done.lock().unwrap_or_else(PoisonError::into_inner);
                    d.insert(i, lines);
                    let mut w = written.lock().unwrap_or_else(PoisonError::into_inner);
                    while let Some(lines) = d.remove(&w.0) {
                        for l in lines {
                            let _ = writeln!(w.1, "{l}");
                        }
                        w.0 += 1;
                        eprint!("\r{} of {n} games reviewed", w.0);
                    }
                }
            });
        }
    });
    eprintln!();
    Ok(file.flush()?)
}

fn figures(a: &FiguresArgs) -> anyhow::Result<()> {
    let registry = gridplay_games::registry();
    let game = registry.game(&a.game)?;
    let start = game.start();
    let mut games = Vec::new();
    for f in &a.files {
        let text = std::fs::read_to_string(f).map_err(|e| anyhow::anyhow!("{}: {e}", f.display()))?;
        let source = f
            .file_name()
            .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
        let read = read_pgn(&text);
        if read.is_empty() {
            return Err(anyhow::anyhow!(
                "{}: no game with Black and White tags and moves",
                f.display()
            ));
        }
        games.extend(read.into_iter().map(|g| (source.clone(), g)));
    }
    let mut count: BTreeMap<&str, usize> = BTreeMap::new();
    for (_, g) in &games {
        for p in &g.players {
            *count.entry(p.as_str()).or_default() += 1;
        }
    }
    let chosen: Vec<usize> = (0..games.len())
        .filter(|&i| {
            games[i]
                .1
                .players
                .iter()
                .any(|p| count[p.as_str()] >= a.min_games)
        })
        .take(a.limit.unwrap_or(usize::MAX))
        .collect();
    eprintln!(
        "{} games read, {} by players with {} or more games",
        games.len(),
        chosen.len(),
        a.min_games
    );
    let per = Duration::from_millis(a.effort.per_position_ms);
    in_parallel(chosen.len(), a.effort.threads, &a.out, |i| {
        let (source, g) = &games[chosen[i]];
        let Some(record) = replay(start.as_ref(), &g.moves) else {
            eprintln!("\n{source}: game {} has an illegal move: left out", chosen[i] + 1);
            return Vec::new();
        };
        let r = review_record(&record, per);
        (0..2)
            .filter(|&s| count[g.players[s].as_str()] >= a.min_games)
            .filter_map(|s| figures_line(source, &g.players[s], chosen[i], &r.sides[s]))
            .collect()
    })
}

fn engine(a: &EngineArgs) -> anyhow::Result<()> {
    let registry = gridplay_games::registry();
    let game = registry.game(&a.game)?;
    let spec = game.spec().to_string();
    let opts = PlayerOptions {
        move_time: 1000,
        nboard_depth: 10,
        answer_limit: 60.0,
    };
    Side::parse(&a.engine, &spec, &opts)?;
    Side::parse(&a.opponent, &spec, &opts)?;
    let per = Duration::from_millis(a.effort.per_position_ms);
    in_parallel(a.games, a.effort.threads, &a.out, |i| {
        let seed = a.seed.wrapping_mul(1_000_003).wrapping_add(i as u64);
        let opening = crate::matches::random_opening(game.as_ref(), a.random_plies, seed);
        let mut sides = [
            Side::parse(&a.engine, &spec, &opts).expect("parsed above"),
            Side::parse(&a.opponent, &spec, &opts).expect("parsed above"),
        ];
        // The engine moves first in even games.
        let engine_plays = if i % 2 == 0 {
            opening.turn()
        } else {
            !opening.turn()
        };
        let mut record = GameRecord::new(opening.box_clone());
        let mut rng = playout::seeded(seed);
        for s in &mut sides {
            s.new_game();
        }
        let mut ply = 0;
        while record.outcome().is_none() && ply < 1000 {
            let who = usize::from(record.position().turn() != engine_plays);
            let Ok(mv) = sides[who].choose(&record, &mut rng, seed + ply, None) else {
                break;
            };
            if record.play(&mv).is_err() {
                break;
            }
            ply += 1;
        }
        let r = review_record(&record, per);
        let engine_side = match engine_plays {
            Player::First => 0,
            Player::Second => 1,
        };
        figures_line(&a.engine, &a.engine, i, &r.sides[engine_side])
            .into_iter()
            .collect()
    })
}

/// A line of a figures file: source, player, game number, counted, agreed, accuracy.
fn parse_line(line: &str) -> Option<(String, GameFigures)> {
    let f: Vec<&str> = line.split('\t').collect();
    if f.len() != 6 {
        return None;
    }
    Some((
        format!("{}\t{}", f[0], f[1]),
        GameFigures {
            counted: f[3].parse().ok()?,
            agreed: f[4].parse().ok()?,
            accuracy: f[5].parse().ok()?,
        },
    ))
}

fn measure(a: &MeasureArgs) -> anyhow::Result<()> {
    let rule = review::rule(&a.game).ok_or_else(|| anyhow::anyhow!("no engine-use rule for `{}`", a.game))?;
    println!(
        "rule for {}: agreement >= {:.1}% and mean accuracy >= {:.1}% over a window",
        a.game, rule.agreement, rule.accuracy
    );
    for f in &a.files {
        let text = std::fs::read_to_string(f).map_err(|e| anyhow::anyhow!("{}: {e}", f.display()))?;
        let mut players: BTreeMap<String, Vec<GameFigures>> = BTreeMap::new();
        for (n, line) in text.lines().enumerate() {
            let (player, g) = parse_line(line)
                .ok_or_else(|| anyhow::anyhow!("{} line {}: not a figures line", f.display(), n + 1))?;
            players.entry(player).or_default().push(g);
        }
        for &size in &a.windows {
            let windows: Vec<Window> = players
                .values()
                .flat_map(|games| games.chunks_exact(size).map(Window::of))
                .collect();
            let rule = review::Rule {
                min_games: size,
                ..rule
            };
            let flagged = windows.iter().filter(|w| w.flagged(&rule)).count();
            let mut agreement: Vec<f64> = windows.iter().map(|w| w.agreement).collect();
            let mut accuracy: Vec<f64> = windows.iter().map(|w| w.accuracy).collect();
            agreement.sort_by(f64::total_cmp);
            accuracy.sort_by(f64::total_cmp);
            let q = |v: &[f64], p: f64| {
                v.get(((v.len() as f64 - 1.0) * p).round() as usize)
                    .copied()
                    .unwrap_or(f64::NAN)
            };
            println!(
                "{}: windows of {size}: {} from {} players, flagged {flagged} ({:.1}%); agreement min {:.1} median {:.1} max {:.1}; accuracy min {:.1} median {:.1} max {:.1}",
                f.display(),
                windows.len(),
                players.values().filter(|g| g.len() >= size).count(),
                100.0 * flagged as f64 / windows.len().max(1) as f64,
                q(&agreement, 0.0),
                q(&agreement, 0.5),
                q(&agreement, 1.0),
                q(&accuracy, 0.0),
                q(&accuracy, 0.5),
                q(&accuracy, 1.0),
            );
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_pgn_file_gives_each_game_its_players_and_squares() {
        let text = "[Event \"Open - 2024\"]\n[Date \"2024\"]\n[Black \"Ann\"]\n[White \"Ben\"]\n[Result \"33-31\"]\n\
                    1. F5 D6\n2. C3 D3\n\n[Event \"Open - 2024\"]\n[Black \"Ben\"]\n[White \"Cy\"]\n1. D3 C3\n";
        let games = read_pgn(text);
        assert_eq!(games.len(), 2);
        assert_eq!(games[0].players, ["Ann".to_owned(), "Ben".to_owned()]);
        assert_eq!(games[0].moves, ["f5", "d6", "c3", "d3"]);
        assert_eq!(games[1].moves, ["d3", "c3"]);
    }

    #[test]
    fn a_transcript_s_left_out_passes_are_played() {
        let registry = gridplay_games::registry();
        let game = registry.game("reversi").unwrap();
        // Random games until one has a pass; its transcript without the passes replays to the same record.
        let mut rng = playout::seeded(11);
        let with_pass = (0..500)
            .map(|_| {
                let mut r = GameRecord::new(game.start());
                while r.outcome().is_none() {
                    let mv = r.position().random_move(&mut rng).unwrap();
                    r.play(&mv).unwrap();
                }
                r
            })
            .find(|r| r.moves().iter().any(|m| m == "pass"))
            .expect("a random game with a pass");
        let transcript: Vec<String> = with_pass
            .moves()
            .iter()
            .filter(|m| *m != "pass")
            .cloned()
            .collect();
        let back = replay(game.start().as_ref(), &transcript).expect("legal");
        assert_eq!(back.moves(), with_pass.moves());
        assert!(replay(game.start().as_ref(), &["a1".to_owned()]).is_none());
    }
}
