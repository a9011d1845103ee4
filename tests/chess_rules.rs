//! `games/chess.zrf`'s draws, each from the FIDE Laws of Chess: the fifty-move rule (9.3), the dead positions
//! that can be stated (5.2.2), threefold repetition (9.2) with what makes two positions the same (9.2.3: the
//! player to move, the castling rights, the en passant possibility). The expected ends are the Laws', worked
//! by hand for each position; `scripts/chess_ends.py` checks 200 random games against python-chess (see
//! README, "Slow checks").

#[path = "common/scratch.rs"]
mod scratch_dir;
use dagaz::engine::{position, Engine, Outcome, State};
use dagaz::load::{load_game, VariantSel};
use scratch_dir::Scratch;
use std::path::Path;

fn chess() -> dagaz::compile::Game {
    load_game(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("games/chess.zrf"),
        &VariantSel::First,
    )
    .unwrap()
}

/// A game being played: the state and the keys of the positions before it.
struct Line<'g> {
    engine: Engine<'g>,
    game: &'g dagaz::compile::Game,
    state: State,
    history: Vec<u64>,
}

impl<'g> Line<'g> {
    fn new(game: &'g dagaz::compile::Game, pos: Option<&str>) -> Line<'g> {
        let engine = Engine::new(game);
        let state = match pos {
            Some(p) => position::parse(game, p).unwrap(),
            None => engine.initial(),
        };
        Line {
            engine,
            game,
            state,
            history: vec![],
        }
    }

    /// Plays the move whose notation starts with `m` (`e2-e4`); panics if there is none or the game is over.
    fn play(&mut self, m: &str) {
        assert_eq!(self.end(), None, "the game is over before {m}");
        let moves = self.engine.legal_moves(&self.state).unwrap();
        let mv = moves
            .iter()
            .find(|x| x.notation(self.game).starts_with(m))
            .unwrap_or_else(|| {
                let all: Vec<String> = moves.iter().map(|x| x.notation(self.game)).collect();
                panic!("no move {m} among {all:?}")
            })
            .clone();
        self.history.push(self.state.key());
        self.state = self.engine.apply(&self.state, &mv);
    }

    fn plays(&mut self, ms: &[&str]) {
        for m in ms {
            self.play(m);
        }
    }

    fn outcome(&self) -> Option<Outcome> {
        let moves = self.engine.legal_moves(&self.state).unwrap();
        self.engine
            .outcome(&self.state, &moves, &self.history)
            .unwrap()
    }

    /// The name of the end condition that holds, if any.
    fn end(&self) -> Option<String> {
        self.outcome().map(|o| o.name)
    }
}

fn end_of(pos: &str) -> Option<String> {
    let game = chess();
    let line = Line::new(&game, Some(pos));
    line.end()
}

// ---- 9.3: fifty moves of each player without a capture or a pawn move ----

#[test]
fn quiet_plies_count_from_the_last_capture_or_pawn_move() {
    let game = chess();
    let mut line = Line::new(&game, None);
    assert_eq!(line.state.quiet(), 0);
    line.plays(&["g1-f3", "g8-f6"]);
    assert_eq!(line.state.quiet(), 2);
    line.play("e2-e4"); // a pawn move
    assert_eq!(line.state.quiet(), 0);
    line.plays(&["f6-e4"]); // a capture
    assert_eq!(line.state.quiet(), 0);
    line.plays(&["b1-c3", "e4-c3"]);
    assert_eq!(line.state.quiet(), 0);
    line.plays(&["d1-e2"]);
    assert_eq!(line.state.quiet(), 1);
}

const ROOKS: &str = "turn White\nquiet 99\npiece White King a1\npiece White Rook h2\npiece Black King e8\npiece Black Rook b7\npiece White Pawn c2\n";

#[test]
fn the_hundredth_quiet_ply_draws() {
    let game = chess();
    let mut line = Line::new(&game, Some(ROOKS));
    assert_eq!(line.end(), None);
    line.play("h2-h3");
    assert_eq!(line.state.quiet(), 100);
    assert_eq!(line.end().as_deref(), Some("fifty moves"));
    let o = line.outcome().unwrap();
    assert_eq!(o.results, vec![0, 0]);
    assert_eq!(o.end_type, "quiet-plies");
}

#[test]
fn a_pawn_move_or_a_capture_on_the_hundredth_ply_does_not_draw() {
    let game = chess();
    let mut line = Line::new(&game, Some(ROOKS));
    line.play("c2-c3");
    assert_eq!(line.state.quiet(), 0);
    assert_eq!(line.end(), None);
    let taking = ROOKS.replace("Black Rook b7", "Black Rook h7");
    let mut line = Line::new(&game, Some(&taking));
    line.play("h2-h7");
    assert_eq!(line.state.quiet(), 0);
    assert_eq!(line.end(), None);
}

#[test]
fn checkmate_on_the_hundredth_ply_wins() {
    // 9.3 (and 5.1.1): the mate ends the game first. White Ra1-a8 mates the king on h8 behind its pawns.
    let game = chess();
    let pos =
        "turn White\nquiet 99\npiece White King g1\npiece White Rook a1\npiece Black King h8\n\
               piece Black Pawn g7\npiece Black Pawn h7\npiece White Pawn b2\n";
    let mut line = Line::new(&game, Some(pos));
    line.play("a1-a8");
    let o = line.outcome().unwrap();
    assert_eq!(o.name, "checkmate");
    assert_eq!(o.results, vec![1, -1]);
}

// ---- 5.2.2: dead positions ----

#[test]
fn king_against_king_is_dead() {
    assert_eq!(
        end_of("turn White\npiece White King e1\npiece Black King e8\n").as_deref(),
        Some("insufficient material")
    );
}

#[test]
fn king_and_minor_piece_against_king_is_dead() {
    for minor in ["Knight", "Bishop"] {
        for side in ["White", "Black"] {
            let pos = format!(
                "turn White\npiece White King e1\npiece Black King e8\npiece {side} {minor} c4\n"
            );
            assert_eq!(
                end_of(&pos).as_deref(),
                Some("insufficient material"),
                "{side} {minor}"
            );
        }
    }
}

#[test]
fn bishops_on_one_colour_are_dead_and_on_both_are_not() {
    // c1 and f4 are both dark squares; c1 and f1 are not of one colour.
    let kings = "turn White\npiece White King e1\npiece Black King e8\n";
    let same = format!("{kings}piece White Bishop c1\npiece Black Bishop f4\n");
    assert_eq!(end_of(&same).as_deref(), Some("insufficient material"));
    let both = format!("{kings}piece White Bishop c1\npiece Black Bishop f1\n");
    assert_eq!(end_of(&both), None);
    // Two bishops of one side on squares of one colour cannot mate either.
    let pair = format!("{kings}piece White Bishop c1\npiece White Bishop e3\n");
    assert_eq!(end_of(&pair).as_deref(), Some("insufficient material"));
    let pair = format!("{kings}piece White Bishop c1\npiece White Bishop f1\n");
    assert_eq!(end_of(&pair), None);
}

#[test]
fn positions_where_a_mate_can_still_happen_are_not_dead() {
    let kings = "turn White\npiece White King e1\npiece Black King e8\n";
    for extra in [
        "piece White Pawn a2\n",
        "piece White Rook a1\n",
        "piece Black Queen d8\n",
        "piece White Knight b1\npiece Black Knight b8\n",
        "piece White Knight b1\npiece White Knight g1\n",
        "piece White Bishop c1\npiece Black Knight b8\n",
    ] {
        assert_eq!(end_of(&format!("{kings}{extra}")), None, "{extra}");
    }
}

#[test]
fn a_capture_that_leaves_two_kings_draws_at_once() {
    let game = chess();
    let pos = "turn White\npiece White King e1\npiece Black King e8\npiece Black Rook e2\n";
    let mut line = Line::new(&game, Some(pos));
    assert_eq!(line.end(), None);
    line.play("e1-e2");
    assert_eq!(line.end().as_deref(), Some("insufficient material"));
}

// ---- 9.2: threefold repetition ----

#[test]
fn the_third_occurrence_of_the_start_position_draws() {
    let game = chess();
    let mut line = Line::new(&game, None);
    let cycle = ["g1-f3", "g8-f6", "f3-g1", "f6-g8"];
    line.plays(&cycle);
    assert_eq!(line.end(), None, "second occurrence");
    line.plays(&cycle[..3]);
    assert_eq!(line.end(), None);
    line.play(cycle[3]);
    assert_eq!(line.end().as_deref(), Some("threefold repetition"));
}

/// Plays `moves` from `pos` until the game ends; the ply (1 for the first move) and the end's name.
fn first_end(pos: &str, moves: &[&str]) -> Option<(usize, String)> {
    let game = chess();
    let mut line = Line::new(&game, Some(pos));
    for (i, m) in moves.iter().enumerate() {
        line.play(m);
        if let Some(e) = line.end() {
            return Some((i + 1, e));
        }
    }
    None
}

fn cycles(first: &[&'static str], cycle: [&'static str; 4], n: usize) -> Vec<&'static str> {
    let mut v = first.to_vec();
    for _ in 0..n {
        v.extend(cycle);
    }
    v
}

