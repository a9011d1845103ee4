//! Perft against `../shared/reference/perft.json`: move counts published and verified elsewhere. One test
//! function per game family runs every listed position up to a leaf budget; the `_deep` variants (ignored by
//! default, see README) run the depths the issues require.

use dagaz::compile::Game;
use dagaz::engine::{position, Engine, EngineOptions};
use dagaz::load::{load_game, VariantSel};
use serde_json::Value;
use std::cell::Cell;
use std::path::Path;

thread_local! {
    /// The options of the engines this test thread builds: each test runs on its own thread, the default
    /// backends unless [`on_general_path`] runs it.
    static OPTIONS: Cell<EngineOptions> = Cell::new(EngineOptions::default());
}

/// The engine of a test: the default backends, or the general path inside [`on_general_path`] (the
/// environment is not read, so both ways run whatever `DAGAZ_GENERAL_PATH` says).
fn engine_for(game: &Game) -> Engine<'_> {
    Engine::with_options(game, OPTIONS.with(|o| o.get()))
}

/// Runs a test with every engine on the general path (`EngineOptions::general`).
fn on_general_path(test: fn()) {
    OPTIONS.with(|o| o.set(EngineOptions::general()));
    test();
    OPTIONS.with(|o| o.set(EngineOptions::default()));
}

fn reference() -> Value {
    let p = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/reference/perft.json");
    serde_json::from_str(&std::fs::read_to_string(p).expect("perft.json"))
        .expect("perft.json is JSON")
}

/// Converts a chess FEN to the position format of `games/chess.zrf`.
fn chess_fen(fen: &str) -> String {
    let f: Vec<&str> = fen.split_whitespace().collect();
    let mut out = String::new();
    out += if f[1] == "w" {
        "turn White\n"
    } else {
        "turn Black\n"
    };
    let castling = f.get(2).copied().unwrap_or("-");
    for (r, rank) in f[0].split('/').enumerate() {
        let mut file = 0u8;
        for c in rank.chars() {
            if let Some(d) = c.to_digit(10) {
                file += d as u8;
                continue;
            }
            let sq = format!("{}{}", (b'a' + file) as char, 8 - r);
            let owner = if c.is_ascii_uppercase() {
                "White"
            } else {
                "Black"
            };
            let kind = match c.to_ascii_lowercase() {
                'p' => "Pawn",
                'n' => "Knight",
                'b' => "Bishop",
                'r' => "Rook",
                'q' => "Queen",
                _ => "King",
            };
            let white = owner == "White";
            let unmoved = match (c, sq.as_str()) {
                ('K', "e1") => castling.contains('K') || castling.contains('Q'),
                ('k', "e8") => castling.contains('k') || castling.contains('q'),
                ('R', "h1") => castling.contains('K'),
                ('R', "a1") => castling.contains('Q'),
                ('r', "h8") => castling.contains('k'),
                ('r', "a8") => castling.contains('q'),
                _ => false,
            };
            let _ = white;
            out += &format!(
                "piece {owner} {kind} {sq}{}\n",
                if unmoved { " never-moved" } else { "" }
            );
            file += 1;
        }
    }
    if let Some(ep) = f.get(3).filter(|e| **e != "-") {
        let file = &ep[..1];
        // The pawn that just moved two squares went from the far side of the en-passant square to the near.
        let (from, to) = if ep.ends_with('6') {
            ("7", "5")
        } else {
            ("2", "4")
        };
        out += &format!("last {file}{from} {file}{to}\n");
    }
    out
}

/// Converts a draughts position in PDN/FEN notation (`W:W31-50:B1-20`, kings `K12`, ranges `21-32`; only the
/// first word is read) to our position format. `square` names the board square of a number.
fn pdn(fen: &str, square: fn(u32) -> String) -> String {
    let fen = fen.split_whitespace().next().unwrap_or("");
    let mut fields = fen.split(':');
    let turn = match fields.next() {
        Some("B") => "Black",
        _ => "White",
    };
    let mut out = format!("turn {turn}\n");
    for f in fields {
        let owner = match f.chars().next() {
            Some('W') => "White",
            Some('B') => "Black",
            _ => continue,
        };
        for item in f[1..].split(',').filter(|i| !i.is_empty()) {
            let (kind, item) = match item.strip_prefix('K') {
                Some(rest) => ("King", rest),
                None => ("Man", item),
            };
            let (a, b) = match item.split_once('-') {
                Some((a, b)) => (a.parse().unwrap(), b.parse().unwrap()),
                None => (item.parse().unwrap(), item.parse().unwrap()),
            };
            for n in a..=b {
                out += &format!("piece {owner} {kind} {}\n", square(n));
            }
        }
    }
    out
}

