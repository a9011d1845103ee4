//! What several test files share: where the corpus is and which files it holds.

use std::path::{Path, PathBuf};

/// The corpus folder beside the repository.
pub fn corpus_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus/zrf")
}

/// Every `.zrf` file of the corpus, sorted, so that runs and failures are reproducible.
pub fn corpus_files() -> Vec<PathBuf> {
    let root = corpus_root();
    assert!(
        root.is_dir(),
        "the corpus is missing: expected {}",
        root.display()
    );
    let mut out = vec![];
    let mut stack = vec![root];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).expect("corpus folder") {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "zrf") {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}