fn threefold(ply: usize) -> Option<(usize, String)> {
    Some((ply, "threefold repetition".into()))
}

#[test]
fn a_position_is_not_the_same_once_a_castling_right_is_lost() {
    // 9.2.3.2. The rook leaves h1 and comes back: P4 has the board of P0, but White can no longer castle, so
    // P0 counts apart: P4 = P8 = P12, while P1 = P5 = P9 (the rook on h2, Black to move) is the first
    // position to occur three times, at ply 9. (Counting P0 with them would draw at ply 8.)
    let pos = "turn White\npiece White King e1 never-moved\npiece White Rook h1 never-moved\n\
               piece White Pawn a2\npiece Black King e8\npiece Black Pawn a7\n";
    let moves = cycles(&[], ["h1-h2", "e8-d8", "h2-h1", "d8-e8"], 3);
    assert_eq!(first_end(pos, &moves), threefold(9));
}

#[test]
fn a_king_that_moved_takes_its_rooks_rights_so_their_moves_repeat() {
    // The king steps away and back (plies 1-4): no castling right is left on either side. Then the a1 rook
    // goes to a2 and back: P3 (the king back on e1, Black to move) = P7 = P11, the same possible moves
    // (9.2.3) though the rook moved in between: the third occurrence is at ply 11. (Were the a1 rook's
    // unused right still told apart, P3 would differ and the first third occurrence would be at ply 13.)
    let pos = "turn White\npiece White King e1 never-moved\npiece White Rook h1 never-moved\n\
               piece White Rook a1 never-moved\npiece White Pawn b2\npiece Black King e8\npiece Black Pawn b7\n";
    let moves = cycles(
        &["e1-e2", "e8-d8", "e2-e1", "d8-e8"],
        ["a1-a2", "e8-d8", "a2-a1", "d8-e8"],
        3,
    );
    assert_eq!(first_end(pos, &moves), threefold(11));
}

