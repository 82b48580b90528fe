//! The ids of a URL, checked before any lookup: an id that cannot be one of ours (`crate::ids::plausible`) is
//! answered 404 at once.

use crate::ids::plausible;

/// The `{id}` of a URL that names one thing of a kind (a game, a tournament), checked before any lookup.
macro_rules! path_id {
    ($name:ident, $what:literal) => {
        #[doc = concat!("The `{id}` of a ", $what, "'s URL; an id that cannot be one is answered 404.")]
        #[derive(Clone, Debug, PartialEq, Eq)]
        pub(crate) struct $name(pub String);

        impl<S: Send + Sync> axum::extract::FromRequestParts<S> for $name {
            type Rejection = super::error::ApiError;

            async fn from_request_parts(
                parts: &mut axum::http::request::Parts,
                state: &S,
            ) -> Result<Self, Self::Rejection> {
                let axum::extract::Path(params) = axum::extract::Path::<
                    std::collections::HashMap<String, String>,
                >::from_request_parts(parts, state)
                .await
                .map_err(|_| super::error::ApiError::not_found($what))?;
                params
                    .get("id")
                    .filter(|id| plausible(id))
                    .map(|id| $name(id.clone()))
                    .ok_or_else(|| super::error::ApiError::not_found($what))
            }
        }
    };
}

path_id!(GameId, "game");
path_id!(TournamentId, "tournament");
