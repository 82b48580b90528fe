//! The app shell's modules joined into one: `app.js` and every module it imports statically (the words, the
//! socket, the catalog, the helpers) are served as one module under `app.js`'s name, so that a first visit
//! fetches one file for them instead of five. The import map sends each joined module's name to that file,
//! which exports what each of them exports: a page's own module, loaded apart, imports `./util.js` and gets
//! the same instance.
//!
//! The join is plain concatenation, checked rather than rewritten, so it holds only for modules that keep
//! to a few rules, and it is refused (each module then served alone) otherwise:
//! - the modules are in one folder, and none imports a joined module under another name, by default or as a
//!   namespace, or re-exports from another module;
//! - no two declare the same top-level name or export the same name, and no module reads as a global a name
//!   that another declares at its top level;
//! - the imports from outside the group are gathered at the top, each local name bound once.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use oxc_ast::ast::Statement;
use oxc_span::GetSpan;
use oxc_syntax::module_record::{ExportExportName, ExportLocalName, ImportImportName};

/// The modules to join, in the order a browser evaluates them: `entry` and the modules it imports
/// statically, dependencies first (depth first, in the order of the imports). `imports` gives each module's
/// static imports in source order, as paths under `web/`.
pub(crate) fn evaluation_order(entry: &str, imports: &HashMap<String, Vec<String>>) -> Vec<String> {
    fn visit(
        m: &str,
        imports: &HashMap<String, Vec<String>>,
        seen: &mut BTreeSet<String>,
        out: &mut Vec<String>,
    ) {
        if !seen.insert(m.to_owned()) {
            return;
        }
        for d in imports.get(m).into_iter().flatten() {
            visit(d, imports, seen, out);
        }
        out.push(m.to_owned());
    }
    let mut out = Vec::new();
    visit(entry, imports, &mut BTreeSet::new(), &mut out);
    out
}