/// The dark square numbered `n` on a board of `size` columns, numbered from the top left as White sees it
/// (8x8: 1 = b8 .. 32 = g1; 10x10: 1 = b10 .. 50 = i1).
fn dark_square(n: u32, size: u32) -> String {
    let per_row = size / 2;
    let (row, k) = ((n - 1) / per_row, (n - 1) % per_row);
    let file = if row % 2 == 0 { 2 * k + 1 } else { 2 * k };
    format!("{}{}", (b'a' + file as u8) as char, size - row)
}

fn pdn8(fen: &str) -> String {
    pdn(fen, |n| dark_square(n, 8))
}

fn pdn10(fen: &str) -> String {
    pdn(fen, |n| dark_square(n, 10))
}

/// Italian draughts numbers its dark squares as dctl and pydraughts do, on a board whose lower left corner is
/// light: 1 = a8, 2 = c8 .. 5 = b7 .. 32 = h1 (the first row of each pair starts on file a, not b).
fn pdn_italian(fen: &str) -> String {
    pdn(fen, |n| {
        let (row, k) = ((n - 1) / 4, (n - 1) % 4);
        let file = if row % 2 == 0 { 2 * k } else { 2 * k + 1 };
        format!("{}{}", (b'a' + file as u8) as char, 8 - row)
    })
}

/// Turkish draughts uses every square, numbered 1 = a1 .. 8 = h1, 9 = a2 .. 64 = h8.
fn pdn_turkish(fen: &str) -> String {
    pdn(fen, |n| {
        format!(
            "{}{}",
            (b'a' + ((n - 1) % 8) as u8) as char,
            (n - 1) / 8 + 1
        )
    })
}

/// Which reference entries a test runs, and how it reads their positions.
struct Sel {
    game: &'static str,
    /// Prefix of the entry's `variant` (empty: any).
    variant: &'static str,
    /// Which of those entries' positions.
    positions: fn(&str) -> bool,
    /// The game of the file to load, by title (`None`: the first).
    zrf_variant: Option<&'static str>,
    /// Converts the entry's position notation to our position format (entries whose position is named a
    /// "start" use the game's own initial state; `draughts_start_positions_convert` checks they agree).
    convert: fn(&str) -> String,
    /// Deepest depth to check for a position whose only reference number counts by the other duplicates
    /// convention (see `check_sel`); `u32::MAX` when none needs a cap.
    other_convention_max_depth: fn(&str) -> u32,
    /// Reference numbers known to be wrong: (position, depth, the right count). Each one is explained where
    /// the test lists it.
    corrections: &'static [(&'static str, u32, u64)],
}

/// Runs every reference position of `game` whose leaf count at a depth is at most `budget`.
fn check(game_name: &str, file: &str, budget: u64, only_deep: bool, convert: fn(&str) -> String) {
    let sel = Sel {
        game: Box::leak(game_name.to_string().into_boxed_str()),
        variant: "",
        positions: |_| true,
        zrf_variant: None,
        convert,
        other_convention_max_depth: |_| u32::MAX,
        corrections: &[],
    };
    check_sel(&sel, file, budget, only_deep)
}

