//! The solver's transposition table, which the threads of a parallel solve share.

use crate::parallel::SharedEntry;

#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Slot {
    pub(super) player: u64,
    pub(super) opponent: u64,
    pub(super) lower: i8,
    pub(super) upper: i8,
    pub(super) best: u8,
    /// Empty squares of the position: deeper entries are kept in preference.
    pub(super) empties: u8,
}

impl Slot {
    fn data(self) -> u64 {
        u64::from(self.lower as u8)
            | u64::from(self.upper as u8) << 8
            | u64::from(self.best) << 16
            | u64::from(self.empties) << 24
    }

    fn from(player: u64, opponent: u64, data: u64) -> Slot {
        Slot {
            player,
            opponent,
            lower: data as u8 as i8,
            upper: (data >> 8) as u8 as i8,
            best: (data >> 16) as u8,
            empties: (data >> 24) as u8,
        }
    }
}

/// Two slots in one cache line.
#[derive(Debug, Default)]
#[repr(align(64))]
struct Bucket([SharedEntry; 2]);

/// The transposition table, which the threads of a parallel solve share.
#[derive(Debug)]
pub(super) struct Table {
    buckets: Vec<Bucket>,
    mask: usize,
}

impl Table {
    pub(super) fn new(megabytes: usize) -> Table {
        let wanted = (megabytes * 1024 * 1024 / std::mem::size_of::<Bucket>()).max(1024);
        let entries = 1usize << (usize::BITS - 1 - wanted.leading_zeros());
        Table {
            buckets: crate::huge::filled_with(entries, Bucket::default),
            mask: entries - 1,
        }
    }

    /// A position's bucket.
    fn bucket(&self, p: u64, o: u64) -> &Bucket {
        let h =
            (p.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ o.wrapping_mul(0xC2B2_AE3D_27D4_EB4F)).rotate_left(29);
        &self.buckets[(h ^ (h >> 32)) as usize & self.mask]
    }

    pub(super) fn find(&self, p: u64, o: u64) -> Option<Slot> {
        self.bucket(p, o)
            .0
            .iter()
            .find_map(|e| e.read(p, o))
            .map(|data| Slot::from(p, o, data))
    }

    /// Stores `slot` in its bucket: over its own older entry if there is one, else in the first slot if it is
    /// at least as deep as the entry there (which moves to the second), else in the second.
    pub(super) fn store(&self, slot: Slot) {
        let [first, second] = &self.bucket(slot.player, slot.opponent).0;
        let (fp, fo, fdata) = first.load();
        if fp == slot.player && fo == slot.opponent {
            first.write(slot.player, slot.opponent, slot.data());
        } else if slot.empties >= Slot::from(fp, fo, fdata).empties {
            second.write(fp, fo, fdata);
            first.write(slot.player, slot.opponent, slot.data());
        } else {
            second.write(slot.player, slot.opponent, slot.data());
        }
    }

    /// Asks the processor to bring a position's table slot into cache ahead of its probe.
    #[inline]
    pub(super) fn prefetch(&self, p: u64, o: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            let slot: *const Bucket = self.bucket(p, o);
            // SAFETY: a prefetch only hints the cache; SSE is part of every x86-64 processor.
            unsafe { std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(slot.cast()) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = (p, o);
    }
}
