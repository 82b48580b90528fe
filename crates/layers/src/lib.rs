//! The module graph of a crate, read from its source: which module uses which, through `crate::` and
//! `super::` paths (in `use` declarations, grouped or not, and anywhere in the code), comments and string
//! literals aside. `tests/workspace.rs` holds every crate of the workspace to its layers with it.
//!
//! A module is named by its path from the crate's root (`["game", "live"]`); a reference by the first two
//! segments of the path it names (`crate::game::live::GameHub` is `["game", "live"]`).

#![forbid(unsafe_code)]

use std::{
    collections::{BTreeMap, BTreeSet},
    path::{Path, PathBuf},
};

/// One use of a module (or of an item of the root) by another module.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Reference {
    /// The using module's path from the root (empty for the root itself).
    pub from: Vec<String>,
    /// The first (at most two) segments of what it names, from the root.
    pub to: Vec<String>,
    /// The file that says it.
    pub file: PathBuf,
}

/// Every `.rs` file under `src` and the module path it holds.
fn modules(src: &Path) -> Vec<(PathBuf, Vec<String>)> {
    let mut out = Vec::new();
    let mut dirs = vec![src.to_path_buf()];
    while let Some(dir) = dirs.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for e in entries.flatten() {
            let path = e.path();
            if path.is_dir() {
                dirs.push(path);
            } else if path.extension().is_some_and(|x| x == "rs") {
                let rel = path.strip_prefix(src).unwrap_or(&path);
                let mut parts: Vec<String> = rel
                    .components()
                    .map(|c| c.as_os_str().to_string_lossy().into_owned())
                    .collect();
                if let Some(last) = parts.last_mut() {
                    *last = last.trim_end_matches(".rs").to_owned();
                }
                if matches!(parts.last().map(String::as_str), Some("mod")) {
                    parts.pop();
                }
                if parts.len() == 1 && matches!(parts[0].as_str(), "lib" | "main") {
                    parts.clear();
                }
                out.push((path, parts));
            }
        }
    }
    out.sort();
    out
}

/// The code of a file with its comments and the insides of its string and character literals blanked.
#[must_use]
pub fn code_only(text: &str) -> String {
    let b = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < b.len() {
        if b[i..].starts_with(b"//") {
            while i < b.len() && b[i] != b'\n' {
                i += 1;
            }
        } else if b[i..].starts_with(b"/*") {
            let mut depth = 0;
            while i < b.len() {
                if b[i..].starts_with(b"/*") {
                    depth += 1;
                    i += 2;
                } else if b[i..].starts_with(b"*/") {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    i += 1;
                }
            }
            out.push(' ');
        } else if b[i] == b'r'
            && (b.get(i + 1) == Some(&b'"') || b.get(i + 1) == Some(&b'#'))
            && (i == 0 || !b[i - 1].is_ascii_alphanumeric() && b[i - 1] != b'_')
        {
            // A raw string: r"…", r#"…"#.
            let mut j = i + 1;
            let mut hashes = 0;
            while b.get(j) == Some(&b'#') {
                hashes += 1;
                j += 1;
            }
            if b.get(j) != Some(&b'"') {
                out.push('r');
                i += 1;
                continue;
            }
            let close: Vec<u8> = std::iter::once(b'"')
                .chain(std::iter::repeat_n(b'#', hashes))
                .collect();
            j += 1;
            while j < b.len() && !b[j..].starts_with(&close) {
                j += 1;
            }
            i = j + close.len();
            out.push_str("\"\"");
        } else if b[i] == b'"' {
            i += 1;
            while i < b.len() && b[i] != b'"' {
                i += if b[i] == b'\\' { 2 } else { 1 };
            }
            i += 1;
            out.push_str("\"\"");
        } else if b[i] == b'\'' && (b.get(i + 2) == Some(&b'\'') || b.get(i + 1) == Some(&b'\\')) {
            // A character literal ('x', '\n', '\''); a lifetime has no closing quote.
            let mut j = i + 1;
            if b.get(j) == Some(&b'\\') {
                j += 2;
                while j < b.len() && b[j] != b'\'' {
                    j += 1;
                }
            } else {
                j += 1;
            }
            i = j + 1;
            out.push_str("' '");
        } else {
            let ch = text[i..].chars().next().unwrap_or(' ');
            out.push(ch);
            i += ch.len_utf8();
        }
    }
    out
}

