//! Loading a game file: read, preprocess, select a variant, compile. The one entry point the command line,
//! the tests and the tournament use.
//!
//! This is also where a game's extension modules, which it names, meet their code: the compiler is handed
//! the registered modules ([`crate::extension::modules`]), and [`Engine::new`] resolves the names to the
//! modules' hooks ([`crate::extension::hooks`]), so that neither `compile` nor `engine` imports
//! `extension`.

use crate::compile::{self, Game};
use crate::engine::{Engine, EngineError, EngineOptions};
use crate::lang::{self, Diagnostic, GameSource, ReadFile};
use std::path::Path;

impl<'g> Engine<'g> {
    /// The engine of `game`, with its extension modules' hooks from the registry; the general path is forced
    /// where the environment asks for it (`DAGAZ_GENERAL_PATH=1`, see [`EngineOptions::from_env`]; a value
    /// that is neither on nor off forces it too, the command line refuses it up front).
    ///
    /// # Panics
    /// When the game names a module the registry does not know, which a game compiled through this module
    /// never does (see [`Engine::try_new`]).
    pub fn new(game: &'g Game) -> Engine<'g> {
        let options = EngineOptions::from_env().unwrap_or(EngineOptions::general());
        Engine::with_options(game, options)
    }

    /// [`Engine::new`] with the options given (the environment is not read): e.g.
    /// [`EngineOptions::general`] forces the general path.
    ///
    /// # Panics
    /// As [`Engine::new`].
    pub fn with_options(game: &'g Game, options: EngineOptions) -> Engine<'g> {
        match Engine::try_with_options(game, options) {
            Ok(e) => e,
            Err(e) => panic!("{e}"),
        }
    }

    /// [`Engine::new`], with an error for a module the registry does not know.
    pub fn try_new(game: &'g Game) -> Result<Engine<'g>, EngineError> {
        let options = EngineOptions::from_env().unwrap_or(EngineOptions::general());
        Engine::try_with_options(game, options)
    }

    /// [`Engine::with_options`], with an error for a module the registry does not know.
    pub fn try_with_options(
        game: &'g Game,
        options: EngineOptions,
    ) -> Result<Engine<'g>, EngineError> {
        Engine::with_hooks(game, options, &crate::extension::hooks)
    }
}

/// Compiles one game or variant with every registered extension module known ([`compile::compile_with`]).
pub fn compile_source(src: &GameSource, diags: &mut Vec<Diagnostic>) -> Option<Game> {
    compile::compile_with(src, diags, &crate::extension::modules(), &[])
}

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
    let (game, mut own) = compile_selected_with(&file, sel, &opts.extensions);
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
    compile_selected_with(file, sel, &[])
}

/// [`compile_selected`] for a game the command line gives the modules `extensions` (known names; they
/// are attached afterwards): they are asked about setup positions the board lacks.
pub fn compile_selected_with(
    file: &ReadFile,
    sel: &VariantSel,
    extensions: &[String],
) -> (Option<Game>, Vec<Diagnostic>) {
    let known = crate::extension::modules();
    let extra: Vec<_> = extensions
        .iter()
        .filter_map(|n| compile::extension::lookup(&known, n))
        .collect();
    let mut diagnostics = vec![];
    if file.has_errors() {
        return (None, diagnostics);
    }
    let mut game = match sel.pick(&file.games) {
        Ok(src) => compile::compile_with(src, &mut diagnostics, &known, &extra),
        Err(e) => {
            diagnostics.push(Diagnostic::global(e));
            None
        }
    };
    if let Some(g) = &mut game {
        g.missing_rules.extend(compile::missing::of_file(file));
        if let Ok(src) = sel.pick(&file.games) {
            let scripts = compile::dagaz_site::missing(file, g, src.span);
            g.missing_rules.extend(scripts);
        }
        compile::missing::locate(&mut g.missing_rules, &file.sources);
        compile::extension::drop_covered(g);
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
