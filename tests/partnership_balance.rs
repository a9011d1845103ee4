//! `dagaz evaluate`'s balance measures count sides, not seats, in a game of partners (`(allies ...)`): the
//! two partners of Partnership Chess win or lose together, so one game won by a team is one win of its side.
//! Every expected value is worked by hand in the comments (Wilson's interval with z = 1.96, README's formulas).

#[path = "common/scratch.rs"]
mod scratch_dir;
use dagaz::evaluate::measures::{measure, measure_sides, sides_of};
use dagaz::load::{load_game, VariantSel};
use dagaz::tournament::config::seats_of;
use dagaz::tournament::GameRecord;
use scratch_dir::Scratch;
use std::path::Path;
use std::process::{Command, Stdio};

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

fn close(a: f64, b: f64, tol: f64) {
    assert!((a - b).abs() <= tol, "got {a}, expected {b}");
}

fn game(id: u64, results: [i8; 4], end: &str) -> GameRecord {
    GameRecord {
        game_id: id,
        pair_id: id / 2,
        bots: (1..=4).map(|i| format!("b{i}")).collect(),
        results: results.to_vec(),
        end_type: end.into(),
        end_name: end.into(),
        plies: 40,
        legal_moves: 800,
        ..Default::default()
    }
}

/// Eight games of four seats in two teams, seats 1 and 3 (Red, Yellow) against 2 and 4 (Blue, Green): Red's
/// team wins 5, Blue's team wins 2, one is drawn by the rules.
fn eight_games() -> Vec<GameRecord> {
    let mut g = vec![];
    for i in 0..5 {
        g.push(game(i, [1, -1, 1, -1], "checkmate"));
    }
    for i in 5..7 {
        g.push(game(i, [-1, 1, -1, 1], "checkmate"));
    }
    g.push(game(7, [0, 0, 0, 0], "stalemate"));
    g
}

#[test]
fn partnership_chess_has_two_sides() {
    let chess = load_game(
        &Path::new(ROOT).join("games/partnership-chess.zrf"),
        &VariantSel::First,
    )
    .unwrap();
    // Turn order Red Blue Yellow Green; (allies (Red Yellow) (Blue Green)).
    assert_eq!(sides_of(&chess, &seats_of(&chess)), vec![0, 1, 0, 1]);
    let bt = load_game(
        &Path::new(ROOT).join("games/breakthrough.zrf"),
        &VariantSel::First,
    )
    .unwrap();
    assert_eq!(sides_of(&bt, &seats_of(&bt)), vec![0, 1]);
}

#[test]
fn partners_are_one_side_worked_by_hand() {
    let games = eight_games();
    let m = measure_sides(&games, &[], "weak", &[0, 1, 0, 1]).unwrap();
    assert_eq!(m.seats, 2, "two sides");
    assert_eq!(m.seat_scores.len(), 2);
    // First player's side: (5 + ½)/8 = 0.6875. Wilson, n = 8, z²/n = 0.4802: centre = (0.6875 + 0.2401)/1.4802
    // = 0.626672, half = 1.96/1.4802·√(0.026855 + 0.015006) = 0.270922: [0.355750, 0.897594].
    let fp = m.first_player();
    close(fp.value, 0.6875, 1e-12);
    close(fp.lo, 0.355750, 1e-5);
    close(fp.hi, 0.897594, 1e-5);
    close(m.seat_scores[1].value, 0.3125, 1e-12);
    // Balance: d = s_A − s_B per game is 1 (×5), −1 (×2), 0: (d + 1)/2 sums to 5.5 of 8, the same Wilson
    // interval, so d ∈ [−0.288500, 0.795188] holds 0: balance 1 − 0.375 = 0.625 in [1 − 0.795188, 1].
    close(m.balance.value, 0.625, 1e-12);
    close(m.balance.lo, 0.204812, 1e-5);
    close(m.balance.hi, 1.0, 1e-12);
    // The sign test of the sides' wins, 5 against 2: 2·P(X ≤ 2), X ~ Bin(7, ½) = 2·(1 + 7 + 21)/128.
    assert!(
        m.balance_test.test.contains("sign test"),
        "{}",
        m.balance_test.test
    );
    close(m.balance_test.p, 58.0 / 128.0, 1e-12);
    close(m.completion.value, 7.0 / 8.0, 1e-12);
    close(m.drawishness.value, 1.0 / 8.0, 1e-12);
    // Uniformity: u_A = 1 (×5), −1 (×2), 0, mean 0.375; variance (5·0.625² + 2·1.375² + 0.375²)/8 =
    // 5.875/8 = 0.734375, the same for B: 1 − 0.734375.
    close(m.uniformity.value, 0.265625, 1e-12);
    // The tournament's measures of the same games, as used by differences.csv, are per side too.
    let r = m.rule_set().unwrap();
    close(r.first_player_advantage.value, 0.6875, 1e-12);
    close(r.balance, 0.625, 1e-12);
}

#[test]
fn per_seat_counting_is_what_partners_were_before() {
    // The same games counted per seat (a game without teams): four seats, the wins 5, 2, 5, 2 in a χ² test
    // against equal shares (e = 3.5): χ² = 4·1.5²/3.5 = 2.571429, df 3, p = erfc(√h) + 2√(h/π)·e^−h at
    // h = 1.285714: 0.462521. Counted per side it is the sign test above (p = 0.453125), on half the wins.
    let m = measure(&eight_games(), &[], "weak").unwrap();
    assert_eq!(m.seats, 4);
    assert!(m.balance_test.test.contains("chi-square"));
    close(m.balance_test.p, 0.462521, 1e-5);
}

#[test]
fn mismatched_sides_are_not_measured() {
    assert!(measure_sides(&eight_games(), &[], "weak", &[0, 1]).is_none());
}

#[test]
fn evaluate_writes_two_sides_for_partnership_chess() {
    let out = Scratch::unmade("partners");
    let o = Command::new(env!("CARGO_BIN_EXE_dagaz"))
        .current_dir(ROOT)
        .args([
            "evaluate",
            "games/partnership-chess.zrf",
            "--strong",
            "random",
            "--weak",
            "random:name=random-b",
            "--batch",
            "2",
            "--max-games",
            "2",
            "--max-plies",
            "16",
            "--jobs",
            "1",
            "--quiet",
            "--out",
        ])
        .arg(&out)
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let mut rd = csv::Reader::from_path(out.join("evaluation.csv")).unwrap();
    let h = rd.headers().unwrap().clone();
    let row = rd.records().next().unwrap().unwrap();
    let col = |name: &str| row.get(h.iter().position(|x| x == name).unwrap()).unwrap();
    assert_eq!(col("status"), "ok", "{:?}", row);
    assert_eq!(col("seats"), "2", "Partnership Chess has two sides");
    assert_eq!(col("seat_scores").split("; ").count(), 2, "{:?}", row);
    assert!(col("balance_test").contains("sign test"), "{:?}", row);
    let _ = std::fs::remove_dir_all(&out);
}
