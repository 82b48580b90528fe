//! The browser's files, embedded in the binary (one `cargo run` serves everything, with no CDN), and the page
//! every route answers.
//!
//! - Every module is minified once (oxc's printer: no comments, no spaces) and every file is also served under a
//!   name with its content's hash (`/assets/game.3f2a1b4c5d.js`), cached for a year and never revalidated: a
//!   change of the file changes its name. The plain name stays, revalidated by its ETag, for anything that
//!   asks by it.
//! - A page is the shell `web/index.html` with, in its head, an import map from each module's plain name to its
//!   hashed one (the modules import each other by plain name), the stylesheet, and a `modulepreload` of every
//!   module the route's page needs and of its language's words: the browser fetches them all at once, with no
//!   chain of imports to wait on. The import map is an inline script, allowed by its hash in the page's
//!   Content-Security-Policy.
//! - The page carries its first data in a JSON block (`boot`): its language, who is signed in, the catalog
//!   in that language, the server's time, and on a game or replay page the game's state, so that the first
//!   board is drawn without waiting for an API call or the socket.
//! - Each file is compressed once, with brotli at its best and with gzip, the first time it is asked for.

use std::{
    borrow::Cow,
    collections::{BTreeMap, BTreeSet, HashMap},
    io::Write,
    sync::{LazyLock, OnceLock},
};

use axum::{
    extract::State,
    http::{HeaderMap, HeaderValue, StatusCode, Uri, header},
    response::{IntoResponse, Response},
};
use base64::Engine as _;
use rust_embed::Embed;
use serde_json::json;
use sha2::{Digest, Sha256};

use crate::{web::AppState, web::auth::MaybeUser, web::error::ApiError, web::lang::Lang};

#[derive(Embed)]
#[folder = "web/"]
struct Web;

/// One embedded file, as it is served.
struct Asset {
    data: Cow<'static, [u8]>,
    mime: String,
    /// The quoted ETag: the first bytes of the served content's SHA-256, in hex.
    etag: String,
    /// The path with the hash in its name: `lang/en.0123456789.js`.
    hashed: String,
    br: OnceLock<Vec<u8>>,
    gzip: OnceLock<Vec<u8>>,
}

/// Every embedded file, by plain path; the hashed paths; the modules each module imports; the import map.
struct Files {
    by_path: HashMap<String, Asset>,
    by_hashed: HashMap<String, String>,
    imports: HashMap<String, Vec<String>>,
    /// The `<script type="importmap">` element, and the CSP source that allows it.
    import_map: String,
    import_map_csp: String,
    shell: String,
    /// What went wrong while the files were made: a module that does not parse.
    /// The server does not start with any ([`check`]).
    faults: Vec<String>,
}

/// The browser's files could not be made as they are served: the build's `web/` is broken.
#[derive(Debug, thiserror::Error)]
#[error("the browser's files: {}", .0.join("; "))]
pub struct AssetError(Vec<String>);

/// Makes the browser's files (minified, hashed) if they are not made yet, and says whether every one
/// was: the server refuses to start otherwise, rather than serve a page that differs from the one tested.
///
/// # Errors
///
/// Every fault found.
pub fn check() -> Result<(), AssetError> {
    if FILES.faults.is_empty() {
        Ok(())
    } else {
        Err(AssetError(FILES.faults.clone()))
    }
}

static FILES: LazyLock<Files> = LazyLock::new(Files::load);

/// The name a hash goes into: `app.js` → `app.HASH.js`.
fn hashed_name(path: &str, hash: &str) -> String {
    match path.rsplit_once('.') {
        Some((stem, ext)) if !stem.ends_with('/') => format!("{stem}.{hash}.{ext}"),
        _ => format!("{path}.{hash}"),
    }
}

