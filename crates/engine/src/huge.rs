//! Large tables (the searches' transposition tables, the Reversi weights) on the kernel's 2 MB pages where it
//! offers them: a search reads such tables at random, and with 4 KB pages nearly every read of a 32 MB table
//! also misses the address-translation cache.
//!
//! On Linux the pages are asked for with `madvise(MADV_HUGEPAGE)`, which is what the kernel's default
//! transparent huge page setting (`madvise`) waits for; elsewhere, or where the kernel declines, the table
//! is an ordinary vector and only slower.

/// A vector of `n` values made by `make`, on memory offered 2 MB pages before it was first written.
#[must_use]
pub(crate) fn filled_with<T>(n: usize, make: impl FnMut() -> T) -> Vec<T> {
    let mut v: Vec<T> = Vec::with_capacity(n);
    advise(v.as_mut_ptr().cast::<u8>(), n * std::mem::size_of::<T>());
    v.resize_with(n, make);
    v
}

/// A copy of `values` on memory offered 2 MB pages.
#[must_use]
pub(crate) fn copied<T: Copy>(values: &[T]) -> Vec<T> {
    let mut v: Vec<T> = Vec::with_capacity(values.len());
    advise(v.as_mut_ptr().cast::<u8>(), std::mem::size_of_val(values));
    v.extend_from_slice(values);
    v
}

/// Asks for 2 MB pages for the whole 2 MB extents within `len` bytes from `start` (the vector's own memory,
/// not yet written).
#[cfg(target_os = "linux")]
fn advise(start: *mut u8, len: usize) {
    const HUGE: usize = 2 << 20;
    let from = (start as usize).next_multiple_of(HUGE);
    let to = (start as usize + len) / HUGE * HUGE;
    if to > from {
        // SAFETY: [from, to) lies within this process's allocation of `len` bytes at `start`; the advice
        // changes how the kernel backs those pages, never their contents or the mapping's validity, and a
        // refusal (an error return) leaves ordinary pages.
        unsafe {
            libc::madvise(
                start.add(from - start as usize).cast::<libc::c_void>(),
                to - from,
                libc::MADV_HUGEPAGE,
            );
        }
    }
}

#[cfg(not(target_os = "linux"))]
fn advise(_start: *mut u8, _len: usize) {}

#[cfg(test)]
mod tests {
    #[test]
    fn a_filled_vector_holds_its_values() {
        for n in [0, 1, 1000, 3 << 20] {
            let v = super::filled_with(n, || 7u16);
            assert_eq!(v.len(), n);
            assert!(v.iter().all(|&x| x == 7));
            assert_eq!(super::copied(&v), v);
        }
    }
}
