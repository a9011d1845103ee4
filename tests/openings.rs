//! Opening books (`--openings`): ten chess positions of an EPD file, each played from both seats; PGN lines
//! matched by SAN, from the start and from a `[FEN]` tag; castling rights and en-passant squares of FEN mapped
//! onto `games/chess.zrf`'s `never-moved` attribute and last move; illegal openings refused before the run,
//! naming the file and the line; a changed book refused by `--resume`.

#[path = "common/scratch.rs"]
mod scratch_dir;
use dagaz::bot::protocol::notation::ChessNotation;
use dagaz::engine::{position, Engine, Move, State};
use dagaz::load::{load_game, VariantSel};
use dagaz::tournament::config::BotConfig;
use dagaz::tournament::openings::{decode_start, fen_to_position, OpeningsOrder};
use dagaz::tournament::records_out::san_moves_from;
use dagaz::tournament::{run, GameRecord, Progress, RunOptions, TournamentConfig};
use scratch_dir::Scratch;
use std::path::Path;
use std::process::{Command, Stdio};

const BIN: &str = env!("CARGO_BIN_EXE_dagaz");

fn scratch(name: &str) -> Scratch {
    Scratch::new(&format!("openings-{name}"))
}

fn options(out: &Path) -> RunOptions {
    RunOptions {
        out: out.to_path_buf(),
        jobs: 2,
        progress: Progress::None,
        resume: false,
    }
}

fn chess_config(book: &str, games: u64) -> TournamentConfig {
    TournamentConfig {
        game: "games/chess.zrf".into(),
        games,
        opening_plies: 0,
        max_plies: 12,
        openings: Some(book.into()),
        bots: ["alphabeta:depth=1,name=ab1", "random"]
            .map(|b| BotConfig::Name(b.into()))
            .to_vec(),
        ..TournamentConfig::default()
    }
}

fn chess() -> dagaz::compile::Game {
    load_game(Path::new("games/chess.zrf"), &VariantSel::First).unwrap()
}

/// The FEN dagaz writes for a state, without the half-move clock (dagaz keeps none).
fn fen_of(e: &Engine, s: &State) -> String {
    let n = ChessNotation::of(e.game).unwrap();
    let moves = e.legal_moves(s).unwrap();
    let f = n.fen(e.game, s, e.to_move(s), &moves);
    let w: Vec<&str> = f.split(' ').collect();
    format!("{} {} {} {} {}", w[0], w[1], w[2], w[3], w[5])
}

fn without_clock(fen: &str) -> String {
    let w: Vec<&str> = fen.split_whitespace().collect();
    format!("{} {} {} {} {}", w[0], w[1], w[2], w[3], w[5])
}

/// The records replay from their start: every move names one legal move there.
fn replays(e: &Engine, r: &GameRecord) {
    let mut s = if r.start.is_empty() {
        e.initial()
    } else {
        decode_start(e.game, &r.start).unwrap()
    };
    for m in &r.moves {
        let moves = e.legal_moves(&s).unwrap();
        let names = Move::notations(e.game, &moves);
        let i = names
            .iter()
            .position(|n| n == m)
            .unwrap_or_else(|| panic!("game {}: `{m}` is not legal", r.game_id));
        s = e.apply(&s, &moves[i]);
    }
}