/// A relative specifier from a module in `dir`, as a path under `web/`.
pub(crate) fn resolve(dir: &str, spec: &str) -> String {
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

/// One module's parts, read once.
struct Part {
    path: String,
    /// The module's statements without its imports and exports (`export` taken off its declarations).
    body: String,
    /// Top-level names it declares (imports excluded).
    declared: BTreeSet<String>,
    /// Names it reads that are bound nowhere in it (globals).
    globals: BTreeSet<String>,
    /// Exported name → local name.
    exports: BTreeMap<String, String>,
    /// Imports from outside the group: (source path, imported name, local name).
    outside: Vec<(String, String, String)>,
    /// Imports from inside the group: (source path, name).
    inside: Vec<(String, String)>,
}

/// The modules `order` (paths under `web/` with their sources) joined into one module's source, or why they
/// cannot be.
pub(crate) fn join(order: &[(String, String)]) -> Result<String, String> {
    let members: BTreeSet<&str> = order.iter().map(|(p, _)| p.as_str()).collect();
    let dir_of = |p: &str| p.rsplit_once('/').map_or(String::new(), |(d, _)| d.to_owned());
    let dir = order.first().map(|(p, _)| dir_of(p)).unwrap_or_default();
    let mut parts = Vec::new();
    for (path, source) in order {
        if dir_of(path) != dir {
            return Err(format!("{path} is not in the folder of the others"));
        }
        parts.push(read(path, source, &members)?);
    }
    // Each name declared once, each export once, and no module's global taken by another's declaration.
    let mut declared_by: BTreeMap<&str, &str> = BTreeMap::new();
    let mut exported_by: BTreeMap<&str, &str> = BTreeMap::new();
    for p in &parts {
        for n in &p.declared {
            if let Some(other) = declared_by.insert(n, &p.path) {
                return Err(format!("{n} is declared by both {other} and {}", p.path));
            }
        }
        for n in p.exports.keys() {
            if let Some(other) = exported_by.insert(n, &p.path) {
                return Err(format!("{n} is exported by both {other} and {}", p.path));
            }
        }
    }
    for p in &parts {
        for g in &p.globals {
            if let Some(other) = declared_by.get(g.as_str()) {
                return Err(format!("{} reads the global {g}, which {other} declares", p.path));
            }
        }
        for (src, name) in &p.inside {
            let Some(q) = parts.iter().find(|q| &q.path == src) else {
                return Err(format!("{} imports {src}, which is not joined", p.path));
            };
            if q.exports.get(name) != Some(name) {
                return Err(format!(
                    "{} imports {name}, which {src} does not export under its own name",
                    p.path
                ));
            }
        }
    }
    // The imports from outside, one binding a local name.
    let mut outside: BTreeMap<String, (String, String)> = BTreeMap::new();
    for p in &parts {
        for (src, imported, local) in &p.outside {
            if declared_by.contains_key(local.as_str()) {
                return Err(format!(
                    "{} imports {local}, which another module declares",
                    p.path
                ));
            }
            if let Some(before) = outside.insert(local.clone(), (src.clone(), imported.clone()))
                && before != (src.clone(), imported.clone())
            {
                return Err(format!("{local} is imported from two places"));
            }
        }
    }
    let mut by_source: BTreeMap<&str, Vec<String>> = BTreeMap::new();
    for (local, (src, imported)) in &outside {
        by_source.entry(src).or_default().push(if imported == local {
            local.clone()
        } else {
            format!("{imported} as {local}")
        });
    }
    let mut out = String::new();
    for (src, names) in by_source {
        let file = src.rsplit_once('/').map_or(src, |(_, f)| f);
        let spec = if dir.is_empty() {
            format!("./{src}")
        } else if src.starts_with(&format!("{dir}/")) {
            format!("./{file}")
        } else {
            return Err(format!("{src} is imported from outside the folder"));
        };
        out.push_str(&format!("import {{ {} }} from '{spec}';\n", names.join(", ")));
    }
    for p in &parts {
        out.push_str(&p.body);
    }
    let exports: Vec<String> = parts
        .iter()
        .flat_map(|p| p.exports.iter())
        .map(|(name, local)| {
            if name == local {
                name.clone()
            } else {
                format!("{local} as {name}")
            }
        })
        .collect();
    out.push_str(&format!("export {{ {} }};\n", exports.join(", ")));
    check(&out)?;
    Ok(out)
}

fn read(path: &str, source: &str, members: &BTreeSet<&str>) -> Result<Part, String> {
    let allocator = oxc_allocator::Allocator::default();
    let parsed = oxc_parser::Parser::new(&allocator, source, oxc_span::SourceType::mjs()).parse();
    if parsed.panicked || !parsed.diagnostics.is_empty() {
        return Err(format!("{path} does not parse"));
    }
    let record = &parsed.module_record;
    let dir = path.rsplit_once('/').map_or("", |(d, _)| d);
    if !record.indirect_export_entries.is_empty() || !record.star_export_entries.is_empty() {
        return Err(format!("{path} re-exports from another module"));
    }
    let mut outside = Vec::new();
    let mut inside = Vec::new();
    for e in &record.import_entries {
        let spec = e.module_request.name.as_str();
        if !(spec.starts_with("./") || spec.starts_with("../")) {
            return Err(format!("{path} imports {spec}, which is not a file of the site"));
        }
        let src = resolve(dir, spec);
        let ImportImportName::Name(imported) = &e.import_name else {
            return Err(format!("{path} imports {spec} by default or as a namespace"));
        };
        let (imported, local) = (imported.name.to_string(), e.local_name.name.to_string());
        if members.contains(src.as_str()) {
            if imported != local {
                return Err(format!("{path} renames {imported} from {spec}"));
            }
            inside.push((src, imported));
        } else {
            outside.push((src, imported, local));
        }
    }
    let mut exports = BTreeMap::new();
    for e in &record.local_export_entries {
        let (ExportExportName::Name(name), ExportLocalName::Name(local)) = (&e.export_name, &e.local_name)
        else {
            return Err(format!("{path} has a default export"));
        };
        exports.insert(name.name.to_string(), local.name.to_string());
    }
    let mut body = String::new();
    for s in &parsed.program.body {
        let span = match s {
            Statement::ImportDeclaration(_) | Statement::ExportNamedDeclaration(_) => continue,
            Statement::ExportDeclaration(d) => d.declaration.span(),
            Statement::ExportDefaultDeclaration(_)
            | Statement::ExportAllDeclaration(_)
            | Statement::ExportFromDeclaration(_) => {
                return Err(format!("{path} exports in a way the join does not take"));
            }
            other => other.span(),
        };
        body.push_str(&source[span.start as usize..span.end as usize]);
        body.push_str(";\n");
    }
    let semantic = oxc_semantic::SemanticBuilder::new()
        .build(&parsed.program)
        .semantic;
    let scoping = semantic.scoping();
    let imported: BTreeSet<String> = record
        .import_entries
        .iter()
        .map(|e| e.local_name.name.to_string())
        .collect();
    let declared = scoping
        .get_bindings(scoping.root_scope_id())
        .keys()
        .map(|k| k.to_string())
        .filter(|k| !imported.contains(k))
        .collect();
    let globals = scoping
        .root_unresolved_references()
        .keys()
        .map(|k| k.to_string())
        .collect();
    Ok(Part {
        path: path.to_owned(),
        body,
        declared,
        globals,
        exports,
        outside,
        inside,
    })
}

/// The joined module parses and declares no name twice.
fn check(source: &str) -> Result<(), String> {
    let allocator = oxc_allocator::Allocator::default();
    let parsed = oxc_parser::Parser::new(&allocator, source, oxc_span::SourceType::mjs()).parse();
    if parsed.panicked || !parsed.diagnostics.is_empty() {
        return Err(format!(
            "the joined module does not parse: {:?}",
            parsed.diagnostics
        ));
    }
    let errors = oxc_semantic::SemanticBuilder::new()
        .with_check_syntax_error(true)
        .build(&parsed.program)
        .diagnostics;
    if errors.is_empty() {
        Ok(())
    } else {
        Err(format!("the joined module is not valid: {errors:?}"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn files(list: &[(&str, &str)]) -> Vec<(String, String)> {
        list.iter()
            .map(|(p, s)| ((*p).to_owned(), (*s).to_owned()))
            .collect()
    }

    #[test]
    fn modules_are_joined_with_their_exports_and_the_imports_from_outside() {
        let joined = join(&files(&[
            ("util.js", "import { t } from './i18n.js';\nexport function h(x) { return t(x); }\nconst k = 2\nexport { k };"),
            ("app.js", "import { h } from './util.js';\nimport { t as say } from './i18n.js';\n[1].map(h)\nexport const go = () => say(h('x'));\nconst later = () => import('./lobby.js');"),
        ]))
        .expect("joined");
        assert!(
            joined.starts_with("import { t, t as say } from './i18n.js';\n")
                || joined.starts_with("import { say, t } from './i18n.js';\n")
                || joined.contains("from './i18n.js'"),
            "{joined}"
        );
        assert!(
            joined.contains("function h(x)") && !joined.contains("export function"),
            "{joined}"
        );
        assert!(joined.contains("export { h, k, go };"), "{joined}");
        assert!(joined.contains("import('./lobby.js')"), "{joined}");
        assert!(!joined.contains("from './util.js'"), "{joined}");
    }

    #[test]
    fn what_a_plain_join_would_change_is_refused() {
        let refused = |list: &[(&str, &str)], why: &str| {
            let e = join(&files(list)).expect_err(why);
            assert!(e.contains(why), "{e}");
        };
        refused(
            &[("a.js", "const x = 1;"), ("b.js", "let x = 2;")],
            "x is declared by both a.js and b.js",
        );
        refused(
            &[
                ("a.js", "const name = 1;"),
                ("b.js", "export const n = () => name;"),
            ],
            "b.js reads the global name, which a.js declares",
        );
        refused(
            &[
                ("a.js", "export const x = 1;"),
                ("b.js", "import { x as y } from './a.js'; y;"),
            ],
            "b.js renames x",
        );
        refused(
            &[("a.js", "export default 1;"), ("b.js", "1;")],
            "a.js has a default export",
        );
        refused(
            &[("a.js", "export * from './c.js';"), ("b.js", "1;")],
            "a.js re-exports",
        );
        refused(
            &[("a.js", "import * as c from './c.js'; c;"), ("b.js", "1;")],
            "a.js imports ./c.js by default or as a namespace",
        );
        refused(
            &[
                ("a.js", "export const x = 1;"),
                ("b.js", "const y = 1; export { y as x };"),
            ],
            "x is exported by both",
        );
        refused(
            &[("a.js", "1;"), ("sub/b.js", "1;")],
            "sub/b.js is not in the folder",
        );
        refused(
            &[
                ("a.js", "import { x } from './c.js'; x;"),
                ("b.js", "import { y as x } from './c.js'; x;"),
            ],
            "x is imported from two places",
        );
    }

    #[test]
    fn the_order_is_the_browsers() {
        let imports: HashMap<String, Vec<String>> = [
            ("app.js", vec!["util.js", "i18n.js", "live.js"]),
            ("util.js", vec!["i18n.js"]),
            ("i18n.js", vec![]),
            ("live.js", vec![]),
        ]
        .into_iter()
        .map(|(k, v)| (k.to_owned(), v.into_iter().map(str::to_owned).collect()))
        .collect();
        assert_eq!(
            evaluation_order("app.js", &imports),
            ["i18n.js", "util.js", "live.js", "app.js"]
        );
    }
}
