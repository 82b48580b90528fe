//! The rules pages: each game's rules (the document its module carries, in the reader's language) and small
//! interactive examples. The examples come from the rules library ([`gridplay_core::RuleExample`]): the board,
//! the legal moves and every position after a move the reader tries are the library's, so the page cannot
//! disagree with the game.

use axum::{
    Json,
    extract::{Path, State},
};
use gridplay_core::{BoardView, MoveView, SideInfo};
use pulldown_cmark::{Event, Options, Parser, html};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::game::codes::ErrorCode;
use crate::web::{
    AppState,
    analysis::walk,
    error::{ApiError, ApiResult, ErrorBody},
    lang::Lang,
    settings::build_spec,
};

/// A position reached by moves from a game's start, with its legal moves.
#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct TriedPosition {
    /// The spec in canonical form.
    spec: String,
    /// The moves played, as the game writes them.
    moves: Vec<String>,
    view: BoardView,
    last_move: Option<MoveView>,
    title: String,
    game: String,
    sides: [SideInfo; 2],
}

/// A game's rules page.
#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct RulesPage {
    name: &'static str,
    title: &'static str,
    about: &'static str,
    /// The document's language (English where the asked one has none).
    language: &'static str,
    /// The document as HTML; `<div class="try" data-example="ID">` marks where example `ID` goes.
    html: String,
    examples: Vec<RulesExample>,
}

/// An example of a rules page: a position and what it shows.
#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct RulesExample {
    id: &'static str,
    title: &'static str,
    text: &'static str,
    /// The position it shows.
    position: TriedPosition,
}

/// Moves to try from a game's start.
#[derive(Debug, Deserialize, ToSchema)]
pub(crate) struct TryMoves {
    spec: String,
    /// At most 300 moves of 200 characters each.
    moves: Vec<String>,
}

/// The example a line of a rules document places (`[try: ID]` on a line of its own), if it is one.
fn placed_example(line: &str) -> Option<&str> {
    let id = line.trim().strip_prefix("[try: ")?.strip_suffix(']')?;
    id.chars()
        .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
        .then_some(id)
}

/// A rules document's Markdown as HTML, with any raw HTML in the source shown as text, and each line that
/// places an example made an empty `<div class="try" data-example="ID">` where the page puts its board.
fn render(markdown: &str) -> String {
    const MARK: &str = "TRYEXAMPLEPLACEDHERE-";
    let marked: Vec<String> = markdown
        .lines()
        .map(|l| placed_example(l).map_or_else(|| l.to_owned(), |id| format!("{MARK}{id}")))
        .collect();
    let marked = marked.join("\n");
    let parser = Parser::new_ext(&marked, Options::ENABLE_TABLES).map(|e| match e {
        Event::Html(t) | Event::InlineHtml(t) => Event::Text(t),
        e => e,
    });
    let mut out = String::new();
    html::push_html(&mut out, parser);
    for line in markdown.lines() {
        if let Some(id) = placed_example(line) {
            out = out.replace(
                &format!("<p>{MARK}{id}</p>"),
                &format!("<div class=\"try\" data-example=\"{id}\"></div>"),
            );
        }
    }
    out
}

/// The position after `moves` from the start of `spec`, as the board view with its legal moves.
fn play_out(state: &AppState, spec: &str, moves: &[String]) -> ApiResult<TriedPosition> {
    let game = build_spec(state, spec)?;
    let (pos, played, last_move) = walk(game.start(), moves)?;
    let info = game.info();
    Ok(TriedPosition {
        spec: game.spec().to_string(),
        moves: played,
        view: pos.view(),
        last_move,
        title: info.title,
        game: info.name,
        sides: info.sides,
    })
}

/// A game's rules as HTML, and its examples with their boards.
#[utoipa::path(get, path = "/rules/{game}", tag = "games",
    params(("game" = String, Path, description = "The game's registry name"),
        ("lang" = Option<String>, Query, description = "`en` or `ja`; otherwise the `gp_lang` cookie, then Accept-Language")),
    responses((status = 200, body = RulesPage), (status = 404, body = ErrorBody)))]
pub(crate) async fn rules(
    State(state): State<AppState>,
    Path(game): Path<String>,
    Lang(lang): Lang,
) -> ApiResult<Json<RulesPage>> {
    let entry = state
        .registry
        .entry(&game)
        .ok_or_else(|| ApiError::not_found("game"))?;
    let doc = entry
        .module
        .rules_in(lang)
        .ok_or_else(|| ApiError::not_found("rules document"))?;
    let mut examples = Vec::new();
    for x in entry.module.examples {
        let moves: Vec<String> = x.moves.iter().map(|m| (*m).to_owned()).collect();
        examples.push(RulesExample {
            id: x.id,
            title: entry.module.word(lang, x.title),
            text: entry.module.word(lang, x.text),
            position: play_out(&state, x.spec, &moves)?,
        });
    }
    Ok(Json(RulesPage {
        name: entry.name,
        title: entry.module.word(lang, entry.module.title),
        about: entry.module.word(lang, entry.module.about),
        language: doc.language,
        html: render(doc.markdown),
        examples,
    }))
}

/// The position after some moves from the start: what the examples show when a reader tries a move.
#[utoipa::path(post, path = "/rules-try", tag = "games", request_body = TryMoves,
    responses((status = 200, body = TriedPosition), (status = 400, body = ErrorBody,
        description = "A bad spec (`bad-spec`), an illegal move (`bad-move`: which and why), or too many moves")))]
pub(crate) async fn try_moves(
    State(state): State<AppState>,
    Json(t): Json<TryMoves>,
) -> ApiResult<Json<TriedPosition>> {
    if t.moves.len() > 300 || t.moves.iter().any(|m| m.len() > 200) {
        return Err(ApiError::bad_request(
            ErrorCode::TooLong,
            "at most 300 moves of 200 characters each",
        ));
    }
    Ok(Json(play_out(&state, &t.spec, &t.moves)?))
}

#[cfg(test)]
mod tests {
    use super::render;

    #[test]
    fn a_try_line_becomes_the_place_of_its_example() {
        let html = render("# Rules\n\nText.\n\n[try: the-start]\n\nMore <b>text</b>.\n");
        assert!(
            html.contains(r#"<div class="try" data-example="the-start"></div>"#),
            "{html}"
        );
        assert!(html.contains("&lt;b&gt;"), "raw HTML is shown as text: {html}");
        assert!(!html.contains("TRYEXAMPLE"), "{html}");
    }
}
