//! The learned checkers evaluation: pattern tables over regions of the board, fitted to self-play games'
//! results and their searches' scores (`gridplay train checkers`, [`super::train`]).
//!
//! The board is seen by the side to move (White's view is turned half a circle, so one set of weights serves
//! both sides). Eight regions of eight squares, the four bands of two rows and the four quarters, are each
//! read twice as a number of 3^8 states: once for the men (empty, own man, opposing man) and once for the
//! kings (empty, own king, opposing king); each state of each of these sixteen tables has a weight. The
//! scalar terms add men, kings, simple moves, kings off the edge, and a constant for having the move. Every
//! weight exists twice, for the opening (24 pieces) and for the ending (4 pieces or fewer); a position
//! between takes both in proportion to its piece count. Kings-only endings with equal kings are drawn in
//! practice, and their score is pulled towards 0.
//!
//! A file of these weights is little-endian `i16`, hundredths of a man (see [`Patterns::to_bytes`]). The
//! engine plays with the network of [`super::net`] ([`super::evaluation::shipped`]); these tables are the
//! other model `gridplay train checkers` fits (`--model patterns`).

use gridplay_core::Player;
use gridplay_games::checkers::bitboard::{Bb, Board, DIRECTIONS};

use super::eval::{Evaluate, INNER, seen_by};
use crate::DataError;

/// The regions: four bands of two rows, then the four quarters (rows 1-4 and 5-8, files a-d and e-h).
pub const REGIONS: [Bb; 8] = [
    0x0000_00FF,
    0x0000_FF00,
    0x00FF_0000,
    0xFF00_0000,
    0x0000_3333,
    0x0000_CCCC,
    0x3333_0000,
    0xCCCC_0000,
];
/// States of one region.
pub const STATES: usize = 6561;
/// The tables: each region's men, then each region's kings.
pub const TABLES: usize = 2 * REGIONS.len();
/// The opening and the ending.
pub const STAGES: usize = 2;
/// The scalar terms: men, kings, simple moves, kings off the edge, the move.
pub const SCALARS: usize = 5;

const MAGIC: &[u8; 8] = b"GPCHK02\n";
/// The format before the kings' tables: read with those tables at 0.
const MAGIC_MEN_ONLY: &[u8; 8] = b"GPCHK01\n";

/// The ternary number of each 8-bit set: bit i counts 3^i.
const TERNARY: [u16; 256] = {
    let mut t = [0u16; 256];
    let mut b = 0;
    while b < 256 {
        let (mut v, mut p, mut i) = (0u16, 1u16, 0);
        while i < 8 {
            if b & (1 << i) != 0 {
                v += p;
            }
            p *= 3;
            i += 1;
        }
        t[b] = v;
        b += 1;
    }
    t
};

/// The bits of `x` under `mask`, packed to the low end (BMI2's `pext`).
#[inline]
fn pext(x: u32, mask: u32) -> u32 {
    #[cfg(all(target_arch = "x86_64", target_feature = "bmi2"))]
    {
        // SAFETY: the target has BMI2 (checked at compile time).
        unsafe { std::arch::x86_64::_pext_u32(x, mask) }
    }
    #[cfg(not(all(target_arch = "x86_64", target_feature = "bmi2")))]
    {
        pext_portable(x, mask)
    }
}

#[inline]
#[cfg_attr(all(target_arch = "x86_64", target_feature = "bmi2"), allow(dead_code))]
fn pext_portable(x: u32, mut mask: u32) -> u32 {
    let (mut out, mut bit) = (0, 0);
    while mask != 0 {
        let low = mask & mask.wrapping_neg();
        if x & low != 0 {
            out |= 1 << bit;
        }
        bit += 1;
        mask &= mask - 1;
    }
    out
}

/// What the evaluation reads of a position, seen by the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Features {
    /// Each table's state: the regions' men, then the regions' kings.
    pub regions: [u16; TABLES],
    /// The scalar terms, own minus opposing (the last is 1: the move).
    pub scalars: [i32; SCALARS],
    /// 0 (24 pieces or more) to 20 (4 pieces or fewer).
    pub stage: i32,
    /// Kings only, as many on each side.
    pub equal_kings: bool,
}

impl Features {
    /// The two stages whose weights a position takes, each with its share out of 20: the stages stand at
    /// even steps from 24 pieces to 4, and a position between two takes both in proportion.
    #[must_use]
    pub fn mix(&self) -> [(usize, i32); 2] {
        let scaled = self.stage * (STAGES as i32 - 1);
        let lo = (scaled / 20) as usize;
        if lo + 1 >= STAGES {
            [(STAGES - 1, 20), (STAGES - 1, 0)]
        } else {
            [(lo, 20 - scaled % 20), (lo + 1, scaled % 20)]
        }
    }

