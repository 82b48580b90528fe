//! Every text a game module shows people has a translation in every language the platform offers besides
//! English, and every module has its rules document in each. The words of the board views (side names, piece
//! kinds, the keys and values of the view's information lines) are collected by playing random games.

use std::collections::BTreeSet;

use gridplay_games::registry_with_test_games;
use rand::RngExt;

/// The languages besides English.
const LANGUAGES: &[&str] = &["ja"];

/// Whether a text is words (to be translated) rather than a number, a score or a setting's value.
fn is_words(text: &str) -> bool {
    text.chars().any(|c| c.is_ascii_alphabetic())
}

#[test]
fn every_module_text_is_translated() {
    let registry = registry_with_test_games();
    let mut missing = Vec::new();
    for entry in registry.entries() {
        let module = entry.module;
        let game = registry.game(entry.name).expect("a registered game builds");
        let mut texts: BTreeSet<String> = module.texts().into_iter().map(str::to_owned).collect();
        texts.extend(game.info().sides.iter().map(|s| s.name.clone()));
        let mut rng = gridplay_core::playout::seeded(7);
        for _ in 0..12 {
            let mut pos = game.start();
            for _ in 0..400 {
                let view = pos.view();
                for cell in &view.cells {
                    if let Some(p) = &cell.piece {
                        texts.insert(p.kind.to_string());
                    }
                }
                for (k, v) in &view.info {
                    texts.insert(k.clone());
                    if is_words(v) {
                        texts.insert(v.clone());
                    }
                }
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                let m = &moves[rng.random_range(0..moves.len())];
                pos.play(m).expect("a legal move plays");
            }
        }
        for language in LANGUAGES {
            if !module.rules.iter().any(|d| d.language == *language) {
                missing.push(format!("{}: no rules document in {language}", entry.name));
            }
            let words = module.words(language);
            for text in &texts {
                if !words.iter().any(|(en, _)| en == text) {
                    missing.push(format!("{} ({language}): {text:?}", entry.name));
                }
            }
            for (en, there) in words {
                if there.trim().is_empty() {
                    missing.push(format!(
                        "{} ({language}): {en:?} is translated as nothing",
                        entry.name
                    ));
                }
            }
        }
    }
    assert!(
        missing.is_empty(),
        "texts without a translation:\n{}",
        missing.join("\n")
    );
}
