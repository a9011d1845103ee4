//! Bounded reading: hostile game files end in a clear error with bounded time and memory, never an abort.
//! Each case runs the real `dagaz` binary and measures its peak memory (`wait4`) and time; the heavy ones are
//! `#[ignore]`d (`cargo test --release --test reading -- --ignored`).

#[path = "common/scratch.rs"]
mod scratch_dir;
use scratch_dir::Scratch;
use std::io::Read;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Instant;

/// What one run of a command did.
struct Run {
    code: i32,
    /// Killed by a signal (an abort, a stack overflow).
    signal: Option<i32>,
    stdout: String,
    stderr: String,
    seconds: f64,
    peak_mb: f64,
}

impl Run {
    fn all(&self) -> String {
        format!("{}{}", self.stdout, self.stderr)
    }
}

/// Runs a binary and waits for it with `wait4`, which gives this child's own peak resident memory.
fn run_bin(exe: &str, args: &[&str]) -> Run {
    run_bin_in(exe, args, Path::new("."))
}

fn run_bin_in(exe: &str, args: &[&str], cwd: &Path) -> Run {
    let t = Instant::now();
    // Reaped by wait4 below, which std does not know about.
    #[allow(clippy::zombie_processes)]
    let mut child = Command::new(exe)
        .args(args)
        .current_dir(cwd)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run the binary");
    let mut out = child.stdout.take().unwrap();
    let mut err = child.stderr.take().unwrap();
    let o = std::thread::spawn(move || {
        let mut s = vec![];
        let _ = out.read_to_end(&mut s);
        s
    });
    let e = std::thread::spawn(move || {
        let mut s = vec![];
        let _ = err.read_to_end(&mut s);
        s
    });
    let mut status = 0;
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    let pid = child.id() as libc::pid_t;
    let r = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
    assert_eq!(r, pid, "wait4");
    let seconds = t.elapsed().as_secs_f64();
    let stdout = String::from_utf8_lossy(&o.join().unwrap()).into_owned();
    let stderr = String::from_utf8_lossy(&e.join().unwrap()).into_owned();
    let (code, signal) = if libc::WIFEXITED(status) {
        (libc::WEXITSTATUS(status), None)
    } else {
        (-1, Some(libc::WTERMSIG(status)))
    };
    Run {
        code,
        signal,
        stdout,
        stderr,
        seconds,
        peak_mb: usage.ru_maxrss as f64 / 1024.0,
    }
}

fn dagaz(args: &[&str]) -> Run {
    run_bin(env!("CARGO_BIN_EXE_dagaz"), args)
}

/// A fresh directory for one test.
fn temp_dir(name: &str) -> Scratch {
    Scratch::new(&format!("reading-{name}"))
}

fn write(dir: &Path, name: &str, text: &str) -> String {
    let p = dir.join(name);
    if let Some(parent) = p.parent() {
        std::fs::create_dir_all(parent).unwrap();
    }
    std::fs::write(&p, text).unwrap();
    p.to_str().unwrap().to_string()
}

/// A small valid game, for files that need one around their hostile part.
const GAME: &str = r#"(game (title "Tiny") (players White Black) (turn-order White Black)
  (board (grid (start-rectangle 0 0 10 10) (dimensions ("a/b/c" (10 0)) ("3/2/1" (0 10)))
               (directions (n 0 -1) (s 0 1))) (symmetry Black (n s) (s n)))
  (piece (name Man) (moves ((n (verify empty?) add))))
  (board-setup (White (Man a1 b1 c1)) (Black (Man a3 b3 c3)))
  (win-condition (White Black) stalemated))
"#;

/// The limits every hostile input must stay within: it ends (no signal), uses at most 20 times its size plus
/// 200 MB, and takes at most a few seconds per MB (here: 5 s per MB plus 10 s for a loaded test machine).
fn assert_bounded(what: &str, r: &Run, input_bytes: usize) {
    let mb = input_bytes as f64 / (1 << 20) as f64;
    assert!(
        r.signal.is_none(),
        "{what}: killed by signal {:?}\n{}",
        r.signal,
        r.stderr
    );
    assert!(
        r.peak_mb <= 20.0 * mb + 200.0,
        "{what}: peak {:.0} MB for {mb:.1} MB of input",
        r.peak_mb
    );
    assert!(
        r.seconds <= 5.0 * mb + 10.0,
        "{what}: {:.1} s for {mb:.1} MB of input",
        r.seconds
    );
    assert!(
        r.stdout.len() + r.stderr.len() <= 200_000,
        "{what}: {} bytes of output",
        r.stdout.len() + r.stderr.len()
    );
}