    #[must_use]
    pub fn of(b: &Board, turn: Player) -> Features {
        let (own, opp, kings) = seen_by(b, turn);
        let (own_men, opp_men) = (own & !kings, opp & !kings);
        let (own_kings, opp_kings) = (own & kings, opp & kings);
        let mut regions = [0u16; TABLES];
        let (men, king_tables) = regions.split_at_mut(REGIONS.len());
        for ((m, k), &mask) in men.iter_mut().zip(king_tables.iter_mut()).zip(REGIONS.iter()) {
            *m = TERNARY[pext(own_men, mask) as usize] + 2 * TERNARY[pext(opp_men, mask) as usize];
            *k = if kings == 0 {
                0
            } else {
                TERNARY[pext(own_kings, mask) as usize] + 2 * TERNARY[pext(opp_kings, mask) as usize]
            };
        }
        let count = |x: Bb| x.count_ones() as i32;
        let empty = b.empty();
        let steps = |p: Player| -> i32 {
            DIRECTIONS
                .iter()
                .map(|&d| (d.step(b.movers(p, d)) & empty).count_ones() as i32)
                .sum()
        };
        let scalars = [
            count(own_men) - count(opp_men),
            count(own_kings) - count(opp_kings),
            steps(turn) - steps(!turn),
            count(own_kings & INNER) - count(opp_kings & INNER),
            1,
        ];
        let total = count(own | opp);
        Features {
            regions,
            scalars,
            stage: (24 - total).clamp(0, 20),
            equal_kings: kings == own | opp && count(own) == count(opp),
        }
    }
}

/// The weights, in hundredths of a man.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Patterns {
    /// `regions[stage][table][state]`.
    pub regions: Vec<[[i16; STATES]; TABLES]>,
    /// `scalars[stage][term]`.
    pub scalars: [[i16; SCALARS]; STAGES],
}

impl Patterns {
    /// Weights that count material alone (a man 100, a king 130).
    #[must_use]
    pub fn material() -> Patterns {
        Patterns {
            regions: vec![[[0; STATES]; TABLES]; STAGES],
            scalars: [[100, 130, 0, 0, 0]; STAGES],
        }
    }

    /// The value of a position with these features, for the side to move.
    #[must_use]
    pub fn score(&self, f: &Features) -> i32 {
        let of_stage = |s: usize| -> i32 {
            let tables = &self.regions[s];
            f.regions
                .iter()
                .zip(tables.iter())
                .map(|(&state, table)| i32::from(table[usize::from(state)]))
                .sum::<i32>()
                + f.scalars
                    .iter()
                    .zip(self.scalars[s].iter())
                    .map(|(&x, &w)| x * i32::from(w))
                    .sum::<i32>()
        };
        let [(lo, a), (hi, b)] = f.mix();
        let score = if b == 0 {
            of_stage(lo)
        } else {
            (of_stage(lo) * a + of_stage(hi) * b) / 20
        };
        if f.equal_kings { score / 8 } else { score }
    }

    /// The file format: an 8-byte header, then every table weight (stage, table, state), then the scalars
    /// (stage, term), each a little-endian `i16`.
    #[must_use]
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = MAGIC.to_vec();
        for stage in &self.regions {
            for region in stage {
                for w in region {
                    out.extend_from_slice(&w.to_le_bytes());
                }
            }
        }
        for stage in &self.scalars {
            for w in stage {
                out.extend_from_slice(&w.to_le_bytes());
            }
        }
        out
    }

    /// Whether `bytes` start with the header of pattern tables (of this or the men-only format).
    #[must_use]
    pub fn has_header(bytes: &[u8]) -> bool {
        bytes.starts_with(MAGIC) || bytes.starts_with(MAGIC_MEN_ONLY)
    }

    /// Reads [`Patterns::to_bytes`], or a file of the format before the kings' tables (men's tables only),
    /// whose kings' tables are then 0.
    ///
    /// # Errors
    ///
    /// When the header or the length is not that of a checkers weights file.
    pub fn from_bytes(bytes: &[u8]) -> Result<Patterns, DataError> {
        let bad = |reason: String| DataError::format("checkers weights", reason);
        let (tables, body) = if let Some(body) = bytes.strip_prefix(MAGIC.as_slice()) {
            (TABLES, body)
        } else if let Some(body) = bytes.strip_prefix(MAGIC_MEN_ONLY.as_slice()) {
            (REGIONS.len(), body)
        } else {
            return Err(bad("not a checkers weights file: the header is missing".into()));
        };
        let expected = MAGIC.len() + 2 * (STAGES * tables * STATES + STAGES * SCALARS);
        if bytes.len() != expected {
            return Err(bad(format!(
                "a checkers weights file has {expected} bytes, this one {}",
                bytes.len()
            )));
        }
        let mut words = body.chunks_exact(2).map(|c| i16::from_le_bytes([c[0], c[1]]));
        let mut p = Patterns::material();
        for stage in &mut p.regions {
            for table in &mut stage[..tables] {
                for w in table.iter_mut() {
                    *w = words.next().unwrap_or(0);
                }
            }
        }
        for stage in &mut p.scalars {
            for w in stage.iter_mut() {
                *w = words.next().unwrap_or(0);
            }
        }
        Ok(p)
    }
}