#[test]
fn a_king_whose_rooks_lost_their_rights_repeats_after_stepping_away() {
    // Both rooks move and come back (plies 1-8): no right is left, so the king's own first move (ply 9)
    // changes nothing: P7 (Black to move, after h2-h1) = P11 = P15, the third occurrence at ply 15. (Were
    // the king's unused flag told apart, P7 would differ and the first third occurrence would be at ply 17.)
    let pos = "turn White\npiece White King e1 never-moved\npiece White Rook h1 never-moved\n\
               piece White Rook a1 never-moved\npiece White Pawn b2\npiece Black King e8\npiece Black Pawn b7\n";
    let mut moves = vec![
        "a1-a2", "e8-d8", "a2-a1", "d8-e8", "h1-h2", "e8-d8", "h2-h1", "d8-e8",
    ];
    moves = cycles(&moves, ["e1-e2", "e8-d8", "e2-e1", "d8-e8"], 3);
    assert_eq!(first_end(pos, &moves), threefold(15));
}

#[test]
fn taking_the_last_rook_with_a_right_takes_the_kings() {
    // Black's knight takes the h1 rook (the other white rook has moved already): White has no right left.
    // P1 (after the capture) = P5 (after a rook and knight shuffle) = P9 (after the king stepped to d1 and
    // back): the third occurrence at ply 9. (Were the king's flag kept, P9 would differ from P1 and P5.)
    let game = chess();
    let pos = "turn Black\npiece White King e1 never-moved\npiece White Rook h1 never-moved\n\
               piece White Rook a2\npiece White Pawn b2\npiece Black King e8\npiece Black Knight g3\n\
               piece Black Pawn b7\n";
    let mut line = Line::new(&game, Some(pos));
    line.play("g3-h1");
    let e1 = game.board.position("e1").unwrap();
    let never_moved = game
        .attributes
        .iter()
        .position(|a| a == "never-moved")
        .unwrap();
    assert!(!line.state.get(e1).unwrap().attrs.get(never_moved));
    let moves = [
        "g3-h1", "a2-a3", "h1-g3", "a3-a2", "g3-h1", "e1-d1", "h1-g3", "d1-e1", "g3-h1",
    ];
    assert_eq!(first_end(pos, &moves), threefold(9));
}

