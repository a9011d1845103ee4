//! `dagaz variants` and `dagaz check`: what a file holds, or every error in it.

use super::{print_error, Context};
use crate::lang::diag::render_all;
use crate::load::{compile_selected_with, VariantSel};
use std::path::PathBuf;
use std::process::ExitCode;

pub fn variants(ctx: &Context, file: &std::path::Path) -> ExitCode {
    let read = crate::lang::read_file_with(file, &ctx.read_options());
    if read.has_errors() {
        eprint!("{}", render_all(&read.diagnostics, &read.sources));
        return ExitCode::FAILURE;
    }
    for g in &read.games {
        // Zillions opens the variant a file marks `(default)`; dagaz plays the first unless told otherwise, so
        // the mark says how to get it.
        let mark = if g.default && g.number != 1 {
            format!(
                "  (the file's default; dagaz plays 1 unless --variant {})",
                g.number
            )
        } else {
            String::new()
        };
        println!("{:3}  {}{mark}", g.number, g.title);
    }
    ExitCode::SUCCESS
}

pub fn check(
    ctx: &Context,
    file: &std::path::Path,
    variant: Option<&str>,
    all: bool,
    json: bool,
) -> ExitCode {
    let read = crate::lang::read_file_with(file, &ctx.read_options());
    let sels: Vec<VariantSel> = if all {
        read.games
            .iter()
            .map(|g| VariantSel::Number(g.number))
            .collect()
    } else {
        vec![variant.map(VariantSel::parse).unwrap_or_default()]
    };
    let titles: Vec<(usize, String)> = read
        .games
        .iter()
        .map(|g| (g.number, g.title.clone()))
        .collect();
    let mut ok = !read.has_errors();
    let mut out_json = vec![];
    let mut text = String::new();
    if !json && !titles.is_empty() {
        text.push_str(&format!("{}: {} game(s)\n", file.display(), titles.len()));
        for (n, t) in &titles {
            text.push_str(&format!("  {n}: {t}\n"));
        }
    }
    let sels = if sels.is_empty() {
        vec![VariantSel::First]
    } else {
        sels
    };
    let print_diags = |diags: &[crate::lang::Diagnostic], out_json: &mut Vec<serde_json::Value>| {
        if json {
            let (picked, more) = crate::lang::diag::shown(diags);
            out_json.extend(picked.iter().map(|d| {
                serde_json::json!({
                    "severity": if d.is_error() { "error" } else { "warning" },
                    "location": d.span.map(|s| read.sources.location(s)),
                    "macro_calls": d.span.map(|s| read.sources.calls(s).iter().map(|(name, call)| {
                        serde_json::json!({"macro": name, "location": read.sources.location(*call)})
                    }).collect::<Vec<_>>()).unwrap_or_default(),
                    "message": d.message,
                    "hint": d.hint,
                })
            }));
            if let Some(m) = more {
                out_json.push(serde_json::json!({"severity": "note", "location": null, "message": m, "hint": null}));
            }
        } else {
            eprint!("{}", render_all(diags, &read.sources));
        }
    };
    print_diags(&read.diagnostics, &mut out_json);
    for sel in &sels {
        let (mut game, mut diags) = compile_selected_with(&read, sel, &ctx.extensions[..]);
        let from_command_line = !ctx.extensions.is_empty();
        if let Some(g) = game.as_mut().filter(|_| from_command_line) {
            // The warnings of the rules the command line's modules supply go with them (only the few that
            // are covered are compared: a file of junk may miss thousands).
            let before = std::mem::take(&mut g.missing_rules);
            let attached = ctx.add_extensions(g);
            let covered: Vec<_> = before
                .iter()
                .filter(|r| crate::extension::is_covered(g, r))
                .map(|r| (r.span, r.clause()))
                .collect();
            g.missing_rules = before;
            crate::extension::drop_covered(g);
            if let Err(e) = attached {
                print_error(&format!("{}: {e}", file.display()));
                ok = false;
                game = None;
            } else if !covered.is_empty() {
                diags.retain(|d| {
                    d.is_error()
                        || !covered
                            .iter()
                            .any(|(sp, m)| d.span == Some(*sp) && d.message == *m)
                });
            }
        }
        match &game {
            Some(g) if json => out_json.push(crate::check::describe_json(g)),
            Some(g) => text.push_str(&crate::check::describe(g)),
            None => ok = false,
        }
        print_diags(&diags, &mut out_json);
    }
    if json {
        println!(
            "{}",
            serde_json::to_string_pretty(&out_json).unwrap_or_default()
        );
    } else {
        print!("{text}");
    }
    if ok {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

/// Checks many files, every variant of each: one line per file, then the total and the time taken.
pub fn check_many(ctx: &Context, files: &[PathBuf], quiet: bool) -> ExitCode {
    let t = std::time::Instant::now();
    let (mut ok, mut axiom, mut games, mut with_missing) = (0, 0, 0, 0);
    for f in files {
        let read = crate::lang::read_file_with(f, &ctx.read_options());
        let mut first_error = read
            .diagnostics
            .iter()
            .find(|d| d.is_error())
            .map(|d| d.one_line(&read.sources));
        let mut is_axiom = false;
        // What the file's games ask for that the engine does not apply, each named once.
        let mut missing: Vec<String> = crate::compile::missing::of_file(&read)
            .iter()
            .map(|r| r.what())
            .collect();
        if first_error.is_none() {
            for g in &read.games {
                if crate::compile::engine_of(g).is_some() {
                    is_axiom = true;
                    continue;
                }
                let mut diags = vec![];
                games += 1;
                match crate::load::compile_source(g, &mut diags) {
                    Some(mut game) => {
                        if let Err(e) = ctx.add_extensions(&mut game) {
                            first_error = Some(format!("{}: {e}", f.display()));
                            break;
                        }
                        let scripts = crate::compile::dagaz_site::missing(&read, &game, g.span);
                        game.missing_rules.extend(scripts);
                        crate::extension::drop_covered(&mut game);
                        for r in &game.missing_rules {
                            if !missing.contains(&r.what()) {
                                missing.push(r.what());
                            }
                        }
                    }
                    None => {
                        first_error = diags
                            .iter()
                            .find(|d| d.is_error())
                            .map(|d| d.one_line(&read.sources));
                        break;
                    }
                }
            }
            if read.games.is_empty() {
                first_error = Some(format!("{}: no game in the file", f.display()));
            }
        }
        match (&first_error, is_axiom) {
            (Some(e), _) => println!("FAIL {e}"),
            (None, true) => {
                axiom += 1;
                if !quiet {
                    println!("axiom {}", f.display());
                }
            }
            (None, false) => {
                ok += 1;
                if !missing.is_empty() {
                    with_missing += 1;
                }
                if !quiet {
                    if missing.is_empty() {
                        println!("ok   {}", f.display());
                    } else {
                        println!(
                            "ok   {} (plays without: {})",
                            f.display(),
                            missing.join(", ")
                        );
                    }
                }
            }
        }
    }
    let playable = files.len() - axiom;
    println!(
        "{ok}/{playable} files load in every variant ({games} games; {axiom} Axiom-engine files skipped; \
         {with_missing} of the loaded files ask for rules the engine does not apply) in {:.2} s",
        t.elapsed().as_secs_f64()
    );
    if ok == playable {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
