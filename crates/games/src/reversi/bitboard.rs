//! 8x8 bitboards for Othello: a side-relative board, move generation and flips.
//!
//! Bit `i` is square `i` in the order of the position text: a1 = 0, b1 = 1, .., h1 = 7, a2 = 8, .., h8 = 63
//! (file a on the left, rank 1 at the top).

/// A square index 0..64.
pub type Square = u8;

const NOT_EDGE_FILES: u64 = 0x7E7E_7E7E_7E7E_7E7E;

/// The board from the side to move's point of view: `player` holds the mover's discs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Board {
    pub player: u64,
    pub opponent: u64,
}

impl Board {
    /// The standard start with the side to move holding e4 and d5 (bits 28 and 35).
    pub const START: Board = Board {
        player: (1 << 28) | (1 << 35),
        opponent: (1 << 27) | (1 << 36),
    };

    #[inline]
    #[must_use]
    pub const fn empty(self) -> u64 {
        !(self.player | self.opponent)
    }

    /// The squares where the side to move can place.
    #[inline]
    #[must_use]
    pub fn moves(self) -> u64 {
        get_moves(self.player, self.opponent)
    }

    /// Whether the side to move has no placement but its opponent has one.
    #[inline]
    #[must_use]
    pub fn must_pass(self) -> bool {
        self.moves() == 0 && get_moves(self.opponent, self.player) != 0
    }

    /// Whether neither side can place: the game is over.
    #[inline]
    #[must_use]
    pub fn is_over(self) -> bool {
        self.moves() == 0 && get_moves(self.opponent, self.player) == 0
    }

    /// The board after the side to move places on `sq` and the sides swap.
    /// `sq` must be a legal placement; otherwise the result is meaningless.
    #[inline]
    #[must_use]
    pub fn play(self, sq: Square) -> Board {
        let f = flips(sq, self.player, self.opponent);
        Board {
            player: self.opponent ^ f,
            opponent: self.player ^ f ^ (1 << sq),
        }
    }

    /// The board after a pass.
    #[inline]
    #[must_use]
    pub const fn pass(self) -> Board {
        Board {
            player: self.opponent,
            opponent: self.player,
        }
    }
}

#[inline(always)]
fn shift_moves(p: u64, mask: u64, dir: u32) -> u64 {
    let mut left = mask & (p << dir);
    left |= mask & (left << dir);
    let mask_left = mask & (mask << dir);
    left |= mask_left & (left << (2 * dir));
    left |= mask_left & (left << (2 * dir));
    let mut right = mask & (p >> dir);
    right |= mask & (right >> dir);
    let mask_right = mask & (mask >> dir);
    right |= mask_right & (right >> (2 * dir));
    right |= mask_right & (right >> (2 * dir));
    (left << dir) | (right >> dir)
}

/// The board mirrored in the a1-h8 diagonal: (file, rank) becomes (rank, file).
#[must_use]
pub fn transpose(mut x: u64) -> u64 {
    let t = 0x0F0F_0F0F_0000_0000 & (x ^ (x << 28));
    x ^= t ^ (t >> 28);
    let t = 0x3333_0000_3333_0000 & (x ^ (x << 14));
    x ^= t ^ (t >> 14);
    let t = 0x5500_5500_5500_5500 & (x ^ (x << 7));
    x ^ t ^ (t >> 7)
}

/// The board's symmetry `i` of eight (0 is the identity) on a set of squares: bit 4 mirrors in the a1-h8
/// diagonal, then bit 2 mirrors left to right, then bit 1 top to bottom.
#[must_use]
pub fn symmetry(i: usize, x: u64) -> u64 {
    let x = if i & 4 != 0 { transpose(x) } else { x };
    let x = if i & 2 != 0 {
        x.reverse_bits().swap_bytes()
    } else {
        x
    };
    if i & 1 != 0 { x.swap_bytes() } else { x }
}

/// The squares where a player holding `p` against `o` can place: every empty square from which a line of
/// `o` discs runs to a `p` disc. Runs of at most six opponent discs are found with doubling shifts.
///
/// With AVX2 the four line directions are shifted side by side in one 256-bit register; otherwise
/// [`get_moves_scalar`] does the same one direction at a time.
#[inline]
#[must_use]
pub fn get_moves(p: u64, o: u64) -> u64 {
    #[cfg(all(target_arch = "x86_64", target_feature = "avx2"))]
    {
        avx2::get_moves(p, o)
    }
    #[cfg(not(all(target_arch = "x86_64", target_feature = "avx2")))]
    {
        get_moves_scalar(p, o)
    }
}

