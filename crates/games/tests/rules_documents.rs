//! The rules pages are written for players: every game has its rules document in each language the site
//! offers, each places every one of the game's examples once (`[try: ID]` on a line of its own, beside the
//! rule it shows) and names no example the game lacks, and none speaks of the project's specification:
//! seeds, rulings, tests, perft counts, code or implementation notes (those are in `docs/rules/`).

use std::collections::BTreeMap;

use gridplay_games::registry_with_test_games;

const LANGUAGES: &[&str] = &["en", "ja"];

/// Words of the developers' specification that a player's document never uses.
const DEVELOPER_WORDS: &[&str] = &[
    "seed",
    "ruling",
    "test",
    "perft",
    "crates/",
    ".rs",
    "implementation",
    "bitboard",
    "could not be recovered",
    "spec ",
    "テスト",
    "シード",
    "実装",
];

fn placed(markdown: &str) -> Vec<&str> {
    markdown
        .lines()
        .filter_map(|l| l.trim().strip_prefix("[try: ")?.strip_suffix(']'))
        .collect()
}

#[test]
fn every_rules_document_places_each_example_once_and_speaks_to_players() {
    let registry = registry_with_test_games();
    let mut faults = Vec::new();
    for entry in registry.entries() {
        let module = entry.module;
        for language in LANGUAGES {
            let Some(doc) = module.rules.iter().find(|d| d.language == *language) else {
                faults.push(format!("{}: no rules document in {language}", entry.name));
                continue;
            };
            let mut counts: BTreeMap<&str, usize> = module.examples.iter().map(|x| (x.id, 0)).collect();
            for id in placed(doc.markdown) {
                match counts.get_mut(id) {
                    Some(n) => *n += 1,
                    None => faults.push(format!(
                        "{} ({language}): [try: {id}] names no example",
                        entry.name
                    )),
                }
            }
            for (id, n) in counts {
                if n != 1 {
                    faults.push(format!(
                        "{} ({language}): example {id} is placed {n} times",
                        entry.name
                    ));
                }
            }
            let lower = doc.markdown.to_lowercase();
            for word in DEVELOPER_WORDS {
                if lower.contains(word) {
                    faults.push(format!(
                        "{} ({language}): the document says \"{word}\"",
                        entry.name
                    ));
                }
            }
        }
    }
    assert!(faults.is_empty(), "{}", faults.join("\n"));
}

#[test]
fn example_ids_are_unique_within_a_game() {
    for entry in registry_with_test_games().entries() {
        let mut ids: Vec<&str> = entry.module.examples.iter().map(|x| x.id).collect();
        ids.sort_unstable();
        let before = ids.len();
        ids.dedup();
        assert_eq!(ids.len(), before, "{}: two examples share an id", entry.name);
    }
}