#[test]
fn deep_nesting_is_an_error_under_every_command() {
    let d = temp_dir("nesting");
    let text = format!("{}{}\n", "(".repeat(30_000), ")".repeat(30_000));
    let f = write(&d, "n.zrf", &text);
    for args in [
        vec!["check", &f],
        vec!["check", "--json", &f],
        vec!["variants", &f],
        vec!["perft", &f, "1"],
        vec!["playout", &f, "--games", "1"],
        vec!["tournament", &f, "--games", "2", "--quiet", "--out"],
    ] {
        let mut args = args;
        let out = d.join("run").to_str().unwrap().to_string();
        if args.last() == Some(&"--out") {
            args.push(&out);
        }
        let r = dagaz(&args);
        assert_bounded(&format!("{args:?}"), &r, text.len());
        assert_eq!(r.code, 1, "{args:?}: {}", r.all());
        assert!(
            r.all().contains("lists nest more than 256 deep"),
            "{args:?}: {}",
            r.all()
        );
    }
}

/// Nesting up to the limit is accepted, and everything that recurses on it (expansion, compiler, printers,
/// engine) stays within a thread stack smaller than the tournament's (2 MB) in a release build.
#[test]
fn the_deepest_accepted_game_compiles_prints_and_plays_on_a_small_stack() {
    use dagaz::engine::Engine;
    use dagaz::load::compile_source as compile;
    // Depths count the lists around the innermost word: game 1, piece 2, moves 3, a program 4.
    let k = 120; // `(verify` at 5, then 2k levels of `(not (not`: 245
    let cond = format!("{}empty?{}", "(not (not ".repeat(k), "))".repeat(k));
    let ifs = format!("{}add{}", "(if true ".repeat(2 * k), ")".repeat(2 * k)); // 244
    let end = format!(
        "{}(pieces-remaining 0){}",
        "(not (not ".repeat(k),
        "))".repeat(k)
    ); // 242
       // A macro whose expansion is deep, not the file: 4 + verify + 2 * 118 = 241.
    let wrap = format!(
        "(define wrap (verify {}$1{}))\n",
        "(not (not ".repeat(118),
        "))".repeat(118)
    );
    let text = GAME
        .replace(
            "(piece (name Man) (moves ((n (verify empty?) add))))",
            &format!(
                "(piece (name Man) (moves ((n (verify {cond}) add)) (n (wrap empty?) {ifs})))"
            ),
        )
        .replace(
            "(win-condition (White Black) stalemated)",
            &format!(
                "(win-condition (White Black) stalemated) (loss-condition (White Black) {end})"
            ),
        );
    let text = wrap + &text;
    // Tournament games run on 2 MB threads; a release build needs less than half of that here (the test
    // profile's frames are larger, so it gets the full 2 MB).
    let stack = if cfg!(debug_assertions) {
        2 << 20
    } else {
        1 << 20
    };
    let h = std::thread::Builder::new()
        .stack_size(stack)
        .spawn(move || {
            let read = dagaz::lang::read_str("deep.zrf", &text, Path::new("."));
            let msgs: Vec<_> = read.diagnostics.iter().map(|d| d.message.clone()).collect();
            assert!(!read.has_errors(), "{msgs:?}");
            let mut diags = vec![];
            let game = compile(&read.games[0], &mut diags).expect("compiles");
            let s = dagaz::check::describe(&game);
            assert!(s.contains("(not (not"), "{s}");
            let _ = dagaz::check::describe_json(&game).to_string();
            let e = Engine::new(&game);
            e.perft(&e.initial(), 3).expect("perft")
        })
        .unwrap();
    let leaves = h.join().expect("no stack overflow");
    assert!(leaves > 0);
}

#[test]
fn macros_that_nest_past_the_limit_are_an_error() {
    // Each call wraps its argument in three lists; 100 calls would nest 300 deep.
    let mut text = String::from("(define w ((($1))))\n");
    text.push_str(&format!(
        "(game (title \"x\") {}x{})\n",
        "(w ".repeat(100),
        ")".repeat(100)
    ));
    let h = std::thread::Builder::new()
        .stack_size(1 << 20)
        .spawn(move || {
            let read = dagaz::lang::read_str("w.zrf", &text, Path::new("."));
            read.diagnostics
                .iter()
                .map(|d| d.message.clone())
                .collect::<Vec<_>>()
        })
        .unwrap();
    let msgs = h.join().expect("no stack overflow");
    assert!(
        msgs.iter()
            .any(|m| m.contains("macro expansion nests lists more than 256 deep")),
        "{msgs:?}"
    );
}

