//! Loading a game file: read, preprocess, select a variant, compile. The one entry point the command line,
//! the tests and the tournament use.

use crate::compile::{self, Game};
use crate::lang::{self, Diagnostic, GameSource, ReadFile};
use std::path::Path;

/// Which game of a file: a 1-based number or a title (case-insensitive).
#[derive(Clone, Debug, Default)]
pub enum VariantSel {
    /// The first game of the file.
    #[default]
    First,
    Number(usize),
    Title(String),
}

impl VariantSel {
    /// `"3"` selects by number, anything else by title.
    pub fn parse(s: &str) -> VariantSel {
        match s.trim().parse::<usize>() {
            Ok(n) => VariantSel::Number(n),
            Err(_) => VariantSel::Title(s.trim().to_string()),
        }
    }

    pub fn pick<'a>(&self, games: &'a [GameSource]) -> Result<&'a GameSource, String> {
        let list = || {
            games
                .iter()
                .map(|g| format!("{}: {}", g.number, g.title))
                .collect::<Vec<_>>()
                .join("; ")
        };
        match self {
            VariantSel::First => games
                .first()
                .ok_or_else(|| "the file holds no game".to_string()),
            VariantSel::Number(n) => games
                .iter()
                .find(|g| g.number == *n)
                .ok_or_else(|| format!("no variant number {n}; the file has {}", list())),
            VariantSel::Title(t) => games
                .iter()
                .find(|g| g.title.eq_ignore_ascii_case(t))
                .ok_or_else(|| format!("no variant titled `{t}`; the file has {}", list())),
        }
    }
}

/// A file with one game compiled, or the reasons it could not be.
pub struct Loaded {
    pub file: ReadFile,
    pub game: Option<Game>,
    /// Reader diagnostics plus those of compiling the selected game.
    pub diagnostics: Vec<Diagnostic>,
}

impl Loaded {
    pub fn errors(&self) -> impl Iterator<Item = &Diagnostic> {
        self.diagnostics.iter().filter(|d| d.is_error())
    }

    /// All diagnostics rendered with file, line, column and caret.
    pub fn render(&self) -> String {
        lang::diag::render_all(&self.diagnostics, &self.file.sources)
    }
}

/// Reads a file and compiles the selected game.
pub fn load(path: &Path, sel: &VariantSel) -> Loaded {
    load_with(path, sel, &lang::ReadOptions::default())
}

/// [`load`] with reading options (`--include-path`).
pub fn load_with(path: &Path, sel: &VariantSel, opts: &lang::ReadOptions) -> Loaded {
    let file = lang::read_file_with(path, opts);
    let (game, mut own) = compile_selected(&file, sel);
    let mut diagnostics = file.diagnostics.clone();
    diagnostics.append(&mut own);
    Loaded {
        file,
        game,
        diagnostics,
    }
}

/// Compiles the selected game of an already read file; returns the compiler's own diagnostics (the reader's
/// are in `file`). Nothing is compiled when the reader found errors.
pub fn compile_selected(file: &ReadFile, sel: &VariantSel) -> (Option<Game>, Vec<Diagnostic>) {
    let mut diagnostics = vec![];
    if file.has_errors() {
        return (None, diagnostics);
    }
    let mut game = match sel.pick(&file.games) {
        Ok(src) => compile::compile(src, &mut diagnostics),
        Err(e) => {
            diagnostics.push(Diagnostic::global(e));
            None
        }
    };
    if let Some(g) = &mut game {
        g.missing_rules.extend(compile::missing::of_file(file));
        compile::missing::locate(&mut g.missing_rules, &file.sources);
        crate::extension::drop_covered(g);
    }
    (game, diagnostics)
}

/// Loads a game, with every error rendered into one message.
pub fn load_game(path: &Path, sel: &VariantSel) -> Result<Game, String> {
    load_game_with(path, sel, &lang::ReadOptions::default())
}

/// [`load_game`] with reading options (`--include-path`).
pub fn load_game_with(
    path: &Path,
    sel: &VariantSel,
    opts: &lang::ReadOptions,
) -> Result<Game, String> {
    let l = load_with(path, sel, opts);
    match l.game {
        Some(g) => Ok(g),
        None => Err(lang::diag::render_all(
            &l.diagnostics
                .iter()
                .filter(|d| d.is_error())
                .cloned()
                .collect::<Vec<_>>(),
            &l.file.sources,
        )),
    }
}
