//! Perft against `../shared/reference/perft.json`: move counts published and verified elsewhere. One test
//! function per game family runs every listed position up to a leaf budget; the `_deep` variants (ignored by
//! default, see README) run the depths the issues require.

use dagaz::engine::{position, Engine};
use dagaz::load::{load_game, VariantSel};
use serde_json::Value;
use std::path::Path;

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

/// Runs every reference position of `game` whose leaf count at a depth is at most `budget`.
fn check(game_name: &str, file: &str, budget: u64, only_deep: bool, convert: fn(&str) -> String) {
    let game = load_game(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join(file),
        &VariantSel::First,
    )
    .unwrap();
    let engine = Engine::new(&game);
    let reference = reference();
    let mut ran = 0;
    let mut failures = vec![];
    for e in reference["entries"].as_array().unwrap() {
        if e["game"] != game_name {
            continue;
        }
        let fen = e["fen"].as_str().unwrap_or("");
        let start = if e["position"] == "start" {
            engine.initial()
        } else {
            position::parse(&game, &convert(fen)).unwrap()
        };
        let mut depths: Vec<(u32, u64)> = e["depths"]
            .as_object()
            .unwrap()
            .iter()
            .map(|(d, n)| (d.parse().unwrap(), n.as_u64().unwrap()))
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
                "{game_name} {} d{d}: {got} (expected {expected}) in {:.2} s",
                e["position"],
                t.elapsed().as_secs_f64()
            );
            ran += 1;
            if got != expected {
                failures.push(format!(
                    "{} d{d}: got {got}, expected {expected}",
                    e["position"]
                ));
            }
        }
    }
    assert!(ran > 0, "no reference position of {game_name} ran");
    assert!(
        failures.is_empty(),
        "{game_name} perft mismatches:\n{}",
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
