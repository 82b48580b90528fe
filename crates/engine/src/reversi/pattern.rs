//! The pattern evaluation of Reversi, in the manner of Logistello and Edax: the board is cut into lines,
//! edges and corner regions, each seen in all its rotations and reflections; every configuration of every
//! pattern (each square empty, mine or the opponent's: a base-3 index) has a weight per game stage, and the
//! evaluation is the sum of the weights plus tables, as NTest's evaluation has them, with a weight for each
//! count of either side's legal moves and potential mobility and for the parity of the empty squares. It
//! predicts the final disc difference for the side to move, in hundredths of a disc.
//!
//! The weights are trained by `gridplay train reversi` (see [`crate::reversi::train`]) from the project's own
//! self-play games and from people's tournament games (WTHOR files), labelled by the exact endgame solver, and
//! shipped in `weights.bin` next to this file.

use std::sync::OnceLock;

use gridplay_games::reversi::bitboard::{Board, get_moves, transpose};

mod file;
mod indices;

pub use file::WeightsError;
pub use indices::{INSTANCES, Indices, LANES, Lanes};

/// A pattern's squares, as (file, rank) from a1 = (0, 0); its images under the board's eight symmetries
/// share its weights.
const BASE_PATTERNS: &[&[(u8, u8)]] = &[
    // The edge with both X-squares.
    &[
        (0, 0),
        (1, 0),
        (2, 0),
        (3, 0),
        (4, 0),
        (5, 0),
        (6, 0),
        (7, 0),
        (1, 1),
        (6, 1),
    ],
    // The corner's 3x3 block.
    &[
        (0, 0),
        (1, 0),
        (2, 0),
        (0, 1),
        (1, 1),
        (2, 1),
        (0, 2),
        (1, 2),
        (2, 2),
    ],
    // The corner's 2x5 block.
    &[
        (0, 0),
        (1, 0),
        (2, 0),
        (3, 0),
        (4, 0),
        (0, 1),
        (1, 1),
        (2, 1),
        (3, 1),
        (4, 1),
    ],
    // The second, third and fourth lines.
    &[(0, 1), (1, 1), (2, 1), (3, 1), (4, 1), (5, 1), (6, 1), (7, 1)],
    &[(0, 2), (1, 2), (2, 2), (3, 2), (4, 2), (5, 2), (6, 2), (7, 2)],
    &[(0, 3), (1, 3), (2, 3), (3, 3), (4, 3), (5, 3), (6, 3), (7, 3)],
    // Diagonals of 8, 7, 6, 5 and 4 squares.
    &[(0, 0), (1, 1), (2, 2), (3, 3), (4, 4), (5, 5), (6, 6), (7, 7)],
    &[(0, 1), (1, 2), (2, 3), (3, 4), (4, 5), (5, 6), (6, 7)],
    &[(0, 2), (1, 3), (2, 4), (3, 5), (4, 6), (5, 7)],
    &[(0, 3), (1, 4), (2, 5), (3, 6), (4, 7)],
    &[(0, 4), (1, 5), (2, 6), (3, 7)],
];

/// Game stages: positions are grouped by discs on the board, five plies a stage.
pub const STAGES: usize = 13;

/// The stage of a position with `empties` empty squares.
#[must_use]
pub fn stage(empties: u32) -> usize {
    ((60 - empties.min(60)) / 5) as usize
}

/// One pattern instance: its squares in order and where its group's weights start.
#[derive(Clone, Debug)]
struct Instance {
    squares: Vec<u8>,
    offset: usize,
    /// How the index is read: a few bytes of the board, each looked up in a table ([`Layout::flat`] holds
    /// every instance's lanes in one array, as [`Weights::evaluate`] reads them).
    lanes: Vec<Lane>,
}

/// One byte of a board (or of its transpose) and what each of its bits adds to a pattern's base-3 index
/// when it is set for the side to move; the opponent's disc there adds twice as much.
#[derive(Clone, Debug)]
struct Lane {
    transposed: bool,
    /// `Some(mask)`: the masked squares, one per file, gathered into a byte by file; `None`: rank `rank`.
    gather: Option<u64>,
    rank: u8,
    table: Box<[u16; 256]>,
}