impl Evaluate for Patterns {
    fn evaluate(&self, b: &Board, turn: Player) -> i32 {
        self.score(&Features::of(b, turn))
    }
}

impl Patterns {
    /// Reads a weights file (as `gridplay train checkers` writes it); an error names the file.
    pub fn read_file(path: &std::path::Path) -> Result<Patterns, DataError> {
        crate::data::read_with(path, Patterns::from_bytes)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::checkers::eval::turned;
    use gridplay_core::{Game, Position};
    use gridplay_games::checkers::Checkers;

    #[test]
    fn pext_agrees_with_the_portable_one() {
        let mut x = 0x1234_5678u32;
        for _ in 0..1000 {
            x = x.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
            for &mask in &REGIONS {
                assert_eq!(pext(x, mask), pext_portable(x, mask));
            }
        }
    }

    #[test]
    fn regions_cover_the_board_twice_and_states_are_in_range() {
        let bands = REGIONS[..4].iter().fold(0, |a, &r| a | r);
        let quarters = REGIONS[4..].iter().fold(0, |a, &r| a | r);
        assert_eq!((bands, quarters), (u32::MAX, u32::MAX));
        assert!(REGIONS.iter().all(|r| r.count_ones() == 8));
        let f = Features::of(Checkers.start().board(), Player::First);
        assert!(f.regions.iter().all(|&s| usize::from(s) < STATES));
        // Kings are read by the kings' tables and not by the men's.
        let p = Checkers.parse_position("B:WK1,K32,28:BK29,4").unwrap();
        let f = Features::of(p.board(), p.turn());
        assert!(f.regions.iter().all(|&s| usize::from(s) < STATES));
        let (men, kings) = f.regions.split_at(REGIONS.len());
        let squares = |states: &[u16]| -> u32 {
            states
                .iter()
                .map(|&s| {
                    let (mut s, mut n) = (s, 0);
                    while s > 0 {
                        n += u32::from(s % 3 != 0);
                        s /= 3;
                    }
                    n
                })
                .sum()
        };
        // Each piece lies in one band and one quarter.
        assert_eq!((squares(men), squares(kings)), (2 * 2, 2 * 3));
    }

    #[test]
    fn stages_blend_in_proportion_to_the_piece_count() {
        for stage in 0..=20 {
            let f = Features {
                regions: [0; TABLES],
                scalars: [0; SCALARS],
                stage,
                equal_kings: false,
            };
            let [(lo, a), (hi, b)] = f.mix();
            assert_eq!(a + b, 20, "stage {stage}");
            assert!(lo <= hi && hi < STAGES && hi - lo <= 1, "stage {stage}");
            assert_eq!(lo as i32 * 20 + b, stage * (STAGES as i32 - 1), "stage {stage}");
        }
    }

    #[test]
    fn both_sides_see_the_start_alike() {
        let start = Checkers.start();
        let red = Features::of(start.board(), Player::First);
        let white = Features::of(start.board(), Player::Second);
        assert_eq!(red, white);
        // And a position and its mirror image with the other side to move read the same.
        let p = Checkers.parse_position("B:W18,K24,27:B3,K9,14").unwrap();
        assert_eq!(
            Features::of(p.board(), p.turn()),
            Features::of(&turned(p.board()), !p.turn())
        );
    }

    #[test]
    fn the_file_format_round_trips_and_refuses_other_files() {
        let mut p = Patterns::material();
        p.regions[1][3][17] = -42;
        p.regions[0][TABLES - 1][5] = 9;
        p.scalars[0][2] = 7;
        let back = Patterns::from_bytes(&p.to_bytes()).unwrap();
        assert_eq!(back, p);
        // The format before the kings' tables reads with those tables at 0.
        let mut old = MAGIC_MEN_ONLY.to_vec();
        for stage in &p.regions {
            for table in &stage[..REGIONS.len()] {
                old.extend(table.iter().flat_map(|w| w.to_le_bytes()));
            }
        }
        old.extend(p.scalars.iter().flatten().flat_map(|w| w.to_le_bytes()));
        p.regions[0][TABLES - 1][5] = 0;
        assert_eq!(Patterns::from_bytes(&old).unwrap(), p);
        assert!(
            Patterns::from_bytes(b"nonsense")
                .unwrap_err()
                .to_string()
                .contains("header")
        );
        let mut short = p.to_bytes();
        short.pop();
        assert!(
            Patterns::from_bytes(&short)
                .unwrap_err()
                .to_string()
                .contains("bytes")
        );
    }
}
