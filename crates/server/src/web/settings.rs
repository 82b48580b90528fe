//! A game's settings as the pages choose them: each setting described for its control (the catalog's
//! `settings`), a spec checked as a person edits it (`POST /api/specs/check`, which an army builder asks
//! clause by clause), and a refused spec explained in a sentence that names the setting as the form does.

use axum::{Json, extract::State};
use gridplay_core::{
    GameModule, GameSpec, LayoutPiece, Registry, SettingChoice, SettingDoc, SettingKind, SpecError,
};
use serde::{Deserialize, Serialize};

use crate::game::codes::ErrorCode;
use crate::web::{
    AppState,
    error::{ApiError, ApiResult, ErrorBody},
};

/// A setting as a page builds its control: the label, the help and the kind, in the request's language.
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub(crate) struct CatalogSetting {
    key: &'static str,
    label: &'static str,
    about: &'static str,
    #[serde(flatten)]
    kind: CatalogSettingKind,
}

/// The control a setting needs.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(tag = "kind", rename_all = "lowercase")]
enum CatalogSettingKind {
    /// A select of these values.
    Choice {
        options: Vec<SettingChoice>,
        default: &'static str,
    },
    /// A number input within bounds.
    Number { min: u32, max: u32, default: u32 },
    /// An army builder: a count per part, the rule's clauses shown met or broken (`POST /api/specs/check`).
    Army {
        parts: Vec<ArmyPart>,
        min: u32,
        max: u32,
        /// The setting whose army this one copies when not given.
        same_as: Option<&'static str>,
        clauses: Vec<&'static str>,
    },
    /// A layout editor: the board's size and the pieces a cell may hold; the value is run-length rows.
    Layout {
        width: u8,
        height: u8,
        pieces: &'static [LayoutPiece],
        default: &'static str,
    },
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
struct ArmyPart {
    letter: char,
    kind: &'static str,
}

/// A module's setting in `lang`.
pub(crate) fn catalog_setting(module: &GameModule, s: &SettingDoc, lang: &str) -> CatalogSetting {
    let word = |english: &'static str| module.word(lang, english);
    let kind = match s.kind {
        SettingKind::Choice { options, default } => CatalogSettingKind::Choice {
            options: options
                .iter()
                .map(|o| SettingChoice {
                    value: o.value,
                    label: word(o.label),
                })
                .collect(),
            default,
        },
        SettingKind::Number { min, max, default } => CatalogSettingKind::Number { min, max, default },
        SettingKind::Army(a) => CatalogSettingKind::Army {
            parts: a
                .parts
                .iter()
                .map(|&(letter, kind)| ArmyPart { letter, kind })
                .collect(),
            min: a.min,
            max: a.max,
            same_as: a.same_as,
            clauses: a.clauses.iter().map(|c| word(c)).collect(),
        },
        SettingKind::Layout(l) => CatalogSettingKind::Layout {
            width: l.width,
            height: l.height,
            pieces: l.pieces,
            default: l.default,
        },
    };
    CatalogSetting {
        key: s.key,
        label: word(s.label),
        about: word(s.about),
        kind,
    }
}

/// A refused spec in one sentence, naming the game by its title and the setting by its label.
pub(crate) fn spec_sentence(registry: &Registry, e: &SpecError) -> String {
    let module = |name: &str| registry.entry(name).map(|e| e.module);
    match e {
        SpecError::Syntax { spec, reason } => {
            format!(
                "The game spec \u{201c}{spec}\u{201d} cannot be read: {}.",
                curly_quotes(reason)
            )
        }
        SpecError::UnknownGame { name, .. } => {
            let games: Vec<String> = registry
                .entries()
                .iter()
                .map(|e| format!("{} ({})", e.module.title, e.name))
                .collect();
            format!(
                "There is no game \u{201c}{name}\u{201d}; the games are {}.",
                games.join(", ")
            )
        }
        SpecError::UnknownSetting { game, key, .. } => {
            let Some(m) = module(game) else {
                return curly_quotes(&e.to_string());
            };
            let known: Vec<String> = m
                .settings
                .iter()
                .map(|s| format!("{} ({})", s.label, s.key))
                .collect();
            let list = if known.is_empty() {
                "it has none".to_owned()
            } else {
                format!("its settings are {}", known.join(", "))
            };
            format!("{} has no setting \u{201c}{key}\u{201d}: {list}.", m.title)
        }
        SpecError::BadValue {
            game,
            key,
            value,
            expected,
        } => {
            let Some((m, s)) =
                module(game).and_then(|m| m.settings.iter().find(|s| s.key == key).map(|s| (m, s)))
            else {
                return curly_quotes(&e.to_string());
            };
            let what = match s.kind {
                SettingKind::Choice { options, .. } => {
                    let words: Vec<String> = options
                        .iter()
                        .map(|o| format!("\u{201c}{}\u{201d}", o.value))
                        .collect();
                    format!("choose {}", words.join(" or "))
                }
                SettingKind::Number { min, max, .. } => format!("choose a whole number from {min} to {max}"),
                SettingKind::Army(_) | SettingKind::Layout(_) => {
                    format!("it needs {}", curly_quotes(expected))
                }
            };
            format!(
                "{}: {} cannot be \u{201c}{value}\u{201d}; {what}.",
                m.title, s.label
            )
        }
    }
}

/// A message's code quotes (`` `z9` ``) as the quotation marks of a sentence (“z9”).
pub(crate) fn curly_quotes(text: &str) -> String {
    let mut open = true;
    text.chars()
        .map(|c| {
            if c == '`' {
                let q = if open { '\u{201c}' } else { '\u{201d}' };
                open = !open;
                q
            } else {
                c
            }
        })
        .collect()
}

/// A game spec from a client, parsed and built by the registry.
pub(crate) fn build_spec(state: &AppState, spec: &str) -> ApiResult<Box<dyn gridplay_core::DynGame>> {
    if spec.len() > 200 {
        return Err(ApiError::bad_request(
            ErrorCode::BadSpec,
            "a game spec has at most 200 characters",
        ));
    }
    let refused = |e: SpecError| ApiError::bad_request(ErrorCode::BadSpec, spec_sentence(state.registry, &e));
    let parsed: GameSpec = spec.parse().map_err(refused)?;
    state.registry.build(&parsed).map_err(refused)
}

/// A game spec from a client, written back in canonical form, with the game's name.
pub(crate) fn check_spec(state: &AppState, spec: &str) -> ApiResult<(String, String)> {
    let game = build_spec(state, spec)?;
    Ok((game.spec().to_string(), game.info().name))
}

/// A spec to check.
#[derive(Debug, Deserialize, utoipa::ToSchema)]
pub(crate) struct CheckBody {
    spec: String,
}

/// A spec as it stands while a person edits it.
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub(crate) struct CheckedSpec {
    /// Whether a game can be made with it.
    ok: bool,
    /// The spec in canonical form, when it is good.
    spec: Option<String>,
    /// Why not, in a sentence.
    error: Option<String>,
    /// Each army setting: the army in force and, for each clause of the rule, whether it is met.
    armies: std::collections::BTreeMap<&'static str, gridplay_core::ArmyCheck>,
}

/// `POST /api/specs/check`: whether a spec makes a game, and each army setting clause by clause.
#[utoipa::path(post, path = "/specs/check", tag = "games", request_body = CheckBody,
    responses((status = 200, body = CheckedSpec, description = "The spec checked: good or not, and why"),
        (status = 400, body = ErrorBody, description = "Not a spec at all: too long, or no such game")))]
