#!/usr/bin/env python3
"""Strength benchmark: dagaz's MCTS against OpenSpiel's MCTS (the C++ `pyspiel.MCTSBot`) at the same time per move.

Run from anywhere (the repository root is found from this file's location), with the standard library only:

    python3 tests/bench/strength.py                       # 100 games a game at 200 ms a move, print the table
    python3 tests/bench/strength.py --write               # ... and put it into BENCHMARKS.md between the markers
    python3 tests/bench/strength.py --games 10 --ms 100 --game breakthrough,othello --jobs 1    # a quick trial

What it does:
1. Makes a virtual environment (`target/strength-venv`, reused when present; `--venv DIR`) and installs OpenSpiel
   into it (`pip install "open-spiel>=2.0"`, when `import pyspiel` fails there or its C++ MCTSBot has no
   `max_wall_clock_time`); builds dagaz (`cargo build --release`, skipped with `--no-build`).
2. Runs the OpenSpiel bot's self-test (`tests/bench/openspiel_bot.py --self-test`): the C++ bot runs the count
   it is given, plays legal moves, repeats itself with the same seed, and stops its timed searches at the budget
   (the median overrun 15 ms at most); the Python bot's timed search builds the same tree as
   `MCTSBot.mcts_search` for a fixed count; the board readers and move keys work.
3. For each game, plays

       dagaz tournament games/X.zrf --bots DAGAZ_BOT openspiel-mcts.toml --games N --jobs J --seed S \
           --move-timeout-ms T --out RUN/X

   (English checkers plays its file's variant "English Checkers (OpenSpiel)", `--variant`: OpenSpiel's rules.)
   DAGAZ_BOT is `--dagaz-bot` (default: plain UCT, `mcts:time_ms=MS,iterations=MS*1000000,playout_plies=10000`:
   the clock alone stops it, the iteration cap, one a nanosecond, being out of reach even in an endgame where
   the tree holds the whole game; rollouts go to the end of the game as OpenSpiel's do). openspiel-mcts.toml
   is an external bot (docs/bot-protocol.md) that runs `tests/bench/openspiel_bot.py` with the venv's python:
   OpenSpiel's C++ MCTS, `pyspiel.MCTSBot` (UCT constant 2, `pyspiel.RandomRolloutEvaluator(1, seed)`: one
   random rollout per leaf, `solve=True`), stopped by its own clock after MS milliseconds of search a move
   (`max_wall_clock_time`); `--impl python` plays the pure-Python `open_spiel.python.algorithms.mcts.MCTSBot`
   instead (several times fewer simulations in the same time), for comparison. Games come in seat-swapped pairs
   from the same random opening (`--opening-plies`, default 4).
4. Replays the run's games in OpenSpiel (`openspiel_bot.py --replay`): each game must end at the same ply with
   the same winner there, so that the two programs played one game by the same rules.
5. Reads the run's `standings.csv` (W/D/L, score, Elo and its 95% interval, as the tournament computes them),
   `games.csv` (errors, plies), `timings.csv` (each seat's time and dagaz's MCTS iterations per game) and the
   OpenSpiel bot's statistics file (simulations and search time per move), and prints a markdown table.

Time budgets: the OpenSpiel bot searches `--ms` per move by OpenSpiel's clock, dagaz's MCTS `time_ms` by its own.
The table shows each side's mean time a move as the tournament timed it (the whole answer: for the external bot
also the request's round trip, the position's sync and, at its first move, its process's start), and
OpenSpiel's search time alone, so that the fairness of the budgets can be seen. The external
bot's answer deadline (`time_ms` of the preset) is `--ms` plus 10 s, plus 30 s of start-up for a new process
(importing OpenSpiel), and the run's `--move-timeout-ms` (default 60000, at least 10 x `--ms`) is above both, so
a slow answer on a loaded machine is not a spurious loss; a real timeout is still a `bot-error`.

Exit code: 0 when every game was played to its end; 1 when a game could not be (a `bot-error` of either bot:
crash, mapping error, timeout, illegal move; an `engine-error`; a tournament that failed) or ends otherwise in
OpenSpiel's replay, the table still printed, with the errors on standard error. Both bots' times depend on the
machine and its load: run it on an otherwise idle machine, `--jobs 1` for the steadiest figures. Where other work
must run beside it, run it with `nice -n -10` and with `kernel.sched_autogroup_enabled=0` (as root:
`echo 0 > /proc/sys/kernel/sched_autogroup_enabled`), without which `nice` only orders the processes of one session:
with it on, a busy machine starved the OpenSpiel bot (555 simulations a move at Othello against 2,329 on a fair
core), and the report records the setting.
"""