/// Runs the selected reference positions up to a leaf budget (with `only_deep`, only the deepest depth within
/// it). Draughts entries come in two conventions: "drop duplicates" (moves equal in from, to and the set of
/// captured pieces count once) and "keep duplicates" (captures of the same pieces in a different order count
/// again). The engine implements "drop" (moves with the same net effect are one move), so a position with a
/// "drop" entry is checked against it; a position with only a "keep" entry is checked up to the depth where
/// the two conventions still agree.
fn check_sel(sel: &Sel, file: &str, budget: u64, only_deep: bool) {
    let which = match sel.zrf_variant {
        Some(title) => VariantSel::Title(title.to_string()),
        None => VariantSel::First,
    };
    let game = load_game(&Path::new(env!("CARGO_MANIFEST_DIR")).join(file), &which).unwrap();
    let engine = engine_for(&game);
    let reference = reference();
    let entries: Vec<&Value> = reference["entries"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["game"] == sel.game)
        .filter(|e| e["variant"].as_str().unwrap_or("").starts_with(sel.variant))
        .filter(|e| (sel.positions)(e["position"].as_str().unwrap_or("")))
        .collect();
    let has_drop = |pos: &Value| {
        entries
            .iter()
            .any(|e| e["position"] == *pos && e["duplicates"] == "drop")
    };
    let mut ran = 0;
    let mut failures = vec![];
    for e in &entries {
        let position = e["position"].as_str().unwrap_or("");
        let max_depth = match e["duplicates"].as_str() {
            Some("keep") if has_drop(&e["position"]) => continue,
            Some("keep") => (sel.other_convention_max_depth)(position),
            _ => u32::MAX,
        };
        let fen = e["fen"].as_str().unwrap_or("");
        let start = if position.split_whitespace().any(|w| w == "start") {
            engine.initial()
        } else {
            position::parse(&game, &(sel.convert)(fen)).unwrap()
        };
        let mut depths: Vec<(u32, u64)> = e["depths"]
            .as_object()
            .unwrap()
            .iter()
            .map(|(d, n)| (d.parse().unwrap(), n.as_u64().unwrap()))
            .filter(|(d, _)| *d <= max_depth)
            .map(|(d, n)| {
                let fixed = sel
                    .corrections
                    .iter()
                    .find(|c| c.0 == position && c.1 == d)
                    .map_or(n, |c| c.2);
                (d, fixed)
            })
            .collect();
        depths.sort();
        let mut chosen: Vec<(u32, u64)> =
            depths.into_iter().filter(|(_, n)| *n <= budget).collect();
        if only_deep {
            chosen = chosen.pop().into_iter().collect();
        }
        for &(d, expected) in &chosen {
            let t = std::time::Instant::now();
            let got = engine.perft(&start, d).unwrap();
            println!(
                "{} {position} d{d}: {got} (expected {expected}) in {:.2} s",
                sel.game,
                t.elapsed().as_secs_f64()
            );
            ran += 1;
            if got != expected {
                failures.push(format!("{position} d{d}: got {got}, expected {expected}"));
            }
        }
    }
    assert!(ran > 0, "no reference position of {} ran", sel.game);
    assert!(
        failures.is_empty(),
        "{} perft mismatches:\n{}",
        sel.game,
        failures.join("\n")
    );
}

#[test]
fn chess() {
    check("chess", "games/chess.zrf", 200_000, false, chess_fen);
}

#[test]
#[ignore = "deep: chess start d5 and the standard positions at the depths the issue names; see README"]
fn chess_deep() {
    check("chess", "games/chess.zrf", 5_000_000, true, chess_fen);
}

#[test]
fn breakthrough() {
    check(
        "breakthrough",
        "games/breakthrough.zrf",
        300_000,
        false,
        |f| f.to_string(),
    );
}

fn no_cap(_: &str) -> u32 {
    u32::MAX
}

const ENGLISH: Sel = Sel {
    game: "draughts",
    variant: "english",
    positions: |p| p.starts_with("start"),
    zrf_variant: None,
    convert: pdn8,
    other_convention_max_depth: no_cap,
    corrections: &[],
};

#[test]
fn english_checkers() {
    check_sel(&ENGLISH, "games/english-checkers.zrf", 300_000, false);
}

#[test]
#[ignore = "deep: English checkers start d8; see README"]
fn english_checkers_deep() {
    check_sel(&ENGLISH, "games/english-checkers.zrf", 845_931, true);
}

/// The 6x6 start has only a keep-duplicates entry; from d11 on it counts capture-order duplicates that the
/// engine merges (ours: d11 808,155, d12 2,209,527 against 808,158 and 2,209,549; counting every capture path
/// gives exactly the keep numbers), so it is checked to d10.
const ENGLISH_6X6: Sel = Sel {
    game: "draughts",
    variant: "english",
    positions: |p| p == "6x6 board start",
    zrf_variant: Some("English Checkers 6x6"),
    convert: pdn8,
    other_convention_max_depth: |_| 10,
    corrections: &[],
};

#[test]
fn english_checkers_6x6() {
    check_sel(&ENGLISH_6X6, "games/english-checkers.zrf", 300_000, false);
}

const RUSSIAN: Sel = Sel {
    game: "draughts",
    variant: "russian",
    positions: |_| true,
    zrf_variant: None,
    convert: pdn8,
    other_convention_max_depth: no_cap,
    corrections: &[],
};

#[test]
fn russian_draughts() {
    check_sel(&RUSSIAN, "games/russian-draughts.zrf", 50_000, false);
}