pub(crate) async fn check(
    State(state): State<AppState>,
    Json(body): Json<CheckBody>,
) -> ApiResult<Json<CheckedSpec>> {
    if body.spec.len() > 200 {
        return Err(ApiError::bad_request(
            ErrorCode::BadSpec,
            "a game spec has at most 200 characters",
        ));
    }
    let parsed: GameSpec = body
        .spec
        .parse()
        .map_err(|e| ApiError::bad_request(ErrorCode::BadSpec, spec_sentence(state.registry, &e)))?;
    let entry = state.registry.entry(parsed.name()).ok_or_else(|| {
        ApiError::bad_request(
            ErrorCode::BadSpec,
            spec_sentence(
                state.registry,
                &SpecError::UnknownGame {
                    name: parsed.name().to_owned(),
                    known: Vec::new(),
                },
            ),
        )
    })?;
    let armies = entry
        .module
        .settings
        .iter()
        .filter_map(|s| match s.kind {
            SettingKind::Army(a) => Some((s.key, (a.check)(&parsed, s.key))),
            _ => None,
        })
        .collect();
    let built = state.registry.build(&parsed);
    Ok(Json(CheckedSpec {
        ok: built.is_ok(),
        spec: built.as_ref().ok().map(|g| g.spec().to_string()),
        error: built.err().map(|e| spec_sentence(state.registry, &e)),
        armies,
    }))
}

#[cfg(test)]
mod tests {
    use super::curly_quotes;

    #[test]
    fn code_quotes_become_quotation_marks() {
        assert_eq!(
            curly_quotes("`z9` is not a square"),
            "\u{201c}z9\u{201d} is not a square"
        );
        assert_eq!(curly_quotes("no quotes"), "no quotes");
    }
}
