//! Short games replayed through `dagaz session` (the binary, over stdin/stdout), checking legal-move counts
//! known from the rules and how each game ends: a checkmate, a stalemate, a repetition, a breakthrough.

use serde_json::{json, Value};
use std::io::Write;
use std::process::{Command, Stdio};

/// Sends the requests to a session on `game` and returns one answer per request that answers.
fn session(game: &str, requests: &[Value]) -> Vec<Value> {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(game);
    let mut child = Command::new(env!("CARGO_BIN_EXE_dagaz"))
        .args(["session", path.to_str().unwrap()])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("dagaz runs");
    {
        let mut stdin = child.stdin.take().unwrap();
        for r in requests {
            writeln!(stdin, "{r}").unwrap();
        }
    }
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success());
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// Plays the moves, checking that each is accepted; then asks for the moves and the result.
fn replay(game: &str, moves: &[&str]) -> (Vec<Value>, Value, Value) {
    let mut reqs: Vec<Value> = moves
        .iter()
        .map(|m| json!({"cmd": "play", "move": m}))
        .collect();
    reqs.push(json!({"cmd": "moves"}));
    reqs.push(json!({"cmd": "result"}));
    let answers = session(game, &reqs);
    assert_eq!(answers.len(), moves.len() + 2);
    for (m, a) in moves.iter().zip(&answers) {
        assert_eq!(a["ok"], true, "{m} was refused: {a}");
    }
    let n = answers.len();
    (
        answers[..moves.len()].to_vec(),
        answers[n - 2].clone(),
        answers[n - 1].clone(),
    )
}

fn count(moves_answer: &Value) -> usize {
    moves_answer["moves"].as_array().unwrap().len()
}

#[test]
fn chess_move_counts_from_the_rules() {
    // Twenty moves at the start (16 pawn moves, 4 knight moves); after any first move, Black has twenty too.
    let a = session(
        "games/chess.zrf",
        &[
            json!({"cmd":"moves"}),
            json!({"cmd":"play","move":"e2-e4"}),
            json!({"cmd":"moves"}),
        ],
    );
    assert_eq!(count(&a[0]), 20);
    assert_eq!(count(&a[2]), 20);
    assert_eq!(a[2]["to_move"], "Black");
}

#[test]
fn chess_fools_mate_is_checkmate() {
    let (_, moves, result) = replay("games/chess.zrf", &["f2-f3", "e7-e5", "g2-g4", "d8-h4"]);
    assert_eq!(count(&moves), 0);
    assert_eq!(result["over"], true);
    let o = &result["outcome"];
    assert_eq!(o["end_type"], "checkmated");
    assert_eq!(o["name"], "checkmate");
    assert_eq!(o["results"]["Black"], 1);
    assert_eq!(o["results"]["White"], -1);
}

#[test]
fn chess_loyds_ten_move_stalemate() {
    // Sam Loyd's shortest stalemate: 1.e3 a5 2.Qh5 Ra6 3.Qxa5 h5 4.h4 Rah6 5.Qxc7 f6 6.Qxd7+ Kf7 7.Qxb7 Qd3
    // 8.Qxb8 Qh7 9.Qxc8 Kg6 10.Qe6, and Black, not in check, has no move.
    let line = [
        "e2-e3", "a7-a5", "d1-h5", "a8-a6", "h5-a5", "h7-h5", "h2-h4", "a6-h6", "a5-c7", "f7-f6",
        "c7-d7", "e8-f7", "d7-b7", "d8-d3", "b7-b8", "d3-h7", "b8-c8", "f7-g6", "c8-e6",
    ];
    let (_, moves, result) = replay("games/chess.zrf", &line);
    assert_eq!(count(&moves), 0);
    let o = &result["outcome"];
    assert_eq!(o["end_type"], "stalemated");
    assert_eq!(o["name"], "stalemate");
    assert_eq!(o["results"]["White"], 0);
    assert_eq!(o["results"]["Black"], 0);
}

