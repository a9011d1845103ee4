//! `build_commit!()`: the git commit the crate that calls it is built from, as a string literal, with
//! `-dirty-` and a hash of the uncommitted changes to tracked files when there are any; `""` without git (a
//! source archive: the binary then hashes itself at run time, `dagaz::tournament::shards::build_id`).
//!
//! Why a macro and not the build script it replaces: a build script's output is an input of every target of
//! its package, so a stamp written by one made each commit rebuild the whole library and relink every test
//! binary. The macro is expanded only where it is called (the `dagaz` binary, the Python module), and its
//! expansion names the files it read (`include_bytes!`) so that the compiler's dependency list, which cargo
//! checks, holds them: a commit (git's `HEAD`, the branch's ref, `packed-refs`) or an edit of a tracked file
//! of `games/`, `bots/`, `Cargo.toml` or `Cargo.lock` recompiles that one caller; an edit under `src/`
//! recompiles the library and so the caller. These are the paths the build script watched.

use proc_macro::TokenStream;
use std::path::{Path, PathBuf};
use std::process::Command;

/// Paths besides `src/` whose tracked files are watched, relative to the top of the repository.
const WATCHED: [&str; 4] = ["games", "bots", "Cargo.toml", "Cargo.lock"];

fn git(dir: &Path, args: &[&str]) -> Option<String> {
    let out = Command::new("git")
        .current_dir(dir)
        .args(args)
        .output()
        .ok()?;
    if !out.status.success() {
        return None;
    }
    Some(String::from_utf8_lossy(&out.stdout).trim().to_string())
}

/// FNV-1a, 64 bits, as hex.
fn fnv1a(bytes: &[u8]) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= b as u64;
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    format!("{h:016x}")
}

/// The stamp, and the files it depends on (absolute paths of files that exist).
fn stamp(dir: &Path) -> (String, Vec<PathBuf>) {
    let Some(commit) = git(dir, &["rev-parse", "HEAD"]) else {
        return (String::new(), vec![]);
    };
    let mut watch = vec![];
    let mut refs = vec!["HEAD".to_string(), "packed-refs".to_string()];
    refs.extend(git(dir, &["symbolic-ref", "-q", "HEAD"]));
    for r in refs {
        if let Some(p) = git(dir, &["rev-parse", "--git-path", &r]) {
            // Relative to `dir` when git answers with a relative path.
            watch.push(dir.join(p));
        }
    }
    if let Some(top) = git(dir, &["rev-parse", "--show-toplevel"]) {
        let top = PathBuf::from(top);
        let mut args = vec!["ls-files", "-z", "--"];
        args.extend(WATCHED);
        if let Some(files) = git(&top, &args) {
            watch.extend(
                files
                    .split('\0')
                    .filter(|f| !f.is_empty())
                    .map(|f| top.join(f)),
            );
        }
    }
    // Only files that exist: `include_bytes!` of a missing one is an error (a deleted tracked file shows in
    // the stamp's hash below).
    watch.retain(|p| p.is_file());
    let mut id = commit;
    let dirty = git(dir, &["status", "--porcelain", "--untracked-files=no"]).unwrap_or_default();
    if !dirty.is_empty() {
        let diff = Command::new("git")
            .current_dir(dir)
            .args(["diff", "HEAD"])
            .output()
            .map(|o| o.stdout)
            .unwrap_or_default();
        id = format!("{id}-dirty-{}", fnv1a(&diff));
    }
    (id, watch)
}

/// `build_commit!()`: see the crate's documentation.
#[proc_macro]
pub fn build_commit(_input: TokenStream) -> TokenStream {
    let dir = std::env::var_os("CARGO_MANIFEST_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("."));
    let (id, watch) = stamp(&dir);
    let mut code = String::from("{");
    for p in &watch {
        // Read for the dependency list only; an unused constant is not kept in the binary.
        code.push_str(&format!(
            "const _: &[u8] = include_bytes!({:?});",
            p.to_string_lossy()
        ));
    }
    code.push_str(&format!("{id:?}}}"));
    code.parse()
        .unwrap_or_else(|_| "\"\"".parse().expect("a literal"))
}
