//! Errors raised inside a macro's expansion name the call (every call it was expanded from, innermost first)
//! as well as the line in the macro's body (README, "Decisions where ZRF is unclear": macros).

#[path = "common/scratch.rs"]
mod scratch_dir;
use scratch_dir::Scratch;
mod common;

use std::process::{Command, Output, Stdio};

const BIN: &str = env!("CARGO_BIN_EXE_dagaz");

fn dagaz(args: &[&str]) -> Output {
    Command::new(BIN)
        .args(args)
        .stdin(Stdio::null())
        .output()
        .unwrap()
}

fn scratch(name: &str, text: &str) -> Scratch {
    Scratch::file("macro-calls", name, text)
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
    let out = dagaz(&["check", f.to_str().unwrap()]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("missing.zrf:2:11"), "{err}");
    assert!(err.contains("missing.zrf:16:5"), "the call site: {err}");
    assert!(
        err.contains("in the expansion of macro `step` called here"),
        "{err}"
    );
    // The one-line form (`--json` and the CSV reasons of `evaluate` use the location and this) names it too.
    let out = dagaz(&["check", "--json", f.to_str().unwrap()]);
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
    let out = dagaz(&["check", f.to_str().unwrap()]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("nested.zrf:2:11"), "{err}");
    let step = err.find("macro `step` called here").expect(&err);
    let step_in = err.find("macro `step-in` called here").expect(&err);
    assert!(step < step_in, "innermost first: {err}");
    assert!(err.contains("nested.zrf:6:3"), "{err}");
    assert!(err.contains("nested.zrf:16:5"), "{err}");
}

/// Ragnarok calls `(common-order-body)` with no arguments inside `loki-order` and `common-order`, and its body
/// uses five (`(piece? $2$3)`): a missing argument pastes nothing (README, "Decisions"), so `(piece?)` is an
/// error, named at the body's line 820 and at every call it was expanded from.
#[test]
fn ragnarok_is_refused_at_its_calls() {
    for rel in [
        "ZRF/Ragnarok/Ragnarok.zrf",
        "GlukKazan-ZoG/Rules/Ragnarok.zrf",
    ] {
        let p = common::corpus_root().join(rel);
        let out = dagaz(&["check", p.to_str().unwrap()]);
        assert!(!out.status.success(), "{rel} loads");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("`piece?` needs a piece type"), "{rel}: {err}");
        assert!(err.contains("Ragnarok.zrf:820:11"), "{rel}: {err}");
        assert!(
            err.contains("in the expansion of macro `common-order-body` called here"),
            "{rel}: {err}"
        );
        // `(common-order-body)` is written on line 828 (in `loki-order`) and 837 (in `common-order`).
        assert!(
            err.contains("Ragnarok.zrf:828:3") || err.contains("Ragnarok.zrf:837:3"),
            "{rel}: {err}"
        );
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