#[test]
fn chess_threefold_repetition_draws() {
    let knights = ["g1-f3", "g8-f6", "f3-g1", "f6-g8"];
    // After one round trip the start position stands for the second time: the game goes on.
    let (_, _, result) = replay("games/chess.zrf", &knights);
    assert_eq!(result["over"], false);
    let twice: Vec<&str> = knights.iter().chain(&knights).copied().collect();
    let (_, moves, result) = replay("games/chess.zrf", &twice);
    assert_eq!(count(&moves), 20);
    assert_eq!(result["outcome"]["end_type"], "repetition");
    assert_eq!(result["outcome"]["results"]["White"], 0);
}

#[test]
fn chess_castling_and_en_passant_appear_in_the_move_list() {
    let a = session(
        "games/chess.zrf",
        &[
            json!({"cmd":"play","move":"e2-e4"}),
            json!({"cmd":"play","move":"a7-a6"}),
            json!({"cmd":"play","move":"e4-e5"}),
            json!({"cmd":"play","move":"d7-d5"}),
            json!({"cmd":"moves"}),
            json!({"cmd":"play","move":"e5-d6xd5"}),
            json!({"cmd":"state"}),
        ],
    );
    assert_eq!(a[5]["ok"], true, "{}", a[5]);
    let notations: Vec<&str> = a[4]["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["notation"].as_str().unwrap())
        .collect();
    assert!(notations.contains(&"e5-d6xd5"), "{notations:?}");
    let pieces = a[6]["pieces"].as_array().unwrap();
    assert!(
        !pieces.iter().any(|p| p["at"] == "d5"),
        "the pawn taken en passant is gone"
    );
    let a = session(
        "games/chess.zrf",
        &[
            json!({"cmd":"play","move":"g1-f3"}),
            json!({"cmd":"play","move":"a7-a6"}),
            json!({"cmd":"play","move":"g2-g3"}),
            json!({"cmd":"play","move":"a6-a5"}),
            json!({"cmd":"play","move":"f1-g2"}),
            json!({"cmd":"play","move":"a5-a4"}),
            json!({"cmd":"play","move":"e1-g1 h1-f1"}),
            json!({"cmd":"state"}),
        ],
    );
    assert_eq!(a[6]["ok"], true, "short castling is legal: {}", a[6]);
    let pieces = a[7]["pieces"].as_array().unwrap();
    let at = |sq: &str| {
        pieces
            .iter()
            .find(|p| p["at"] == sq)
            .map(|p| p["piece"].clone())
    };
    assert_eq!(at("g1"), Some(json!("King")));
    assert_eq!(at("f1"), Some(json!("Rook")));
}

#[test]
fn breakthrough_reaching_the_last_row_wins() {
    let line = [
        "a2-a3", "h7-h6", "a3-a4", "h6-h5", "a4-a5", "h5-h4", "a5-a6", "g7-g6", "a6-b7", "g6-g5",
        "b7-a8",
    ];
    let (_, _, result) = replay("games/breakthrough.zrf", &line);
    let o = &result["outcome"];
    assert_eq!(o["end_type"], "absolute-config");
    assert_eq!(o["name"], "breakthrough");
    assert_eq!(o["results"]["White"], 1);
    assert_eq!(o["results"]["Black"], -1);
}

#[test]
fn bad_requests_get_errors_not_crashes() {
    let a = session(
        "games/chess.zrf",
        &[
            json!({"cmd":"fly"}),
            json!({"cmd":"play","move":"e2-e5"}),
            json!({"cmd":"play","id":99}),
            json!({"cmd":"undo"}),
        ],
    );
    assert!(a.iter().all(|x| x.get("error").is_some()), "{a:?}");
}

/// Loads a position, checks the number of legal moves, plays the moves given, and returns the moves answer and
/// the result after them.
fn from_position(
    game: &str,
    position: &str,
    expected_moves: usize,
    line: &[&str],
) -> (Value, Value) {
    let mut reqs = vec![
        json!({"cmd": "load", "position": position}),
        json!({"cmd": "moves"}),
    ];
    reqs.extend(line.iter().map(|m| json!({"cmd": "play", "move": m})));
    reqs.push(json!({"cmd": "moves"}));
    reqs.push(json!({"cmd": "result"}));
    let a = session(game, &reqs);
    assert_eq!(a[0]["ok"], true, "{}", a[0]);
    assert_eq!(count(&a[1]), expected_moves, "{game}: {}", a[1]);
    for (m, r) in line.iter().zip(&a[2..]) {
        assert_eq!(r["ok"], true, "{game}: {m} was refused: {r}");
    }
    let n = a.len();
    (a[n - 2].clone(), a[n - 1].clone())
}

fn assert_won_by(result: &Value, winner: &str, loser: &str, end_type: &str) {
    assert_eq!(result["over"], true, "{result}");
    let o = &result["outcome"];
    assert_eq!(o["end_type"], end_type, "{result}");
    assert_eq!(o["results"][winner], 1, "{result}");
    assert_eq!(o["results"][loser], -1, "{result}");
}

#[test]
fn english_checkers_double_jump_with_promotion_wins() {
    // d4 takes e5 and g7 in one move and is crowned on h8; Black has nothing left and loses.
    let pos = "turn White\npiece White Man d4\npiece Black Man e5\npiece Black Man g7\n";
    let (moves, result) = from_position(
        "games/english-checkers.zrf",
        pos,
        1,
        &["d4-f6xe5-h8xg7=King"],
    );
    assert_eq!(count(&moves), 0);
    assert_won_by(&result, "White", "Black", "stalemated");
    // From the start, Black moves first and has seven moves.
    let a = session("games/english-checkers.zrf", &[json!({"cmd":"moves"})]);
    assert_eq!(count(&a[0]), 7);
    assert_eq!(a[0]["to_move"], "Black");
}

#[test]
fn russian_draughts_promotion_inside_a_capture() {
    // The man takes e7, is crowned on d8 and flies on over c7 as a king: two landing squares, two moves.
    let pos = "turn White\npiece White Man f6\npiece Black Man e7\npiece Black Man c7\n";
    let (_, result) = from_position(
        "games/russian-draughts.zrf",
        pos,
        2,
        &["f6-d8xe7=King-a5xc7"],
    );
    assert_won_by(&result, "White", "Black", "stalemated");
}

#[test]
fn brazilian_draughts_man_passing_the_last_row_stays_a_man() {
    let pos = "turn White\npiece White Man f6\npiece Black Man e7\npiece Black Man c7\n";
    let (_, result) = from_position("games/brazilian-draughts.zrf", pos, 1, &["f6-d8xe7-b6xc7"]);
    assert_won_by(&result, "White", "Black", "stalemated");
}

#[test]
fn international_draughts_flying_king_takes_two() {
    // The king must land on e5 after c3 to take f4 too, then may stop on g3, h2 or i1.
    let pos = "turn White\npiece White King a1\npiece Black Man c3\npiece Black Man f4\n";
    let (_, result) = from_position(
        "games/international-draughts.zrf",
        pos,
        3,
        &["a1-e5xc3-h2xf4"],
    );
    assert_won_by(&result, "White", "Black", "stalemated");
    let a = session(
        "games/international-draughts.zrf",
        &[json!({"cmd":"moves"})],
    );
    assert_eq!(count(&a[0]), 9, "nine opening moves on the 10x10 board");
}

#[test]
fn turkish_draughts_capture_is_compulsory() {
    // The man could step sideways or forward, but the capture of d5 is compulsory.
    let pos = "turn White\npiece White Man d4\npiece Black Man d5\n";
    let (_, result) = from_position("games/turkish-draughts.zrf", pos, 1, &["d4-d6xd5"]);
    assert_won_by(&result, "White", "Black", "stalemated");
}

#[test]
fn othello_forced_pass_then_the_count_decides() {
    // Black cannot flank anything and must pass; White closes b1 from c1; then nobody can move and White,
    // with every stone, wins the count.
    let pos = "turn Black\npiece White Stone a1\npiece Black Stone b1\n";
    let (_, result) = from_position(
        "games/othello.zrf",
        pos,
        1,
        &["pass", "Stone@c1", "pass", "pass"],
    );
    assert_eq!(result["over"], true, "{result}");
    assert_eq!(result["outcome"]["results"]["White"], 1);
    assert_eq!(result["outcome"]["results"]["Black"], -1);
    let a = session("games/othello.zrf", &[json!({"cmd":"moves"})]);
    assert_eq!(count(&a[0]), 4, "four opening moves");
}

#[test]
fn amazons_a_boxed_in_amazon_loses() {
    // 2,176 moves at the start (queen move and arrow together).
    let a = session("games/amazons.zrf", &[json!({"cmd":"moves"})]);
    assert_eq!(count(&a[0]), 2176);
    let pos = "turn Black\npiece Black Amazon a1\npiece White Arrow a2\npiece White Arrow b1\npiece White Arrow b2\npiece White Amazon j10\n";
    let (_, result) = from_position("games/amazons.zrf", pos, 0, &[]);
    assert_won_by(&result, "White", "Black", "stalemated");
}

/// Integer attributes are numbers, not flags: a Kalah pit shows `values: {"seeds": 4}` (it was listed as a
/// true attribute `seeds`, without its count); `last_mover` names who made the last move.
#[test]
fn state_shows_integer_attributes_and_the_last_mover() {
    let a = session(
        "games/kalah.zrf",
        &[
            json!({"cmd": "state"}),
            json!({"cmd": "play", "move": "a1"}),
            json!({"cmd": "state"}),
        ],
    );
    let pit = |s: &Value, at: &str| -> Value {
        s["pieces"]
            .as_array()
            .unwrap()
            .iter()
            .find(|p| p["at"] == at)
            .cloned()
            .unwrap()
    };
    assert_eq!(a[0]["last_mover"], Value::Null, "{}", a[0]);
    assert_eq!(pit(&a[0], "a1")["values"], json!({"seeds": 4}));
    assert_eq!(pit(&a[0], "a1")["attributes"], json!([]));
    assert_eq!(a[1]["ok"], true, "{}", a[1]);
    // South sows a1's four seeds into b1..e1: a1 is empty, b1 holds 5.
    assert_eq!(a[2]["last_mover"], "South", "{}", a[2]);
    assert_eq!(pit(&a[2], "a1")["values"], json!({}));
    assert_eq!(pit(&a[2], "b1")["values"], json!({"seeds": 5}));
}

/// A backgammon hit puts the bar's new count on the bar (`Place`); the move's JSON shows that count, so a
/// client can rebuild the position from the move alone.
#[test]
fn a_placed_piece_shows_its_attributes() {
    // White's checker on p10 throws 3-6; 10/7 hits Black's blot on p7, and Black already has one on the bar.
    let position = "turn White\npiece ?Dice Three die1\npiece ?Dice Six die2\n\
        piece White Checker p10 count=1\npiece White Checker p24 count=14\n\
        piece Black Checker p7 count=1\npiece Black Checker bbar count=1\npiece Black Checker p1 count=13\n";
    let a = session(
        "games/backgammon.zrf",
        &[
            json!({"cmd": "load", "position": position}),
            json!({"cmd": "moves"}),
        ],
    );
    assert_eq!(a[0]["ok"], true, "{}", a[0]);
    let places: Vec<&Value> = a[1]["moves"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|m| m["parts"].as_array().unwrap())
        .flat_map(|p| p["actions"].as_array().unwrap())
        .filter(|x| x["action"] == "place" && x["at"] == "bbar")
        .collect();
    assert!(!places.is_empty(), "no move hits the blot: {}", a[1]);
    for p in places {
        assert_eq!(p["values"], json!({"count": 2}), "{p}");
    }
}
