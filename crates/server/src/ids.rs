//! Random identifiers. Game and challenge ids are short and readable in a URL; session tokens are long and secret.
//! Both come from `rand`'s thread generator, a CSPRNG seeded by the operating system.

use rand::RngExt;

const ALPHABET: &[u8] = b"abcdefghijkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789";

/// `len` characters from a 56-letter alphabet without look-alikes (0/O, 1/l/I).
#[must_use]
pub fn short(len: usize) -> String {
    let mut rng = rand::rng();
    (0..len)
        .map(|_| char::from(ALPHABET[rng.random_range(0..ALPHABET.len())]))
        .collect()
}

/// A session token: 256 random bits in hex.
#[must_use]
pub fn token() -> String {
    let bytes: [u8; 32] = rand::random();
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Whether `id` can be an id of ours: 1-16 letters and digits. Anything else is answered "not found" before
/// any lookup.
pub(crate) fn plausible(id: &str) -> bool {
    (1..=16).contains(&id.len()) && id.bytes().all(|b| b.is_ascii_alphanumeric())
}
