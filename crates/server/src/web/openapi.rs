//! The HTTP API as one list of routes, and its OpenAPI 3.1 document made from the same list: every route of
//! the API is added here with `routes!`, which takes its path, method, parameters and answers from the
//! handler's `#[utoipa::path]`, so the router and the document cannot differ. The pages, the browser's files
//! and the socket are in the document too, described by hand from the lists the router uses.

use std::sync::OnceLock;

use axum::{
    extract::DefaultBodyLimit,
    http::{HeaderValue, Method, header},
};
use tower_http::set_header::SetResponseHeaderLayer;
use utoipa::{
    Modify, OpenApi,
    openapi::{
        self, Content, HttpMethod, PathItem, Ref, ResponseBuilder,
        path::{OperationBuilder, ParameterBuilder, ParameterIn},
        security::{ApiKey, ApiKeyValue, HttpAuthScheme, HttpBuilder, SecurityScheme},
    },
};
use utoipa_axum::{router::OpenApiRouter, routes};

use crate::web::{
    AppState, analysis, auth, bot, catalog, challenges, error::ApiError, games, health, moderation, players,
    puzzles, rules, scopes, settings, tokens, tournaments, ws,
};

/// The pages of the site: each answers the same shell, which loads the page's module.
pub(crate) const PAGES: &[&str] = &[
    "/",
    "/game/{id}",
    "/replay/{id}",
    "/games",
    "/account",
    "/admin",
    "/watch",
    "/player/{name}",
    "/leaderboard",
    "/leaderboard/{game}",
    "/rules/{game}",
    "/analysis/{game}",
    "/puzzles/{game}",
    "/puzzles/{game}/{id}",
    "/tournaments",
    "/tournament/{id}",
];

/// The browser's files, by hashed or plain name.
pub(crate) const ASSETS: &str = "/assets/{*path}";

#[derive(OpenApi)]
#[openapi(
    info(
        title = "gridplay",
        description = "The HTTP API of a gridplay server: accounts, the game catalog, the lobby and challenges, \
games and their replays, players, rules and tournaments. Moves and other live actions go over the socket \
(`GET /ws`, described in docs/web.md). Every error answers `ErrorBody`: a stable code and a sentence. A request \
that changes something (any method but GET) must come from the site's own origin or carry no `Origin`; the \
session is the `gp_session` cookie that signing in sets, and a program may send a personal API token instead \
(`Authorization: Bearer`), within the scope each operation names.",
        license(name = "MIT OR Apache-2.0"),
    ),
    modifiers(&Session),
    components(schemas(crate::web::error::ErrorBody, crate::game::messages::ClientMsg)),
    tags(
        (name = "account", description = "Signing up, in and out; the account's password and deletion"),
        (name = "games", description = "The catalog, games, replays, hints, analyses, files and rules"),
        (name = "lobby", description = "Who is online, challenges, games against the engine, rematches"),
        (name = "players", description = "Games in play, profiles, leaderboards"),
        (name = "tournaments", description = "Swiss and round-robin tournaments"),
        (name = "moderation", description = "Reports by players; the admins' queue and their actions on accounts"),
        (name = "analysis", description = "The analysis board: any position of a game, the board editor's check, and the engine's lines streamed"),
        (name = "puzzles", description = "Puzzles: the next one near the player's rating, answers checked move by move, ratings, streaks and history"),
        (name = "bots", description = "Bot accounts and the bot API: a program's streams of events and of its games, and its actions in them"),
        (name = "site", description = "The pages, the browser's files and the socket"),
        (name = "engine", description = "Every operation that answers with the engine's output (moves, scores, lines, the book's values): each is under the fair-play rule of docs/web.md, and the help matrix test asks each one"),
    )
)]
struct ApiDoc;

/// The session cookie, named by the operations that need a signed-in user, and the personal API token.
struct Session;

