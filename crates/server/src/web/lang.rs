//! The language of a request: `?lang=` when the page names one, else the `gp_lang` cookie the page's language
//! switch keeps, else the browser's `Accept-Language`, else English. The server translates what the game modules say (titles, settings, examples, rules documents);
//! the page translates its own words and the server's error codes.

use axum::{extract::FromRequestParts, http::request::Parts};

/// The languages the site is written in, English first (the fallback).
pub(crate) const LANGUAGES: &[&str] = &["en", "ja"];

/// The language a request asks for: one of [`LANGUAGES`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Lang(pub &'static str);

impl Lang {
    /// The language named by a tag such as `ja`, `ja-JP` or `en-GB`, if the site has it.
    fn known(tag: &str) -> Option<&'static str> {
        let primary = tag.trim().split(['-', '_']).next()?.to_ascii_lowercase();
        LANGUAGES.iter().copied().find(|l| *l == primary)
    }

    /// The best language of an `Accept-Language` header: the known one with the highest weight.
    fn from_accept(header: &str) -> Option<&'static str> {
        let mut best: Option<(f32, &'static str)> = None;
        for part in header.split(',') {
            let mut fields = part.split(';');
            let Some(lang) = fields.next().and_then(Lang::known) else {
                continue;
            };
            let q = fields
                .find_map(|f| f.trim().strip_prefix("q=").and_then(|q| q.parse::<f32>().ok()))
                .unwrap_or(1.0);
            if q > 0.0 && best.is_none_or(|(b, _)| q > b) {
                best = Some((q, lang));
            }
        }
        best.map(|(_, l)| l)
    }

    fn of(query: Option<&str>, cookie: Option<&str>, accept: Option<&str>) -> Lang {
        let asked = query.and_then(|q| {
            q.split('&')
                .find_map(|kv| kv.strip_prefix("lang="))
                .and_then(Lang::known)
        });
        let kept = cookie.and_then(|c| {
            c.split(';')
                .find_map(|kv| kv.trim().strip_prefix("gp_lang="))
                .and_then(Lang::known)
        });
        Lang(
            asked
                .or(kept)
                .or_else(|| accept.and_then(Lang::from_accept))
                .unwrap_or("en"),
        )
    }
}

impl<S: Send + Sync> FromRequestParts<S> for Lang {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Lang, Self::Rejection> {
        let header = |name| parts.headers.get(name).and_then(|v| v.to_str().ok());
        let accept = header(axum::http::header::ACCEPT_LANGUAGE);
        let cookie = header(axum::http::header::COOKIE);
        Ok(Lang::of(parts.uri.query(), cookie, accept))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_query_wins_then_the_kept_choice_then_the_best_weighted_accepted_language() {
        assert_eq!(Lang::of(Some("lang=ja"), None, Some("en")), Lang("ja"));
        assert_eq!(
            Lang::of(Some("x=1&lang=en"), Some("gp_lang=ja"), Some("ja")),
            Lang("en")
        );
        assert_eq!(
            Lang::of(Some("lang=fr"), None, Some("ja-JP,ja;q=0.9,en;q=0.8")),
            Lang("ja")
        );
        assert_eq!(
            Lang::of(None, Some("gp_session=x; gp_lang=ja"), Some("en")),
            Lang("ja")
        );
        assert_eq!(Lang::of(None, Some("gp_lang=xx"), Some("ja")), Lang("ja"));
        assert_eq!(
            Lang::of(None, None, Some("fr-FR, en;q=0.5, ja;q=0.7")),
            Lang("ja")
        );
        assert_eq!(Lang::of(None, None, Some("ja;q=0, en-GB")), Lang("en"));
        assert_eq!(Lang::of(None, None, Some("de")), Lang("en"));
        assert_eq!(Lang::of(None, None, None), Lang("en"));
    }
}