fn ident_at(s: &[u8], i: usize) -> Option<(String, usize)> {
    let start = i;
    let mut j = i;
    while j < s.len() && (s[j].is_ascii_alphanumeric() || s[j] == b'_') {
        j += 1;
    }
    (j > start).then(|| (String::from_utf8_lossy(&s[start..j]).into_owned(), j))
}

/// A group's item after the group's prefix (`self` names the prefix itself).
fn joined(prefix: &[String], item: Vec<String>) -> Vec<String> {
    if item.first().map(String::as_str) == Some("self") {
        return prefix.to_vec();
    }
    prefix.iter().cloned().chain(item).collect()
}

/// The paths a `crate::` or `super::` chain starting at `i` names: each as its segments after the anchor,
/// at most two deep; a `{…}` group gives several.
fn paths_at(s: &[u8], mut i: usize) -> Vec<Vec<String>> {
    let mut prefix = Vec::new();
    loop {
        while i < s.len() && s[i].is_ascii_whitespace() {
            i += 1;
        }
        if i < s.len() && s[i] == b'{' {
            // A group: each item at depth one is a path from here.
            let mut out = Vec::new();
            let mut depth = 0;
            let mut item_start = i + 1;
            let mut j = i;
            while j < s.len() {
                match s[j] {
                    b'{' => depth += 1,
                    b'}' => {
                        depth -= 1;
                        if depth == 0 {
                            break;
                        }
                    }
                    b',' if depth == 1 => {
                        for p in paths_at(s, item_start) {
                            out.push(joined(&prefix, p));
                        }
                        item_start = j + 1;
                    }
                    _ => {}
                }
                j += 1;
            }
            for p in paths_at(s, item_start) {
                out.push(joined(&prefix, p));
            }
            return out
                .into_iter()
                .map(|mut p: Vec<String>| {
                    p.truncate(2);
                    p
                })
                .collect();
        }
        let Some((word, j)) = ident_at(s, i) else {
            return if prefix.is_empty() {
                Vec::new()
            } else {
                vec![prefix]
            };
        };
        if word == "self" && !prefix.is_empty() {
            return vec![prefix];
        }
        prefix.push(word);
        i = j;
        if prefix.len() >= 2 || !s[i..].starts_with(b"::") {
            prefix.truncate(2);
            return vec![prefix];
        }
        i += 2;
    }
}

/// Every reference from a module of the crate at `src` to another module or to the root.
#[must_use]
pub fn references(src: &Path) -> Vec<Reference> {
    let mut out = BTreeSet::new();
    for (file, module) in modules(src) {
        let Ok(text) = std::fs::read_to_string(&file) else {
            continue;
        };
        let code = code_only(&text);
        let s = code.as_bytes();
        let mut i = 0;
        while i < s.len() {
            let at_word =
                i == 0 || !(s[i - 1].is_ascii_alphanumeric() || s[i - 1] == b'_' || s[i - 1] == b':');
            if at_word && s[i..].starts_with(b"crate::") {
                for p in paths_at(s, i + "crate::".len()) {
                    out.insert((module.clone(), p, file.clone()));
                }
                i += "crate::".len();
            } else if at_word && s[i..].starts_with(b"super::") {
                // `super::` (repeated) climbs from the module; a file's own module is its parent's child.
                let mut base = module.clone();
                let mut j = i;
                while s[j..].starts_with(b"super::") {
                    base.pop();
                    j += "super::".len();
                }
                for p in paths_at(s, j) {
                    let mut to = base.clone();
                    to.extend(p);
                    to.truncate(2);
                    out.insert((module.clone(), to, file.clone()));
                }
                i = j;
            } else {
                i += 1;
            }
        }
    }
    out.into_iter()
        .map(|(from, to, file)| Reference { from, to, file })
        .collect()
}