/// A module as the browser gets it, minified (no comments, no spaces), and the modules it imports statically
/// (`import … from './x.js'`, `export … from './x.js'`, `import './x.js'`), as paths under `web/`; or why the
/// parser cannot read it.
fn module(path: &str, source: &str) -> Result<(String, Vec<String>), String> {
    use oxc_codegen::{Codegen, CodegenOptions};
    let allocator = oxc_allocator::Allocator::default();
    let parsed = oxc_parser::Parser::new(&allocator, source, oxc_span::SourceType::mjs()).parse();
    if parsed.panicked || !parsed.diagnostics.is_empty() {
        let why = parsed
            .diagnostics
            .first()
            .map_or_else(|| "the parser gave up".to_owned(), ToString::to_string);
        return Err(format!("web/{path} does not parse: {why}"));
    }
    let dir = path.rsplit_once('/').map_or("", |(d, _)| d);
    // In the order of the source: a browser evaluates a module's imports in that order.
    let mut requested: Vec<(u32, &str)> = parsed
        .module_record
        .requested_modules
        .iter()
        .filter_map(|(spec, uses)| Some((uses.iter().map(|u| u.statement_span.start).min()?, spec.as_str())))
        .filter(|(_, s)| s.starts_with("./") || s.starts_with("../"))
        .collect();
    requested.sort_unstable();
    let imports: Vec<String> = requested.into_iter().map(|(_, s)| resolve(dir, s)).collect();
    let minified = Codegen::new()
        .with_options(CodegenOptions::minify())
        .build(&parsed.program)
        .code;
    Ok((minified, imports))
}

/// The path under `web/` of the module `spec` imported from a module in directory `dir` (`""` for `web/`).
fn resolve(dir: &str, spec: &str) -> String {
    let mut parts: Vec<&str> = dir.split('/').filter(|p| !p.is_empty()).collect();
    for p in spec.split('/') {
        match p {
            "." | "" => {}
            ".." => {
                parts.pop();
            }
            p => parts.push(p),
        }
    }
    parts.join("/")
}

/// The first bytes of a file's SHA-256, in hex: its ETag and the hash in its name.
fn content_hash(data: &[u8]) -> String {
    Sha256::digest(data)
        .iter()
        .take(5)
        .map(|b| format!("{b:02x}"))
        .collect()
}

impl Files {
    fn load() -> Files {
        let mut by_path = HashMap::new();
        let mut imports = HashMap::new();
        let mut faults = Vec::new();
        for path in Web::iter() {
            let Some(f) = Web::get(&path) else {
                continue;
            };
            let mut data = f.data;
            if path.ends_with(".js") {
                let source = String::from_utf8_lossy(&data).into_owned();
                match module(&path, &source) {
                    Ok((minified, deps)) => {
                        data = Cow::Owned(minified.into_bytes());
                        imports.insert(path.to_string(), deps);
                    }
                    Err(why) => {
                        faults.push(why);
                        imports.insert(path.to_string(), Vec::new());
                    }
                }
            }
            by_path.insert(path.to_string(), Asset::new(&path, data, f.metadata.mimetype()));
        }
        let by_hashed = by_path
            .iter()
            .map(|(p, a)| (a.hashed.clone(), p.clone()))
            .collect();
        // Each module's plain name to its hashed one.
        let map: BTreeMap<String, String> = by_path
            .iter()
            .filter(|(p, _)| p.ends_with(".js"))
            .map(|(p, a)| (format!("/assets/{p}"), format!("/assets/{}", a.hashed)))
            .collect();
        let map_json = json!({ "imports": map }).to_string();
        let digest = Sha256::digest(map_json.as_bytes());
        let shell = by_path
            .get("index.html")
            .map(|a| String::from_utf8_lossy(&a.data).into_owned())
            .unwrap_or_default();
        Files {
            by_path,
            by_hashed,
            imports,
            import_map: format!(r#"<script type="importmap">{map_json}</script>"#),
            import_map_csp: format!(
                "'sha256-{}'",
                base64::engine::general_purpose::STANDARD.encode(digest)
            ),
            shell,
            faults,
        }
    }

    /// `module` and every module it imports, directly or not.
    fn closure(&self, module: &str, out: &mut BTreeSet<String>) {
        if !out.insert(module.to_owned()) {
            return;
        }
        for m in self.imports.get(module).into_iter().flatten() {
            self.closure(m, out);
        }
    }

    /// Where a file is served: under its hashed name.
    fn url(&self, path: &str) -> String {
        self.by_path
            .get(path)
            .map_or_else(|| format!("/assets/{path}"), |a| format!("/assets/{}", a.hashed))
    }
}

/// The best encoding the client takes of those kept: `br`, then `gzip`, else none.
fn encoding(headers: &HeaderMap) -> Option<&'static str> {
    let accept = headers.get(header::ACCEPT_ENCODING)?.to_str().ok()?;
    let takes = |name: &str| {
        accept.split(',').any(|e| {
            let mut f = e.split(';');
            f.next().is_some_and(|n| n.trim() == name) && !f.any(|q| q.trim() == "q=0")
        })
    };
    if takes("br") {
        Some("br")
    } else if takes("gzip") {
        Some("gzip")
    } else {
        None
    }
}

