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

/// The `{id}` of a URL that names one thing of a kind (a game, a tournament), checked before any lookup.
macro_rules! path_id {
    ($name:ident, $what:literal) => {
        #[doc = concat!("The `{id}` of a ", $what, "'s URL; an id that cannot be one is answered 404.")]
        #[derive(Clone, Debug, PartialEq, Eq)]
        pub(crate) struct $name(pub String);

        impl<S: Send + Sync> axum::extract::FromRequestParts<S> for $name {
            type Rejection = crate::error::ApiError;

            async fn from_request_parts(
                parts: &mut axum::http::request::Parts,
                state: &S,
            ) -> Result<Self, Self::Rejection> {
                let axum::extract::Path(params) = axum::extract::Path::<
                    std::collections::HashMap<String, String>,
                >::from_request_parts(parts, state)
                .await
                .map_err(|_| crate::error::ApiError::not_found($what))?;
                params
                    .get("id")
                    .filter(|id| plausible(id))
                    .map(|id| $name(id.clone()))
                    .ok_or_else(|| crate::error::ApiError::not_found($what))
            }
        }
    };
}

path_id!(GameId, "game");
path_id!(TournamentId, "tournament");