import argparse
import csv
import datetime
import json
import os
import platform
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
BIN = ROOT / "target" / "release" / "dagaz"
BOT = ROOT / "tests" / "bench" / "openspiel_bot.py"
BENCHMARKS = ROOT / "BENCHMARKS.md"
BEGIN = "<!-- strength:begin (written by tests/bench/strength.py --write) -->"
END = "<!-- strength:end -->"
OPENSPIEL_NAME = "openspiel-mcts"

# key: (dagaz file, title in the table). The keys are openspiel_bot.py's adapters.
GAMES = {
    "breakthrough": ("games/breakthrough.zrf", "breakthrough"),
    "othello": ("games/othello.zrf", "othello"),
    "connect-four": ("games/connect-four.zrf", "Connect Four"),
    "hex": ("games/hex.zrf", "Hex 11x11"),
    "go-9x9": ("games/go-9x9.zrf", "Go 9x9"),
    "english-checkers": ("games/english-checkers.zrf", "English checkers"),
}
# The variant a game plays, where it is not its file's first: OpenSpiel's checkers rules (a draw after 40 plies
# without a capture, see the variant's comment).
VARIANTS = {"english-checkers": "English Checkers (OpenSpiel)"}
DEFAULT_GAMES = "breakthrough,othello"
DEFAULT_DAGAZ_BOT = "mcts:time_ms={ms},iterations={cap},playout_plies=10000"


def log(*a):
    print(*a, file=sys.stderr, flush=True)


def run(cmd, **kw):
    log("$ " + " ".join(str(c) for c in cmd))
    return subprocess.run([str(c) for c in cmd], cwd=ROOT, **kw)


def venv_python(venv):
    return venv / ("Scripts/python.exe" if os.name == "nt" else "bin/python")


def setup_venv(venv):
    """The venv's python, with OpenSpiel importable; makes the venv and installs open-spiel when needed."""
    py = venv_python(venv)
    if not py.exists():
        if run([sys.executable, "-m", "venv", venv]).returncode != 0:
            sys.exit(f"error: cannot create the virtual environment {venv}")
    # The C++ MCTSBot's time budget (max_wall_clock_time) came with open-spiel 2.0.
    check = "import pyspiel; assert 'max_wall_clock_time' in pyspiel.MCTSBot.__init__.__doc__"
    if run([py, "-c", check], capture_output=True).returncode != 0:
        if run([py, "-m", "pip", "install", "--quiet", "--upgrade", "open-spiel>=2.0"]).returncode != 0:
            sys.exit("error: `pip install open-spiel>=2.0` failed in the virtual environment")
        if run([py, "-c", check], capture_output=True).returncode != 0:
            sys.exit("error: OpenSpiel was installed but `import pyspiel` fails or its MCTSBot has no "
                     "max_wall_clock_time")
    return py


def openspiel_version(py):
    p = subprocess.run([str(py), "-c", "import importlib.metadata as m; print(m.version('open-spiel'))"],
                       capture_output=True, text=True)
    return p.stdout.strip() or "unknown"


def sh(cmd):
    return subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True).stdout.strip()


