//! Stable discs: discs that no sequence of moves can flip. The solver uses the opponent's stable discs as an
//! upper bound on the final score.
//!
//! The method is Edax's: the four edges are solved exactly from a table of every edge (each empty edge square
//! played by either side, recursively, with flips along the edge); then an inner disc is stable when, in each
//! of the four line directions, its line is full or a neighbour on that line is a stable disc of its colour.
//! The result is a subset of the truly stable discs, never a superset, which is what a bound needs.

use std::sync::OnceLock;

const NOT_A: u64 = 0xFEFE_FEFE_FEFE_FEFE;
const NOT_H: u64 = 0x7F7F_7F7F_7F7F_7F7F;
const INNER: u64 = 0x007E_7E7E_7E7E_7E00;

/// For every edge (`p` and `o` as 8-bit lines), the `p` discs that no play on the edge can flip.
fn edge_table() -> &'static [u8] {
    static TABLE: OnceLock<Vec<u8>> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut t = vec![0u8; 256 * 256];
        for p in 0..256u32 {
            for o in 0..256u32 {
                if p & o == 0 {
                    t[(p * 256 + o) as usize] = edge_stable(p as u8, o as u8, p as u8);
                }
            }
        }
        t
    })
}

/// The line `p`, `o` after the side holding `p` places at `x` (which may flip nothing on this line: the
/// move can be legal through another direction).
fn place(p: u8, o: u8, x: u32) -> (u8, u8) {
    let (mut p, mut o) = (p | 1 << x, o);
    for step in [-1i32, 1] {
        let mut y = x as i32 + step;
        let mut run = 0u8;
        while (0..8).contains(&y) && o & (1 << y) != 0 {
            run |= 1 << y;
            y += step;
        }
        if (0..8).contains(&y) && p & (1 << y) != 0 {
            p |= run;
            o &= !run;
        }
    }
    (p, o)
}

fn edge_stable(p: u8, o: u8, stable: u8) -> u8 {
    let mut stable = stable & p;
    let empty = !(p | o);
    if stable == 0 || empty == 0 {
        return stable;
    }
    for x in 0..8 {
        if empty & (1 << x) == 0 {
            continue;
        }
        let (np, no) = place(p, o, x);
        stable = edge_stable(np, no, stable);
        if stable == 0 {
            return 0;
        }
        let (no, np) = place(o, p, x);
        stable = edge_stable(np, no, stable);
        if stable == 0 {
            return 0;
        }
    }
    stable
}

/// Bits `0, 8, .., 56` of `b` shifted by `file`, as a byte (row 1 in bit 0).
fn column(b: u64, file: u32) -> u8 {
    (((b >> file) & 0x0101_0101_0101_0101).wrapping_mul(0x0102_0408_1020_4080) >> 56) as u8
}

/// The inverse of [`column`].
fn uncolumn(line: u8, file: u32) -> u64 {
    const SPREAD: [u64; 256] = {
        let mut t = [0u64; 256];
        let mut line = 0;
        while line < 256 {
            let mut row = 0;
            while row < 8 {
                if line >> row & 1 != 0 {
                    t[line] |= 1 << (row * 8);
                }
                row += 1;
            }
            line += 1;
        }
        t
    };
    SPREAD[usize::from(line)] << file
}

/// The `p` discs on the four edges that can never flip.
fn stable_edges(p: u64, o: u64) -> u64 {
    let t = edge_table();
    let at = |pl: u8, ol: u8| t[usize::from(pl) * 256 + usize::from(ol)];
    let top = u64::from(at(p as u8, o as u8));
    let bottom = u64::from(at((p >> 56) as u8, (o >> 56) as u8)) << 56;
    let left = uncolumn(at(column(p, 0), column(o, 0)), 0);
    let right = uncolumn(at(column(p, 7), column(o, 7)), 7);
    top | bottom | left | right
}

/// Squares whose row is full.
fn full_rows(filled: u64) -> u64 {
    let mut l = filled;
    l &= l >> 1;
    l &= l >> 2;
    l &= l >> 4;
    (l & 0x0101_0101_0101_0101).wrapping_mul(0xFF)
}

/// Squares whose column is full.
fn full_columns(filled: u64) -> u64 {
    let mut l = filled & filled.rotate_right(8);
    l &= l.rotate_right(16);
    l & l.rotate_right(32)
}

/// Squares whose diagonal in one direction is full: the holes are spread along the lines both ways by
/// doubling shifts (`shift` is the step between neighbours, `up` and `down` the squares a shift may land on
/// without wrapping round the board's sides), and what they do not reach is full.
fn full_diagonals(filled: u64, shift: u32, up: u64, down: u64) -> u64 {
    let mut holes = !filled;
    let (mut pu, mut pd) = (up, down);
    for k in [1, 2, 4] {
        holes |= (pu & (holes << (shift * k))) | (pd & (holes >> (shift * k)));
        pu &= pu << (shift * k);
        pd &= pd >> (shift * k);
    }
    !holes
}