impl Modify for Session {
    fn modify(&self, doc: &mut openapi::OpenApi) {
        let components = doc.components.get_or_insert_with(openapi::Components::new);
        components.add_security_scheme(
            "session",
            SecurityScheme::ApiKey(ApiKey::Cookie(ApiKeyValue::with_description(
                auth::COOKIE,
                "The session that signing up or in sets (HttpOnly, SameSite=Lax)",
            ))),
        );
        components.add_security_scheme(
            "token",
            SecurityScheme::Http(
                HttpBuilder::new()
                    .scheme(HttpAuthScheme::Bearer)
                    .description(Some(
                        "A personal API token (`gp_…`), made on the account page: it acts as its user within \
its scopes, `read` (every GET), `play` (the other routes a player uses), `bot` (the bot API, for a bot \
account) and `admin` (the admins' routes). The scope each operation needs is its `token` requirement.",
                    ))
                    .build(),
            ),
        );
    }
}

/// Writes into each operation of the API the token scope it needs (`scopes::needed`): beside the session where
/// the operation needs a signed-in user, and as an option where it needs none.
fn token_scopes(doc: &mut openapi::OpenApi) {
    use openapi::security::SecurityRequirement;
    for (path, item) in &mut doc.paths.paths {
        let ops = [
            (Method::GET, &mut item.get),
            (Method::POST, &mut item.post),
            (Method::PUT, &mut item.put),
            (Method::DELETE, &mut item.delete),
            (Method::PATCH, &mut item.patch),
        ];
        for (method, op) in ops {
            let (Some(op), Some(scope)) = (op.as_mut(), scopes::needed(&method, path)) else {
                continue;
            };
            let token = SecurityRequirement::new("token", [scope.as_str()]);
            match &mut op.security {
                Some(reqs) if !reqs.is_empty() => reqs.push(token),
                _ => op.security = Some(vec![SecurityRequirement::default(), token]),
            }
        }
    }
}

/// The API's routes under `/api`, with their document.
fn api() -> OpenApiRouter<AppState> {
    let files = OpenApiRouter::new()
        .routes(routes!(games::import_game))
        .layer(DefaultBodyLimit::max(300 * 1024));
    OpenApiRouter::new()
        .routes(routes!(openapi_json))
        .routes(routes!(auth::me))
        .routes(routes!(auth::signup))
        .routes(routes!(auth::signin))
        .routes(routes!(auth::signout))
        .routes(routes!(auth::change_password))
        .routes(routes!(auth::signout_everywhere))
        .routes(routes!(auth::delete_account))
        .routes(routes!(catalog::catalog))
        .routes(routes!(settings::check))
        .routes(routes!(challenges::lobby))
        .routes(routes!(challenges::create_challenge))
        .routes(routes!(challenges::accept_challenge))
        .routes(routes!(challenges::decline_challenge))
        .routes(routes!(challenges::play_computer))
        .routes(routes!(challenges::rematch))
        .routes(routes!(games::game_state))
        .routes(routes!(games::game_ply))
        .routes(routes!(games::replay_hint))
        .routes(routes!(games::game_export))
        .routes(routes!(games::game_analysis))
        .routes(routes!(games::stored_analysis))
        .routes(routes!(games::game_hint))
        .routes(routes!(games::game_spectators))
        .routes(routes!(games::game_chat))
        .routes(routes!(players::live_games))
        .routes(routes!(players::my_games))
        .routes(routes!(players::profile))
        .routes(routes!(players::block, players::unblock))
        .routes(routes!(players::leaderboard))
        .routes(routes!(rules::rules))
        .routes(routes!(rules::try_moves))
        .routes(routes!(analysis::position))
        .routes(routes!(analysis::import))
        .routes(routes!(analysis::setup))
        .routes(routes!(analysis::lines))
        .routes(routes!(analysis::explorer))
        .routes(routes!(puzzles::next))
        .routes(routes!(puzzles::one))
        .routes(routes!(puzzles::answer))
        .routes(routes!(puzzles::history))
        .routes(routes!(tournaments::list, tournaments::create))
        .routes(routes!(tournaments::show))
        .routes(routes!(tournaments::join))
        .routes(routes!(tournaments::withdraw))
        .routes(routes!(tournaments::start))
        .routes(routes!(tokens::list, tokens::create))
        .routes(routes!(tokens::revoke))
        .routes(routes!(bot::make_bot))
        .routes(routes!(bot::event_stream))
        .routes(routes!(bot::game_stream))
        .routes(routes!(bot::make_move))
        .routes(routes!(bot::resign))
        .routes(routes!(bot::abort))
        .routes(routes!(bot::draw))
        .routes(routes!(moderation::report))
        .routes(routes!(moderation::mine))
        .routes(routes!(moderation::queue))
        .routes(routes!(moderation::review_queue))
        .routes(routes!(moderation::close_report))
        .routes(routes!(moderation::account))
        .routes(routes!(moderation::act))
        .merge(files)
        .fallback(|| async { ApiError::not_found("API route") })
}

