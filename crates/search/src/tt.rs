use std::hash::{Hash, Hasher};

use rustc_hash::FxHasher;

/// What a stored score means.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Bound {
    Exact,
    /// The true score is at least this.
    Lower,
    /// The true score is at most this.
    Upper,
}

#[derive(Clone, Copy, Debug)]
pub(crate) struct Entry<M> {
    pub key: u64,
    pub depth: u8,
    pub bound: Bound,
    pub score: i32,
    pub best: Option<M>,
}

/// A fixed-size, always-replace transposition table keyed by the position's hash.
#[derive(Debug)]
pub struct TranspositionTable<M> {
    entries: Vec<Option<Entry<M>>>,
    mask: usize,
}

/// The key of a position.
pub(crate) fn key<P: Hash>(pos: &P) -> u64 {
    let mut h = FxHasher::default();
    pos.hash(&mut h);
    h.finish()
}

impl<M: Copy> TranspositionTable<M> {
    /// A table of about `megabytes` (rounded down to a power of two of entries, at least 1024 entries).
    #[must_use]
    pub fn new(megabytes: usize) -> TranspositionTable<M> {
        let size = std::mem::size_of::<Option<Entry<M>>>().max(1);
        let wanted = (megabytes * 1024 * 1024 / size).max(1024);
        let entries = 1usize << (usize::BITS - 1 - wanted.leading_zeros());
        TranspositionTable {
            entries: vec![None; entries],
            mask: entries - 1,
        }
    }

    pub(crate) fn probe(&self, key: u64) -> Option<Entry<M>> {
        self.entries[key as usize & self.mask].filter(|e| e.key == key)
    }

    pub(crate) fn store(&mut self, entry: Entry<M>) {
        let slot = &mut self.entries[entry.key as usize & self.mask];
        // Keep a deeper entry of the same position; otherwise always replace.
        if slot.is_none_or(|old| old.key != entry.key || old.depth <= entry.depth) {
            *slot = Some(entry);
        }
    }

    pub fn clear(&mut self) {
        self.entries.fill(None);
    }
}