/// The fewest lanes that read a pattern with these squares (in index order): one gathered byte if no two
/// squares share a file (or, on the transposed board, a rank), else one byte per rank or per file.
fn lanes(squares: &[u8]) -> Vec<Lane> {
    let k = squares.len();
    let weight = |i: usize| 3u16.pow((k - 1 - i) as u32);
    let mut best: Option<Vec<Lane>> = None;
    for transposed in [false, true] {
        // (file, rank) of each square on the board read.
        let at: Vec<(u8, u8)> = squares
            .iter()
            .map(|&sq| {
                if transposed {
                    (sq / 8, sq % 8)
                } else {
                    (sq % 8, sq / 8)
                }
            })
            .collect();
        let mut files: Vec<u8> = at.iter().map(|a| a.0).collect();
        files.sort_unstable();
        files.dedup();
        let candidate = if files.len() == k {
            let mut table = Box::new([0u16; 256]);
            for (byte, entry) in table.iter_mut().enumerate() {
                *entry = at
                    .iter()
                    .enumerate()
                    .filter(|(_, a)| byte & (1 << a.0) != 0)
                    .map(|(i, _)| weight(i))
                    .sum();
            }
            let mask = at.iter().fold(0u64, |m, a| m | 1 << (a.1 * 8 + a.0));
            vec![Lane {
                transposed,
                gather: Some(mask),
                rank: 0,
                table,
            }]
        } else {
            let mut ranks: Vec<u8> = at.iter().map(|a| a.1).collect();
            ranks.sort_unstable();
            ranks.dedup();
            ranks
                .into_iter()
                .map(|rank| {
                    let mut table = Box::new([0u16; 256]);
                    for (byte, entry) in table.iter_mut().enumerate() {
                        *entry = at
                            .iter()
                            .enumerate()
                            .filter(|(_, a)| a.1 == rank && byte & (1 << a.0) != 0)
                            .map(|(i, _)| weight(i))
                            .sum();
                    }
                    Lane {
                        transposed,
                        gather: None,
                        rank,
                        table,
                    }
                })
                .collect()
        };
        if best.as_ref().is_none_or(|b| candidate.len() < b.len()) {
            best = Some(candidate);
        }
    }
    best.unwrap_or_default()
}

/// A base pattern's weight table and the reorderings of its squares under the symmetries that map its square
/// set onto itself (the edge read backwards, the corner block read along the other side).
#[derive(Clone, Debug)]
struct Group {
    offset: usize,
    len: usize,
    /// For each such symmetry: the position in the pattern that square `j` is carried to.
    perms: Vec<Vec<usize>>,
}

/// The patterns, laid out: every instance and the size of one stage's weight table.
#[derive(Debug)]
pub struct Layout {
    instances: Vec<Instance>,
    /// Every instance's lanes one after another, as [`Weights::evaluate`] reads them.
    flat: Vec<FlatLane>,
    /// For each square, what a disc of the side to move there adds to each instance's index (the square's
    /// power of three in the instances it is in, 0 in the others), as [`Indices::play`] updates them.
    powers: [Lanes; 64],
    /// Where each instance's weights start in a stage (zeros past the instances, up to [`LANES`]), as
    /// [`Weights::evaluate_indices`] reads them.
    offsets: [u32; LANES],
    groups: Vec<Group>,
    /// Where the table features start in a stage (after the patterns).
    tables: usize,
    /// Pattern weights per stage, then the table features, then the scalar features.
    pub per_stage: usize,
}

/// A lane of [`Layout::flat`]: the lane's byte and table inline, and, on an instance's last lane, where its
/// weights start.
#[derive(Clone, Debug)]
struct FlatLane {
    /// The gathered squares' mask, or 0 for a whole rank.
    gather: u64,
    shift: u8,
    transposed: bool,
    /// `Some(offset)` on the instance's last lane.
    last: Option<u32>,
    table: [u16; 256],
}

