use gridplay_games::reversi::bitboard::{Board, perft};
fn main() {
    let d: u32 = std::env::args().nth(1).and_then(|s| s.parse().ok()).unwrap_or(10);
    let t = std::time::Instant::now();
    let n = perft(Board::START, d);
    let s = t.elapsed().as_secs_f64();
    println!("depth {d}: {n} in {s:.3}s = {:.3e}/s", n as f64 / s);
}
