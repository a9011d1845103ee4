//! The tests' one way to write under the system's temporary folder: a [`Scratch`] folder, unique to the test
//! that made it, removed with everything in it when the guard is dropped, whether the test passed or failed
//! (a panic unwinds through the drop). Set `DAGAZ_KEEP_TEST_DIRS=1` to keep every scratch folder instead, for
//! looking at what a failing test wrote: each kept folder's path is then printed on standard error.
//!
//! A test file includes it with `#[path = "common/scratch.rs"] mod scratch;` (so that the files that do not are
//! not rebuilt when it changes); the library's unit tests include the same file (`src/lib.rs`).
#![allow(dead_code)]

use std::ffi::OsStr;
use std::ops::Deref;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

/// The variable that keeps the scratch folders (any value but empty or `0`).
pub const KEEP_VAR: &str = "DAGAZ_KEEP_TEST_DIRS";

/// Whether a value of [`KEEP_VAR`] asks to keep the folders.
pub fn keep_requested(value: Option<&str>) -> bool {
    value.is_some_and(|v| !v.is_empty() && v != "0")
}

/// A scratch folder (or a file in one, see [`Scratch::file`]), removed on drop. It reads as its [`Path`].
#[derive(Debug)]
pub struct Scratch {
    /// What is removed on drop.
    root: PathBuf,
    /// What the guard reads as: `root`, or a file in it.
    path: PathBuf,
}

impl Scratch {
    /// A new, empty folder `dagaz-<tag>-<process>-<n>` in the temporary folder (a leftover of that name, from
    /// an earlier process of the same id, is removed first).
    pub fn new(tag: &str) -> Scratch {
        let s = Scratch::unmade(tag);
        std::fs::create_dir_all(&s.root)
            .unwrap_or_else(|e| panic!("cannot create {}: {e}", s.root.display()));
        s
    }

    /// As [`Scratch::new`], but the folder is not created: for a command that must create its output folder
    /// itself. It is removed on drop if it exists then.
    pub fn unmade(tag: &str) -> Scratch {
        static N: AtomicUsize = AtomicUsize::new(0);
        let n = N.fetch_add(1, Ordering::Relaxed);
        let tag: String = tag
            .chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                    c
                } else {
                    '_'
                }
            })
            .collect();
        let root = std::env::temp_dir().join(format!("dagaz-{tag}-{}-{n}", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        Scratch {
            path: root.clone(),
            root,
        }
    }

    /// A new scratch folder holding one file `name` with `text`; the guard reads as the file's path, and
    /// removes the folder on drop.
    pub fn file(tag: &str, name: &str, text: &str) -> Scratch {
        let mut s = Scratch::new(tag);
        s.path = s.root.join(name);
        std::fs::write(&s.path, text)
            .unwrap_or_else(|e| panic!("cannot write {}: {e}", s.path.display()));
        s
    }

    /// The same guard, read as `name` in its folder (not created).
    pub fn at(mut self, name: &str) -> Scratch {
        self.path = self.root.join(name);
        self
    }

    /// What the guard reads as.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The folder the guard removes.
    pub fn root(&self) -> &Path {
        &self.root
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        if keep_requested(std::env::var(KEEP_VAR).ok().as_deref()) {
            eprintln!("{KEEP_VAR}: kept {}", self.root.display());
            return;
        }
        let _ = std::fs::remove_dir_all(&self.root);
    }
}

impl Deref for Scratch {
    type Target = Path;
    fn deref(&self) -> &Path {
        &self.path
    }
}

impl AsRef<Path> for Scratch {
    fn as_ref(&self) -> &Path {
        &self.path
    }
}

impl AsRef<OsStr> for Scratch {
    fn as_ref(&self) -> &OsStr {
        self.path.as_os_str()
    }
}