impl Asset {
    fn new(path: &str, data: Cow<'static, [u8]>, mime: &str) -> Asset {
        let hash = content_hash(&data);
        Asset {
            mime: mime.to_owned(),
            etag: format!("\"{hash}\""),
            hashed: hashed_name(path, &hash),
            data,
            br: OnceLock::new(),
            gzip: OnceLock::new(),
        }
    }

    /// The file compressed for `encoding`, made once.
    fn encoded(&self, encoding: &str) -> &[u8] {
        match encoding {
            "br" => self.br.get_or_init(|| {
                let mut out = Vec::new();
                let params = brotli::enc::BrotliEncoderParams {
                    quality: 11,
                    ..Default::default()
                };
                let _ = brotli::BrotliCompress(&mut &self.data[..], &mut out, &params);
                out
            }),
            _ => self.gzip.get_or_init(|| {
                let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
                let _ = e.write_all(&self.data);
                e.finish().unwrap_or_default()
            }),
        }
    }

    /// The file as a response: compressed where the client takes it, cached for a year under a hashed name
    /// (`immutable`) or revalidated under its plain one.
    fn response(&self, headers: &HeaderMap, immutable: bool) -> Response {
        let cache = if immutable {
            "public, max-age=31536000, immutable"
        } else {
            "no-cache"
        };
        let compressible = self.mime.starts_with("text/")
            || self.mime.contains("javascript")
            || self.mime.contains("json")
            || self.mime.contains("svg");
        let mut res = match encoding(headers).filter(|_| compressible) {
            Some(enc) => {
                let mut r = self.encoded(enc).to_vec().into_response();
                r.headers_mut()
                    .insert(header::CONTENT_ENCODING, HeaderValue::from_static(enc));
                r
            }
            None => self.data.to_vec().into_response(),
        };
        let h = res.headers_mut();
        if let Ok(v) = HeaderValue::from_str(&self.mime) {
            h.insert(header::CONTENT_TYPE, v);
        }
        // A hashed name never changes its content: there is nothing to revalidate.
        if !immutable && let Ok(v) = HeaderValue::from_str(&self.etag) {
            h.insert(header::ETAG, v);
        }
        h.insert(header::CACHE_CONTROL, HeaderValue::from_static(cache));
        h.insert(header::VARY, HeaderValue::from_static("accept-encoding"));
        res
    }
}

/// `/assets/...`: a file of `web/`, by its hashed name (immutable) or its plain one (revalidated).
pub(crate) async fn asset(uri: Uri, headers: HeaderMap) -> Response {
    let files = &*FILES;
    let path = uri.path().trim_start_matches("/assets/");
    if let Some(plain) = files.by_hashed.get(path)
        && let Some(a) = files.by_path.get(plain)
    {
        return a.response(&headers, true);
    }
    let Some(a) = files.by_path.get(path) else {
        return ApiError::not_found("file").into_response();
    };
    if headers
        .get(header::IF_NONE_MATCH)
        .is_some_and(|v| v.as_bytes() == a.etag.as_bytes())
    {
        return (StatusCode::NOT_MODIFIED, [(header::ETAG, a.etag.clone())]).into_response();
    }
    a.response(&headers, false)
}

/// The module of the page a path shows (`app.js` routes to it), if the path is a page of the site. The
/// browser's router (`pageOf` in `web/app.js`) names the same modules.
fn page_module(path: &str) -> Option<&'static str> {
    let first = path.trim_start_matches('/').split('/').next().unwrap_or("");
    Some(match first {
        "" => "lobby.js",
        "game" => "game.js",
        "replay" => "replay.js",
        "games" | "player" | "leaderboard" => "people.js",
        "account" => "account.js",
        "admin" => "admin.js",
        "watch" => "watch.js",
        "rules" => "rules.js",
        "analysis" => "analysis.js",
        "puzzles" => "puzzles.js",
        "tournaments" | "tournament" => "tournaments.js",
        _ => return None,
    })
}

