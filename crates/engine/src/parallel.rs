//! What the parallel searches share: table entries that several threads read and write without locks, the
//! worker pools, and the split points of young-brothers-wait search.
//!
//! A search with `threads` above one runs on a pool of that many threads ([`pool`]). At a node deep enough,
//! once its first move has been searched alone (the eldest brother), the node becomes a [`Split`]: its
//! other moves are handed out one at a time to its own thread and to any idle thread of the pool, each
//! searched with the window as it stands when the move is taken; the first to reach beta cuts the node, and
//! every thread inside that node's moves then gives up its part. This is young-brothers-wait (YBWC), as
//! Edax and Egaroucid search, on rayon's work stealing: a thread that waits for its helpers steals their
//! work.
//!
//! A table entry is three words: the position's two bitboards each xor-ed with the data word, and the data
//! word. A reader takes the entry only when both keys come back from the data it read, so an entry torn by
//! two threads writing at once reads as missing, never as another position's (Hyatt's lockless hashing).

use std::sync::{
    Mutex,
    atomic::{AtomicBool, AtomicI32, AtomicU64, AtomicUsize, Ordering::Relaxed},
};

/// One table entry that threads share: the keys `player` and `opponent` and 64 bits of data.
#[derive(Debug, Default)]
pub(crate) struct SharedEntry([AtomicU64; 3]);

impl SharedEntry {
    /// The entry's data when it holds the position (`player`, `opponent`).
    #[inline]
    pub(crate) fn read(&self, player: u64, opponent: u64) -> Option<u64> {
        let data = self.0[2].load(Relaxed);
        (self.0[0].load(Relaxed) ^ data == player && self.0[1].load(Relaxed) ^ data == opponent)
            .then_some(data)
    }

    /// The position the entry holds and its data, unchecked (an entry never written reads as the empty
    /// board).
    #[inline]
    pub(crate) fn load(&self) -> (u64, u64, u64) {
        let data = self.0[2].load(Relaxed);
        (
            self.0[0].load(Relaxed) ^ data,
            self.0[1].load(Relaxed) ^ data,
            data,
        )
    }

    #[inline]
    pub(crate) fn write(&self, player: u64, opponent: u64, data: u64) {
        self.0[0].store(player ^ data, Relaxed);
        self.0[1].store(opponent ^ data, Relaxed);
        self.0[2].store(data, Relaxed);
    }
}

/// The pool of `threads` worker threads, made on first use and kept for the process.
pub(crate) fn pool(threads: usize) -> &'static rayon::ThreadPool {
    static POOLS: Mutex<Vec<(usize, &'static rayon::ThreadPool)>> = Mutex::new(Vec::new());
    let mut pools = POOLS.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    if let Some(&(_, p)) = pools.iter().find(|(n, _)| *n == threads) {
        return p;
    }
    // A thread that waits for its helpers runs their stolen work on its own stack, deeper in the tree: room
    // for a search's recursion more than once.
    let made = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .stack_size(16 << 20)
        .thread_name(move |i| format!("search-{threads}-{i}"))
        .build()
        .unwrap_or_else(|e| panic!("cannot start {threads} search threads: {e}"));
    let made: &'static rayon::ThreadPool = Box::leak(Box::new(made));
    pools.push((threads, made));
    made
}

/// Runs `f` on a pool of `threads` threads, or on this thread when `threads` is one.
pub(crate) fn run<T: Send>(threads: usize, f: impl FnOnce() -> T + Send) -> T {
    if threads <= 1 {
        f()
    } else {
        pool(threads).install(f)
    }
}

/// A node whose younger moves are searched by several threads.
#[derive(Debug)]
pub(crate) struct Split<'a> {
    /// The split point this node lies under, if any: a cut there ends this one too.
    pub(crate) parent: Option<&'a Split<'a>>,
    /// The next move to hand out.
    next: AtomicUsize,
    /// The best score so far, which is also the window's lower end once above it.
    pub(crate) alpha: AtomicI32,
    /// A move reached beta: every thread inside this node gives up.
    cut: AtomicBool,
    /// A thread gave up for a reason outside this node (a deadline, the stop flag, a cut above).
    pub(crate) gave_up: AtomicBool,
    /// The best score and its move, and the nodes the threads searched.
    best: Mutex<(i32, u8)>,
    pub(crate) nodes: AtomicU64,
}