#[test]
fn ten_epd_positions_are_each_played_from_both_seats() {
    let d = scratch("ten");
    let t = chess_config("tests/openings/ten.epd", 20).load().unwrap();
    let out = run(&t, &options(&d.join("run"))).unwrap();
    let records = out.records().unwrap();
    assert_eq!(records.len(), 20);
    let lines: Vec<String> = std::fs::read_to_string("tests/openings/ten.epd")
        .unwrap()
        .lines()
        .map(without_clock)
        .collect();
    assert_eq!(lines.len(), 10);
    let g = chess();
    let e = Engine::new(&g);
    for pair in 0..10u64 {
        let games: Vec<&GameRecord> = records.iter().filter(|r| r.pair_id == pair).collect();
        assert_eq!(games.len(), 2, "pair {pair}");
        // The seats swapped, one start.
        assert_eq!(games[0].bots[0], games[1].bots[1]);
        assert_eq!(games[0].bots[1], games[1].bots[0]);
        assert_eq!(games[0].start, games[1].start);
        // Sequential: pair k plays line k of the file; the state read from it writes the same FEN back.
        let s = decode_start(&g, &games[0].start).unwrap();
        assert_eq!(fen_of(&e, &s), lines[pair as usize], "pair {pair}");
        for r in games {
            assert_eq!(r.opening_plies, 0);
            assert!(r.plies > 0 && r.end_type != "engine-error", "{r:?}");
            replays(&e, r);
        }
    }
    // The run's files say where each game started: config.toml keeps the book, PGN its positions.
    let config = std::fs::read_to_string(d.join("run/config.toml")).unwrap();
    assert!(config.contains("openings = "), "{config}");
    let pgn = std::fs::read_to_string(d.join("run/games.pgn")).unwrap();
    assert_eq!(pgn.matches("[SetUp \"1\"]").count(), 20);
    assert!(pgn
        .contains("[FEN \"r3k2r/pppq1ppp/2npbn2/2b1p3/2B1P3/2NPBN2/PPPQ1PPP/R3K2R w Kq - 0 8\"]"));
    // The second line has Black to move: its first move is numbered `1...`.
    assert!(pgn.contains("\n1... "), "{pgn}");
}

#[test]
fn random_order_is_a_shuffle_of_the_book() {
    let d = scratch("random");
    let mut c = chess_config("tests/openings/ten.epd", 20);
    c.openings_order = Some(OpeningsOrder::Random);
    c.max_plies = 1;
    let t = c.load().unwrap();
    let records = run(&t, &options(&d.join("run")))
        .unwrap()
        .records()
        .unwrap();
    let lines: Vec<String> = std::fs::read_to_string("tests/openings/ten.epd")
        .unwrap()
        .lines()
        .map(without_clock)
        .collect();
    let g = chess();
    let e = Engine::new(&g);
    let firsts: Vec<String> = (0..10u64)
        .map(|p| {
            let r = records.iter().find(|r| r.pair_id == p).unwrap();
            fen_of(&e, &decode_start(&g, &r.start).unwrap())
        })
        .collect();
    let mut sorted = firsts.clone();
    sorted.sort();
    let mut want = lines.clone();
    want.sort();
    assert_eq!(sorted, want, "every opening once");
    assert_ne!(firsts, lines, "not the file's order");
}