def machine():
    cpu = "unknown"
    try:
        m = re.search(r"^model name\s*:\s*(.*)$", Path("/proc/cpuinfo").read_text(), re.M)
        cpu = m.group(1).strip() if m else cpu
    except OSError:
        pass
    commit = sh(["git", "rev-parse", "--short", "HEAD"]) or "unknown"
    if sh(["git", "status", "--porcelain", "--untracked-files=no"]):
        commit += " (with uncommitted changes)"
    return dict(cpu=cpu, nproc=os.cpu_count(), commit=commit, rustc=sh(["rustc", "--version"]),
                python=platform.python_version(), kernel=platform.release(),
                date=datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"))


def loadavg():
    try:
        return ", ".join(f"{x:.2f}" for x in os.getloadavg())
    except OSError:
        return "unknown"


def autogroup():
    """Linux's `kernel.sched_autogroup_enabled`: where it is 1, the scheduler shares the cores between sessions
    before it looks at `nice`, so a match run at high priority still shares its core with another session's
    build, and both bots (which search by the wall clock) lose time unevenly. "unknown" off Linux."""
    try:
        with open("/proc/sys/kernel/sched_autogroup_enabled", encoding="utf-8") as f:
            return f.read().strip()
    except OSError:
        return "unknown"


def toml_str(s):
    return json.dumps(str(s))  # a JSON string is a valid TOML basic string


def write_preset(path, py, key, args, stats):
    bot_args = [BOT, "--game", key, "--impl", args.impl, "--ms", args.ms, "--uct-c", args.uct_c, "--stats", stats]
    if args.no_solve:
        bot_args.append("--no-solve")
    path.write_text(
        f"# OpenSpiel's MCTSBot ({args.impl}) as an external bot, written by tests/bench/strength.py\n"
        'kind = "external"\n'
        f"name = {toml_str(OPENSPIEL_NAME)}\n"
        # The interpreter alone in `command` (split at whitespace); every path goes in `args`, taken as it is.
        f"command = {toml_str(py)}\n"
        f"args = [{', '.join(toml_str(a) for a in bot_args)}]\n"
        f"dir = {toml_str(ROOT)}\n"
        f"time_ms = {int(args.ms) + 10000}\n"
        "startup_ms = 30000\n"
    )


def read_csv(path):
    with open(path, newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f))


def moves_of_seat(game, seat):
    """The plies a seat (0: bot_1, the first player) played itself: turns alternate (a pass is a ply), and the
    random opening plies are nobody's."""
    start, end = int(game["opening_plies"]), int(game["plies"])
    return sum(1 for p in range(start, end) if p % 2 == seat)


def summarize(key, out, stats_path, dagaz_name):
    """The table row of one game's run, and the errors found in it."""
    errors = []
    standings = {r["bot"]: r for r in read_csv(out / "standings.csv")}
    if set(standings) != {dagaz_name, OPENSPIEL_NAME}:
        errors.append(f"{key}: standings.csv lists {sorted(standings)}, expected {dagaz_name} and {OPENSPIEL_NAME}")
        return None, errors
    games = read_csv(out / "games.csv")
    for g in games:
        if g["end_type"] in ("bot-error", "engine-error") or g["error"]:
            errors.append(f"{key}: game {g['game_id']}: {g['end_type']} ({g['end_name']}): {g['error']}")
    # dagaz's iterations: timings.csv has each seat's total per game; the moves are the seat's plies.
    timings = {t["game_id"]: t for t in read_csv(out / "timings.csv")}
    iterations = dagaz_moves = os_moves = 0
    dagaz_ms = os_ms = 0.0
    for g in games:
        seat = 0 if g["bot_1"] == dagaz_name else 1
        t = timings.get(g["game_id"])
        if t is None:
            errors.append(f"{key}: game {g['game_id']} has no line in timings.csv")
            continue
        iterations += int(t[f"nodes_{seat + 1}"])
        dagaz_ms += float(t[f"time_ms_{seat + 1}"])
        dagaz_moves += moves_of_seat(g, seat)
        os_ms += float(t[f"time_ms_{2 - seat}"])
        os_moves += moves_of_seat(g, 1 - seat)
    sims = [json.loads(line) for line in open(stats_path, encoding="utf-8")] if stats_path.exists() else []
    d = standings[dagaz_name]
    row = dict(
        key=key, title=GAMES[key][1], games=int(d["games"]), wins=int(d["wins"]), draws=int(d["draws"]),
        losses=int(d["losses"]), score=float(d["score"]), elo=d["elo"], elo95=d["elo_error95"],
        os_sims=sum(s["simulations"] for s in sims) / len(sims) if sims else None,
        os_stat_moves=len(sims), os_search_ms=sum(s["ms"] for s in sims) / len(sims) if sims else None,
        os_ms=os_ms / os_moves if os_moves else None,
        os_answer_ms=sum(s["answer_ms"] for s in sims) / len(sims) if sims else None,
        os_startups=sum(1 for s in sims if "startup_ms" in s),
        os_startup_ms=(sum(s.get("startup_ms", 0) for s in sims) / max(1, sum(1 for s in sims if "startup_ms" in s))
                       if sims else None),
        dagaz_iters=iterations / dagaz_moves if dagaz_moves else None, dagaz_moves=dagaz_moves,
        dagaz_ms=dagaz_ms / dagaz_moves if dagaz_moves else None,
        plies=sum(int(g["plies"]) for g in games) / len(games) if games else None,
        errors=sum(1 for g in games if g["end_type"] in ("bot-error", "engine-error") or g["error"]),
    )
    return row, errors