impl<'a> Split<'a> {
    pub(crate) fn new(parent: Option<&'a Split<'a>>, alpha: i32, best: (i32, u8)) -> Split<'a> {
        Split {
            parent,
            next: AtomicUsize::new(0),
            alpha: AtomicI32::new(alpha),
            cut: AtomicBool::new(false),
            gave_up: AtomicBool::new(false),
            best: Mutex::new(best),
            nodes: AtomicU64::new(0),
        }
    }

    /// The index of the next move to search, or `None` when none is left or the node is cut.
    #[inline]
    pub(crate) fn take(&self, moves: usize) -> Option<usize> {
        if self.cut.load(Relaxed) {
            return None;
        }
        let i = self.next.fetch_add(1, Relaxed);
        (i < moves).then_some(i)
    }

    /// A move's score: kept when best, raising the window, and cutting the node at `beta`.
    pub(crate) fn offer(&self, score: i32, mv: u8, beta: i32) {
        let mut best = self
            .best
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if score > best.0 {
            *best = (score, mv);
        }
        drop(best);
        self.alpha.fetch_max(score, Relaxed);
        if score >= beta {
            self.cut.store(true, Relaxed);
        }
    }

    /// Runs `work` on this thread and on up to `threads` - 1 idle threads of the pool, and waits for all.
    pub(crate) fn share(&self, threads: usize, work: impl Fn() + Sync) {
        rayon::scope(|s| {
            for _ in 1..threads {
                s.spawn(|_| work());
            }
            work();
        });
    }

    /// A thread's part is done: its `nodes` counted, and its giving up, unless this node's own cut made it.
    pub(crate) fn done(&self, nodes: u64, aborted: bool) {
        self.nodes.fetch_add(nodes, Relaxed);
        if aborted && !self.was_cut() {
            self.gave_up.store(true, Relaxed);
        }
    }

    /// Whether this node or one above it was cut.
    #[inline]
    pub(crate) fn is_cut(&self) -> bool {
        let mut at = Some(self);
        while let Some(s) = at {
            if s.cut.load(Relaxed) {
                return true;
            }
            at = s.parent;
        }
        false
    }

    /// Whether this node itself was cut.
    pub(crate) fn was_cut(&self) -> bool {
        self.cut.load(Relaxed)
    }

    pub(crate) fn best(&self) -> (i32, u8) {
        *self
            .best
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_entry_reads_back_only_for_its_own_position() {
        let e = SharedEntry::default();
        assert_eq!(
            e.read(0, 0),
            Some(0),
            "an entry never written holds the empty board"
        );
        e.write(0x8100, 0x42, 0xDEAD_BEEF);
        assert_eq!(e.read(0x8100, 0x42), Some(0xDEAD_BEEF));
        assert_eq!(e.read(0x8100, 0x43), None);
        assert_eq!(e.load(), (0x8100, 0x42, 0xDEAD_BEEF));
        e.write(0x8100, 0x43, 1);
        assert_eq!(e.read(0x8100, 0x42), None);
    }

    #[test]
    fn a_split_hands_out_each_move_once_and_stops_at_a_cut() {
        let top = Split::new(None, -10, (-10, 0));
        let below = Split::new(Some(&top), 0, (0, 0));
        assert_eq!(
            (below.take(2), below.take(2), below.take(2)),
            (Some(0), Some(1), None)
        );
        below.offer(5, 3, 20);
        assert_eq!((below.best(), below.alpha.load(Relaxed)), ((5, 3), 5));
        assert!(!below.is_cut());
        top.offer(30, 7, 20);
        assert!(below.is_cut() && !below.was_cut() && top.was_cut());
        assert_eq!(top.take(9), None);
    }
}