/// Lines of /etc/passwd long enough not to appear by chance.
fn passwd_lines() -> Vec<String> {
    let text = std::fs::read_to_string("/etc/passwd").unwrap_or_default();
    let lines: Vec<String> = text
        .lines()
        .filter(|l| l.len() >= 8)
        .map(str::to_string)
        .collect();
    assert!(!lines.is_empty(), "/etc/passwd is needed for this test");
    lines
}

#[test]
fn includes_outside_the_game_directory_are_refused_and_never_echoed() {
    let d = temp_dir("include");
    let secrets = passwd_lines();
    // A copy inside the tree: it may be read, but it is not ZRF, so nothing of it is shown.
    std::fs::copy("/etc/passwd", d.join("copy-of-passwd")).unwrap();
    #[cfg(unix)]
    let _ = std::os::unix::fs::symlink("/etc/passwd", d.join("link.zrf"));
    let depth = d.components().count();
    let up = "../".repeat(depth + 2);
    let cases = [
        (
            "absolute",
            "/etc/passwd".to_string(),
            "outside the game's directory",
        ),
        (
            "relative",
            format!("{up}etc/passwd"),
            "outside the game's directory",
        ),
        (
            "symlink",
            "link.zrf".to_string(),
            "outside the game's directory",
        ),
        ("copy", "copy-of-passwd".to_string(), "is not a ZRF file"),
        (
            "device",
            "/dev/zero".to_string(),
            "outside the game's directory",
        ),
        ("directory", ".".to_string(), "is not a regular file"),
    ];
    for (name, target, expected) in cases {
        let f = write(
            &d,
            &format!("{name}.zrf"),
            &format!("(include \"{target}\")\n{GAME}"),
        );
        for json in [false, true] {
            let r = if json {
                dagaz(&["check", "--json", &f])
            } else {
                dagaz(&["check", &f])
            };
            assert_bounded(name, &r, 1000);
            assert_eq!(r.code, 1, "{name}: {}", r.all());
            assert!(r.all().contains(expected), "{name}: {}", r.all());
            for s in &secrets {
                assert!(!r.all().contains(s.as_str()), "{name} echoes `{s}`");
            }
        }
    }
    // `/dev/zero` is refused before it is read, even from an include path that holds it.
    let f = write(&d, "zero.zrf", &format!("(include \"/dev/zero\")\n{GAME}"));
    let r = dagaz(&["check", "--include-path", "/dev", &f]);
    assert_bounded("/dev/zero with --include-path /dev", &r, 1000);
    assert!(r.stderr.contains("is not a regular file"), "{}", r.all());
}

#[test]
fn includes_inside_the_tree_or_an_include_path_work() {
    let d = temp_dir("include-ok");
    write(
        &d,
        "lib/pieces.zrf",
        "(define step ($1 (verify empty?) add))",
    );
    let game = GAME.replace("((n (verify empty?) add))", "((step n))");
    let f = write(
        &d,
        "game.zrf",
        &format!("(include \"lib/pieces.zrf\")\n{game}"),
    );
    let r = dagaz(&["check", &f]);
    assert_eq!(r.code, 0, "{}", r.all());
    let other = temp_dir("include-path");
    write(
        &other,
        "pieces.zrf",
        "(define step ($1 (verify empty?) add))",
    );
    let f = write(
        &d,
        "game2.zrf",
        &format!("(include \"{}/pieces.zrf\")\n{game}", other.display()),
    );
    let r = dagaz(&["check", &f]);
    assert_eq!(r.code, 1, "outside without --include-path: {}", r.all());
    let r = dagaz(&["check", "--include-path", other.to_str().unwrap(), &f]);
    assert_eq!(r.code, 0, "{}", r.all());
    // A game named without a directory includes from the current one, in a tournament too.
    let out = d.join("run");
    let out = out.to_str().unwrap();
    for args in [
        vec!["check", "game.zrf"],
        vec![
            "tournament",
            "game.zrf",
            "--games",
            "2",
            "--max-plies",
            "4",
            "--opening-plies",
            "0",
            "--quiet",
            "--out",
            out,
        ],
    ] {
        let r = run_bin_in(env!("CARGO_BIN_EXE_dagaz"), &args, &d);
        assert_eq!(r.code, 0, "{args:?}: {}", r.all());
    }
}