impl FlatLane {
    /// What this lane adds to its instance's index for the side to move `p` (the opponent's discs count
    /// twice).
    #[inline]
    fn read(&self, p: u64, o: u64) -> usize {
        let (bp, bo) = if self.gather != 0 {
            let gather = |b: u64| ((b & self.gather).wrapping_mul(0x0101_0101_0101_0101) >> 56) as usize;
            (gather(p), gather(o))
        } else {
            (
                ((p >> self.shift) & 0xFF) as usize,
                ((o >> self.shift) & 0xFF) as usize,
            )
        };
        usize::from(self.table[bp]) + 2 * usize::from(self.table[bo])
    }
}

/// Scalar features after the pattern weights in each stage: a constant, and the mobility of each side.
pub const SCALARS: usize = 3;

/// Table features after the patterns: a weight for each count of the side to move's legal moves (the
/// last entry for that many or more), of the opponent's, of each side's potential mobility (empty squares
/// next to the other side's discs), and for the parity of the empty squares.
pub const MOBILITY_ENTRIES: usize = 32;
pub const POTENTIAL_ENTRIES: usize = 40;
pub const TABLE_ENTRIES: usize = 2 * MOBILITY_ENTRIES + 2 * POTENTIAL_ENTRIES + 2;
/// Table features a position has.
pub const TABLE_FEATURES: usize = 5;

/// Empty squares next to a disc of `discs`.
#[inline]
fn potential(discs: u64, empty: u64) -> u32 {
    (super::neighbours(discs) & empty).count_ones()
}

/// The table features' indices within the tables, for the side to move `p` with `moves` and `replies`
/// legal moves.
#[inline]
fn table_indices(p: u64, o: u64, moves: u32, replies: u32) -> [usize; TABLE_FEATURES] {
    let empty = !(p | o);
    let m = MOBILITY_ENTRIES;
    let q = POTENTIAL_ENTRIES;
    [
        (moves as usize).min(m - 1),
        m + (replies as usize).min(m - 1),
        2 * m + (potential(o, empty) as usize).min(q - 1),
        2 * m + q + (potential(p, empty) as usize).min(q - 1),
        2 * m + 2 * q + (empty.count_ones() & 1) as usize,
    ]
}

fn transform(t: u8, (x, y): (u8, u8)) -> (u8, u8) {
    let (x, y) = if t & 4 != 0 { (y, x) } else { (x, y) };
    let x = if t & 1 != 0 { 7 - x } else { x };
    let y = if t & 2 != 0 { 7 - y } else { y };
    (x, y)
}

impl Layout {
    fn build() -> Layout {
        let mut instances = Vec::new();
        let mut groups = Vec::new();
        let mut offset = 0;
        for base in BASE_PATTERNS {
            let mut seen: Vec<Vec<u8>> = Vec::new();
            let mut perms = Vec::new();
            for t in 1..8 {
                let image: Vec<(u8, u8)> = base.iter().map(|&p| transform(t, p)).collect();
                let perm: Option<Vec<usize>> =
                    image.iter().map(|q| base.iter().position(|p| p == q)).collect();
                if let Some(perm) = perm {
                    perms.push(perm);
                }
            }
            groups.push(Group {
                offset,
                len: base.len(),
                perms,
            });
            for t in 0..8 {
                let squares: Vec<u8> = base
                    .iter()
                    .map(|&p| {
                        let (x, y) = transform(t, p);
                        y * 8 + x
                    })
                    .collect();
                let mut set = squares.clone();
                set.sort_unstable();
                if seen.contains(&set) {
                    continue;
                }
                seen.push(set);
                let lanes = lanes(&squares);
                instances.push(Instance {
                    squares,
                    offset,
                    lanes,
                });
            }
            offset += 3usize.pow(base.len() as u32);
        }
        let flat = instances
            .iter()
            .flat_map(|inst| {
                let n = inst.lanes.len();
                inst.lanes.iter().enumerate().map(move |(i, lane)| FlatLane {
                    gather: lane.gather.unwrap_or(0),
                    shift: 8 * lane.rank,
                    transposed: lane.transposed,
                    last: (i + 1 == n).then_some(inst.offset as u32),
                    table: *lane.table,
                })
            })
            .collect();
        let mut powers = [[0u16; LANES]; 64];
        let mut offsets = [0u32; LANES];
        assert_eq!(
            instances.len(),
            INSTANCES,
            "the pattern set has {INSTANCES} instances"
        );
        for (i, inst) in instances.iter().enumerate() {
            offsets[i] = inst.offset as u32;
            let k = inst.squares.len();
            for (j, &sq) in inst.squares.iter().enumerate() {
                powers[sq as usize][i] = 3u16.pow((k - 1 - j) as u32);
            }
        }
        Layout {
            instances,
            flat,
            powers,
            offsets,
            groups,
            tables: offset,
            per_stage: offset + TABLE_ENTRIES + SCALARS,
        }
    }

