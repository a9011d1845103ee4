//! The layers of the source import one way: `extension` -> `engine` -> `compile` (issue 20). `compile` imports
//! neither `engine` nor `extension`, `engine` does not import `extension`; neither imports anything else of
//! the crate but `lang` (no `load`, `bot`, ... that would reach back). Scanned on the code outside comments and
//! test modules (tests may load games through `crate::load`).

use std::path::{Path, PathBuf};

/// Every `.rs` file under `dir`.
fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The module path of a source file below `src/` (`engine/run/emit.rs` -> `["engine", "run", "emit"]`).
fn module_path(rel: &Path) -> Vec<String> {
    let mut parts: Vec<String> = rel
        .iter()
        .map(|c| c.to_string_lossy().trim_end_matches(".rs").to_string())
        .collect();
    if parts.last().is_some_and(|p| p == "mod") {
        parts.pop();
    }
    parts
}

/// The code of a file without its test modules (from the first `#[cfg(test)]`) and without comments.
fn code_lines(text: &str) -> Vec<(usize, String)> {
    let mut out = vec![];
    for (i, line) in text.lines().enumerate() {
        if line.trim_start().starts_with("#[cfg(test)]") {
            break;
        }
        let code = match line.find("//") {
            Some(k) => &line[..k],
            None => line,
        };
        if !code.trim().is_empty() {
            out.push((i + 1, code.to_string()));
        }
    }
    out
}

/// The crate's top-level modules a line of code names: `crate::X`, `crate::{X, Y::..}`, and `super::` chains
/// that climb out of the file's folder to the crate root (`module` is the file's module path).
fn top_modules(code: &str, module: &[String]) -> Vec<String> {
    let mut found = vec![];
    let word = |s: &str| -> String {
        s.trim_start()
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect()
    };
    let mut rest = code;
    while let Some(k) = rest.find("crate::") {
        let after = &rest[k + "crate::".len()..];
        if let Some(group) = after.strip_prefix('{') {
            // Top-level names of the group, up to its closing brace (nested groups' names are not top-level).
            let mut depth = 0;
            let mut start = 0;
            let mut end = group.len();
            for (j, b) in group.bytes().enumerate() {
                match b {
                    b'{' => depth += 1,
                    b'}' if depth == 0 => {
                        end = j;
                        break;
                    }
                    b'}' => depth -= 1,
                    b',' if depth == 0 => {
                        found.push(word(&group[start..j]));
                        start = j + 1;
                    }
                    _ => {}
                }
            }
            found.push(word(&group[start..end]));
        } else {
            found.push(word(after));
        }
        rest = after;
    }
    // `super::super::x` from `engine/gen.rs` (module `engine::gen`) reaches the crate root.
    let mut rest = code;
    while let Some(k) = rest.find("super::") {
        // Only the start of a chain.
        let before = &rest[..k];
        let mut after = &rest[k..];
        let mut n = 0;
        while let Some(a) = after.strip_prefix("super::") {
            n += 1;
            after = a;
        }
        if !before.ends_with("::") && n >= module.len() {
            found.push(word(after));
        }
        rest = &rest[k + "super::".len() * n..];
    }
    found.retain(|w| !w.is_empty() && w != "self");
    found
}

/// The uses of top-level modules outside `allowed` in the code of `src/<folder>`.
fn violations(folder: &str, allowed: &[&str]) -> Vec<String> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = vec![];
    rust_files(&src.join(folder), &mut files);
    assert!(!files.is_empty(), "no source under src/{folder}");
    let mut bad = vec![];
    for f in files {
        let rel = f.strip_prefix(&src).unwrap();
        let module = module_path(rel);
        let text = std::fs::read_to_string(&f).unwrap();
        for (n, line) in code_lines(&text) {
            for m in top_modules(&line, &module) {
                if !allowed.contains(&m.as_str()) {
                    bad.push(format!(
                        "src/{}:{n}: imports `{m}`: {}",
                        rel.display(),
                        line.trim()
                    ));
                }
            }
        }
    }
    bad
}

#[test]
fn compile_imports_neither_engine_nor_extension() {
    let bad = violations("compile", &["compile", "lang"]);
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

#[test]
fn engine_does_not_import_extension() {
    let bad = violations("engine", &["compile", "engine", "lang"]);
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

/// The scanner itself finds what it must (so the tests above cannot pass by finding nothing).
#[test]
fn the_scanner_sees_imports_of_every_form() {
    let m = |p: &[&str]| p.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    let gen = m(&["engine", "gen"]);
    assert_eq!(
        top_modules("use crate::extension::Extension;", &gen),
        ["extension"]
    );
    assert_eq!(
        top_modules("use crate::{compile::Game, extension};", &gen),
        ["compile", "extension"]
    );
    assert_eq!(
        top_modules("use crate::{load::{a, b}, lang};", &gen),
        ["load", "lang"]
    );
    assert_eq!(
        top_modules("use super::super::extension::go;", &gen),
        ["extension"]
    );
    assert!(top_modules("use super::gen::parts;", &gen).is_empty());
    let emit = m(&["engine", "run", "emit"]);
    assert!(top_modules("use super::super::gen;", &emit).is_empty());
    assert_eq!(top_modules("use super::super::super::bot;", &emit), ["bot"]);
    assert_eq!(
        top_modules("let x = crate::engine::state::initial_attrs(g, k);", &gen),
        ["engine"]
    );
    assert_eq!(
        code_lines("a();\n// crate::extension\n#[cfg(test)]\nuse crate::load;").len(),
        1
    );
    // The real source: `engine` names `compile`, so a scan that found nothing would be wrong.
    let uses_compile = violations("engine", &["engine", "lang"]);
    assert!(uses_compile.iter().any(|v| v.contains("`compile`")));
}