#[test]
#[ignore = "deep: Russian draughts start d7; see README"]
fn russian_draughts_deep() {
    check_sel(&RUSSIAN, "games/russian-draughts.zrf", 190_146, true);
}

const BRAZILIAN: Sel = Sel {
    game: "draughts",
    variant: "brazilian",
    positions: |_| true,
    zrf_variant: None,
    convert: pdn8,
    other_convention_max_depth: no_cap,
    corrections: &[],
};

#[test]
fn brazilian_draughts() {
    check_sel(&BRAZILIAN, "games/brazilian-draughts.zrf", 50_000, false);
}

#[test]
#[ignore = "deep: Brazilian draughts start d7; see README"]
fn brazilian_draughts_deep() {
    check_sel(&BRAZILIAN, "games/brazilian-draughts.zrf", 187_302, true);
}

/// "shashki front rows" has only a keep-duplicates entry: from d9 on it counts capture-order duplicates that
/// the engine merges (ours: d9 1,008,313, d10 3,174,155, d11 10,369,511 against 1,008,317, 3,174,159,
/// 10,369,533), so it is checked to d8.
const INTERNATIONAL: Sel = Sel {
    game: "draughts",
    variant: "international",
    positions: |_| true,
    zrf_variant: None,
    convert: pdn10,
    other_convention_max_depth: |_| 8,
    corrections: &[],
};

#[test]
fn international_draughts() {
    check_sel(
        &INTERNATIONAL,
        "games/international-draughts.zrf",
        200_000,
        false,
    );
}

#[test]
#[ignore = "deep: international draughts start d6 and the FMJD positions to ~1M leaves; see README"]
fn international_draughts_deep() {
    check_sel(
        &INTERNATIONAL,
        "games/international-draughts.zrf",
        1_100_000,
        true,
    );
}

/// Italian: the start has a drop-duplicates entry (d12 and d13 differ from the keep numbers); the three Gilbert
/// positions have only keep-duplicates entries, checked to d8. Past it they count capture-order duplicates that
/// the engine merges: Gilbert 1 d10 is 164,177 kept and 164,173 dropped (pydraughts 0.6.7 both ways), and
/// ours is 164,173 (d9 43,686 agrees; the start d10 17,761,384 agrees too).
const ITALIAN: Sel = Sel {
    game: "draughts",
    variant: "italian",
    positions: |_| true,
    zrf_variant: None,
    convert: pdn_italian,
    other_convention_max_depth: |_| 8,
    corrections: &[],
};

#[test]
fn italian_draughts() {
    check_sel(&ITALIAN, "games/italian-draughts.zrf", 200_000, false);
}

#[test]
#[ignore = "deep: Italian draughts start and Gilbert positions to d8 (Gilbert 3 d8: 19,914,763); see README"]
fn italian_draughts_deep() {
    check_sel(&ITALIAN, "games/italian-draughts.zrf", 20_000_000, false);
}

/// The only Turkish numbers come from pydraughts 0.6.7 (no published value exists), and its d5 is wrong:
/// there a king may slide across its own man (after 1. a3-a4 a6-a5 2. a4xa6xa8 b6-b5 the new king on a8 gets
/// a8-a1 across the man on a2). With such moves filtered out pydraughts itself counts 85,090, our number.
const TURKISH: Sel = Sel {
    game: "draughts",
    variant: "turkish",
    positions: |_| true,
    zrf_variant: None,
    convert: pdn_turkish,
    other_convention_max_depth: no_cap,
    corrections: &[("start", 5, 85_090)],
};

#[test]
fn turkish_draughts() {
    check_sel(&TURKISH, "games/turkish-draughts.zrf", 300_000, false);
}

const OTHELLO: Sel = Sel {
    game: "othello",
    variant: "",
    positions: |_| true,
    zrf_variant: None,
    convert: |f| f.to_string(),
    other_convention_max_depth: no_cap,
    corrections: &[],
};

#[test]
fn othello() {
    check_sel(&OTHELLO, "games/othello.zrf", 60_000, false);
}

#[test]
#[ignore = "deep: Othello start d6 ... d8; see README"]
fn othello_deep() {
    check_sel(&OTHELLO, "games/othello.zrf", 400_000, true);
}

const AMAZONS: Sel = Sel {
    game: "amazons",
    variant: "",
    positions: |_| true,
    zrf_variant: None,
    convert: |f| f.to_string(),
    other_convention_max_depth: no_cap,
    corrections: &[],
};

