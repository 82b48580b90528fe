//! The workspace's modules in layers: in every crate no top-level modules use each other in a circle, and
//! neither do the modules inside any one of them; the server's top-level modules stand in the layers of
//! docs/ARCHITECTURE.md ("The server's layers"), none using one above it, and none using the crate's root,
//! which only wires them.

use std::path::{Path, PathBuf};

use gridplay_layers::{Reference, cycles, edges, references, top_modules};

/// The server's layers, from the bottom.
const SERVER_LAYERS: &[&[&str]] = &[
    &[
        "clock",
        "config",
        "ids",
        "tasks",
        "telemetry",
        "text",
        "transcript",
    ],
    &["db"],
    &["bus"],
    &["game"],
    &["web"],
];

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn crates() -> Vec<(String, PathBuf)> {
    let mut out: Vec<(String, PathBuf)> = std::fs::read_dir(workspace().join("crates"))
        .expect("the crates")
        .flatten()
        .filter(|e| e.path().join("src").is_dir())
        .map(|e| (e.file_name().to_string_lossy().into_owned(), e.path().join("src")))
        .collect();
    out.sort();
    out
}

#[test]
fn no_modules_use_each_other_in_a_circle_in_any_crate() {
    let mut faults = Vec::new();
    let mut seen = 0;
    for (name, src) in crates() {
        let refs = references(&src);
        seen += refs.len();
        for c in cycles(&edges(&refs, None)) {
            faults.push(format!(
                "{name}: top-level modules in a circle: {}",
                c.join(" → ")
            ));
        }
        {
            for top in top_modules(&src) {
                for c in cycles(&edges(&refs, Some(&top))) {
                    faults.push(format!(
                        "{name}: modules of `{top}` in a circle: {}",
                        c.join(" → ")
                    ));
                }
            }
        }
    }
    assert!(seen > 100, "the check read the workspace's references ({seen})");
    assert!(faults.is_empty(), "{}", faults.join("\n"));
}

#[test]
fn no_module_of_the_server_uses_one_above_it_or_the_root() {
    let src = workspace().join("crates/server/src");
    let tops = top_modules(&src);
    let rank = |m: &str| SERVER_LAYERS.iter().position(|layer| layer.contains(&m));
    for m in &tops {
        assert!(
            rank(m).is_some(),
            "the server's module `{m}` is in no layer: add it to SERVER_LAYERS and docs/ARCHITECTURE.md"
        );
    }
    let refs = references(&src);
    let mut faults = Vec::new();
    for Reference { from, to, file } in &refs {
        let (Some(a), Some(b)) = (from.first(), to.first()) else {
            continue;
        };
        if a == b {
            continue;
        }
        let file = file.strip_prefix(&src).unwrap_or(file).display();
        match (rank(a), rank(b)) {
            (Some(ra), Some(rb)) if rb > ra => {
                faults.push(format!("{file}: `{a}` uses `{b}`, a layer above it"));
            }
            (Some(_), None) => {
                faults.push(format!(
                    "{file}: `{a}` uses `crate::{b}` of the root, which only wires the layers"
                ));
            }
            _ => {}
        }
    }
    assert!(faults.is_empty(), "{}", faults.join("\n"));
}

/// The check sees what it must: a use of a module above, written each way the code writes one.
#[test]
fn the_check_finds_an_upward_use_written_any_way() {
    let dir = std::env::temp_dir().join(format!("gridplay-layers-{}", std::process::id()));
    let src = dir.join("src");
    std::fs::create_dir_all(src.join("game")).unwrap();
    std::fs::write(src.join("lib.rs"), "mod db;\nmod game;\npub struct Root;\n").unwrap();
    std::fs::write(
        src.join("db.rs"),
        "use crate::{\n    game::{self, live::Hub},\n};\n// crate::web in a comment\n",
    )
    .unwrap();
    std::fs::write(src.join("game/mod.rs"), "pub mod live;\n").unwrap();
    std::fs::write(
        src.join("game/live.rs"),
        "fn f() -> super::super::db::X { crate::Root }\n",
    )
    .unwrap();
    let refs = references(&src);
    let pairs: Vec<(Vec<String>, Vec<String>)> =
        refs.iter().map(|r| (r.from.clone(), r.to.clone())).collect();
    let v = |s: &[&str]| s.iter().map(|x| (*x).to_owned()).collect::<Vec<_>>();
    assert!(pairs.contains(&(v(&["db"]), v(&["game"]))), "{pairs:?}");
    assert!(pairs.contains(&(v(&["db"]), v(&["game", "live"]))), "{pairs:?}");
    assert!(
        pairs.contains(&(v(&["game", "live"]), v(&["db", "X"]))),
        "{pairs:?}"
    );
    assert!(pairs.contains(&(v(&["game", "live"]), v(&["Root"]))), "{pairs:?}");
    assert!(
        !pairs
            .iter()
            .any(|(_, to)| to.first().map(String::as_str) == Some("web")),
        "a comment is no use"
    );
    assert_eq!(cycles(&edges(&refs, None)), [v(&["db", "game"])]);
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
#[ignore = "prints the edges of one module, for a reader: NAME=crate/top cargo test -p gridplay-layers -- --ignored --nocapture"]
fn print_edges() {
    let spec = std::env::var("NAME").unwrap_or_else(|_| "server/game".into());
    let (krate, top) = spec.split_once('/').unwrap_or((&spec, ""));
    let src = workspace().join("crates").join(krate).join("src");
    let refs = references(&src);
    for ((a, b), file) in edges(&refs, (!top.is_empty()).then_some(top)) {
        println!(
            "{a} -> {b}  ({})",
            file.strip_prefix(&src).unwrap_or(&file).display()
        );
    }
}
