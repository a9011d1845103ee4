//! Deliberately broken files in `tests/broken/`: `dagaz check`'s rendering of their errors (file, line,
//! column, the source line, a caret, a hint) must match the `.expected` file beside each.
//! Run with `UPDATE_SNAPSHOTS=1` to rewrite the expected files after an intended change, and review the diff.

use dagaz::lang::diag::render_all;
use dagaz::load::{load, VariantSel};
use std::path::Path;

fn rendered(path: &Path) -> String {
    let l = load(path, &VariantSel::First);
    assert!(l.game.is_none(), "{} should not load", path.display());
    let text = render_all(&l.diagnostics, &l.file.sources);
    // Paths relative to the crate, so the snapshot does not depend on where the repository lives.
    text.replace(&format!("{}/", env!("CARGO_MANIFEST_DIR")), "")
}

#[test]
fn broken_files_render_their_errors() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/broken");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.retain(|p| p.extension().is_some_and(|x| x == "zrf"));
    files.sort();
    assert_eq!(files.len(), 5);
    let update = std::env::var_os("UPDATE_SNAPSHOTS").is_some();
    let mut mismatches = vec![];
    for f in &files {
        let got = rendered(
            &f.strip_prefix(env!("CARGO_MANIFEST_DIR"))
                .map(|p| Path::new(env!("CARGO_MANIFEST_DIR")).join(p))
                .unwrap(),
        );
        assert!(got.contains("error:"), "{}: no error rendered", f.display());
        assert!(got.contains(" ^"), "{}: no caret", f.display());
        let expected_path = f.with_extension("expected");
        if update {
            std::fs::write(&expected_path, &got).unwrap();
            continue;
        }
        let expected = std::fs::read_to_string(&expected_path).unwrap_or_default();
        if got != expected {
            mismatches.push(format!(
                "{}:\n--- expected\n{expected}\n--- got\n{got}",
                f.display()
            ));
        }
    }
    assert!(mismatches.is_empty(), "{}", mismatches.join("\n"));
}