#[test]
fn amazons() {
    check_sel(&AMAZONS, "games/amazons.zrf", 300_000, false);
}

#[test]
#[ignore = "deep: Amazons start d2 (4,307,152); see README"]
fn amazons_deep() {
    check_sel(&AMAZONS, "games/amazons.zrf", 4_307_152, true);
}

/// Converts a Xiangqi FEN (ranks 10 to 1, files a-i; upper case Red; `w` is Red to move) to the position format
/// of `games/xiangqi.zrf`.
fn xiangqi_fen(fen: &str) -> String {
    let f: Vec<&str> = fen.split_whitespace().collect();
    let mut out = String::from(if f.get(1) == Some(&"b") {
        "turn Black\n"
    } else {
        "turn Red\n"
    });
    for (r, rank) in f[0].split('/').enumerate() {
        let mut file = 0u8;
        for c in rank.chars() {
            if let Some(d) = c.to_digit(10) {
                file += d as u8;
                continue;
            }
            let owner = if c.is_ascii_uppercase() {
                "Red"
            } else {
                "Black"
            };
            let kind = match c.to_ascii_lowercase() {
                'k' => "General",
                'a' => "Advisor",
                'b' | 'e' => "Elephant",
                'n' | 'h' => "Horse",
                'r' => "Chariot",
                'c' => "Cannon",
                _ => "Soldier",
            };
            out += &format!("piece {owner} {kind} {}{}\n", (b'a' + file) as char, 10 - r);
            file += 1;
        }
    }
    out
}

const XIANGQI: Sel = Sel {
    game: "xiangqi",
    variant: "",
    positions: |_| true,
    zrf_variant: None,
    convert: xiangqi_fen,
    other_convention_max_depth: no_cap,
    corrections: &[],
};

/// The start d1-d3 and every reference position to depth 3 (and FSF test 3 at d4: at most 100,000 leaves).
#[test]
fn xiangqi() {
    check_sel(&XIANGQI, "games/xiangqi.zrf", 100_000, false);
}

#[test]
#[ignore = "deep: Xiangqi start d4 (3,290,240), FSF test 2 d4 (4,485,547) and every reference depth up to 4.5M leaves; see README"]
fn xiangqi_deep() {
    check_sel(&XIANGQI, "games/xiangqi.zrf", 4_500_000, false);
}

/// The FEN reader gives the start position as the game sets it up.
#[test]
fn xiangqi_start_converts() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("games/xiangqi.zrf");
    let game = load_game(&path, &VariantSel::First).unwrap();
    let fen = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";
    let parsed = position::parse(&game, &xiangqi_fen(fen)).unwrap();
    let initial = engine_for(&game).initial();
    assert_eq!(parsed.cells(), initial.cells());
    assert_eq!(parsed.turn(), initial.turn());
}

/// Shogi: the reference has the start position only (the game's own initial state).
const SHOGI: Sel = Sel {
    game: "shogi",
    variant: "standard",
    positions: |p| p.starts_with("start"),
    zrf_variant: None,
    convert: |_| String::new(),
    other_convention_max_depth: no_cap,
    corrections: &[],
};

/// The start d1-d3 (30, 900, 25,470).
#[test]
fn shogi() {
    check_sel(&SHOGI, "games/shogi.zrf", 30_000, false);
}

/// The start d4 (719,731): about half a second in release.
#[test]
fn shogi_d4() {
    check_sel(&SHOGI, "games/shogi.zrf", 719_731, true);
}

/// The PDN converters read the reference's start positions as our games set them up.
#[test]
fn draughts_start_positions_convert() {
    for (file, fen, convert) in [
        (
            "games/english-checkers.zrf",
            "B:W21-32:B1-12",
            pdn8 as fn(&str) -> String,
        ),
        ("games/russian-draughts.zrf", "W:W21-32:B1-12", pdn8),
        ("games/brazilian-draughts.zrf", "W:W21-32:B1-12", pdn8),
        ("games/international-draughts.zrf", "W:W31-50:B1-20", pdn10),
        ("games/italian-draughts.zrf", "W:W21-32:B1-12", pdn_italian),
        ("games/turkish-draughts.zrf", "W:W9-24:B41-56", pdn_turkish),
    ] {
        let game = load_game(
            &Path::new(env!("CARGO_MANIFEST_DIR")).join(file),
            &VariantSel::First,
        )
        .unwrap();
        let engine = engine_for(&game);
        let parsed = position::parse(&game, &convert(fen)).unwrap();
        let initial = engine.initial();
        assert_eq!(parsed.cells(), initial.cells(), "{file}: {fen}");
        assert_eq!(parsed.turn(), initial.turn(), "{file}: {fen}");
    }
}