/// The shell with what this page needs in its head and its first data in `boot`.
fn shell(lang: &str, page: Option<&str>, boot: &str) -> String {
    let files = &*FILES;
    let mut modules = BTreeSet::new();
    files.closure("app.js", &mut modules);
    if let Some(p) = page {
        files.closure(p, &mut modules);
    }
    files.closure(&format!("lang/{lang}.js"), &mut modules);
    let mut head = String::new();
    head.push_str(&files.import_map);
    head.push_str(&format!(
        r#"<link rel="stylesheet" href="{}">"#,
        files.url("style.css")
    ));
    let urls: BTreeSet<String> = modules.iter().map(|m| files.url(m)).collect();
    for u in &urls {
        head.push_str(&format!(r#"<link rel="modulepreload" href="{u}">"#));
    }
    head.push_str(&format!(
        r#"<script type="module" src="{}"></script>"#,
        files.url("app.js")
    ));
    // JSON in HTML: no `<` can close the script element.
    let boot = boot.replace('<', "\\u003c");
    files
        .shell
        .replacen("<html lang=\"en\">", &format!("<html lang=\"{lang}\">"), 1)
        .replacen("/assets/icon.svg", &files.url("icon.svg"), 1)
        .replacen("<!-- gridplay:head -->", &head, 1)
        .replacen(
            "<!-- gridplay:boot -->",
            &format!(r#"<script type="application/json" id="boot">{boot}</script>"#),
            1,
        )
}

/// The page's Content-Security-Policy: the site's own files only, and the import map by its hash.
fn page_csp() -> HeaderValue {
    let csp = format!(
        "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self' {}; connect-src 'self'; \
         frame-ancestors 'none'",
        FILES.import_map_csp
    );
    HeaderValue::from_str(&csp).unwrap_or_else(|_| HeaderValue::from_static("default-src 'self'"))
}

fn html(status: StatusCode, body: String) -> Response {
    (
        status,
        [
            (
                header::CONTENT_TYPE,
                HeaderValue::from_static("text/html; charset=utf-8"),
            ),
            // The page holds who is signed in: kept by no shared cache, and asked for afresh each time.
            (
                header::CACHE_CONTROL,
                HeaderValue::from_static("private, no-cache"),
            ),
            (header::CONTENT_SECURITY_POLICY, page_csp()),
        ],
        body,
    )
        .into_response()
}

/// The first data of a page: its language, the signed-in user, the catalog, the time, and on a game's page
/// the game's state.
async fn boot(
    state: &AppState,
    lang: &'static str,
    user: Option<&crate::db::User>,
    game: Option<&str>,
) -> String {
    let catalog = crate::web::catalog::catalog_text(state, lang).unwrap_or_else(|_| "null".into());
    let mut me = None;
    if let Some(u) = user {
        let admin = state.db.is_admin(&u.id).await.unwrap_or(false);
        me = Some(json!({ "id": u.id, "name": u.name, "admin": admin }));
    }
    let mut game_json = String::from("null");
    if let Some(id) = game
        && crate::ids::plausible(id)
        && let Ok(s) = state.hub.state(id).await
    {
        game_json = serde_json::to_string(&*s).unwrap_or(game_json);
    }
    format!(
        r#"{{"lang":"{lang}","me":{},"now":{},"game":{game_json},"catalog":{catalog}}}"#,
        json!(me),
        crate::db::now_ms()
    )
}

/// A page of the site: the shell, what its page needs, and its first data.
pub(crate) async fn page(
    State(state): State<AppState>,
    MaybeUser(user): MaybeUser,
    Lang(lang): Lang,
    uri: Uri,
) -> Response {
    let path = uri.path();
    let game = ["/game/", "/replay/"].iter().find_map(|p| path.strip_prefix(p));
    let data = boot(&state, lang, user.as_ref(), game).await;
    html(StatusCode::OK, shell(lang, page_module(path), &data))
}

/// Any other address: a browser asking for a page gets the site's shell with status 404, and draws its own
/// not-found page; anything else gets the JSON error.
pub(crate) async fn not_found(
    State(state): State<AppState>,
    MaybeUser(user): MaybeUser,
    Lang(lang): Lang,
    headers: HeaderMap,
) -> Response {
    let wants_page = headers
        .get(header::ACCEPT)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|a| a.contains("text/html"));
    if !wants_page {
        return ApiError::not_found("page").into_response();
    }
    let data = boot(&state, lang, user.as_ref(), None).await;
    html(StatusCode::NOT_FOUND, shell(lang, None, &data))
}

/// The hashed URLs of the modules a page preloads, for tests.
#[cfg(test)]
fn preloads(lang: &str, page: Option<&str>) -> Vec<String> {
    let html = shell(lang, page, "{}");
    html.split(r#"<link rel="modulepreload" href=""#)
        .skip(1)
        .filter_map(|s| s.split('"').next().map(str::to_owned))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn modules_are_minified_and_their_imports_read_and_resolved() {
        let src = "// A comment.\nimport { a } from './util.js';\nexport { b } from \"../x.js\";\nimport './side.js';\n\
                   const x = 'import y from ./no.js';\n  import * as e from './entry.js';\nimport { c } from 'pkg';\n\
                   /** Doc. */\nexport const f = async () => (await import('./later.js')).g(a, x, e, c);\n";
        let (minified, imports) = module("lang/en.js", src).expect("it parses");
        assert_eq!(
            imports,
            ["lang/util.js", "x.js", "lang/side.js", "lang/entry.js"],
            "in the source's order"
        );
        assert!(
            !minified.contains("comment") && !minified.contains("Doc."),
            "{minified}"
        );
        assert!(
            minified.contains("import y from ./no.js") && minified.contains("./later.js"),
            "{minified}"
        );
        assert!(minified.len() < src.len());
        let refused = module("x.js", "const = ;").unwrap_err();
        assert!(refused.starts_with("web/x.js does not parse: "), "{refused}");
        assert_eq!(resolve("", "./app.js"), "app.js");
        assert_eq!(resolve("lang", "../util.js"), "util.js");
    }

    /// Every module of the site parses: the server starts.
    #[test]
    fn every_module_of_the_site_parses() {
        check().expect("the browser's files are made");
    }

    #[test]
    fn hashed_names_keep_the_extension() {
        assert_eq!(hashed_name("lang/en.js", "abc"), "lang/en.abc.js");
        assert_eq!(hashed_name("icon.svg", "abc"), "icon.abc.svg");
    }

    /// A game page preloads every module it will import, its own language's words and not the other's, and
    /// no other page's module; every page module the router knows exists.
    #[test]
    fn a_page_preloads_its_whole_module_graph_and_nothing_else() {
        let game = preloads("en", Some("game.js"));
        let has = |name: &str| game.iter().any(|u| u.starts_with(&format!("/assets/{name}.")));
        let files = &*FILES;
        let mut graph = BTreeSet::new();
        files.closure("app.js", &mut graph);
        files.closure("game.js", &mut graph);
        for m in [
            "app.js",
            "game.js",
            "board.js",
            "entry.js",
            "gamestate.js",
            "util.js",
            "i18n.js",
            "live.js",
        ] {
            assert!(graph.contains(m), "{m} in {graph:?}");
        }
        for m in graph.iter().map(|m| m.trim_end_matches(".js")).chain(["lang/en"]) {
            assert!(has(m), "{m} in {game:?}");
        }
        assert_eq!(game.len(), graph.len() + 1, "{game:?}");
        for m in [
            "lang/ja",
            "lobby",
            "tournaments",
            "replay",
            "rules",
            "account",
            "watch",
            "people",
        ] {
            assert!(!has(m), "{m} in {game:?}");
        }
        for p in [
            "/",
            "/game/x",
            "/replay/x",
            "/games",
            "/player/a",
            "/leaderboard",
            "/account",
            "/admin",
            "/watch",
            "/rules/x",
            "/tournaments",
            "/tournament/x",
        ] {
            let m = page_module(p).expect("a page");
            assert!(files.by_path.contains_key(m), "{p}: {m}");
        }
        assert!(page_module("/nothing").is_none());
    }
}