def fmt(x, digits=0):
    if x is None:
        return "—"
    return f"{x:,.{digits}f}"


def elo_text(row):
    elo, err = row["elo"], row["elo95"]
    try:
        e = float(elo)
        elo = f"{e:+.0f}" if abs(e) != float("inf") else elo
    except ValueError:
        pass
    try:
        x = float(err)
        err = f"{x:.0f}" if x != float("inf") else "n/a"  # as the tournament prints it: too few games
    except ValueError:
        pass
    return f"{elo} ± {err}"


def opponent_text(args):
    if args.impl == "cpp":
        who = ("OpenSpiel's C++ MCTS, `pyspiel.MCTSBot` with `pyspiel.RandomRolloutEvaluator(1, seed)` (one random "
               "rollout per leaf), max_memory_mb 1000")
        clock = "by OpenSpiel's clock (`max_wall_clock_time`)"
    else:
        who = ("OpenSpiel's pure-Python MCTS, `open_spiel.python.algorithms.mcts.MCTSBot` with "
               "`RandomRolloutEvaluator(1)` (one random rollout per leaf)")
        clock = "by the bot's clock, looked at between simulations"
    solve = "without solver (`solve=False`)" if args.no_solve else "MCTS-Solver backups (`solve=True`)"
    return f"{who}, UCT constant {args.uct_c:g}, {solve}, {args.ms:g} ms of search a move {clock}"