/// The routes of the API and the socket, with the site's content policy on every answer but a page (which
/// sets its own, allowing its import map by hash) and the browser's files (which are no documents).
pub(crate) fn routes() -> OpenApiRouter<AppState> {
    let csp = SetResponseHeaderLayer::if_not_present(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(
            "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; connect-src 'self'; frame-ancestors 'none'",
        ),
    );
    OpenApiRouter::with_openapi(ApiDoc::openapi())
        .nest("/api", api().layer(csp.clone()))
        .merge(
            OpenApiRouter::new()
                .routes(routes!(ws::upgrade))
                .routes(routes!(health::healthz))
                .routes(routes!(health::readyz))
                .layer(csp),
        )
}

/// The whole document: the API and the socket from their routes, the pages and the files from their lists.
pub fn document() -> &'static str {
    static DOC: OnceLock<String> = OnceLock::new();
    DOC.get_or_init(|| {
        let mut doc = routes().into_openapi();
        token_scopes(&mut doc);
        for page in PAGES {
            doc.paths.paths.insert((*page).to_owned(), page_item(page));
        }
        doc.paths
            .paths
            .insert(ASSETS.replace("{*path}", "{path}"), assets_item());
        doc.to_json().unwrap_or_else(|e| {
            tracing::error!("the OpenAPI document: {e}");
            "{}".to_owned()
        })
    })
}

/// `GET /api/openapi.json`: this document.
#[utoipa::path(get, path = "/openapi.json", tag = "site",
    responses((status = 200, content_type = "application/json", description = "The OpenAPI 3.1 document of every route")))]
async fn openapi_json() -> ([(header::HeaderName, &'static str); 1], &'static str) {
    ([(header::CONTENT_TYPE, "application/json")], document())
}

/// The parameters a page's or a file's path names.
fn path_parameters(path: &str) -> Vec<openapi::path::Parameter> {
    path.split('/')
        .filter_map(|part| part.strip_prefix('{')?.strip_suffix('}'))
        .map(|name| {
            ParameterBuilder::new()
                .name(name.trim_start_matches('*'))
                .parameter_in(ParameterIn::Path)
                .required(openapi::Required::True)
                .schema(Some(
                    openapi::ObjectBuilder::new().schema_type(openapi::Type::String),
                ))
                .build()
        })
        .collect()
}

fn page_item(path: &str) -> PathItem {
    let ok = ResponseBuilder::new()
        .description("The page: the site's shell with the page's first data; the browser draws the rest")
        .content("text/html", Content::new(None::<Ref>))
        .build();
    PathItem::new(
        HttpMethod::Get,
        OperationBuilder::new()
            .tag("site")
            .summary(Some("A page of the site"))
            .parameters(Some(path_parameters(path)))
            .response("200", ok)
            .build(),
    )
}

fn assets_item() -> PathItem {
    let ok = ResponseBuilder::new()
        .description("The file: immutable by its hashed name, revalidated (ETag) by its plain one")
        .build();
    let missing = ResponseBuilder::new()
        .description("No such file")
        .content(
            "application/json",
            Content::new(Some(Ref::from_schema_name("ErrorBody"))),
        )
        .build();
    PathItem::new(
        HttpMethod::Get,
        OperationBuilder::new()
            .tag("site")
            .summary(Some(
                "A file of the browser's: a module, the style sheet, a sound, a translation",
            ))
            .parameters(Some(path_parameters(ASSETS)))
            .response("200", ok)
            .response("404", missing)
            .build(),
    )
}
