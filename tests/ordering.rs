//! `(capture-order ...)`: the majority rules of draughts declared as a lexicographic order over complete moves.
//! Each test is a published rule on a small position, and fails if the form (or the criterion it tests) is
//! ignored. Italian positions are on the Italian board (a1 light): the dark squares are b1 d1 f1 h1, a2 c2 ...

mod common;

use dagaz::engine::{position, Engine};
use dagaz::load::{load, load_game, VariantSel};
use std::path::{Path, PathBuf};

const ITALIAN: &str = "games/italian-draughts.zrf";

fn path(file: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(file)
}

fn game_of(file: &Path) -> dagaz::compile::Game {
    load_game(file, &VariantSel::First).unwrap()
}

fn italian(pos: &str) -> Vec<String> {
    common::sorted_moves(&game_of(&path(ITALIAN)), pos)
}

/// A copy of `file` with `from` replaced by `to` (which must occur), written under the target directory.
fn edited(file: &str, from: &str, to: &str, name: &str) -> PathBuf {
    let text = std::fs::read_to_string(path(file)).unwrap();
    assert!(text.contains(from), "{file} has no `{from}`");
    let dir = path("target/ordering-tests");
    std::fs::create_dir_all(&dir).unwrap();
    let out = dir.join(name);
    std::fs::write(&out, text.replace(from, to)).unwrap();
    out
}

fn sorted(v: &[&str]) -> Vec<String> {
    let mut v: Vec<String> = v.iter().map(|s| s.to_string()).collect();
    v.sort();
    v
}

#[test]
fn italian_more_pieces_beat_a_capture_with_the_king() {
    // FID 6.6: the man on b3 takes two (c4, c6); the king on h3 only one (g4). Quantity comes first.
    let pos = "turn White\npiece White Man b3\npiece White King h3\n\
               piece Black Man c4\npiece Black Man c6\npiece Black Man g4\n";
    assert_eq!(italian(pos), sorted(&["b3-d5xc4-b7xc6"]));
}

#[test]
fn italian_with_equal_counts_the_king_must_capture() {
    // FID 6.7: the man on b3 and the king on h3 each take one piece: the king must.
    let pos = "turn White\npiece White Man b3\npiece White King h3\n\
               piece Black Man c4\npiece Black Man g4\n";
    assert_eq!(italian(pos), sorted(&["h3-f5xg4"]));
}

#[test]
fn italian_then_the_most_kings() {
    // FID 6.8: the king on d3 takes one piece either way, the king on e4 or the man on c4: the king.
    let pos = "turn White\npiece White King d3\npiece Black King e4\npiece Black Man c4\n";
    assert_eq!(italian(pos), sorted(&["d3-f5xe4"]));
}

#[test]
fn italian_then_the_king_taken_earliest() {
    // FID 6.9: two pieces, one of them a king, either way; over c4 (king) then c6 the king comes first,
    // over e4 then g6 (king) it comes second.
    let pos = "turn White\npiece White King d3\npiece Black Man e4\npiece Black King g6\n\
               piece Black King c4\npiece Black Man c6\n";
    assert_eq!(italian(pos), sorted(&["d3-b5xc4-d7xc6"]));
}

#[test]
fn italian_first_king_taken_is_the_same_rule_stated_simply() {
    // `(min first-king-taken)` in place of `(max kings-early)` picks the same sequence here.
    let file = edited(
        ITALIAN,
        "(max kings-early)",
        "(min first-king-taken)",
        "italian-first-king.zrf",
    );
    let pos = "turn White\npiece White King d3\npiece Black Man e4\npiece Black King g6\n\
               piece Black King c4\npiece Black Man c6\n";
    assert_eq!(
        common::sorted_moves(&game_of(&file), pos),
        sorted(&["d3-b5xc4-d7xc6"])
    );
}

#[test]
fn value_taken_weighs_the_pieces() {
    // The king on d3 can take two men (e4, g6) or one king (c4). Counting pieces, the two men; with the
    // king declared worth 2.5 men and `(max value-taken)`, the king.
    let pos = "turn White\npiece White King d3\npiece Black Man e4\npiece Black Man g6\n\
               piece Black King c4\n";
    assert_eq!(italian(pos), sorted(&["d3-f5xe4-h7xg6"]));
    let once = edited(
        ITALIAN,
        "(capture-order (max pieces-taken) (max by-king) (max kings-taken) (max kings-early))",
        "(capture-order (max value-taken) (max by-king))",
        "italian-value-a.zrf",
    );
    let text = std::fs::read_to_string(&once).unwrap();
    let file = path("target/ordering-tests/italian-value.zrf");
    std::fs::write(
        &file,
        text.replace("(notation \"K\")", "(notation \"K\") (value 2.5)"),
    )
    .unwrap();
    assert_eq!(
        common::sorted_moves(&game_of(&file), pos),
        sorted(&["d3-b5xc4"])
    );
}