#[test]
fn pgn_main_lines_are_matched_by_san_from_the_start_or_a_fen_tag() {
    let d = scratch("pgn");
    let mut c = chess_config("tests/openings/lines.pgn", 4);
    c.max_plies = 14;
    let t = c.load().unwrap();
    let records = run(&t, &options(&d.join("run")))
        .unwrap()
        .records()
        .unwrap();
    assert_eq!(records.len(), 4);
    let g = chess();
    let e = Engine::new(&g);
    for r in &records {
        replays(&e, r);
        let start = if r.start.is_empty() {
            e.initial()
        } else {
            decode_start(&g, &r.start).unwrap()
        };
        let san = san_moves_from(&g, start, &r.moves).unwrap();
        if r.pair_id == 0 {
            // Comments, the variation and the NAG skipped.
            assert!(r.start.is_empty());
            assert_eq!(r.opening_plies, 7);
            assert_eq!(san[..7], ["e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "O-O"]);
        } else {
            assert!(!r.start.is_empty());
            assert_eq!(r.opening_plies, 4);
            assert_eq!(san[..4], ["O-O", "O-O-O", "Bxc5", "dxc5"]);
        }
    }
    // --openings-plies keeps the first N plies of each line.
    let mut c = chess_config("tests/openings/lines.pgn", 2);
    c.openings_plies = Some(3);
    c.max_plies = 3;
    let t = c.load().unwrap();
    let records = run(&t, &options(&d.join("run3")))
        .unwrap()
        .records()
        .unwrap();
    for r in &records {
        assert_eq!(r.opening_plies, 3, "{r:?}");
        assert_eq!(r.end_type, "move-limit");
    }
}

/// The UCI names of the legal moves of a FEN position on games/chess.zrf.
fn uci_moves(fen: &str) -> Vec<String> {
    let g = chess();
    let e = Engine::new(&g);
    let s = position::parse(&g, &fen_to_position(&g, fen).unwrap()).unwrap();
    let n = ChessNotation::of(&g).unwrap();
    e.legal_moves(&s)
        .unwrap()
        .iter()
        .filter_map(|m| n.move_name(&s, m))
        .collect()
}

#[test]
fn castling_rights_and_en_passant_are_mapped() {
    let has = |fen: &str, m: &str| uci_moves(fen).iter().any(|x| x == m);
    // Both rights: both castlings; only the king's side: the long one is gone, with the same pieces.
    let both = "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1";
    assert!(has(both, "e1g1") && has(both, "e1c1"));
    let short = "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w Kq - 0 1";
    assert!(has(short, "e1g1") && !has(short, "e1c1"));
    let none = "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w - - 0 1";
    assert!(!has(none, "e1g1") && !has(none, "e1c1"));
    // Black's rights, Black to move.
    let black = "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R b q - 0 1";
    assert!(has(black, "e8c8") && !has(black, "e8g8"));
    // En passant only where the field names the square.
    let ep = "rnbqkbnr/1pp1pppp/p7/3pP3/8/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 3";
    assert!(has(ep, "e5d6"));
    let no_ep = "rnbqkbnr/1pp1pppp/p7/3pP3/8/8/PPPP1PPP/RNBQKBNR w KQkq - 0 3";
    assert!(!has(no_ep, "e5d6"));
    // What cannot be mapped is refused, saying why.
    let g = chess();
    let err = |fen: &str| fen_to_position(&g, fen).unwrap_err();
    assert!(err("r3k2r/8/8/8/8/8/8/R3K1R1 w K - 0 1").contains("no rook"));
    assert!(err("r3k2r/8/8/8/8/8/8/R2K3R w Q - 0 1").contains("king is not on its setup square"));
    assert!(
        err("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e3 0 1").contains("en-passant")
    );
    assert!(err("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w KQkq - 0 1").contains("`X`"));
    assert!(err("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1").contains("ranks"));
}

fn refused(book: &str, want: &[&str]) {
    let d = scratch(&format!("refused-{}", book.replace(['/', '.'], "-")));
    let out_dir = d.join("run");
    let out = Command::new(BIN)
        .args([
            "tournament",
            "games/chess.zrf",
            "--bots",
            "random",
            "random:name=r2",
        ])
        .args(["--games", "2", "--openings", book, "--out"])
        .arg(&out_dir)
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "{err}");
    for w in want {
        assert!(err.contains(w), "`{w}` not in: {err}");
    }
    assert!(!out_dir.exists(), "refused before the run: no run folder");
}

#[test]
fn illegal_openings_are_refused_before_the_run_with_file_and_line() {
    // Line 5: White in check with Black to move.
    refused(
        "tests/openings/illegal.epd",
        &["illegal.epd:5:", "in check"],
    );
    // Line 10: `4. O-O-O` with White's queen side still full.
    refused(
        "tests/openings/bad.pgn",
        &["bad.pgn:10:", "`O-O-O`", "not a legal move"],
    );
}

#[test]
fn a_changed_book_is_refused_on_resume() {
    let d = scratch("resume");
    let book = d.join("book.epd");
    std::fs::copy("tests/openings/ten.epd", &book).unwrap();
    let out_dir = d.join("run");
    let go = |extra: &[&str]| {
        Command::new(BIN)
            .args(extra)
            .stdin(Stdio::null())
            .output()
            .unwrap()
    };
    let first = go(&[
        "tournament",
        "games/chess.zrf",
        "--bots",
        "random",
        "random:name=r2",
        "--games",
        "2",
        "--max-plies",
        "2",
        "--quiet",
        "--openings",
        book.to_str().unwrap(),
        "--out",
        out_dir.to_str().unwrap(),
    ]);
    assert!(
        first.status.success(),
        "{}",
        String::from_utf8_lossy(&first.stderr)
    );
    let fp = std::fs::read_to_string(out_dir.join("fingerprint.json")).unwrap();
    assert!(fp.contains("openings file hash"), "{fp}");
    // The same book resumes (nothing left to play); an edited one is refused, naming the field.
    let again = go(&[
        "tournament",
        "--resume",
        "--quiet",
        "--out",
        out_dir.to_str().unwrap(),
    ]);
    assert!(
        again.status.success(),
        "{}",
        String::from_utf8_lossy(&again.stderr)
    );
    let mut text = std::fs::read_to_string(&book).unwrap();
    text.push_str("rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq - 0 1\n");
    std::fs::write(&book, text).unwrap();
    let changed = go(&[
        "tournament",
        "--resume",
        "--quiet",
        "--out",
        out_dir.to_str().unwrap(),
    ]);
    let err = String::from_utf8_lossy(&changed.stderr);
    assert!(
        !changed.status.success() && err.contains("openings file hash"),
        "{err}"
    );
}

#[test]
fn move_lists_in_dagaz_notation_and_sgf_main_lines() {
    let d = scratch("moves");
    let mut c = chess_config("tests/openings/breakthrough.moves", 4);
    c.game = "builtin:breakthrough".into();
    c.max_plies = 5;
    let t = c.load().unwrap();
    let records = run(&t, &options(&d.join("run")))
        .unwrap()
        .records()
        .unwrap();
    for r in &records {
        let want: &[&str] = if r.pair_id == 0 {
            &["f2-g3", "e7-e6", "a2-b3"]
        } else {
            &["d2-d3", "d7-d6"]
        };
        assert_eq!(r.moves[..want.len()], *want, "{r:?}");
        assert_eq!(r.opening_plies as usize, want.len());
    }
    // Go from SGF: the main line (the first variation), a pass as `W[]`.
    let mut c = chess_config("tests/openings/go.sgf", 4);
    c.game = "games/go-9x9.zrf".into();
    c.max_plies = 6;
    c.bots = ["random", "random:name=r2"]
        .map(|b| BotConfig::Name(b.into()))
        .to_vec();
    let t = c.load().unwrap();
    let records = run(&t, &options(&d.join("go"))).unwrap().records().unwrap();
    let g = load_game(Path::new("games/go-9x9.zrf"), &VariantSel::First).unwrap();
    let e = Engine::new(&g);
    let n = dagaz::bot::protocol::notation::GoNotation::of(&g).unwrap();
    for r in &records {
        let mut s = e.initial();
        let mut vertices = vec![];
        for m in &r.moves {
            let moves = e.legal_moves(&s).unwrap();
            let names = Move::notations(&g, &moves);
            let i = names.iter().position(|x| x == m).unwrap();
            vertices.push(n.move_name(&moves[i]).unwrap());
            s = e.apply(&s, &moves[i]);
        }
        let want: &[&str] = if r.pair_id == 0 {
            &["E5", "C7", "G3", "G7"]
        } else {
            &["D6", "pass", "F4"]
        };
        assert_eq!(vertices[..want.len()], *want, "{r:?}");
        assert_eq!(r.opening_plies as usize, want.len());
    }
}

#[test]
fn illegal_move_lists_and_sgf_setups_are_refused_with_the_line() {
    let mut c = chess_config("tests/openings/illegal.moves", 2);
    c.game = "builtin:breakthrough".into();
    let e = c.load().err().expect("refused");
    assert!(
        e.contains("illegal.moves:2:") && e.contains("`d3-d5`"),
        "{e}"
    );
    let mut c = chess_config("tests/openings/setup.sgf", 2);
    c.game = "games/go-9x9.zrf".into();
    let e = c.load().err().expect("refused");
    assert!(
        e.contains("setup.sgf:3:") && e.contains("setup stones"),
        "{e}"
    );
    // A PGN book on a game without FEN's notation says so.
    let mut c = chess_config("tests/openings/lines.pgn", 2);
    c.game = "games/go-9x9.zrf".into();
    let e = c.load().err().expect("refused");
    assert!(e.contains("lines.pgn:1:") && e.contains("FEN"), "{e}");
}

#[test]
fn config_files_keep_the_book_and_the_adjudication() {
    let c = TournamentConfig::from_toml(
        r#"
        game = "games/chess.zrf"
        openings = "tests/openings/ten.epd"
        openings_order = "random"
        openings_plies = 4
        draw = { movenumber = 30, movecount = 4, score = 10 }
        resign = { movecount = 3, score = 700, twosided = true }
        bots = ["random", "random:name=r2"]
        "#,
    )
    .unwrap();
    // With a book and no `opening_plies`, no random plies.
    assert_eq!(c.opening_plies, 0);
    assert_eq!(c.openings_order, Some(OpeningsOrder::Random));
    let t = c.load().unwrap();
    assert_eq!(t.book.as_ref().unwrap().order.len(), 10);
    let text = t.config.to_toml();
    let back = TournamentConfig::from_toml(&text).unwrap();
    assert_eq!(back, t.config, "{text}");
    assert!(
        text.contains("[draw]") && text.contains("twosided = true"),
        "{text}"
    );
    // Random plies when asked for, after the book's moves.
    let c = TournamentConfig::from_toml(
        "openings = \"tests/openings/ten.epd\"\nopening_plies = 3\nbots = [\"random\", \"random:name=r2\"]\n",
    )
    .unwrap();
    assert_eq!(c.opening_plies, 3);
    // Bad settings are refused.
    let bad = |extra: &str| {
        TournamentConfig::from_toml(&format!(
            "game = \"games/chess.zrf\"\nbots = [\"random\", \"random:name=r2\"]\n{extra}"
        ))
        .and_then(|c| c.load().map(|_| ()))
        .unwrap_err()
    };
    assert!(bad("openings_plies = 2").contains("--openings"));
    assert!(bad("resign = { movecount = 0, score = 5 }").contains("movecount"));
    assert!(
        bad("openings = \"tests/openings/ten.epd\"\nopenings_format = \"xyz\"")
            .contains("unknown openings format `xyz`")
    );
    assert!(bad("openings = \"tests/openings/nothing.epd\"").contains("nothing.epd"));
}

#[test]
fn the_format_may_be_named_fen_in_a_config_file() {
    let c = TournamentConfig::from_toml(
        "game = \"games/chess.zrf\"\nopenings = \"tests/openings/ten.epd\"\nopenings_format = \"fen\"\nbots = [\"random\", \"random:name=r2\"]\n",
    )
    .unwrap();
    assert_eq!(
        c.openings_format,
        Some(dagaz::tournament::openings::OpeningsFormat::Epd)
    );
    assert_eq!(c.load().unwrap().book.unwrap().per_variant[0].len(), 10);
}

#[test]
fn sfen_positions_with_hands_start_shogi_games() {
    let d = scratch("sfen");
    let mut c = chess_config("tests/openings/shogi.sfen", 4);
    c.game = "games/shogi.zrf".into();
    c.max_plies = 2;
    c.bots = ["random", "random:name=r2"]
        .map(|b| BotConfig::Name(b.into()))
        .to_vec();
    let t = c.load().unwrap();
    let records = run(&t, &options(&d.join("run")))
        .unwrap()
        .records()
        .unwrap();
    let g = load_game(Path::new("games/shogi.zrf"), &VariantSel::First).unwrap();
    let e = Engine::new(&g);
    let n = dagaz::bot::protocol::notation::ShogiNotation::of(&g).unwrap();
    let lines: Vec<String> = std::fs::read_to_string("tests/openings/shogi.sfen")
        .unwrap()
        .lines()
        .filter(|l| !l.starts_with('#'))
        .map(String::from)
        .collect();
    for r in &records {
        // The state read from the line writes the same SFEN back: board, side, both hands, move number.
        let s = decode_start(&g, &r.start).unwrap();
        assert_eq!(n.sfen(&g, &s, e.to_move(&s)), lines[r.pair_id as usize]);
        replays(&e, r);
    }
    // With a bishop in hand, sente may drop it.
    let s = decode_start(&g, &records.iter().find(|r| r.pair_id == 1).unwrap().start).unwrap();
    let drops: Vec<String> = e
        .legal_moves(&s)
        .unwrap()
        .iter()
        .filter_map(|m| n.move_name(m))
        .filter(|m| m.starts_with("B*"))
        .collect();
    assert!(drops.contains(&"B*5e".to_string()), "{drops:?}");
    let mut c = chess_config("tests/openings/bad.sfen", 2);
    c.game = "games/shogi.zrf".into();
    let e = c.load().err().expect("refused");
    assert!(e.contains("bad.sfen:2:") && e.contains("`X`"), "{e}");
}
