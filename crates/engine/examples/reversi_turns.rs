//! Where a match's Reversi games turned: reads a `gridplay match --games-out` file and, for each game, judges
//! player A's position at a few points: exactly (win, draw or loss, by the win/loss/draw solver) at the first
//! position with `SOLVE` empty squares or fewer, and by the midgame search at `DEPTH` at 54 (the end of a six-ply opening), 50, 44, 36 and 28 empty
//! squares. Prints, per final result, how many games A still held (ahead, or won or drawn) at each point:
//! a loss that was won or drawn at the solve point was thrown away in the endgame. From the solve point on,
//! every position is solved, and each move that threw away a win or a draw is listed by its mover and the
//! empty squares before it. With `THROWS_FILE`, A's throws are also written there as `.obf` problems (a comment line
//! naming the move played, then the position before it with the side to move as `X`), to be tried again.
//!
//! ```text
//! cargo run --release -p gridplay-engine --example reversi_turns -- GAMES_FILE [SOLVE] [DEPTH] [THROWS_FILE]
//! ```
use gridplay_core::Game;
use gridplay_engine::reversi::{
    endgame::{Solver, Wld},
    search::{Options, search},
};
use gridplay_games::reversi::{Reversi, bitboard::Board, notation::parse_square};
use gridplay_search::{Limits, StopFlag};

/// Empty squares at which the search judges the position.
const POINTS: [u32; 5] = [54, 50, 44, 36, 28];

struct Game1 {
    result: String,
    /// A's judgement at each of [`POINTS`] (search score, hundredths of a disc, A's view).
    scores: Vec<Option<i32>>,
    /// A's exact outcome at the solve point.
    solved: Option<Wld>,
}

/// The position as an `.obf` problem's board, the side to move as `X`.
fn obf_position(b: Board) -> String {
    let mut s: String = (0..64)
        .map(|sq| {
            let bit = 1u64 << sq;
            if b.player & bit != 0 {
                'X'
            } else if b.opponent & bit != 0 {
                'O'
            } else {
                '-'
            }
        })
        .collect();
    s += " X";
    s
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(path) = args.first() else {
        eprintln!("usage: reversi_turns GAMES_FILE [SOLVE] [DEPTH] [THROWS_FILE]");
        std::process::exit(2);
    };
    let solve_at: u32 = args.get(1).map_or(Ok(20), |a| a.parse()).unwrap_or_else(|_| {
        eprintln!("SOLVE is a number of empty squares");
        std::process::exit(2)
    });
    let depth: u32 = args.get(2).map_or(Ok(12), |a| a.parse()).unwrap_or_else(|_| {
        eprintln!("DEPTH is a search depth");
        std::process::exit(2)
    });
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| {
        eprintln!("cannot read {path}: {e}");
        std::process::exit(1)
    });
    let game = Reversi::default();
    let mut solver = Solver::new(64);
    let mut games = Vec::new();
    // Each move that threw away a win or a draw: whether A made it, and the empty squares before it.
    let mut throws: Vec<(bool, u32)> = Vec::new();
    // A's throws as problem lines: the position before the move and the move.
    let mut throw_lines = String::new();
    for (n, line) in text.lines().enumerate() {
        let fields: Vec<&str> = line.split('\t').collect();
        let [_, a_side, result, opening, moves] = fields[..] else {
            eprintln!("line {}: not five tab-separated fields", n + 1);
            std::process::exit(1)
        };
        let start = game.parse_position(opening).unwrap_or_else(|e| {
            eprintln!("line {}: {e}", n + 1);
            std::process::exit(1)
        });
        let mut board = start.board();
        // Whether A is to move.
        let mut a_to_move = a_side == "first";
        let mut g = Game1 {
            result: result.to_owned(),
            scores: vec![None; POINTS.len()],
            solved: None,
        };
        // The last solved outcome for A, whether A was to move, and the empty squares then.
        let mut last: Option<(Wld, bool, u32)> = None;
        // The position before the last move, and the move.
        let mut before_move = (board, "");
        for mv in moves.split(' ').chain(std::iter::once("")) {
            let empties = board.empty().count_ones();
            let sign = if a_to_move { 1 } else { -1 };
            if let Some(i) = POINTS.iter().position(|&e| e == empties)
                && g.scores[i].is_none()
                && board.moves() != 0
            {
                let f = search(board, Limits::depth(depth), &StopFlag::new(), Options::default());
                g.scores[i] = Some(sign * f.score);
            }
            if empties <= solve_at && !board.is_over() {
                let w = solver.solve_wld(board).outcome;
                let for_a = match (w, a_to_move) {
                    (Wld::Draw, _) => Wld::Draw,
                    (w, true) => w,
                    (Wld::Win, false) => Wld::Loss,
                    (Wld::Loss, false) => Wld::Win,
                };
                if g.solved.is_none() {
                    g.solved = Some(for_a);
                }
                // The outcome changed with the last move: its mover threw away a win or a draw.
                if let Some((before, mover_a, at)) = last
                    && before != for_a
                {
                    throws.push((mover_a, at));
                    if mover_a {
                        let (b, mv) = before_move;
                        throw_lines += &format!("% game line {}: played {mv}\n{};\n", n + 1, obf_position(b));
                    }
                }
                last = Some((for_a, a_to_move, empties));
            }
            before_move = (board, mv);
            match mv {
                "" => {}
                "pass" => board = board.pass(),
                sq => {
                    let sq = parse_square(sq).unwrap_or_else(|e| {
                        eprintln!("line {}: {e}", n + 1);
                        std::process::exit(1)
                    });
                    board = board.play(sq);
                }
            }
            a_to_move = !a_to_move;
        }
        games.push(g);
    }
    println!(
        "{} games; A judged at {POINTS:?} empties by depth {depth}, solved at {solve_at}",
        games.len()
    );
    for (result, name) in [("win", "wins"), ("draw", "draws"), ("loss", "losses")] {
        let these: Vec<&Game1> = games.iter().filter(|g| g.result == result).collect();
        if these.is_empty() {
            continue;
        }
        let mut line = format!("A's {name} ({}):", these.len());
        for (i, e) in POINTS.iter().enumerate() {
            let s: Vec<i32> = these.iter().filter_map(|g| g.scores[i]).collect();
            let ahead = s.iter().filter(|&&x| x > 0).count();
            let mean = s.iter().map(|&x| f64::from(x)).sum::<f64>() / s.len().max(1) as f64 / 100.0;
            line += &format!(" at {e}: ahead {ahead}/{} (mean {mean:+.1})", s.len());
        }
        let solved: Vec<Wld> = these.iter().filter_map(|g| g.solved).collect();
        let count = |w: Wld| solved.iter().filter(|&&x| x == w).count();
        line += &format!(
            "; solved at {solve_at}: won {} drawn {} lost {}",
            count(Wld::Win),
            count(Wld::Draw),
            count(Wld::Loss)
        );
        println!("{line}");
    }
    if let Some(out) = args.get(3) {
        std::fs::write(out, &throw_lines).unwrap_or_else(|e| {
            eprintln!("cannot write {out}: {e}");
            std::process::exit(1)
        });
    }
    for (who, is_a) in [("A", true), ("B", false)] {
        let mut at: Vec<u32> = throws.iter().filter(|t| t.0 == is_a).map(|t| t.1).collect();
        at.sort_unstable_by(|x, y| y.cmp(x));
        let list: Vec<String> = at.iter().map(u32::to_string).collect();
        println!(
            "{who} threw away a win or a draw {} times, at these empty squares: {}",
            at.len(),
            list.join(" ")
        );
    }
}