/// The crate's top-level modules.
#[must_use]
pub fn top_modules(src: &Path) -> BTreeSet<String> {
    modules(src)
        .into_iter()
        .filter_map(|(_, m)| m.first().cloned())
        .collect()
}

/// The edges between distinct modules at one level: top-level modules (`within: None`), or the children of
/// one top-level module. Each edge with a file that makes it.
#[must_use]
pub fn edges(refs: &[Reference], within: Option<&str>) -> BTreeMap<(String, String), PathBuf> {
    let mut out = BTreeMap::new();
    for r in refs {
        let (from, to) = match within {
            None => (r.from.first(), r.to.first()),
            Some(top) => {
                if r.from.first().map(String::as_str) != Some(top)
                    || r.to.first().map(String::as_str) != Some(top)
                {
                    continue;
                }
                (r.from.get(1), r.to.get(1))
            }
        };
        if let (Some(a), Some(b)) = (from, to)
            && a != b
        {
            out.entry((a.clone(), b.clone()))
                .or_insert_with(|| r.file.clone());
        }
    }
    out
}

/// The circles among `edges`: each strongly connected group of more than one module, sorted.
#[must_use]
pub fn cycles(edges: &BTreeMap<(String, String), PathBuf>) -> Vec<Vec<String>> {
    let nodes: BTreeSet<&String> = edges.keys().flat_map(|(a, b)| [a, b]).collect();
    let reach = |from: &String| {
        let mut seen = BTreeSet::new();
        let mut stack = vec![from];
        while let Some(n) = stack.pop() {
            for (a, b) in edges.keys() {
                if a == n && seen.insert(b) {
                    stack.push(b);
                }
            }
        }
        seen
    };
    let reachable: BTreeMap<&String, BTreeSet<&String>> = nodes.iter().map(|n| (*n, reach(n))).collect();
    let mut groups = BTreeSet::new();
    for n in &nodes {
        let group: Vec<String> = nodes
            .iter()
            .filter(|m| *m == n || (reachable[n].contains(*m) && reachable[*m].contains(*n)))
            .map(|m| (*m).clone())
            .collect();
        if group.len() > 1 {
            groups.insert(group);
        }
    }
    groups.into_iter().collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_are_read_from_groups_chains_and_super() {
        let s = b"{game::{self, live::GameHub}, web, db::User}";
        assert_eq!(
            paths_at(s, 0),
            [
                vec!["game".to_owned()],
                vec!["game".into(), "live".into()],
                vec!["web".into()],
                vec!["db".into(), "User".into()]
            ]
        );
        assert_eq!(
            paths_at(b"game::live::GameHub::new()", 0),
            [vec!["game".to_owned(), "live".into()]]
        );
        assert_eq!(paths_at(b"AppState;", 0), [vec!["AppState".to_owned()]]);
    }

    #[test]
    fn comments_and_strings_say_nothing() {
        let code =
            code_only("let a = \"crate::web\"; // crate::web\n/* crate::web */ let c = '\"'; crate::db::x");
        assert!(!code.contains("crate::web"), "{code}");
        assert!(code.contains("crate::db::x"), "{code}");
        let raw = code_only("let r = r#\"crate::web \"# ; crate::db");
        assert!(!raw.contains("crate::web") && raw.contains("crate::db"), "{raw}");
    }

    #[test]
    fn a_circle_is_found_and_a_line_is_not() {
        let e = |pairs: &[(&str, &str)]| -> BTreeMap<(String, String), PathBuf> {
            pairs
                .iter()
                .map(|(a, b)| (((*a).to_owned(), (*b).to_owned()), PathBuf::new()))
                .collect()
        };
        assert_eq!(
            cycles(&e(&[("a", "b"), ("b", "c"), ("c", "a"), ("c", "d")])),
            [vec!["a", "b", "c"]]
        );
        assert!(cycles(&e(&[("a", "b"), ("b", "c"), ("a", "c")])).is_empty());
    }
}