/// Perft of a game of `../shared/reference/perft-families.json` (OpenSpiel's counts: whole turns, terminal
/// positions not expanded), from the start, depths 1..=`max_depth`.
fn check_family(family: &str, file: &str, max_depth: usize) {
    check_family_variant(family, file, VariantSel::First, max_depth)
}

/// [`check_family`] on a given variant of the file.
fn check_family_variant(family: &str, file: &str, variant: VariantSel, max_depth: usize) {
    let p = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/reference/perft-families.json");
    let reference: Value =
        serde_json::from_str(&std::fs::read_to_string(p).expect("perft-families.json"))
            .expect("perft-families.json is JSON");
    let counts: Vec<u64> = reference["counts"][family]
        .as_array()
        .unwrap_or_else(|| panic!("no counts for {family}"))
        .iter()
        .map(|n| n.as_u64().unwrap())
        .collect();
    let game = load_game(&Path::new(env!("CARGO_MANIFEST_DIR")).join(file), &variant).unwrap();
    let engine = engine_for(&game);
    let start = engine.initial();
    let mut failures = vec![];
    for (i, &expected) in counts.iter().enumerate().take(max_depth) {
        let d = i as u32 + 1;
        let got = engine.perft(&start, d).unwrap();
        println!("{family} start d{d}: {got} (expected {expected})");
        if got != expected {
            failures.push(format!("d{d}: got {got}, expected {expected}"));
        }
    }
    assert!(
        failures.is_empty(),
        "{family} perft mismatches:\n{}",
        failures.join("\n")
    );
}

/// Nine Men's Morris to d5 (5,140,800, about 2 s): a move is a whole turn, a mill's removal included, as
/// OpenSpiel counts. Placement alone reaches d5; the first mills (and so the choice of the stone to remove)
/// come at ply 5, which is where d5 differs from 24·23·22·21·20.
#[test]
fn nine_mens_morris() {
    check_family("nine_mens_morris", "games/nine-mens-morris.zrf", 5);
}

#[test]
#[ignore = "deep: Nine Men's Morris start d6 (99,274,176, ~30 s); see README"]
fn nine_mens_morris_deep() {
    check_family("nine_mens_morris", "games/nine-mens-morris.zrf", 6);
}

/// Lines of Action from the start, against `../shared/reference/perft-families.md`: d1-d4 = 36, 1,244, 44,952,
/// 1,563,208 (about 1 s for d4 here).
#[test]
fn lines_of_action() {
    let game = load_game(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("games/lines-of-action.zrf"),
        &VariantSel::First,
    )
    .unwrap();
    let engine = engine_for(&game);
    let start = engine.initial();
    for (d, want) in [(1, 36), (2, 1_244), (3, 44_952), (4, 1_563_208)] {
        assert_eq!(
            engine.perft(&start, d).unwrap(),
            want,
            "lines-of-action d{d}"
        );
    }
}

/// Oware (Abapa) from the start, d1-d7 (139,157; well under a second), against OpenSpiel's `oware`: the
/// origin pit skipped on a lap, captures of 2 and 3 chained backwards in the opponent's row, a grand slam
/// captures nothing, a starving opponent must be fed. d8 (711,414, about a second) is in `oware_deep`.
#[test]
fn oware() {
    check_family("oware", "games/oware.zrf", 7);
}

#[test]
#[ignore = "deep: Oware start d8 (711,414, ~1 s); see README"]
fn oware_deep() {
    check_family("oware", "games/oware.zrf", 8);
}

/// Kalah from the start, d1-d5 (125,843), against OpenSpiel's `mancala` joined into whole turns: a sowing
/// whose last seed falls in the own store goes on in the same move, so d1 is 10 (6 pits, one of which ends
/// in the store and gives 5 continuations). d6 (1,090,937, ~3 s) and d7 (10,171,475) are in `kalah_deep`.
#[test]
fn kalah() {
    check_family("mancala", "games/kalah.zrf", 5);
}

#[test]
#[ignore = "deep: Kalah start d6-d7 (1,090,937 and 10,171,475, ~35 s); see README"]
fn kalah_deep() {
    check_family("mancala", "games/kalah.zrf", 7);
}