/// The portable move generator, always compiled and tested against the naive reference.
#[inline]
#[must_use]
pub fn get_moves_scalar(p: u64, o: u64) -> u64 {
    let inner = o & NOT_EDGE_FILES;
    (shift_moves(p, inner, 1) | shift_moves(p, o, 8) | shift_moves(p, inner, 7) | shift_moves(p, inner, 9))
        & !(p | o)
}

#[cfg(all(target_arch = "x86_64", target_feature = "avx2"))]
mod avx2 {
    use std::arch::x86_64::{
        __m256i, _mm_cvtsi128_si64, _mm_or_si128, _mm_unpackhi_epi64, _mm256_add_epi64, _mm256_and_si256,
        _mm256_andnot_si256, _mm256_castsi256_si128, _mm256_cmpeq_epi64, _mm256_extracti128_si256,
        _mm256_load_si256, _mm256_or_si256, _mm256_set_epi64x, _mm256_set1_epi64x, _mm256_setzero_si256,
        _mm256_slli_epi64, _mm256_sllv_epi64, _mm256_srlv_epi64, _mm256_sub_epi64,
    };

    const INNER: i64 = 0x7E7E_7E7E_7E7E_7E7E;

    /// [`super::get_moves_scalar`] with the directions 1, 8, 9 and 7 in the four lanes.
    #[inline]
    pub(super) fn get_moves(p: u64, o: u64) -> u64 {
        // SAFETY: this module is compiled only when the target has AVX2, and these intrinsics need nothing else.
        unsafe {
            let shift: __m256i = _mm256_set_epi64x(7, 9, 8, 1);
            let shift2: __m256i = _mm256_set_epi64x(14, 18, 16, 2);
            let pp = _mm256_set1_epi64x(p as i64);
            let mask = _mm256_and_si256(
                _mm256_set1_epi64x(o as i64),
                _mm256_set_epi64x(INNER, INNER, -1, INNER),
            );

            let mut left = _mm256_and_si256(mask, _mm256_sllv_epi64(pp, shift));
            left = _mm256_or_si256(left, _mm256_and_si256(mask, _mm256_sllv_epi64(left, shift)));
            let mask_left = _mm256_and_si256(mask, _mm256_sllv_epi64(mask, shift));
            left = _mm256_or_si256(left, _mm256_and_si256(mask_left, _mm256_sllv_epi64(left, shift2)));
            left = _mm256_or_si256(left, _mm256_and_si256(mask_left, _mm256_sllv_epi64(left, shift2)));

            let mut right = _mm256_and_si256(mask, _mm256_srlv_epi64(pp, shift));
            right = _mm256_or_si256(right, _mm256_and_si256(mask, _mm256_srlv_epi64(right, shift)));
            let mask_right = _mm256_and_si256(mask, _mm256_srlv_epi64(mask, shift));
            right = _mm256_or_si256(
                right,
                _mm256_and_si256(mask_right, _mm256_srlv_epi64(right, shift2)),
            );
            right = _mm256_or_si256(
                right,
                _mm256_and_si256(mask_right, _mm256_srlv_epi64(right, shift2)),
            );

            let all = _mm256_or_si256(_mm256_sllv_epi64(left, shift), _mm256_srlv_epi64(right, shift));
            let half = _mm_or_si128(_mm256_castsi256_si128(all), _mm256_extracti128_si256::<1>(all));
            let folded = _mm_or_si128(half, _mm_unpackhi_epi64(half, half));
            (_mm_cvtsi128_si64(folded) as u64) & !(p | o)
        }
    }