/// The squares whose whole line in one direction is filled, one step at a time: the reference for
/// [`full_rows`], [`full_columns`] and [`full_diagonals`].
#[cfg(test)]
fn full_lines(filled: u64, shift: u32, up: u64, down: u64) -> u64 {
    let mut holes = !filled;
    for _ in 0..7 {
        holes |= ((holes << shift) & up) | ((holes >> shift) & down);
    }
    !holes
}

/// The discs of `p` (against `o`) that can never flip.
#[must_use]
pub fn stable(p: u64, o: u64) -> u64 {
    let filled = p | o;
    let h = full_rows(filled);
    let v = full_columns(filled);
    let d7 = full_diagonals(filled, 7, NOT_H, NOT_A);
    let d9 = full_diagonals(filled, 9, NOT_A, NOT_H);
    let inner = p & INNER;
    let mut stable = stable_edges(p, o) | (inner & h & v & d7 & d9);
    if stable == 0 {
        return 0;
    }
    loop {
        let sh = (stable >> 1) | (stable << 1) | h;
        let sv = (stable >> 8) | (stable << 8) | v;
        let s7 = (stable >> 7) | (stable << 7) | d7;
        let s9 = (stable >> 9) | (stable << 9) | d9;
        let next = stable | (sh & sv & s7 & s9 & inner);
        if next == stable {
            return stable;
        }
        stable = next;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use gridplay_core::{Game, Position, playout};
    use gridplay_games::reversi::{Reversi, bitboard::get_moves};

    #[test]
    fn columns_pack_and_unpack() {
        for file in [0, 7] {
            for line in 0..=255u8 {
                let b = uncolumn(line, file);
                for row in 0..8 {
                    assert_eq!(b >> (row * 8 + file) & 1, u64::from(line >> row & 1));
                }
                assert_eq!(column(b, file), line);
            }
        }
    }

    #[test]
    fn full_lines_agree_with_the_step_by_step_reference() {
        use rand::RngExt;
        let mut rng = playout::seeded(5);
        for _ in 0..2000 {
            // Boards mostly filled, so that full lines occur.
            let filled: u64 = rng.random::<u64>() | rng.random::<u64>();
            assert_eq!(full_rows(filled), full_lines(filled, 1, NOT_A, NOT_H));
            assert_eq!(full_columns(filled), full_lines(filled, 8, !0, !0));
            assert_eq!(
                full_diagonals(filled, 7, NOT_H, NOT_A),
                full_lines(filled, 7, NOT_H, NOT_A)
            );
            assert_eq!(
                full_diagonals(filled, 9, NOT_A, NOT_H),
                full_lines(filled, 9, NOT_A, NOT_H)
            );
        }
    }

    #[test]
    fn known_edges() {
        // A corner and its neighbours of one colour are stable; a lone disc in the middle of an empty edge is not.
        assert_eq!(edge_table()[0b0000_0111 * 256], 0b0000_0111);
        assert_eq!(edge_table()[0b0001_0000 * 256], 0);
        // A full edge is stable whatever its colours.
        assert_eq!(edge_table()[0b1010_1010 * 256 + 0b0101_0101], 0b1010_1010);
        // A corner is stable; the opponent's disc next to it is not, as c1 would outflank it.
        let at = |p: usize, o: usize| edge_table()[p * 256 + o];
        assert_eq!(at(0b0000_0001, 0b0000_0010), 1);
        assert_eq!(at(0b0000_0010, 0b0000_0001), 0);
    }

    /// No disc called stable ever changes colour in random continuations.
    #[test]
    fn stable_discs_never_flip_in_random_playouts() {
        let mut rng = playout::seeded(77);
        let reversi = Reversi::default();
        let mut found = 0;
        for game in 0..400 {
            let cut = 20 + game % 40;
            let (pos, _) = playout::random_playout(&reversi.start(), &mut rng, cut, |_| {});
            if pos.is_over() {
                continue;
            }
            let b = pos.board();
            let (mine, theirs) = (stable(b.player, b.opponent), stable(b.opponent, b.player));
            assert_eq!(mine & !b.player, 0);
            assert_eq!(theirs & !b.opponent, 0);
            found += (mine | theirs).count_ones();
            for _ in 0..5 {
                let (end, _) = playout::random_playout(&pos, &mut rng, 64, |_| {});
                let e = end.board();
                // Whose disc is whose at the end depends on who is to move there.
                let (a, bb) = if end.turn() == pos.turn() {
                    (e.player, e.opponent)
                } else {
                    (e.opponent, e.player)
                };
                assert_eq!(mine & !a, 0, "{} -> {}", pos.to_text(), end.to_text());
                assert_eq!(theirs & !bb, 0, "{} -> {}", pos.to_text(), end.to_text());
            }
            let _ = get_moves(b.player, b.opponent);
        }
        assert!(found > 1000, "the test saw only {found} stable discs");
    }
}