/// Perft of a game in `games/` from its start.
fn start_perft(file: &str, depth: u32) -> u64 {
    let game = load_game(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join(file),
        &VariantSel::First,
    )
    .unwrap();
    let engine = engine_for(&game);
    engine.perft(&engine.initial(), depth).unwrap()
}

/// Lasca: no published perft exists (`../shared/reference` has none). d1-d3 are counted by hand from the
/// rules: 6 first moves; each is answered by exactly one compulsory capture; then 5, 2, 2, 2, 2, 5 replies
/// (the recaptures of a Black column on c3 or e3 are forced; after a3-b4 or g3-f4 nothing can be taken).
/// d4-d12 are those of `tests/reference/lasca_perft.py`, a generator written apart from dagaz from the same
/// rules (it agrees to d12). Convention: a capture chain is one move.
#[test]
fn lasca() {
    let counts = [
        (1, 6),
        (2, 6),
        (3, 18),
        (4, 54),
        (5, 116),
        (6, 324),
        (7, 846),
        (8, 2_148),
        (9, 5_692),
        (10, 13_898),
        (11, 37_124),
        (12, 97_420),
    ];
    for (d, want) in counts {
        assert_eq!(start_perft("games/lasca.zrf", d), want, "lasca d{d}");
    }
}

/// Bashni: no published perft exists. Its start is Russian draughts' and a column can first be jumped at ply 4
/// (a capture makes it at ply 3 at the earliest), so d1-d4 must be the Russian counts of
/// `../shared/reference/perft.json` (7, 49, 302, 1,469). d5-d7 are those of `tests/reference/bashni_perft.py`,
/// a generator written apart from dagaz (Russian draughts from d6 on: 37,986 and 190,146, where columns
/// block and freed prisoners stay).
#[test]
fn bashni() {
    let counts = [
        (1, 7),
        (2, 49),
        (3, 302),
        (4, 1_469),
        (5, 7_482),
        (6, 37_908),
        (7, 189_912),
    ];
    for (d, want) in counts {
        assert_eq!(start_perft("games/bashni.zrf", d), want, "bashni d{d}");
    }
}

/// Connect Four, `games/connect-four.zrf`: its fall and its end are the `connect-four` extension module,
/// named in the file (`(extension connect-four)`); d1-d6 here, d8 in the deep test.
#[test]
fn connect_four() {
    check(
        "connect four",
        "games/connect-four.zrf",
        120_000,
        false,
        |f| f.to_string(),
    );
}

#[test]
#[ignore]
fn connect_four_deep() {
    check(
        "connect four",
        "games/connect-four.zrf",
        6_000_000,
        true,
        |f| f.to_string(),
    );
}

/// Go against OpenSpiel's `go` (`../shared/reference/perft-families.md`): a move is a whole turn, the pass is
/// a move, two passes in a row end the game (that position is a leaf, not expanded), suicide is illegal,
/// simple ko. 5x5 d1-d4 = 26, 651, 15,650, 361,041; 9x9 d1-d3 = 82, 6,643, 531,522. OpenSpiel ends the game
/// as a draw on a superko repetition where our main variant only forbids the simple ko; no repetition of
/// either kind can happen within four plies from the empty board, so the counts do not tell them apart.
/// Captures do happen (from ply 3 on 5x5: b1, a1, a2 takes a1) and suicide is refused at ply 4 (b1, x, a2,
/// then a1 for White), so d3 and d4 check both rules.
#[test]
fn go_5x5() {
    check_family_variant(
        "go(board_size=5)",
        "games/go-9x9.zrf",
        VariantSel::Title("Go 5x5".into()),
        4,
    );
}

#[test]
fn go_9x9() {
    check_family("go(board_size=9)", "games/go-9x9.zrf", 3);
    check_family_variant(
        "go(board_size=9)",
        "games/go-9x9.zrf",
        VariantSel::Title("Go 9x9, positional superko".into()),
        3,
    );
}

/// Hex 9x9 from `../shared/reference/perft.json` (radekmie/rg, checked against OpenSpiel to d3): 81, 6,480,
/// 511,920 = 81, 81 x 80, 81 x 80 x 79: every empty cell is a move and no swap (pie) rule adds a move at
/// ply 2 (it would make d2 81 x 81). No chain can link two edges before 9 stones of one colour, so nothing
/// ends earlier. d4 (39,929,760 = 81 x 80 x 79 x 78) runs in the ignored test.
#[test]
fn hex_9x9() {
    let sel = Sel {
        game: "hex",
        variant: "9x9",
        positions: |_| true,
        zrf_variant: Some("Hex 9x9"),
        convert: |f| f.to_string(),
        other_convention_max_depth: |_| u32::MAX,
        corrections: &[],
    };
    check_sel(&sel, "games/hex.zrf", 600_000, false);
}