#[test]
fn a_position_with_an_en_passant_capture_is_not_the_same_as_without() {
    // 9.2.3.1. After d7-d5 (ply 1) the e5 pawn could take en passant; when the knights have gone out and back
    // (ply 5) the board is the same but the capture is gone, so P1 counts apart: P5 = P9 = P13, and the first
    // position to occur three times is P2 = P6 = P10, at ply 10.
    let pos = "turn Black\npiece White King e1\npiece White Knight g1\npiece White Pawn e5\n\
               piece Black King e8\npiece Black Knight g8\npiece Black Pawn d7\n";
    let moves = cycles(&["d7-d5"], ["g1-f3", "g8-f6", "f3-g1", "f6-g8"], 3);
    assert_eq!(first_end(pos, &moves), threefold(10));
    // With no pawn beside d5, the double step opens no capture: P1 = P5 = P9, at ply 9.
    let far = pos.replace("White Pawn e5", "White Pawn a5");
    assert_eq!(first_end(&far, &moves), threefold(9));
}

#[test]
fn the_draws_keep_the_perft_counts_legal_moves() {
    // The bookkeeping changes no legal move: castling and en passant still as the Laws give them.
    let game = chess();
    let engine = Engine::new(&game);
    assert_eq!(engine.perft(&engine.initial(), 3).unwrap(), 8_902);
}

/// `scripts/chess_ends.py`: python-chess ends 200 random games where dagaz does, for the same reason. Needs
/// python-chess in `target/chess-venv` (or the Python named by `DAGAZ_CHESS_PYTHON`); see README, "Slow checks".
#[test]
#[ignore = "slow (~50 s) and needs python-chess; see README"]
fn python_chess_agrees() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let python = std::env::var("DAGAZ_CHESS_PYTHON")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|_| root.join("target/chess-venv/bin/python"));
    let out = std::process::Command::new(&python)
        .arg(root.join("scripts/chess_ends.py"))
        .args(["--games", "200", "--seed", "1"])
        .arg("--bin")
        .arg(env!("CARGO_BIN_EXE_dagaz"))
        .output()
        .unwrap_or_else(|e| panic!("cannot run {}: {e}", python.display()));
    let text = String::from_utf8_lossy(&out.stdout);
    eprintln!("{text}{}", String::from_utf8_lossy(&out.stderr));
    assert!(out.status.success(), "python-chess disagrees:\n{text}");
    assert!(text.contains("200 games, 200 agree, 0 disagree"), "{text}");
}

// ---- the forms behind the rules: `(ply-variables ...)`, `(irreversible ...)`, `(quiet-plies)` ----

#[test]
fn ep_holds_only_for_the_ply_after_a_double_step_beside_an_enemy_pawn() {
    let game = chess();
    let ep = game.variables.iter().find(|v| v.name == "ep").unwrap();
    assert!(ep.per_ply);
    let pos = "turn Black\npiece White King e1\npiece White Knight g1\npiece White Pawn e5\n\
               piece Black King e8\npiece Black Knight g8\npiece Black Pawn d7\npiece Black Pawn a7\n";
    let mut line = Line::new(&game, Some(pos));
    line.play("d7-d5");
    assert_eq!(line.state.vars()[ep.slot], 1);
    // Written in the position format, read back the same.
    let text = position::format(&game, &line.state);
    assert!(text.contains("var ep 1"), "{text}");
    line.play("g1-f3"); // any move closes it
    assert_eq!(line.state.vars()[ep.slot], 0);
    line.play("a7-a5"); // a double step with no white pawn beside: no capture to open
    assert_eq!(line.state.vars()[ep.slot], 0);
}

