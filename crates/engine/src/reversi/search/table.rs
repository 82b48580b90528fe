//! The search's transposition table, which the threads of a parallel search share.

use crate::parallel::SharedEntry;

#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Entry {
    pub(super) player: u64,
    pub(super) opponent: u64,
    pub(super) lower: i16,
    pub(super) upper: i16,
    pub(super) depth: u8,
    pub(super) best: u8,
    pub(super) age: u8,
}

impl Entry {
    pub(super) fn data(self) -> u64 {
        u64::from(self.lower as u16)
            | u64::from(self.upper as u16) << 16
            | u64::from(self.depth) << 32
            | u64::from(self.best) << 40
            | u64::from(self.age) << 48
    }

    pub(super) fn from(player: u64, opponent: u64, data: u64) -> Entry {
        Entry {
            player,
            opponent,
            lower: data as u16 as i16,
            upper: (data >> 16) as u16 as i16,
            depth: (data >> 32) as u8,
            best: (data >> 40) as u8,
            age: (data >> 48) as u8,
        }
    }
}

/// A transposition table of buckets of two entries: the first kept by depth and age, the second always
/// replaced. An entry holds a lower and an upper bound on the position's score at its depth. The threads of
/// a parallel search share it ([`crate::parallel`]).
#[derive(Debug)]
pub struct Table {
    buckets: Vec<[SharedEntry; 2]>,
    pub(in crate::reversi) age: u8,
}

impl Table {
    /// A table of about `megabytes`.
    #[must_use]
    pub fn new(megabytes: usize) -> Table {
        let wanted = (megabytes << 20) / std::mem::size_of::<[SharedEntry; 2]>();
        let n = 1usize << (usize::BITS - 1 - wanted.max(1024).leading_zeros());
        Table {
            buckets: crate::huge::filled_with(n, <[SharedEntry; 2]>::default),
            age: 0,
        }
    }

    #[inline]
    pub(super) fn index(&self, p: u64, o: u64) -> usize {
        let h =
            (p.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ o.wrapping_mul(0xC2B2_AE3D_27D4_EB4F)).rotate_left(31);
        (h ^ (h >> 29)) as usize & (self.buckets.len() - 1)
    }

    /// Starts reading the bucket of the position into the cache, so that a probe soon after finds it there.
    #[inline]
    pub(super) fn prefetch(&self, p: u64, o: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            let bucket = std::ptr::from_ref(&self.buckets[self.index(p, o)]).cast::<i8>();
            // SAFETY: a prefetch only hints the cache, and the address is of an element of the table.
            unsafe {
                std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(bucket);
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = (p, o);
    }

    #[inline]
    pub(super) fn probe(&self, p: u64, o: u64) -> Option<Entry> {
        if (p | o) == 0 {
            return None;
        }
        self.buckets[self.index(p, o)]
            .iter()
            .find_map(|e| e.read(p, o))
            .map(|data| Entry::from(p, o, data))
    }

    pub(super) fn store(&self, e: Entry) {
        let e = Entry { age: self.age, ..e };
        let b = &self.buckets[self.index(e.player, e.opponent)];
        let (fp, fo, fdata) = b[0].load();
        let first = Entry::from(fp, fo, fdata);
        let same = fp == e.player && fo == e.opponent;
        if same || first.age != e.age || e.depth >= first.depth {
            if !same {
                b[1].write(fp, fo, fdata);
            }
            b[0].write(e.player, e.opponent, e.data());
        } else {
            b[1].write(e.player, e.opponent, e.data());
        }
    }
}
