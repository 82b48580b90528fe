use std::ops::Deref;

use arrayvec::ArrayVec;
use smallvec::SmallVec;

/// A list of legal moves. Games with a proven small maximum use a fixed-capacity [`ArrayVec`] so that move
/// generation never allocates; games without a proven bound use a [`SmallVec`], which stays on the stack in
/// every ordinary position and spills to the heap rather than fail; games whose lists are long use a `Vec`.
pub trait MoveList<M>: Default + Deref<Target = [M]> + IntoIterator<Item = M> + Send {
    /// Appends a move. Implementations with a fixed capacity size it to the proven worst case, so this never
    /// overflows for moves that a game generates.
    fn push(&mut self, m: M);
}

impl<M: Send, const N: usize> MoveList<M> for ArrayVec<M, N> {
    #[inline]
    fn push(&mut self, m: M) {
        ArrayVec::push(self, m);
    }
}

impl<M: Send> MoveList<M> for Vec<M> {
    #[inline]
    fn push(&mut self, m: M) {
        Vec::push(self, m);
    }
}

impl<M: Send, const N: usize> MoveList<M> for SmallVec<[M; N]> {
    #[inline]
    fn push(&mut self, m: M) {
        SmallVec::push(self, m);
    }
}