#[test]
fn the_quiet_count_is_read_and_written_by_the_position_format() {
    let game = chess();
    let s = position::parse(&game, ROOKS).unwrap();
    assert_eq!(s.quiet(), 99);
    assert!(position::format(&game, &s).contains("quiet 99\n"));
    let err = position::parse(&game, "quiet many\n").unwrap_err();
    assert!(
        err.contains("line 1") && err.contains("`quiet` needs a number"),
        "{err}"
    );
}

fn errors(src: &str) -> String {
    let dir = Scratch::new("chess-rules");
    let f = dir.join("bad.zrf");
    std::fs::write(&f, src).unwrap();
    let l = dagaz::load::load(&f, &VariantSel::First);
    assert!(l.game.is_none(), "should not load");
    dagaz::lang::diag::render_all(&l.diagnostics, &l.file.sources)
        .replace(&format!("{}/", dir.display()), "")
}

#[test]
fn the_count_forms_have_located_errors() {
    let src = r#"(game (title "Bad") (players A B) (turn-order A B)
  (board (grid (dimensions ("a/b" (50 0)) ("2/1" (0 50))) (directions (e 1 0))))
  (irreversible Pawm)
  (irreversible P)
  (piece (name P) (moves (e add)))
  (board-setup (A (P a1)) (B (P a2)))
  (draw-condition (A B) (>= (quiet-plies 3) 100)))
"#;
    let text = errors(src);
    assert!(
        text.contains("unknown piece type `Pawm` in `irreversible`"),
        "{text}"
    );
    assert!(text.contains("bad.zrf:3:17"), "{text}");
    assert!(text.contains("a game has one `irreversible`"), "{text}");
    assert!(text.contains("`quiet-plies` takes no argument"), "{text}");
}

#[test]
fn quiet_plies_without_the_section_count_from_the_last_capture() {
    // A game that reads (quiet-plies) and names no type: only captures reset it.
    let src = r#"(game (title "Quiet") (players A B) (turn-order A B)
  (board (grid (dimensions ("a/b/c" (50 0)) ("2/1" (0 50))) (directions (e 1 0) (w -1 0))))
  (piece (name P) (moves (e (verify not-friend?) add) (w (verify not-friend?) add)))
  (board-setup (A (P a1)) (B (P c2)))
  (draw-condition (A B) (name "quiet") (>= (quiet-plies) 3)))
"#;
    let read = dagaz::lang::read_str("inline.zrf", src, Path::new("."));
    let mut diags = vec![];
    let g = dagaz::load::compile_source(&read.games[0], &mut diags).unwrap();
    assert_eq!(g.irreversible, Some(vec![]));
    let mut line = Line::new(&g, None);
    line.plays(&["a1-b1", "c2-b2"]);
    assert_eq!(line.state.quiet(), 2);
    assert_eq!(line.end(), None);
    line.play("b1-c1");
    assert_eq!(line.end().as_deref(), Some("quiet"));
}

#[test]
fn the_bookkeeping_keeps_every_capture_walkable_backwards() {
    // The rights and `ep` are written so that attack tests still walk the programs backwards
    // (`compile/attack.rs`): only en passant (a capture by `capture`) and castling (a cascade) run forwards,
    // as in the file without the draws.
    let game = chess();
    let table = game.attack_table();
    let forward: Vec<(String, usize)> = game
        .pieces
        .iter()
        .zip(&table.forward)
        .map(|(p, f)| (p.name.clone(), f.len()))
        .collect();
    let want = [
        ("Pawn", 2),
        ("Knight", 0),
        ("Bishop", 0),
        ("Rook", 0),
        ("Queen", 0),
        ("King", 2),
    ];
    let want: Vec<(String, usize)> = want.iter().map(|(n, k)| (n.to_string(), *k)).collect();
    assert_eq!(forward, want);
}