#[test]
fn a_long_line_of_junk_forms_gives_capped_diagnostics() {
    let d = temp_dir("junk-line");
    // Every `""` is an ignored top-level form; without a game the file is not ZRF at all.
    let junk = "\"".repeat(65_536);
    let f = write(&d, "g.zrf", &format!("{junk}\n"));
    let r = dagaz(&["check", &f]);
    assert_bounded("g.zrf", &r, junk.len());
    assert_eq!(r.stderr.lines().count(), 1, "{}", r.stderr);
    assert!(r.stderr.contains("is not a ZRF game file"), "{}", r.stderr);
    // With a game first, each of the 32,768 forms is a warning: 100 are shown, each line cut around its caret.
    let f = write(&d, "gg.zrf", &format!("{GAME}{junk}\n"));
    for args in [vec!["check", &f], vec!["check", "--json", &f]] {
        let r = dagaz(&args);
        assert_bounded("gg.zrf", &r, junk.len());
        assert!(
            r.all().contains("32668 more ignored top-level forms"),
            "{}",
            &r.all()[..2000.min(r.all().len())]
        );
    }
    let r = dagaz(&["check", &f]);
    assert_eq!(
        r.stderr.matches("warning: ignored top-level form").count(),
        100
    );
    assert!(r.stderr.lines().all(|l| l.len() < 400), "a line is not cut");
}

#[test]
fn an_exponential_macro_stops_early() {
    let d = temp_dir("exp");
    for (name, text) in [
        ("double", "(define a ($1 $1))"),
        ("splice", "(define a $1 $1)"),
        ("paste", "(define a (x$1$1))"),
    ] {
        let f = write(
            &d,
            &format!("{name}.zrf"),
            &format!(
                "{text}\n(define b (a (a (a (a (a (a (a (a $1)))))))))\n(define c (b (b (b (b $1)))))\n\
                 (game (title \"x\") (c (q r)))\n"
            ),
        );
        let r = dagaz(&["check", &f]);
        assert_eq!(r.code, 1, "{name}: {}", r.all());
        assert!(
            r.stderr.contains("macro expansion produces too much text"),
            "{name}: {}",
            r.stderr
        );
        assert!(r.peak_mb < 600.0, "{name}: {:.0} MB", r.peak_mb);
        assert!(r.seconds < 15.0, "{name}: {:.1} s", r.seconds);
    }
}

/// Junk forms of every kind (top-level lists, unknown sections, unknown words in move programs, unmatched
/// parentheses), `mb` megabytes of them.
fn junk_files(dir: &Path, mb: usize) -> Vec<(String, usize)> {
    let size = mb << 20;
    let mut seed = 7u64;
    let mut next = move || {
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (seed >> 33) as usize
    };
    let words = [
        "foo",
        "bar",
        "(baz qux)",
        "(a (b c) d)",
        "\"s\"",
        "()",
        "n",
        "add",
    ];
    let mut forms = String::new();
    while forms.len() < size {
        forms.push('(');
        for _ in 0..4 {
            forms.push_str(words[next() % words.len()]);
            forms.push(' ');
        }
        forms.push_str(")\n");
    }
    let game_with =
        |section: &str| GAME.replace("(board-setup", &format!("{section}\n(board-setup"));
    let files = [
        ("top-level", format!("{GAME}{forms}")),
        ("sections", game_with(&forms)),
        (
            "moves",
            game_with(&format!("(piece (name Junk) (moves {forms}))")),
        ),
        ("unmatched", format!("{GAME}{}", ")".repeat(size))),
    ];
    files
        .iter()
        .map(|(name, text)| (write(dir, &format!("{name}.zrf"), text), text.len()))
        .collect()
}

#[test]
fn two_megabytes_of_junk_are_bounded() {
    let d = temp_dir("junk2");
    for (f, len) in junk_files(&d, 2) {
        let r = dagaz(&["check", &f]);
        assert_bounded(&f, &r, len);
        // Ignored top-level forms and unknown sections are warnings; the other kinds of junk are errors.
        let expected = if f.ends_with("top-level.zrf") || f.ends_with("sections.zrf") {
            0
        } else {
            1
        };
        assert_eq!(
            r.code,
            expected,
            "{f}: {}",
            &r.all()[..r.all().len().min(2000)]
        );
    }
}