    /// The layout (built once).
    pub fn get() -> &'static Layout {
        static LAYOUT: OnceLock<Layout> = OnceLock::new();
        LAYOUT.get_or_init(Layout::build)
    }

    /// For each weight index of a stage, the smallest index of its orbit under its pattern's symmetries
    /// (the edge read backwards, the corner block read along the other side): a fit that trains only these ties
    /// the symmetric readings together.
    #[must_use]
    pub fn canonical(&self) -> Vec<u32> {
        let mut canon: Vec<u32> = (0..self.per_stage as u32).collect();
        for g in &self.groups {
            let mut digits = [0usize; 10];
            let digits = &mut digits[..g.len];
            for index in 0..3usize.pow(g.len as u32) {
                let mut rest = index;
                for d in digits.iter_mut().rev() {
                    *d = rest % 3;
                    rest /= 3;
                }
                for perm in &g.perms {
                    let mut moved = [0usize; 10];
                    let moved = &mut moved[..g.len];
                    for (j, &to) in perm.iter().enumerate() {
                        moved[to] = digits[j];
                    }
                    let image = moved.iter().fold(0, |acc, &d| acc * 3 + d);
                    let slot = &mut canon[g.offset + index];
                    *slot = (*slot).min((g.offset + image) as u32);
                }
            }
        }
        canon
    }

    /// How many pattern instances and table features a position has.
    #[must_use]
    pub fn table_and_pattern_features(&self) -> usize {
        self.instances.len() + TABLE_FEATURES
    }

    /// The weight indices (within a stage) of a position's features, for the side to move `p`: one per
    /// pattern instance, then the scalars, written to `out`; returns the scalar values.
    pub fn features(&self, p: u64, o: u64, out: &mut Vec<u32>) -> [i32; SCALARS] {
        out.clear();
        for inst in &self.instances {
            let mut index = 0usize;
            for &sq in &inst.squares {
                let bit = 1u64 << sq;
                index = index * 3
                    + if p & bit != 0 {
                        1
                    } else if o & bit != 0 {
                        2
                    } else {
                        0
                    };
            }
            out.push((inst.offset + index) as u32);
        }
        let (moves, replies) = (get_moves(p, o).count_ones(), get_moves(o, p).count_ones());
        for t in table_indices(p, o, moves, replies) {
            out.push((self.tables + t) as u32);
        }
        let base = self.per_stage - SCALARS;
        for k in 0..SCALARS {
            out.push((base + k) as u32);
        }
        [1, moves as i32, replies as i32]
    }
}

/// The sum of a stage's pattern weights `w` at each instance's weights `offsets` plus its index in `view`
/// (`tables`: where the patterns' weights end in `w`).
#[inline]
fn pattern_sum(w: &[i16], offsets: &[u32; LANES], tables: usize, view: &Lanes) -> i32 {
    #[cfg(target_feature = "avx2")]
    {
        assert!(w.len() > tables && tables < 1 << 31);
        // SAFETY: every gathered address is clamped to `tables - 1`, so each 4-byte read covers two
        // elements of `w`, the second at most `tables`, which `w` holds (asserted above); the masked lanes
        // read nothing.
        unsafe { pattern_sum_avx2(w, offsets, tables, view) }
    }
    #[cfg(not(target_feature = "avx2"))]
    {
        let _ = tables;
        offsets[..INSTANCES]
            .iter()
            .zip(view)
            .map(|(&offset, &index)| i32::from(w[offset as usize + usize::from(index)]))
            .sum()
    }
}