    /// [`super::flips_scalar`] with four rays per register. Rays of increasing index (E, SW, S, SE) take the
    /// lowest non-opponent square; rays of decreasing index (W, NE, N, NW) smear the non-opponent squares away
    /// from `sq`, since AVX2 has no vector leading-zero count.
    #[inline]
    pub(super) fn flips(sq: super::Square, p: u64, o: u64) -> u64 {
        let rays = &super::RAYS4.0[sq as usize];
        // SAFETY: AVX2 is enabled for this module; the loads read 32-byte aligned arrays of four u64 each.
        unsafe {
            let zero = _mm256_setzero_si256();
            let one = _mm256_set1_epi64x(1);
            let pp = _mm256_set1_epi64x(p as i64);
            let oo = _mm256_set1_epi64x(o as i64);

            let up = _mm256_load_si256(rays[0].as_ptr().cast());
            let t = _mm256_andnot_si256(oo, up);
            let lowest = _mm256_and_si256(t, _mm256_sub_epi64(zero, t));
            let outflank = _mm256_and_si256(lowest, pp);
            let nonzero = _mm256_andnot_si256(_mm256_cmpeq_epi64(outflank, zero), one);
            let flip_up = _mm256_and_si256(_mm256_sub_epi64(outflank, nonzero), up);

            let down = _mm256_load_si256(rays[1].as_ptr().cast());
            let shift = _mm256_set_epi64x(9, 8, 7, 1);
            let t = _mm256_andnot_si256(oo, down);
            let mut beyond = _mm256_or_si256(t, _mm256_srlv_epi64(t, shift));
            beyond = _mm256_or_si256(beyond, _mm256_srlv_epi64(beyond, _mm256_add_epi64(shift, shift)));
            beyond = _mm256_or_si256(beyond, _mm256_srlv_epi64(beyond, _mm256_slli_epi64::<2>(shift)));
            let first = _mm256_andnot_si256(_mm256_srlv_epi64(beyond, shift), t);
            let outflank = _mm256_and_si256(first, pp);
            let flip_down = _mm256_andnot_si256(
                _mm256_cmpeq_epi64(outflank, zero),
                _mm256_andnot_si256(beyond, down),
            );

            let all = _mm256_or_si256(flip_up, flip_down);
            let half = _mm_or_si128(_mm256_castsi256_si128(all), _mm256_extracti128_si256::<1>(all));
            _mm_cvtsi128_si64(_mm_or_si128(half, _mm_unpackhi_epi64(half, half))) as u64
        }
    }
}

/// Rays from each square: `RAYS[d][sq]` holds the squares strictly beyond `sq` in direction `d`, for the four
/// directions of increasing index (E, SW, S, SE) and then the four of decreasing index (W, NE, N, NW).
static RAYS: [[u64; 64]; 8] = build_rays();

/// The same rays grouped for 256-bit loads: `RAYS4[sq][0]` holds the four rays of increasing index,
/// `RAYS4[sq][1]` the four of decreasing index, in the lane order of the shift vectors.
#[cfg(all(target_arch = "x86_64", target_feature = "avx2"))]
#[repr(C, align(32))]
struct Rays4([[[u64; 4]; 2]; 64]);

#[cfg(all(target_arch = "x86_64", target_feature = "avx2"))]
static RAYS4: Rays4 = {
    let mut out = [[[0u64; 4]; 2]; 64];
    let mut sq = 0;
    while sq < 64 {
        let mut lane = 0;
        while lane < 4 {
            out[sq][0][lane] = RAYS[lane][sq];
            out[sq][1][lane] = RAYS[4 + lane][sq];
            lane += 1;
        }
        sq += 1;
    }
    Rays4(out)
};

const fn build_rays() -> [[u64; 64]; 8] {
    const STEPS: [(i32, i32); 8] = [
        (1, 0),
        (-1, 1),
        (0, 1),
        (1, 1),
        (-1, 0),
        (1, -1),
        (0, -1),
        (-1, -1),
    ];
    let mut rays = [[0u64; 64]; 8];
    let mut d = 0;
    while d < 8 {
        let mut sq = 0;
        while sq < 64 {
            let (mut x, mut y) = ((sq % 8) as i32, (sq / 8) as i32);
            let mut ray = 0u64;
            loop {
                x += STEPS[d].0;
                y += STEPS[d].1;
                if x < 0 || x > 7 || y < 0 || y > 7 {
                    break;
                }
                ray |= 1 << (y * 8 + x);
            }
            rays[d][sq] = ray;
            sq += 1;
        }
        d += 1;
    }
    rays
}

/// The discs flipped when a player holding `p` against `o` places on `sq` (not including `sq`).
#[inline]
#[must_use]
pub fn flips(sq: Square, p: u64, o: u64) -> u64 {
    #[cfg(all(target_arch = "x86_64", target_feature = "avx2"))]
    {
        avx2::flips(sq, p, o)
    }
    #[cfg(not(all(target_arch = "x86_64", target_feature = "avx2")))]
    {
        flips_scalar(sq, p, o)
    }
}

/// The portable flip: in each direction the first square of the ray that is not an opponent disc is found
/// (lowest set bit for rays of increasing index, highest for the others); if it holds a `p` disc, the squares
/// before it flip.
#[inline]
#[must_use]
pub fn flips_scalar(sq: Square, p: u64, o: u64) -> u64 {
    let sq = sq as usize;
    let mut f = 0;
    let mut d = 0;
    while d < 4 {
        let ray = RAYS[d][sq];
        let t = !o & ray;
        let outflank = t & t.wrapping_neg() & p;
        f |= outflank.wrapping_sub((outflank != 0) as u64) & ray;
        d += 1;
    }
    while d < 8 {
        let ray = RAYS[d][sq];
        let t = (!o & ray) | 1;
        let outflank = (0x8000_0000_0000_0000u64 >> t.leading_zeros()) & p & ray;
        f |= (outflank << 1).wrapping_neg() & ray;
        d += 1;
    }
    f
}