def report(rows, args, info, dagaz_bot, versions, load_before, load_after, wall):
    lines = [
        "## Strength: dagaz's MCTS against OpenSpiel's MCTS",
        "",
        "Measured by `python3 tests/bench/strength.py --write` (see its docstring): for each game,",
        f"`dagaz tournament GAME --bots {dagaz_bot} {OPENSPIEL_NAME} --games {args.games} --jobs {args.jobs} "
        f"--seed {args.seed} --opening-plies {args.opening_plies} --move-timeout-ms {args.move_timeout_ms}`, "
        f"where `{OPENSPIEL_NAME}` is `tests/bench/openspiel_bot.py --impl {args.impl}`: {opponent_text(args)}. "
        "Games in seat-swapped pairs from the same random opening.",
        "",
        f"Measured {info['date']} at commit {info['commit']}: {info['cpu']}, {info['nproc']} logical CPUs, Linux "
        f"{info['kernel']}, {info['rustc']}, Python {info['python']}, OpenSpiel {versions}; "
        f"{wall / 60:.1f} min; load average before: {load_before}; after: {load_after}; "
        f"kernel.sched_autogroup_enabled: {autogroup()} (with 1, `nice` does not shield the match from other "
        "sessions' work).",
        "",
        "| game | games | dagaz W / D / L | dagaz score | dagaz Elo ± 95% | OpenSpiel simulations / move "
        "| dagaz MCTS iterations / move | OpenSpiel ms / move | dagaz ms / move | OpenSpiel answer ms / move "
        "| OpenSpiel search ms / move | plies / game | errors |",
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    for r in rows:
        lines.append(
            f"| {r['title']} | {r['games']} | {r['wins']} / {r['draws']} / {r['losses']} | {r['score']:.3f} "
            f"| {elo_text(r)} | {fmt(r['os_sims'])} | {fmt(r['dagaz_iters'])} | {fmt(r['os_ms'], 1)} "
            f"| {fmt(r['dagaz_ms'], 1)} | {fmt(r['os_answer_ms'], 1)} | {fmt(r['os_search_ms'], 1)} "
            f"| {fmt(r['plies'])} | {r['errors']} |"
        )
    lines += [
        "",
        "Elo and its 95% interval are the tournament's own (`standings.csv`: `elo`, `elo_error95`), dagaz's "
        "against OpenSpiel's. Per move: OpenSpiel's simulations (its search root's visits) from the bot's "
        "statistics file, dagaz's MCTS iterations from `timings.csv` (`nodes`) over the plies it played; both "
        "count every move the bot made, forced ones (a single legal move, answered without a search) as 0. "
        "\"ms / move\" is each side's time a move as the tournament timed it (`timings.csv`, `time_ms`: the whole "
        "answer; for OpenSpiel's external bot also the request's round trip, the sync of its OpenSpiel state, the "
        "move mapping and, at its first move of a game, the start of its process); \"OpenSpiel answer ms\" is the "
        "bot's own time from reading a request to writing its answer (the search, the sync, the mapping), "
        "\"OpenSpiel search ms\" its search alone, by its own clock. All are means over whole games: the endgame, "
        "where a rollout is a few plies and a search may be solved and stop early, weighs on them, on dagaz's side "
        "most (its iterations there are cheap). The OpenSpiel bot's process starts once a game (the tournament "
        "makes its bots per game), in the time of its first move: "
        + "; ".join(f"{r['title']} {r['os_startups']} starts, {fmt(r['os_startup_ms'])} ms each from its module's "
                    "first line (numpy and OpenSpiel imports) to its first request" for r in rows)
        + ".",
    ]
    return "\n".join(lines)


def write_benchmarks(text):
    old = BENCHMARKS.read_text(encoding="utf-8") if BENCHMARKS.exists() else "# Benchmarks\n"
    if BEGIN in old and END in old:
        head, rest = old.split(BEGIN, 1)
        new = f"{head}{BEGIN}\n{text}\n{END}{rest.split(END, 1)[1]}"
    else:
        new = f"{old.rstrip()}\n\n{BEGIN}\n{text}\n{END}\n"
    BENCHMARKS.write_text(new, encoding="utf-8")
    log(f"wrote {BENCHMARKS}")


def main():
    ap = argparse.ArgumentParser(description="dagaz's MCTS against OpenSpiel's MCTS at equal time per move",
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--game", default=DEFAULT_GAMES,
                    help=f"games, comma-separated, of: {', '.join(GAMES)} (default {DEFAULT_GAMES}; `all`)")
    ap.add_argument("--games", type=int, default=100, help="games per game, in seat-swapped pairs (default 100)")
    ap.add_argument("--ms", type=int, default=200, help="search time per move of both bots (default 200)")
    ap.add_argument("--jobs", type=int, default=1, help="games played at once (default 1)")
    ap.add_argument("--seed", type=int, default=1, help="the tournament's seed (default 1)")
    ap.add_argument("--opening-plies", type=int, default=4, help="random plies before the bots play (default 4)")
    ap.add_argument("--dagaz-bot", default=DEFAULT_DAGAZ_BOT,
                    help="dagaz's bot, an inline spec or preset; `{ms}` is replaced by --ms and `{cap}` by 1000000 x "
                         f"--ms (default {DEFAULT_DAGAZ_BOT})")
    ap.add_argument("--impl", choices=("cpp", "python"), default="cpp",
                    help="OpenSpiel's MCTSBot: the C++ pyspiel.MCTSBot (default) or the pure-Python one")
    ap.add_argument("--uct-c", type=float, default=2.0, help="OpenSpiel's UCT constant (default 2)")
    ap.add_argument("--no-solve", action="store_true", help="OpenSpiel's MCTSBot without solver backups")
    ap.add_argument("--move-timeout-ms", type=int, default=None,
                    help="the tournament's move timeout (default: 60000, and at least 10 x --ms)")
    ap.add_argument("--venv", type=Path, default=ROOT / "target" / "strength-venv", help="the virtual environment")
    ap.add_argument("--out", type=Path, default=None, help="the run's folder (default results/strength-DATE-TIME)")
    ap.add_argument("--no-build", action="store_true", help="use target/release/dagaz as it is")
    ap.add_argument("--write", action="store_true", help="put the report into BENCHMARKS.md between the markers")
    args = ap.parse_args()

    keys = list(GAMES) if args.game == "all" else [k.strip() for k in args.game.split(",") if k.strip()]
    for k in keys:
        if k not in GAMES:
            ap.error(f"unknown game `{k}`: the games are {', '.join(GAMES)}")
    if args.games < 2 or args.ms < 1 or args.jobs < 1:
        ap.error("--games must be at least 2, --ms and --jobs at least 1")
    if args.move_timeout_ms is None:
        args.move_timeout_ms = max(60000, 10 * args.ms)
    elif args.move_timeout_ms < 10 * args.ms:
        ap.error(f"--move-timeout-ms {args.move_timeout_ms} would make time-based bots lose on time: give at "
                 f"least 10 x --ms ({10 * args.ms})")
    dagaz_bot = args.dagaz_bot.replace("{ms}", str(args.ms)).replace("{cap}", str(1_000_000 * args.ms))
    if dagaz_bot.startswith(("mcts:", "alphabeta:", "random:", "external:")) and ",name=" not in dagaz_bot \
            and ":name=" not in dagaz_bot:
        dagaz_bot += ",name=dagaz-mcts" if dagaz_bot.startswith("mcts:") else ",name=dagaz"

    py = setup_venv(args.venv.resolve())
    versions = openspiel_version(py)
    if not args.no_build:
        if run(["cargo", "build", "--release"]).returncode != 0:
            sys.exit("error: cargo build --release failed")
    if not BIN.exists():
        sys.exit(f"error: {BIN} is missing (build it, or drop --no-build)")
    st = run([py, BOT, "--self-test", "--self-test-games", ",".join(keys)], capture_output=True, text=True)
    sys.stderr.write(st.stdout + st.stderr)
    if st.returncode != 0:
        sys.exit("error: the OpenSpiel bot's self-test failed")

    stamp = datetime.datetime.now().strftime("%Y%m%d-%H%M%S")
    out_root = (args.out or ROOT / "results" / f"strength-{stamp}").resolve()
    out_root.mkdir(parents=True, exist_ok=True)
    info = machine()
    load_before = loadavg()
    t0 = time.time()
    rows, errors = [], []
    for key in keys:
        out = out_root / key
        if out.exists():
            shutil.rmtree(out)
        out_root.joinpath(f"{key}-openspiel.jsonl").unlink(missing_ok=True)
        stats = out_root / f"{key}-openspiel.jsonl"
        preset = out_root / f"{key}-{OPENSPIEL_NAME}.toml"
        write_preset(preset, py, key, args, stats)
        cmd = [BIN, "tournament", ROOT / GAMES[key][0], "--bots", dagaz_bot, preset, "--games", args.games,
               "--jobs", args.jobs, "--seed", args.seed, "--opening-plies", args.opening_plies,
               "--move-timeout-ms", args.move_timeout_ms, "--out", out, "--quiet"]
        if key in VARIANTS:
            cmd += ["--variant", VARIANTS[key]]
        p = run(cmd, capture_output=True, text=True)
        sys.stderr.write(p.stdout + p.stderr)
        if p.returncode != 0:
            errors.append(f"{key}: the tournament exited with {p.returncode}")
            if not (out / "standings.csv").exists():
                continue
        # The same games in OpenSpiel, move by move: each must end where dagaz's ends, with the same winner.
        rp = run([py, BOT, "--replay", out / "games.csv", "--game", key], capture_output=True, text=True)
        sys.stderr.write(rp.stdout + rp.stderr)
        if rp.returncode != 0:
            errors.append(f"{key}: replayed in OpenSpiel, some games end otherwise (see above)")
        dagaz_name = next(r["bot"] for r in read_csv(out / "standings.csv") if r["bot"] != OPENSPIEL_NAME)
        row, errs = summarize(key, out, stats, dagaz_name)
        errors += errs
        if row:
            rows.append(row)
    wall = time.time() - t0
    text = report(rows, args, info, dagaz_bot, versions, load_before, loadavg(), wall)
    print(text)
    log(f"runs in {out_root}")
    if args.write:
        write_benchmarks(text)
    for e in errors:
        log(f"error: {e}")
    if errors:
        log(f"{len(errors)} error(s): some games could not be played to their end")
        sys.exit(1)


if __name__ == "__main__":
    main()