/// [`pattern_sum`] by eight-lane gathers: each lane's index widened to 32 bits and added to its offset, the
/// 16-bit weights read as the low halves of 32-bit words; the padding lanes past [`INSTANCES`] read nothing.
#[cfg(target_feature = "avx2")]
#[inline]
unsafe fn pattern_sum_avx2(w: &[i16], offsets: &[u32; LANES], tables: usize, view: &Lanes) -> i32 {
    use std::arch::x86_64::{
        __m128i, __m256i, _mm_add_epi32, _mm_cvtsi128_si32, _mm_loadu_si128, _mm_shuffle_epi32,
        _mm256_add_epi32, _mm256_castsi256_si128, _mm256_cvtepu16_epi32, _mm256_extracti128_si256,
        _mm256_loadu_si256, _mm256_mask_i32gather_epi32, _mm256_min_epu32, _mm256_set1_epi32,
        _mm256_setr_epi32, _mm256_setzero_si256, _mm256_slli_epi32, _mm256_srai_epi32,
    };
    const _: () = assert!(LANES == 48 && INSTANCES == 46);
    let base = w.as_ptr().cast::<i32>();
    // SAFETY: `view` and `offsets` hold 48 numbers each, read as six vectors of eight; the gathers'
    // addresses are clamped as [`pattern_sum`] says.
    unsafe {
        let last = _mm256_set1_epi32((tables - 1) as i32);
        let all = _mm256_set1_epi32(-1);
        let mut acc = _mm256_setzero_si256();
        for k in 0..LANES / 8 {
            let index = _mm256_cvtepu16_epi32(_mm_loadu_si128(view.as_ptr().add(8 * k).cast::<__m128i>()));
            let offset = _mm256_loadu_si256(offsets.as_ptr().add(8 * k).cast::<__m256i>());
            let at = _mm256_min_epu32(_mm256_add_epi32(index, offset), last);
            let mask = if k + 1 < LANES / 8 {
                all
            } else {
                _mm256_setr_epi32(-1, -1, -1, -1, -1, -1, 0, 0)
            };
            let word = _mm256_mask_i32gather_epi32::<2>(_mm256_setzero_si256(), base, at, mask);
            acc = _mm256_add_epi32(acc, _mm256_srai_epi32::<16>(_mm256_slli_epi32::<16>(word)));
        }
        let half = _mm_add_epi32(_mm256_castsi256_si128(acc), _mm256_extracti128_si256::<1>(acc));
        let quarter = _mm_add_epi32(half, _mm_shuffle_epi32::<0b01_00_11_10>(half));
        let one = _mm_add_epi32(quarter, _mm_shuffle_epi32::<0b10_11_00_01>(quarter));
        _mm_cvtsi128_si32(one)
    }
}

/// Trained weights: `STAGES` tables of `Layout::per_stage` values in hundredths of a disc (the scalar
/// features' weights multiply their values).
#[derive(Clone, Debug)]
pub struct Weights {
    pub values: Vec<i16>,
}

/// The environment variable that names a weights file to play with instead of the shipped one.
pub const WEIGHTS_VAR: &str = "GRIDPLAY_REVERSI_WEIGHTS";

impl Weights {
    /// All weights zero.
    #[must_use]
    pub fn zero() -> Weights {
        Weights {
            values: vec![0; STAGES * Layout::get().per_stage],
        }
    }

    /// Makes the evaluation exactly symmetric: a pattern read in another order by a symmetry that maps its
    /// squares onto themselves (an edge read backwards) gets one weight, the rounded mean of its readings.
    /// Without this, the four first moves of Reversi, which are one move up to symmetry, scored differently.
    pub fn symmetrize(&mut self) {
        let layout = Layout::get();
        let canon = layout.canonical();
        let per = layout.per_stage;
        let mut sum = vec![0i32; per];
        let mut count = vec![0i32; per];
        for table in self.values.chunks_exact_mut(per) {
            sum.iter_mut().for_each(|x| *x = 0);
            count.iter_mut().for_each(|x| *x = 0);
            for (&w, &c) in table.iter().zip(&canon) {
                sum[c as usize] += i32::from(w);
                count[c as usize] += 1;
            }
            for (w, &c) in table.iter_mut().zip(&canon) {
                let (s, n) = (sum[c as usize], count[c as usize]);
                *w = i16::try_from((s + s.signum() * n / 2) / n).unwrap_or(i16::MAX);
            }
        }
    }