#[test]
#[ignore = "deep: Hex 9x9 d4 (39,929,760); see README"]
fn hex_9x9_deep() {
    let sel = Sel {
        game: "hex",
        variant: "9x9",
        positions: |_| true,
        zrf_variant: Some("Hex 9x9"),
        convert: |f| f.to_string(),
        other_convention_max_depth: |_| u32::MAX,
        corrections: &[],
    };
    check_sel(&sel, "games/hex.zrf", 40_000_000, true);
}

/// Bashni d8 (925,862, about 1 s), as `tests/reference/bashni_perft.py` counts it.
#[test]
#[ignore = "deep: Bashni d8; see README"]
fn bashni_deep() {
    assert_eq!(start_perft("games/bashni.zrf", 8), 925_862, "bashni d8");
}

/// Every perft test above once more with the general path forced (`EngineOptions::general`: no draughts
/// kernel, count plan, sample plan, royal-listed path, first-op decision or legality cache): the same counts
/// from the interpreter and the composer alone.
mod general_path {
    macro_rules! on_general_path {
        ($($test:ident),* $(,)?) => {
            $(
                #[test]
                fn $test() {
                    super::on_general_path(super::$test);
                }
            )*
        };
    }

    on_general_path!(
        chess,
        breakthrough,
        english_checkers,
        english_checkers_6x6,
        russian_draughts,
        brazilian_draughts,
        international_draughts,
        italian_draughts,
        turkish_draughts,
        othello,
        amazons,
        xiangqi,
        shogi,
        shogi_d4,
        nine_mens_morris,
        lines_of_action,
        oware,
        kalah,
        lasca,
        bashni,
        connect_four,
        go_5x5,
        go_9x9,
        hex_9x9,
    );
}

/// The switch turns every backend off, and the default keeps them: the two ways above differ.
#[test]
fn the_general_path_uses_no_backend() {
    let load = |f: &str| {
        load_game(
            &Path::new(env!("CARGO_MANIFEST_DIR")).join(f),
            &VariantSel::First,
        )
        .unwrap()
    };
    let (checkers, othello, breakthrough, chess) = (
        load("games/english-checkers.zrf"),
        load("games/othello.zrf"),
        load("games/breakthrough.zrf"),
        load("games/chess.zrf"),
    );
    let default = |g| Engine::with_options(g, EngineOptions::default());
    let general = |g| Engine::with_options(g, EngineOptions::general());
    assert!(default(&checkers).draughts_plan().is_some());
    assert!(default(&othello).count_plan().is_some() || default(&othello).sample_plan().is_some());
    assert!(default(&breakthrough).sample_plan().is_some());
    assert!(default(&chess).royal_listed());
    for g in [&checkers, &othello, &breakthrough, &chess] {
        let e = general(g);
        assert!(e.options().general_path);
        assert!(
            e.draughts_plan().is_none() && e.count_plan().is_none(),
            "{}",
            g.title
        );
        assert!(
            e.sample_plan().is_none() && !e.royal_listed(),
            "{}",
            g.title
        );
    }
}

/// Shatar (`games/shatar.zrf`), from its start after 1.d4 d5. d1 = 20 by hand: seven pawns one step each (the
/// d-pawn is blocked), knights b1 (a3, c3, d2) and g1 (f3, h3), bishop c1 (d2, e3, f4, g5, h6), bers d1 (d2,
/// d3; its diagonal steps c2 and e2 are its own pawns), king e1 (d2): 7 + 3 + 2 + 5 + 2 + 1. d2 = 400 by hand:
/// the position is symmetric and no White move reaches Black's pieces or changes Black's 20 replies (after
/// Bc1-h6, h7-h6 is lost and g7xh6 gained). d4 = 177,344: Fairy-Stockfish's `tests/perft.sh`
/// (`shatar startpos 4 177344`).
#[test]
fn shatar() {
    let game = load_game(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("games/shatar.zrf"),
        &VariantSel::First,
    )
    .unwrap();
    let engine = engine_for(&game);
    let s = engine.initial();
    for (d, expected) in [(1, 20), (2, 400), (4, 177_344)] {
        assert_eq!(engine.perft(&s, d).unwrap(), expected, "Shatar d{d}");
    }
}
