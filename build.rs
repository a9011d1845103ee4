//! Records which build this is, for the fingerprint of a run (`dagaz build`): the git commit the binary was
//! built from, with `-dirty-` and a hash of the uncommitted changes to tracked files when there are any. Without
//! git (a source archive) it records nothing and the binary hashes itself at run time
//! (`tournament::config::build_id`).

use std::process::Command;

fn git(args: &[&str]) -> Option<String> {
    let out = Command::new("git").args(args).output().ok()?;
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

fn main() {
    // Run again when the commit moves or a tracked file changes.
    println!("cargo:rerun-if-changed=build.rs");
    for p in ["src", "Cargo.toml", "Cargo.lock", "games", "bots"] {
        println!("cargo:rerun-if-changed={p}");
    }
    let mut id = String::new();
    if let Some(commit) = git(&["rev-parse", "HEAD"]) {
        // Only files that exist: a missing one would make cargo run this again (and rebuild) every time.
        let mut watch = vec!["HEAD".to_string(), "packed-refs".to_string()];
        watch.extend(git(&["symbolic-ref", "-q", "HEAD"]));
        for p in watch {
            if let Some(path) = git(&["rev-parse", "--git-path", &p]) {
                if std::path::Path::new(&path).exists() {
                    println!("cargo:rerun-if-changed={path}");
                }
            }
        }
        id = commit;
        let dirty = git(&["status", "--porcelain", "--untracked-files=no"]).unwrap_or_default();
        if !dirty.is_empty() {
            let diff = Command::new("git")
                .args(["diff", "HEAD"])
                .output()
                .map(|o| o.stdout)
                .unwrap_or_default();
            id = format!("{id}-dirty-{}", fnv1a(&diff));
        }
    }
    println!("cargo:rustc-env=DAGAZ_BUILD_COMMIT={id}");
}