/// Counts the leaves one ply below `b`: its placements, one for a forced pass, none when the game is over.
#[inline]
fn count_last_ply(b: Board) -> u64 {
    let m = b.moves();
    if m != 0 {
        u64::from(m.count_ones())
    } else {
        u64::from(get_moves(b.opponent, b.player) != 0)
    }
}

/// Perft from `b`: a pass is one ply, and a finished game is not extended.
#[must_use]
pub fn perft(b: Board, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => count_last_ply(b),
        _ => perft_deep(b, depth),
    }
}

fn perft_deep(b: Board, depth: u32) -> u64 {
    let mut moves = b.moves();
    if moves == 0 {
        let passed = b.pass();
        return if passed.moves() == 0 {
            0
        } else if depth == 2 {
            count_last_ply(passed)
        } else {
            perft_deep(passed, depth - 1)
        };
    }
    let mut total = 0;
    if depth == 2 {
        while moves != 0 {
            let sq = moves.trailing_zeros() as Square;
            moves &= moves - 1;
            total += count_last_ply(b.play(sq));
        }
    } else {
        while moves != 0 {
            let sq = moves.trailing_zeros() as Square;
            moves &= moves - 1;
            total += perft_deep(b.play(sq), depth - 1);
        }
    }
    total
}

/// A slow, obviously correct move generator and flip: the reference the fast path is tested against.
pub mod naive {
    use super::Square;

    const DIRS: [(i32, i32); 8] = [
        (1, 0),
        (-1, 0),
        (0, 1),
        (0, -1),
        (1, 1),
        (1, -1),
        (-1, 1),
        (-1, -1),
    ];

    /// The discs that a placement on `sq` flips, walking square by square.
    #[must_use]
    pub fn flips(sq: Square, p: u64, o: u64) -> u64 {
        let (x0, y0) = (i32::from(sq % 8), i32::from(sq / 8));
        let mut all = 0;
        for (dx, dy) in DIRS {
            let (mut x, mut y) = (x0 + dx, y0 + dy);
            let mut run = 0u64;
            while (0..8).contains(&x) && (0..8).contains(&y) {
                let bit = 1u64 << (y * 8 + x);
                if o & bit != 0 {
                    run |= bit;
                } else {
                    if p & bit != 0 {
                        all |= run;
                    }
                    break;
                }
                x += dx;
                y += dy;
            }
        }
        all
    }

    /// Every empty square whose placement flips something.
    #[must_use]
    pub fn moves(p: u64, o: u64) -> u64 {
        (0..64u8)
            .filter(|&sq| (p | o) & (1 << sq) == 0 && flips(sq, p, o) != 0)
            .fold(0, |m, sq| m | 1 << sq)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn xorshift(state: &mut u64) -> u64 {
        *state ^= *state << 13;
        *state ^= *state >> 7;
        *state ^= *state << 17;
        *state
    }

    #[test]
    fn fast_moves_and_flips_agree_with_the_naive_reference_on_random_boards() {
        let mut s = 0x9E37_79B9_7F4A_7C15;
        for _ in 0..20_000 {
            let occupied = xorshift(&mut s) | xorshift(&mut s);
            let p = occupied & xorshift(&mut s);
            let o = occupied & !p;
            let expected = naive::moves(p, o);
            assert_eq!(get_moves(p, o), expected, "moves of p={p:#x} o={o:#x}");
            assert_eq!(
                get_moves_scalar(p, o),
                expected,
                "scalar moves of p={p:#x} o={o:#x}"
            );
            for sq in 0..64u8 {
                if (p | o) & (1 << sq) == 0 {
                    let expected = naive::flips(sq, p, o);
                    assert_eq!(flips(sq, p, o), expected, "flips at {sq} of p={p:#x} o={o:#x}");
                    assert_eq!(
                        flips_scalar(sq, p, o),
                        expected,
                        "scalar flips at {sq} of p={p:#x} o={o:#x}"
                    );
                }
            }
        }
    }

    #[test]
    fn start_has_four_moves() {
        assert_eq!(Board::START.moves().count_ones(), 4);
        assert_eq!(perft(Board::START, 3), 56);
    }
}
