//! The commands of the `dagaz` binary, as library functions: `src/main.rs` parses the arguments and calls
//! them. Each returns the exit code after printing what the command prints; the settings the command line
//! gives every command (`--include-path`, `--extension`) travel in a [`Context`].

pub mod check;
pub mod evaluate;
pub mod play;
pub mod search;
pub mod tournament;
pub mod tune;

use std::path::PathBuf;

/// What the command line gives every command that reads a game.
#[derive(Clone, Debug, Default)]
pub struct Context {
    /// The `--include-path` directories.
    pub include_paths: Vec<PathBuf>,
    /// The `--extension` modules (names checked to be known).
    pub extensions: Vec<String>,
}

impl Context {
    /// Reading options from the command line.
    pub fn read_options(&self) -> crate::lang::ReadOptions {
        crate::lang::ReadOptions {
            include_paths: self.include_paths.clone(),
            extensions: self.extensions.clone(),
        }
    }

    /// Adds the command line's `--extension` modules to a compiled game.
    pub fn add_extensions(&self, game: &mut crate::Game) -> Result<(), String> {
        for name in &self.extensions {
            crate::extension::attach(game, name)?;
        }
        Ok(())
    }
}

/// An error message with one `error:` in front, whether or not it already has one (rendered diagnostics do).
pub fn print_error(e: &str) {
    let e = e.trim_end();
    if e.starts_with("error:") {
        eprintln!("{e}");
    } else {
        eprintln!("error: {e}");
    }
}
