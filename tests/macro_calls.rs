//! Errors raised inside a macro's expansion name the call as well as the line in the macro's body, and a call
//! that leaves out arguments its body uses takes them from the enclosing macro call, as Zillions reads it
//! (README, "Decisions where ZRF is unclear": macro arguments).

mod common;

use dagaz::lang::read_str;
use std::path::Path;
use std::process::{Command, Output, Stdio};

const BIN: &str = env!("CARGO_BIN_EXE_dagaz");

fn dagaz(args: &[&str]) -> Output {
    Command::new(BIN)
        .args(args)
        .stdin(Stdio::null())
        .output()
        .unwrap()
}

fn scratch(name: &str, text: &str) -> String {
    let d = std::env::temp_dir().join(format!("dagaz-macro-calls-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    let p = d.join(name);
    std::fs::write(&p, text).unwrap();
    p.to_string_lossy().into_owned()
}

/// A small game whose `step` macro uses `$2` (a zone) and is called as `CALL` in a piece's moves.
fn game_with(call: &str) -> String {
    format!(
        r#"(define step (
  (verify (in-zone? $2))
  $1 add
))
(define step-in (
  (step $1)
))
(game
  (title "T")
  (players A B)
  (turn-order A B)
  (board (grid (dimensions ("a/b/c" (50 0)) ("3/2/1" (0 50)))
               (directions (n 0 -1) (s 0 1)))
         (zone (name far) (players A B) (positions a3 b3 c3 a1 b1 c1)))
  (piece (name P) (moves
    {call}))
  (board-setup (A (P a1)) (B (P c3)))
  (loss-condition (A B) stalemated)
)
"#
    )
}

#[test]
fn an_error_in_a_macro_body_names_the_call() {
    // Line 2 is `(verify (in-zone? $2))` in the body; the call `(step n)` is on line 16, column 5.
    let f = scratch("missing.zrf", &game_with("(step n)"));
    let out = dagaz(&["check", &f]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("missing.zrf:2:11"), "{err}");
    assert!(err.contains("missing.zrf:16:5"), "the call site: {err}");
    assert!(
        err.contains("in the expansion of macro `step` called here"),
        "{err}"
    );
    // The one-line form (`--json` and the CSV reasons of `evaluate` use the location and this) names it too.
    let out = dagaz(&["check", "--json", &f]);
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let calls = &json[0]["macro_calls"];
    assert_eq!(calls[0]["macro"], "step", "{json}");
    assert!(
        calls[0]["location"]
            .as_str()
            .unwrap()
            .ends_with("missing.zrf:16:5"),
        "{json}"
    );
    assert!(
        json[0]["location"]
            .as_str()
            .unwrap()
            .ends_with("missing.zrf:2:11"),
        "{json}"
    );
}

#[test]
fn nested_calls_are_all_named() {
    // `(step-in n)` at top level: `step-in`'s one argument, and `step`'s `$2` has no argument anywhere. The
    // error is in `step`'s body (line 2), called from `step-in`'s body (line 6, column 3), called at line 16.
    let f = scratch("nested.zrf", &game_with("(step-in n)"));
    let out = dagaz(&["check", &f]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("nested.zrf:2:11"), "{err}");
    let step = err.find("macro `step` called here").expect(&err);
    let step_in = err.find("macro `step-in` called here").expect(&err);
    assert!(step < step_in, "innermost first: {err}");
    assert!(err.contains("nested.zrf:6:3"), "{err}");
    assert!(err.contains("nested.zrf:16:5"), "{err}");
}

#[test]
fn a_call_without_arguments_takes_the_enclosing_calls() {
    // `(step-in n far)`: `step-in` calls `(step $1)`, which gives `step` its `$1` only; its `$2` is the
    // enclosing call's second argument, `far`. So the moves are `(verify (in-zone? far)) n add`, in the list
    // of `step`'s body, inside the list of `step-in`'s.
    let f = scratch("enclosing.zrf", &game_with("(step-in n far)"));
    let out = dagaz(&["check", &f]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let r = read_str("x.zrf", &game_with("(step-in n far)"), Path::new("."));
    let piece = r.games[0]
        .sections
        .iter()
        .find(|s| s.head() == Some("piece"))
        .unwrap()
        .to_source_limited(10_000);
    assert!(
        piece.contains("(moves (((verify (in-zone? far)) n add)))"),
        "{piece}"
    );
    // Arguments the call gives are its own: `(step s far)` inside `step-in` would not take `n`.
    let r = read_str("y.zrf", &game_with("(step s far)"), Path::new("."));
    let piece = r.games[0]
        .sections
        .iter()
        .find(|s| s.head() == Some("piece"))
        .unwrap()
        .to_source_limited(10_000);
    assert!(
        piece.contains("(moves ((verify (in-zone? far)) s add))"),
        "{piece}"
    );
}

/// Ragnarok calls `(common-order-body)` with no arguments inside `loki-order` and `common-order`, whose five
/// arguments its body uses (`$1 (verify friend?) (verify (piece? $2$3)) (change-type $2$4) $5`): all 15
/// variants of both copies load.
#[test]
fn ragnarok_loads() {
    for rel in [
        "ZRF/Ragnarok/Ragnarok.zrf",
        "GlukKazan-ZoG/Rules/Ragnarok.zrf",
    ] {
        let p = common::corpus_root().join(rel);
        let out = dagaz(&["check", "--all-variants", p.to_str().unwrap()]);
        assert!(
            out.status.success(),
            "{rel}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        // The expansion of one call, by hand: `(loki-order sww $1 A R nww)` in `(order-loki Loki)`.
        let text = std::fs::read_to_string(&p).unwrap();
        let r = read_str(rel, &text, p.parent().unwrap());
        assert_eq!(r.games.len(), 15);
        let all: String = r
            .games
            .iter()
            .flat_map(|g| &g.sections)
            .map(|s| s.to_source_limited(10_000_000))
            .collect();
        assert!(!all.contains("(piece?)"), "an empty piece type left");
        // `$2$3` and `$2$4` of the enclosing `(loki-order sww Loki A R nww)` and `(common-order e Hel A R e)`.
        for want in [
            "sww (verify friend?) (verify (piece? LokiA)) (change-type LokiR) nww",
            "e (verify friend?) (verify (piece? HelA)) (change-type HelR) e",
        ] {
            assert!(all.contains(want), "{rel}: no `{want}`");
        }
    }
}

/// Ohojichi's `(step nx)` leaves `$2` without an argument at the top level: still an error, at the body's line
/// 2 and at the call on line 69.
#[test]
fn ohojichi_names_its_call() {
    let p = common::corpus_root().join("DagazProject.github.io/mancala/zrf/ohojichi.zrf");
    let out = dagaz(&["check", p.to_str().unwrap()]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("ohojichi.zrf:2:11"), "{err}");
    assert!(err.contains("ohojichi.zrf:69:"), "{err}");
    assert!(err.contains("macro `step` called here"), "{err}");
}