#[test]
#[ignore = "50 MB inputs: about a minute; cargo test --release --test reading -- --ignored"]
fn fifty_megabytes_of_junk_are_bounded() {
    let d = temp_dir("junk50");
    for (f, len) in junk_files(&d, 50) {
        let r = dagaz(&["check", &f]);
        println!(
            "{f}: exit {}, {:.1} s, {:.0} MB",
            r.code, r.seconds, r.peak_mb
        );
        assert_bounded(&f, &r, len);
    }
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn a_file_that_is_not_zrf_is_one_line() {
    let readme = Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md");
    let readme = readme.to_str().unwrap();
    let mut files = vec![readme.to_string()];
    if Path::new("/bin/true").exists() {
        files.push("/bin/true".into());
    }
    for f in &files {
        for args in [vec!["check", f], vec!["perft", f, "1"], vec!["variants", f]] {
            let r = dagaz(&args);
            assert_eq!(r.code, 1, "{args:?}");
            assert_eq!(r.stderr.lines().count(), 1, "{args:?}: {}", r.stderr);
            assert!(r.stderr.contains("is not a ZRF game file"), "{}", r.stderr);
        }
    }
}

#[test]
fn a_word_known_elsewhere_gets_a_hint_that_does_not_repeat_it() {
    let d = temp_dir("hint");
    let f = write(
        &d,
        "or.zrf",
        &GAME.replace("((n (verify empty?) add))", "((or n) add)"),
    );
    let r = dagaz(&["check", &f]);
    assert!(
        r.stderr.contains("unknown instruction `or`"),
        "{}",
        r.stderr
    );
    assert!(!r.stderr.contains("did you mean `or`"), "{}", r.stderr);
    assert!(r.stderr.contains("`or` is a condition"), "{}", r.stderr);
}

#[test]
fn errors_are_not_prefixed_twice() {
    let d = temp_dir("error-error");
    let f = write(
        &d,
        "bad.zrf",
        &GAME.replace("(verify empty?)", "(verify (friend? zz))"),
    );
    let out = d.join("run");
    for args in [
        vec![
            "tournament",
            &f,
            "--games",
            "2",
            "--quiet",
            "--out",
            out.to_str().unwrap(),
        ],
        vec!["perft", &f, "1"],
        vec!["playout", &f],
        vec!["check", &f],
    ] {
        let r = dagaz(&args);
        assert_eq!(r.code, 1, "{args:?}");
        assert!(
            r.stderr.contains("error: unknown"),
            "{args:?}: {}",
            r.stderr
        );
        assert!(!r.stderr.contains("error: error"), "{args:?}: {}", r.stderr);
    }
}

#[test]
fn many_variants_of_a_big_game_do_not_multiply_memory() {
    // 300,000 sections and 2,000 variants, each of which would copy them all: 1.2 MB that took over 3 GB.
    let d = temp_dir("variants");
    let game = GAME.trim_end().strip_suffix(')').unwrap();
    let text = format!(
        "{game}{})\n{}",
        " (x)".repeat(300_000),
        "(variant (title \"v\"))\n".repeat(2000)
    );
    let f = write(&d, "v.zrf", &text);
    for args in [vec!["variants", &f], vec!["check", "--all-variants", &f]] {
        let r = dagaz(&args);
        assert_bounded("variants", &r, text.len());
        assert_eq!(r.code, 1, "{}", r.all());
        assert!(
            r.stderr.contains("add up to more than 250000 sections"),
            "{}",
            r.stderr
        );
    }
}

/// A chain of includes deeper than the limit (16) is reported as too deep; it used to read "includes itself",
/// though no file did. A file that does include itself still says so.
#[test]
fn an_include_chain_too_deep_is_not_called_a_cycle() {
    let d = temp_dir("include-deep");
    for i in 0..20 {
        write(
            &d,
            &format!("f{i}.zrf"),
            &format!("(include \"f{}.zrf\")", i + 1),
        );
    }
    write(&d, "f20.zrf", "(define step ($1 (verify empty?) add))");
    let f = write(&d, "game.zrf", &format!("(include \"f0.zrf\")\n{GAME}"));
    let r = dagaz(&["check", &f]);
    assert_eq!(r.code, 1, "{}", r.all());
    assert!(r.stderr.contains("more than 16 deep"), "{}", r.all());
    assert!(!r.stderr.contains("includes itself"), "{}", r.all());
    write(&d, "self.zrf", "(include \"self.zrf\")");
    let f = write(&d, "game2.zrf", &format!("(include \"self.zrf\")\n{GAME}"));
    let r = dagaz(&["check", &f]);
    assert!(r.stderr.contains("includes itself"), "{}", r.all());
}