    /// The weights the engine plays with: the shipped file, or, to measure a candidate in matches without
    /// building it in, the file named by the environment variable [`WEIGHTS_VAR`] (an unreadable one is
    /// reported on standard error and the shipped weights are used; `gridplay` refuses to start with one).
    pub fn shipped() -> &'static Weights {
        static SHIPPED: OnceLock<Weights> = OnceLock::new();
        SHIPPED.get_or_init(|| {
            let mut w = std::env::var_os(WEIGHTS_VAR)
                .and_then(|path| match Weights::read_file(std::path::Path::new(&path)) {
                    Ok(w) => Some(w),
                    Err(e) => {
                        eprintln!("{e}; the shipped weights are used");
                        None
                    }
                })
                .unwrap_or_else(|| {
                    Weights::from_bytes(include_bytes!("weights.bin"))
                        .expect("the shipped weights file is valid")
                });
            // The search reads them at random: on large pages, fewer reads miss the address cache too.
            w.values = crate::huge::copied(&w.values);
            w
        })
    }

    /// [`Weights::evaluate`] of `board` from its pattern indices seen by the side to move ([`Indices::view`],
    /// kept by the search move by move): the same value.
    #[inline]
    #[must_use]
    pub fn evaluate_indices(&self, board: Board, view: &Lanes) -> i32 {
        let layout = Layout::get();
        let (p, o) = (board.player, board.opponent);
        let base = stage(board.empty().count_ones()) * layout.per_stage;
        let w = &self.values[base..base + layout.per_stage];
        pattern_sum(w, &layout.offsets, layout.tables, view) + self.tables_and_scalars(w, p, o)
    }

    /// The table features' and the scalars' part of a stage's evaluation.
    #[inline]
    fn tables_and_scalars(&self, w: &[i16], p: u64, o: u64) -> i32 {
        let layout = Layout::get();
        let mut sum = 0i32;
        let (moves, replies) = (get_moves(p, o).count_ones(), get_moves(o, p).count_ones());
        for t in table_indices(p, o, moves, replies) {
            sum += i32::from(w[layout.tables + t]);
        }
        let scalars = layout.per_stage - SCALARS;
        sum += i32::from(w[scalars]);
        sum += i32::from(w[scalars + 1]) * moves as i32;
        sum += i32::from(w[scalars + 2]) * replies as i32;
        sum
    }

    /// The evaluation of `board` for the side to move, in hundredths of a disc.
    #[must_use]
    pub fn evaluate(&self, board: Board) -> i32 {
        let layout = Layout::get();
        let (p, o) = (board.player, board.opponent);
        let base = stage(board.empty().count_ones()) * layout.per_stage;
        let w = &self.values[base..base + layout.per_stage];
        let (pt, ot) = (transpose(p), transpose(o));
        let mut sum = 0i32;
        let mut index = 0usize;
        for lane in &layout.flat {
            let (p, o) = if lane.transposed { (pt, ot) } else { (p, o) };
            index += lane.read(p, o);
            if let Some(offset) = lane.last {
                sum += i32::from(w[offset as usize + index]);
                index = 0;
            }
        }
        sum + self.tables_and_scalars(w, p, o)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::reversi::{HandEval, obf};

    /// The shipped weights against the exact scores of the FFO problems (20-34 empties, none of them in the
    /// training games): the trained evaluation must predict the winner and the margin better than the
    /// hand-written one, which knows no disc counts at all.
    #[test]
    fn the_shipped_weights_predict_ffo_scores() {
        let mut problems = Vec::new();
        for file in ["fforum-1-19.obf", "fforum-20-39.obf", "fforum-40-59.obf"] {
            let path = format!("{}/tests/data/ffo/{file}", env!("CARGO_MANIFEST_DIR"));
            problems.extend(obf::parse(&std::fs::read_to_string(path).unwrap()).unwrap());
        }
        let w = Weights::shipped();
        let (mut right, mut error, mut hand_right) = (0, 0.0, 0);
        for p in &problems {
            let exact = p.best_score().unwrap();
            let board = p.position.board();
            let predicted = w.evaluate(board);
            right += usize::from((predicted > 0) == (exact > 0));
            hand_right += usize::from((HandEval::score(board) > 0) == (exact > 0));
            error += (f64::from(predicted) / 100.0 - f64::from(exact)).abs();
        }
        let mean_error = error / problems.len() as f64;
        println!(
            "{right}/{} winners right (hand: {hand_right}), mean error {mean_error:.1} discs",
            problems.len()
        );
        assert!(right > hand_right, "trained {right}, hand {hand_right}");
        assert!(mean_error < 12.0, "mean error {mean_error:.1} discs");
    }

    /// The board under symmetry `t` of `transform`.
    fn image(t: u8, board: Board) -> Board {
        let map = |bits: u64| {
            (0..64u8)
                .filter(|&sq| bits & (1 << sq) != 0)
                .map(|sq| {
                    let (x, y) = transform(t, (sq % 8, sq / 8));
                    1u64 << (y * 8 + x)
                })
                .fold(0, |acc, b| acc | b)
        };
        Board {
            player: map(board.player),
            opponent: map(board.opponent),
        }
    }

    #[test]
    fn the_evaluation_is_the_same_under_every_symmetry_of_the_board() {
        use rand::{SeedableRng, seq::IndexedRandom};
        let w = Weights::shipped();
        let mut rng = rand::rngs::SmallRng::seed_from_u64(5);
        for _ in 0..40 {
            let mut board = Board::START;
            let plies = *[3usize, 10, 20, 30, 45].choose(&mut rng).unwrap();
            for _ in 0..plies {
                let moves: Vec<u8> = (0..64u8).filter(|&sq| board.moves() & (1 << sq) != 0).collect();
                let Some(&sq) = moves.choose(&mut rng) else { break };
                board = board.play(sq);
            }
            let score = w.evaluate(board);
            for t in 1..8 {
                assert_eq!(w.evaluate(image(t, board)), score, "symmetry {t} of {board:?}");
            }
        }
    }

    #[test]
    fn symmetrize_gives_each_orbit_the_rounded_mean_of_its_readings() {
        use rand::{RngExt, SeedableRng};
        let layout = Layout::get();
        let canon = layout.canonical();
        let mut rng = rand::rngs::SmallRng::seed_from_u64(21);
        let mut w = Weights::zero();
        for v in &mut w.values {
            *v = rng.random_range(-3000..3000);
        }
        let before = w.values.clone();
        w.symmetrize();
        let per = layout.per_stage;
        let stage = 4;
        let mut orbits: std::collections::HashMap<u32, Vec<usize>> = std::collections::HashMap::new();
        for (k, &c) in canon.iter().enumerate() {
            orbits.entry(c).or_default().push(k);
        }
        assert!(orbits.values().any(|o| o.len() > 1));
        for members in orbits.values() {
            let sum: i32 = members.iter().map(|&k| i32::from(before[stage * per + k])).sum();
            let n = members.len() as i32;
            let mean = (sum + sum.signum() * n / 2) / n;
            for &k in members {
                assert_eq!(i32::from(w.values[stage * per + k]), mean, "index {k}");
            }
        }
    }

    #[test]
    fn a_board_and_its_images_read_the_same_tied_weights() {
        use rand::{RngExt, SeedableRng};
        let layout = Layout::get();
        let canon = layout.canonical();
        assert!(
            canon
                .iter()
                .enumerate()
                .all(|(i, &c)| c as usize <= i && canon[c as usize] == c)
        );
        assert!(
            canon.iter().enumerate().any(|(i, &c)| c as usize != i),
            "some readings are tied"
        );
        let tied = |b: Board| {
            let mut features = Vec::new();
            layout.features(b.player, b.opponent, &mut features);
            let mut t: Vec<u32> = features.iter().map(|&f| canon[f as usize]).collect();
            t.sort_unstable();
            t
        };
        let mut rng = rand::rngs::SmallRng::seed_from_u64(13);
        for _ in 0..300 {
            let player: u64 = rng.random();
            let board = Board {
                player,
                opponent: rng.random::<u64>() & !player,
            };
            for t in 1..8 {
                assert_eq!(tied(image(t, board)), tied(board), "symmetry {t} of {board:?}");
            }
        }
    }

    /// The fit reads a position through `Layout::features`, play through `Weights::evaluate`: with any
    /// weights, the evaluation is the sum of the weights the features name, tables included.
    #[test]
    fn the_evaluation_is_the_sum_of_the_weights_its_features_name() {
        use rand::{RngExt, SeedableRng};
        let layout = Layout::get();
        let mut rng = rand::rngs::SmallRng::seed_from_u64(17);
        let mut w = Weights::zero();
        for v in &mut w.values {
            *v = rng.random_range(-500..=500);
        }
        let mut features = Vec::new();
        for _ in 0..500 {
            let p: u64 = rng.random();
            let o: u64 = rng.random::<u64>() & !p;
            let board = Board {
                player: p,
                opponent: o,
            };
            let values = layout.features(p, o, &mut features);
            let base = stage(board.empty().count_ones()) * layout.per_stage;
            let table = &w.values[base..base + layout.per_stage];
            let (patterns, scalars) = features.split_at(features.len() - SCALARS);
            assert_eq!(patterns.len(), layout.table_and_pattern_features());
            let mut sum: i32 = patterns.iter().map(|&f| i32::from(table[f as usize])).sum();
            for (&f, v) in scalars.iter().zip(values) {
                sum += i32::from(table[f as usize]) * v;
            }
            assert_eq!(w.evaluate(board), sum);
        }
    }

    #[test]
    fn potential_mobility_counts_the_empty_squares_next_to_the_discs() {
        let a1 = 1u64;
        let d4 = 1u64 << 27;
        assert_eq!(potential(a1, !a1), 3);
        assert_eq!(potential(d4, !d4), 8);
        // Squares next to both discs count once, and occupied ones not at all.
        let b1 = 1u64 << 1;
        assert_eq!(potential(a1 | b1, !(a1 | b1)), 4);
        assert_eq!(potential(a1, !(a1 | b1)), 2);
        // The tables' entries: mobility past the table's end shares its last entry; parity by empties.
        // The start: the side to move holds e4 and d5, the other side d4 and e5; each side has ten empty
        // squares next to the other's discs.
        let (p, o) = (1u64 << 28 | 1 << 35, 1u64 << 27 | 1 << 36);
        let [mine, theirs, pot_mine, pot_theirs, parity] = table_indices(p, o, 40, 4);
        assert_eq!(mine, MOBILITY_ENTRIES - 1);
        assert_eq!(theirs, MOBILITY_ENTRIES + 4);
        assert_eq!(pot_mine, 2 * MOBILITY_ENTRIES + 10);
        assert_eq!(pot_theirs, 2 * MOBILITY_ENTRIES + POTENTIAL_ENTRIES + 10);
        assert_eq!(parity, TABLE_ENTRIES - 2);
    }

    #[test]
    fn the_lanes_read_the_same_index_as_the_squares() {
        use rand::{RngExt, SeedableRng};
        let layout = Layout::get();
        let mut rng = rand::rngs::SmallRng::seed_from_u64(9);
        let mut lanes = 0;
        for _ in 0..2000 {
            let p: u64 = rng.random();
            let o: u64 = rng.random::<u64>() & !p;
            let (pt, ot) = (transpose(p), transpose(o));
            let mut features = Vec::new();
            layout.features(p, o, &mut features);
            // The flat lanes, as the evaluation reads them: each instance's index at its last lane.
            let mut read = Vec::new();
            let mut index = 0;
            for lane in &layout.flat {
                let (p, o) = if lane.transposed { (pt, ot) } else { (p, o) };
                index += lane.read(p, o);
                if let Some(offset) = lane.last {
                    read.push((offset as usize + index) as u32);
                    index = 0;
                }
            }
            assert_eq!(read, features[..layout.instances.len()], "{p:#x} {o:#x}");
        }
        lanes += layout.flat.len();
        // Lines and diagonals take one gathered byte, the edge two ranks, the corner blocks two or three.
        assert_eq!(lanes, 18 + 12 + 4 * 2 + 4 * 3 + 8 * 2, "{lanes}");
    }
}