#[test]
fn italian_a_man_cannot_capture_a_king() {
    // FID 5.3(b): the man on d3 faces a king on e4 with f5 empty behind it, and may only step.
    let pos = "turn White\npiece White Man d3\npiece Black King e4\npiece Black Man a8\n";
    assert_eq!(italian(pos), sorted(&["d3-c4"]));
}

#[test]
fn italian_quiet_moves_are_not_ranked() {
    // With nothing to capture, men and kings move freely: `by-king` ranks captures only.
    let pos = "turn White\npiece White Man b1\npiece White King h3\npiece Black Man a8\n";
    assert_eq!(italian(pos), sorted(&["b1-a2", "b1-c2", "h3-g2", "h3-g4"]));
}

#[test]
fn international_majority_as_a_capture_order() {
    // International draughts with `(capture-order (max pieces-taken))` in place of `maximal captures`:
    // the same moves at every node, so the same perft on a position with majority captures.
    let file = edited(
        "games/international-draughts.zrf",
        "(option \"maximal captures\" true)",
        "(capture-order (max pieces-taken))",
        "international-order.zrf",
    );
    let by_order = game_of(&file);
    let by_option = game_of(&path("games/international-draughts.zrf"));
    assert!(by_order
        .options
        .all
        .iter()
        .all(|(k, _)| k != "maximal captures"));
    // A man on c3 can take d4 alone, or b4 and then b6's neighbour: only the longer chain is legal.
    let pos = "turn White\npiece White Man c3\npiece Black Man d4\npiece Black Man b4\npiece Black Man b6\n";
    let want = common::sorted_moves(&by_option, pos);
    assert_eq!(common::sorted_moves(&by_order, pos), want);
    assert!(want.iter().all(|m| m.matches('x').count() == 2), "{want:?}");
    let (a, b) = (Engine::new(&by_order), Engine::new(&by_option));
    let s = position::parse(&by_order, pos).unwrap();
    assert_eq!(a.perft(&s, 5).unwrap(), b.perft(&s, 5).unwrap());
    assert_eq!(
        a.perft(&a.initial(), 5).unwrap(),
        b.perft(&b.initial(), 5).unwrap()
    );
}

#[test]
fn portuguese_take_the_king() {
    // Portuguese and Spanish rules rank most pieces, then most kings: a king that can take a man or a king
    // (one piece either way) must take the king. Brazilian draughts (flying kings, majority) with that order.
    let file = edited(
        "games/brazilian-draughts.zrf",
        "(option \"maximal captures\" true)",
        "(capture-order (max pieces-taken) (max kings-taken))",
        "portuguese-order.zrf",
    );
    let pos = "turn White\npiece White King d4\npiece Black Man f6\npiece Black King b6\npiece Black Man h8\n";
    let got = common::sorted_moves(&game_of(&file), pos);
    assert!(
        !got.is_empty() && got.iter().all(|m| m.contains("xb6")),
        "{got:?}"
    );
    // Under the majority rule alone, both are legal.
    let plain = common::sorted_moves(&game_of(&path("games/brazilian-draughts.zrf")), pos);
    assert!(plain.iter().any(|m| m.contains("xf6")), "{plain:?}");
}

/// Every error of a malformed `capture-order` is reported at its place, with a hint where one helps.
#[test]
fn capture_order_errors_have_spans() {
    let cases = [
        (
            "(capture-order (max pieces-taken) (biggest kings-taken))",
            "a capture-order criterion is `(max M)` or `(min M)`",
            "29:37",
        ),
        (
            "(capture-order (max pieces-takn))",
            "unknown capture-order measure `pieces-takn`",
            "29:23",
        ),
        (
            "(capture-order (max (kings-taken Queen)))",
            "unknown piece type `Queen`",
            "29:36",
        ),
        (
            "(capture-order (max pieces-taken by-king))",
            "`max` and `min` take one measure",
            "29:18",
        ),
        (
            "(capture-order)",
            "`capture-order` needs at least one criterion",
            "29:3",
        ),
        (
            "(capture-order (min (value-taken Man)))",
            "`value-taken` reads the pieces' `(value N)`",
            "29:23",
        ),
    ];
    for (i, (form, message, at)) in cases.iter().enumerate() {
        let file = edited(
            ITALIAN,
            "(capture-order (max pieces-taken) (max by-king) (max kings-taken) (max kings-early))",
            form,
            &format!("broken-order-{i}.zrf"),
        );
        let l = load(&file, &VariantSel::First);
        assert!(l.game.is_none(), "{form} should not compile");
        let text = l.render();
        assert!(text.contains(message), "{form}: {text}");
        assert!(
            text.contains(&format!("broken-order-{i}.zrf:{at}")),
            "{form}: expected at {at}: {text}"
        );
    }
    let hint = load(
        &edited(
            ITALIAN,
            "(max by-king)",
            "(max by-kings)",
            "broken-order-hint.zrf",
        ),
        &VariantSel::First,
    )
    .render();
    assert!(hint.contains("did you mean `by-king`?"), "{hint}");
}

/// Every test of this file once more with the general path forced (`DAGAZ_GENERAL_PATH=1`).
#[test]
fn on_the_general_path() {
    common::rerun_on_general_path("on_the_general_path");
}
