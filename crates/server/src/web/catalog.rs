//! The catalog: every game as the pages learn it (its settings, sides, board look, move entry, levels and
//! words), in the request's language. The pages know no game but from here.

use std::{collections::BTreeMap, sync::Arc};

use axum::{extract::State, http::header};
use gridplay_core::{Look, MoveEntry, SideInfo};
use serde::Serialize;
use utoipa::ToSchema;

use crate::web::{
    AppState,
    error::{ApiError, ApiResult, ErrorBody},
    lang::Lang,
    settings::{CatalogSetting, catalog_setting},
};

/// `GET /api/catalog`.
#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct Catalog {
    games: Vec<CatalogGame>,
    /// The language of the texts: `en` or `ja`.
    language: &'static str,
}

/// A game as the pages learn it: everything they show about a game comes from here.
#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct CatalogGame {
    /// The registry name, which starts its specs (`reversi`, `checkers:board=10`).
    name: &'static str,
    title: &'static str,
    about: &'static str,
    /// The module's words in the request's language, English to translation (empty in English), for the
    /// texts of a game's state: side names, piece kinds, information lines.
    words: BTreeMap<&'static str, &'static str>,
    settings: Vec<CatalogSetting>,
    sides: [SideInfo; 2],
    /// The engine's levels, 1 to `levels`; 0 where no engine plays the game.
    levels: usize,
    entry: MoveEntry,
    look: Look,
    /// Labels of the kinds of move a player chooses between, by kind.
    move_kinds: BTreeMap<&'static str, &'static str>,
    /// The languages of the rules document.
    rules: Vec<&'static str>,
    /// Piece kind and the words that explain it.
    legend: Vec<LegendLine>,
    /// The pieces the analysis board's editor offers (their characters are what `/analysis/setup` reads).
    pieces: &'static [gridplay_core::EditorPiece],
}

/// One line of a board's legend.
#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct LegendLine {
    kind: &'static str,
    words: &'static str,
}

/// The games and their settings, for the lobby's forms, and how each is shown and played.
#[utoipa::path(get, path = "/catalog", tag = "games",
    params(("lang" = Option<String>, Query, description = "`en` or `ja`; otherwise the `gp_lang` cookie, then Accept-Language")),
    responses((status = 200, body = Catalog), (status = "5XX", body = ErrorBody)))]
pub(crate) async fn catalog(
    State(state): State<AppState>,
    Lang(lang): Lang,
) -> ApiResult<([(header::HeaderName, &'static str); 1], String)> {
    let text = catalog_text(&state, lang)?;
    Ok(([(header::CONTENT_TYPE, "application/json")], text.to_string()))
}

/// The catalog in `lang` as JSON text, made once per language: `GET /api/catalog` answers it and every
/// page's first response carries it.
pub(crate) fn catalog_text(state: &AppState, lang: &'static str) -> ApiResult<Arc<str>> {
    let cell = state.catalogs.get(lang).ok_or_else(ApiError::internal)?;
    if let Some(t) = cell.get() {
        return Ok(t.clone());
    }
    let text = serde_json::to_string(&catalog_of(state, lang)?).map_err(|_| ApiError::internal())?;
    Ok(cell.get_or_init(|| text.into()).clone())
}

/// The catalog in `lang`.
fn catalog_of(state: &AppState, lang: &'static str) -> ApiResult<Catalog> {
    let mut games = Vec::new();
    for e in state.registry.entries() {
        let game = state.registry.game(e.name).map_err(|_| ApiError::internal())?;
        let module = e.module;
        let word = |english: &'static str| module.word(lang, english);
        let mut sides = game.info().sides;
        for side in &mut sides {
            side.name = module.word(lang, &side.name).to_owned();
        }
        games.push(CatalogGame {
            name: e.name,
            title: word(module.title),
            about: word(module.about),
            words: module.words(lang).iter().copied().collect(),
            settings: module
                .settings
                .iter()
                .map(|s| catalog_setting(module, s, lang))
                .collect(),
            sides,
            levels: gridplay_engine::engine(e.name).map_or(0, |g| g.levels.len()),
            entry: module.entry,
            look: module.look,
            move_kinds: module
                .move_kinds
                .iter()
                .map(|&(k, label)| (k, word(label)))
                .collect(),
            rules: module.rules.iter().map(|d| d.language).collect(),
            legend: module
                .legend
                .iter()
                .map(|&(kind, words)| LegendLine {
                    kind,
                    words: word(words),
                })
                .collect(),
            pieces: module.pieces,
        });
    }
    Ok(Catalog {
        games,
        language: lang,
    })
}
