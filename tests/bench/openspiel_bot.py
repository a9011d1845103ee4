#!/usr/bin/env python3
"""OpenSpiel's MCTS as an external dagaz bot (docs/bot-protocol.md), for the strength harness
(tests/bench/strength.py).

    python tests/bench/openspiel_bot.py --game breakthrough --ms 200 [--stats FILE]
    python tests/bench/openspiel_bot.py --self-test            # checks, no dagaz needed (see below)

Needs OpenSpiel 2.0 or later (`pip install "open-spiel>=2.0"`); strength.py runs it with the python of its virtual
environment. `--self-test` checks both implementations (see `self_test`).

The player is OpenSpiel's MCTS: UCT with exploration constant 2 (`--uct-c`), leaves valued by one uniformly random
rollout, solved states backed up (MCTS-Solver, `solve=True`, the default of OpenSpiel's MCTS examples and of the
Python class; `--no-solve` turns it off), the best child chosen (`best_child`: proven wins first, then the most
visited). Two implementations (`--impl`):

* `cpp` (default): the C++ bot, `pyspiel.MCTSBot(game, pyspiel.RandomRolloutEvaluator(1, seed), uct_c,
  max_simulations, max_memory_mb=1000, solve, seed, verbose=False, max_wall_clock_time=SECONDS)`, a new one a
  move (constructing it takes a few microseconds). Its time budget is OpenSpiel's own: with
  `max_wall_clock_time` > 0 (open-spiel 2.0 and later), `MCTSBot::MCTSearch` looks at the clock before each
  simulation and stops once the budget is spent, `max_simulations` then being unused. The bot calls
  `mcts_search` and takes the root's `best_child()` (what `step` does) so that it can report the root's visit
  count, the simulations run.
* `python`: the pure-Python `open_spiel.python.algorithms.mcts.MCTSBot` with `RandomRolloutEvaluator(1)`, several
  times slower (kept for comparison). Its budget is a number of simulations, so this bot gives it a time budget:
  `TimedSearch` runs the same simulations one at a time on OpenSpiel's `SearchNode` tree and evaluator, looking
  at the clock between them; the self-test checks that for a fixed count it builds the very same tree as
  `MCTSBot.mcts_search` (same visits and rewards for every root child, same move), so the clock is the only
  difference.

`--ms` is the search time per move (default 200); `--sims N` plays N simulations a move instead (the C++ bot's
`max_simulations`, or the Python bot's), fewer when the search solves the position.

The bot keeps an OpenSpiel state in step with dagaz's game. Each request carries only the position, so the bot
finds the OpenSpiel actions that lead from its last state (or the start, at the first request after the random
opening plies) to a state whose board and player to move equal the request's: a depth-first search over
plies, pruned by a lower bound on the plies still needed. Then it maps every dagaz move (by its notation) and
every OpenSpiel legal action to one key, a move in OpenSpiel's terms: both sides must give the same number of
moves, each key once, the same keys. Anything else (a position it cannot reach, a move it cannot read, two lists
that differ) is a mapping error: the bot writes it to standard error and exits with status 2, and the game is
recorded as the bot's `bot-error` (crashed) with that message. It never guesses a move.

`--replay games.csv --game KEY` replays a finished run's games in OpenSpiel, move by move through the same keys,
and checks that each game ends at the same ply with the same winner: the rules agree on the games played.

`--stats FILE` appends one JSON line per move: the game key, the implementation, the request number, the
simulations run, the search time (`ms`), the time from reading the request to writing the answer (`answer_ms`:
the search, the position's sync and the move mapping) and the number of legal moves (strength.py averages them);
the first line of a process also its start-up (`startup_ms`: from the start of this module, before numpy and
OpenSpiel are imported, to the first request read).

A dagaz move may be several OpenSpiel actions of one player (English checkers: one action a jump of a chain).
The adapter then lists OpenSpiel's plays (`Adapter.os_moves`: every sequence of actions that is one dagaz move,
with its key), the sync and the replay step by plays, and the bot plays its move action by action: each action
with a choice gets a search of its own with the whole budget (as OpenSpiel plays the game; a forced action
none), and the actions together are the dagaz move it answers. `--cross-check FILE` plays random games in
`dagaz session` and OpenSpiel side by side and checks that the boards, the moves and the ends agree at every
position (see `cross_check`).

Adding a game: a subclass of `Adapter` with the OpenSpiel game, dagaz's player names (in turn order, the i-th
is OpenSpiel's player i), the board of each side as {square: (player, kind)} in OpenSpiel's square names, the key
of a dagaz move and of an OpenSpiel action (or of a play, `os_moves`), and a lower bound on the plies between two
boards.
"""

import time

# Before the other imports (numpy and OpenSpiel take a while): the first statistics line of a process reports its
# start-up, from here to its first request.
STARTED = time.perf_counter()

import argparse  # noqa: E402
import json  # noqa: E402
import math  # noqa: E402
import os  # noqa: E402
import re  # noqa: E402
import sys  # noqa: E402

import numpy as np  # noqa: E402
import pyspiel  # noqa: E402
from open_spiel.python.algorithms import mcts  # noqa: E402


class MappingError(Exception):
    """dagaz's game and OpenSpiel's cannot be put in step, or their moves do not map one to one."""


# --------------------------------------------------------------------------------------------------------------
# Games
# --------------------------------------------------------------------------------------------------------------


class Adapter:
    """How one dagaz game file and one OpenSpiel game name the same things."""

    key = ""  # strength.py's key
    openspiel = ""  # pyspiel.load_game string
    players = ()  # dagaz's player names, in turn order: index = OpenSpiel player id

    def os_board(self, state):
        """{square: (player, kind)} of an OpenSpiel state, squares in OpenSpiel's names."""
        raise NotImplementedError

    def dagaz_square(self, name):
        """OpenSpiel's name of a dagaz square (identity by default)."""
        return name

    def dagaz_board(self, dstate, players):
        board = {}
        for p in dstate["pieces"]:
            board[self.dagaz_square(p["at"])] = (players.index(p["player"]), self.dagaz_kind(p["piece"]))
        if dstate.get("reserves"):
            raise MappingError(f"{self.key}: dagaz's position has reserves, which this game does not use")
        return board

    def dagaz_kind(self, piece):
        return "."

    def dagaz_key(self, notation):
        """The key of a dagaz move, from its notation; MappingError if it cannot be read."""
        raise NotImplementedError

    def os_key(self, state, action):
        """The key of an OpenSpiel legal action in `state`."""
        raise NotImplementedError

    def os_moves(self, state):
        """OpenSpiel's plays from `state` that are one dagaz move each: [(key, [actions])], every way to play
        them. Here one action a move, the keys distinct; a game whose move is several OpenSpiel actions
        (English checkers) lists each sequence, and sequences that leave the same position share a key."""
        out, seen = [], set()
        for action in state.legal_actions():
            k = self.os_key(state, action)
            if k in seen:
                raise MappingError(f"{self.key}: two OpenSpiel actions map to `{k}`")
            seen.add(k)
            out.append((k, [action]))
        return out

    def self_check(self, game):
        """Checks of this adapter of its own (see EnglishCheckers), for --self-test: a list of failures."""
        return []

    def min_plies(self, board, target):
        """A lower bound on the plies from `board` to `target` (None: it cannot be reached)."""
        return 0

    passes_after_end = False  # whether dagaz plays passes after OpenSpiel's game is over

    def final_pass(self, state, moves):
        """Whether dagaz asks for a move that OpenSpiel's game, already over, does not have (see Othello)."""
        return False


def grid_rows(text, first, count):
    """The rows of an ASCII board: the lines that start with a row label, as {label: rest of the line}."""
    rows = {}
    for line in text.splitlines():
        m = re.match(r"^\s*(\d+)\s?(.*)$", line)
        if m and first <= int(m.group(1)) <= first + count - 1:
            rows.setdefault(int(m.group(1)), m.group(2))
    if len(rows) != count:
        raise MappingError(f"cannot read OpenSpiel's board:\n{text}")
    return rows


SQUARE = re.compile(r"^([a-z])(\d+)$")


def square(name, files, ranks):
    m = SQUARE.match(name)
    if not m or m.group(1) not in files or not 1 <= int(m.group(2)) <= ranks:
        raise MappingError(f"`{name}` is not a square of the board")
    return m.group(1), int(m.group(2))


class Breakthrough(Adapter):
    """dagaz: White (first) on ranks 1-2 going up; OpenSpiel: `b` (player 0, first) on ranks 7-8 going down.
    So dagaz's rank r is OpenSpiel's rank 9-r, files unchanged. Notation `a2-a3`, a capture `a2-b3` (on the
    destination); OpenSpiel `a7a6`, a capture `a7b6*`."""

    key = "breakthrough"
    openspiel = "breakthrough"
    players = ("White", "Black")
    FILES = "abcdefgh"

    def os_board(self, state):
        board = {}
        for rank, row in grid_rows(str(state), 1, 8).items():
            for f, c in zip(self.FILES, row[:8]):
                if c in "bw":
                    board[f"{f}{rank}"] = ("bw".index(c), ".")
        return board

    def dagaz_square(self, name):
        f, r = square(name, self.FILES, 8)
        return f"{f}{9 - r}"

    def dagaz_key(self, notation):
        m = re.match(r"^([a-h][1-8])-([a-h][1-8])$", notation)
        if not m:
            raise MappingError(f"breakthrough: cannot read the move `{notation}`")
        return self.dagaz_square(m.group(1)) + self.dagaz_square(m.group(2))

    def os_key(self, state, action):
        s = state.action_to_string(state.current_player(), action)
        m = re.match(r"^([a-h][1-8])([a-h][1-8])\*?$", s)
        if not m:
            raise MappingError(f"breakthrough: cannot read OpenSpiel's action `{s}`")
        return m.group(1) + m.group(2)

    def min_plies(self, board, target):
        # A move changes two squares (from: emptied, to: taken).
        diff = sum(1 for sq in set(board) | set(target) if board.get(sq) != target.get(sq))
        return (diff + 1) // 2


class Othello(Adapter):
    """Same square names and colours on both sides (Black first, d4/e5 White, d5/e4 Black). Notation
    `Stone@d3`, `pass`; OpenSpiel `d3`, `pass`. dagaz's game ends when the side to move has no move after a
    pass, so when neither side can move it still asks for one or two passes, where OpenSpiel's game is already
    over: those are answered `pass` (final_pass)."""

    key = "othello"
    openspiel = "othello"
    players = ("Black", "White")
    FILES = "abcdefgh"
    passes_after_end = True

    def os_board(self, state):
        board = {}
        for rank, row in grid_rows(str(state), 1, 8).items():
            cells = row.split()[:8]
            for f, c in zip(self.FILES, cells):
                if c in "xo":
                    board[f"{f}{rank}"] = ("xo".index(c), ".")
        return board

    def dagaz_key(self, notation):
        if notation == "pass":
            return "pass"
        m = re.match(r"^Stone@([a-h][1-8])$", notation)
        if not m:
            raise MappingError(f"othello: cannot read the move `{notation}`")
        return m.group(1)

    def os_key(self, state, action):
        s = state.action_to_string(state.current_player(), action)
        if s != "pass" and not re.match(r"^[a-h][1-8]$", s):
            raise MappingError(f"othello: cannot read OpenSpiel's action `{s}`")
        return s

    def min_plies(self, board, target):
        # A move adds one stone and never removes one (a pass adds none).
        if any(sq not in target for sq in board):
            return None
        return len(target) - len(board)

    def final_pass(self, state, moves):
        return state.is_terminal() and [m["notation"] for m in moves] == ["pass"]


class ConnectFour(Adapter):
    """dagaz: Yellow first, files a-g, rank 1 at the bottom, a drop named by the square it lands on
    (`Disc@d1`); OpenSpiel: `x` first, an action per column (0-6), its board printed top row first. The key is
    the landing square, found on OpenSpiel's side by playing the action on a copy."""

    key = "connect-four"
    openspiel = "connect_four"
    players = ("Yellow", "Red")
    FILES = "abcdefg"

    def os_board(self, state):
        lines = [ln for ln in str(state).splitlines() if ln.strip()]
        if len(lines) < 6:
            raise MappingError(f"cannot read OpenSpiel's board:\n{state}")
        board = {}
        for i, row in enumerate(lines[:6]):
            for f, c in zip(self.FILES, row[:7]):
                if c in "xo":
                    board[f"{f}{6 - i}"] = ("xo".index(c), ".")
        return board

    def dagaz_key(self, notation):
        m = re.match(r"^Disc@([a-g][1-6])$", notation)
        if not m:
            raise MappingError(f"connect-four: cannot read the move `{notation}`")
        return m.group(1)

    def os_key(self, state, action):
        return placed_square(self, state, action)

    def min_plies(self, board, target):
        return placement_bound(board, target)


class Hex(Adapter):
    """11x11, no swap, on both sides: dagaz's Red (first) joins rows 1 and 11 as OpenSpiel's `x` (player 0)
    does; cells `a1`..`k11` named alike (letter = column, number = row), with the same neighbours. Notation
    `Stone@f6`; OpenSpiel `f6`."""

    key = "hex"
    openspiel = "hex(board_size=11)"
    players = ("Red", "Blue")
    SIZE = 11

    def os_board(self, state):
        # Action r * 11 + c is the cell of column c, row r + 1; read the board from the observation string.
        text = str(state)
        cells = [c for c in text if c not in " \n"]
        if len(cells) != self.SIZE * self.SIZE:
            raise MappingError(f"cannot read OpenSpiel's hex board:\n{text}")
        board = {}
        for i, c in enumerate(cells):
            if c == ".":
                continue
            name = f"{'abcdefghijk'[i % self.SIZE]}{i // self.SIZE + 1}"
            if c in "xyzXYZ":
                board[name] = (0, ".")
            elif c in "opqOPQ":
                board[name] = (1, ".")
            else:
                raise MappingError(f"hex: unknown cell `{c}` in OpenSpiel's board")
        return board

    def dagaz_key(self, notation):
        m = re.match(r"^Stone@([a-k](?:[1-9]|1[01]))$", notation)
        if not m:
            raise MappingError(f"hex: cannot read the move `{notation}`")
        return m.group(1)

    def os_key(self, state, action):
        s = state.action_to_string(state.current_player(), action)
        if not re.match(r"^[a-k](?:[1-9]|1[01])$", s):
            raise MappingError(f"hex: cannot read OpenSpiel's action `{s}`")
        return s

    def min_plies(self, board, target):
        return placement_bound(board, target)


class Go9(Adapter):
    """9x9, komi 7.5, Black first, files a-j without i, rank 1 at the bottom, the same names on both sides.
    Notation `Stone@e5` (a capture adds `xe6`), `pass`; OpenSpiel `B e5`, `B PASS`. OpenSpiel's Go ends a game
    after 162 actions by default: loaded with max_game_length=1000, dagaz's cap. OpenSpiel ends a game on a
    repeated position (superko) where dagaz's simple-ko game goes on: the bot then reports a mapping error."""

    key = "go-9x9"
    openspiel = "go(board_size=9,komi=7.5,max_game_length=1000)"
    players = ("Black", "White")
    FILES = "abcdefghj"

    def os_board(self, state):
        board = {}
        for rank, row in grid_rows(str(state), 1, 9).items():
            for f, c in zip(self.FILES, row.strip()[:9]):
                if c in "XO":
                    board[f"{f}{rank}"] = ("XO".index(c), ".")
        return board

    def dagaz_key(self, notation):
        if notation == "pass":
            return "pass"
        m = re.match(r"^Stone@([a-hj][1-9])(?:x[a-hj][1-9])*$", notation)
        if not m:
            raise MappingError(f"go: cannot read the move `{notation}`")
        return m.group(1)

    def os_key(self, state, action):
        s = state.action_to_string(state.current_player(), action)
        m = re.match(r"^[BW] ([a-hj][1-9]|PASS)$", s)
        if not m:
            raise MappingError(f"go: cannot read OpenSpiel's action `{s}`")
        return "pass" if m.group(1) == "PASS" else m.group(1)

    def min_plies(self, board, target):
        # A move puts at most one new stone on the board.
        return sum(1 for sq, v in target.items() if board.get(sq) != v)


class EnglishCheckers(Adapter):
    """dagaz: games/english-checkers.zrf's variant "English Checkers (OpenSpiel)", Black first from ranks 6-8
    going down; OpenSpiel: `checkers`, White (`o`, player 0, first) from ranks 1-3 going up. The dark squares
    are the same (a1 is dark), so dagaz's square is OpenSpiel's turned half round: file a..h to h..a, rank r to
    9-r. Men `o` and `+`, kings `8` and `*`.

    A dagaz move is a whole jump chain, `d6-f4xe5-h2xg3` (`=King` when a man is crowned), and OpenSpiel plays it
    as one action a jump (`d6f4`, `f4h2`), the same player moving again. A key is a move's effect: the square it
    starts from, the square it ends on and the squares it takes, `d6-h2xe5xg3` (captured squares sorted; a
    step: `c3-d4`). dagaz lists two routes with the same effect (a king going round a ring either way) as one
    move, OpenSpiel as two sequences: both get the one key, and the bot answers with the dagaz move whichever
    route its search took."""

    key = "english-checkers"
    openspiel = "checkers"
    players = ("Black", "White")
    FILES = "abcdefgh"
    PIECES = {"o": (0, "man"), "8": (0, "king"), "+": (1, "man"), "*": (1, "king")}
    NOTATION = re.compile(r"^([a-h][1-8])((?:-[a-h][1-8](?:x[a-h][1-8])?)+)(?:=King)?$")

    def os_board(self, state):
        # Eight lines of a rank digit and eight cells, rank 8 first (not grid_rows: a White king is `8`, and
        # `78.......` would read as rank 78), then the files.
        text = str(state)
        lines = text.splitlines()
        if len(lines) < 9 or [ln[:1] for ln in lines[:8]] != list("87654321") or any(
                len(ln) != 9 for ln in lines[:8]):
            raise MappingError(f"cannot read OpenSpiel's checkers board:\n{text}")
        board = {}
        for ln in lines[:8]:
            rank = int(ln[0])
            for f, c in zip(self.FILES, ln[1:]):
                if c in self.PIECES:
                    board[f"{f}{rank}"] = self.PIECES[c]
                elif c != ".":
                    raise MappingError(f"english-checkers: unknown cell `{c}` in OpenSpiel's board:\n{state}")
        return board

    def dagaz_square(self, name):
        f, r = square(name, self.FILES, 8)
        return f"{self.FILES[7 - self.FILES.index(f)]}{9 - r}"

    def dagaz_kind(self, piece):
        if piece not in ("Man", "King"):
            raise MappingError(f"english-checkers: dagaz's piece `{piece}` is neither Man nor King")
        return piece.lower()

    @staticmethod
    def effect_key(start, end, taken):
        return f"{start}-{end}" + "".join(f"x{t}" for t in sorted(taken))

    def dagaz_key(self, notation):
        m = self.NOTATION.match(notation)
        if not m:
            raise MappingError(f"english-checkers: cannot read the move `{notation}`")
        steps = re.findall(r"-([a-h][1-8])(?:x([a-h][1-8]))?", m.group(2))
        taken = [self.dagaz_square(t) for _, t in steps if t]
        if taken and len(taken) != len(steps):
            raise MappingError(f"english-checkers: `{notation}` mixes steps and jumps")
        if not taken and len(steps) != 1:
            raise MappingError(f"english-checkers: `{notation}` takes nothing but has {len(steps)} steps")
        return self.effect_key(self.dagaz_square(m.group(1)), self.dagaz_square(steps[-1][0]), taken)

    def os_jump(self, state, action):
        """(from, to, the square jumped or None) of an OpenSpiel action, from its string (`c3d4`, `c3e5`)."""
        s = state.action_to_string(state.current_player(), action)
        m = re.match(r"^([a-h])([1-8])([a-h])([1-8])$", s)
        if not m:
            raise MappingError(f"english-checkers: cannot read OpenSpiel's action `{s}`")
        f0, r0, f1, r1 = self.FILES.index(m.group(1)), int(m.group(2)), self.FILES.index(m.group(3)), int(m.group(4))
        if abs(f1 - f0) != abs(r1 - r0) or abs(f1 - f0) not in (1, 2):
            raise MappingError(f"english-checkers: OpenSpiel's action `{s}` is neither a step nor a jump")
        over = f"{self.FILES[(f0 + f1) // 2]}{(r0 + r1) // 2}" if abs(f1 - f0) == 2 else None
        return f"{m.group(1)}{r0}", f"{m.group(3)}{r1}", over

    def os_key(self, state, action):
        start, end, over = self.os_jump(state, action)
        return self.effect_key(start, end, [over] if over else [])

    def os_moves(self, state):
        mover = state.current_player()
        out = []

        def chains(st, start, at, taken, actions):
            # `at`: where the jumping piece stands after the jumps in `actions` (None before the first action).
            for action in st.legal_actions():
                a, end, over = self.os_jump(st, action)
                if at is not None and (over is None or a != at):
                    raise MappingError(f"english-checkers: OpenSpiel goes on from {at} with `{a}-{end}`")
                nxt = st.child(action)
                t = taken + [over] if over else taken
                if over and not nxt.is_terminal() and nxt.current_player() == mover:
                    chains(nxt, start or a, end, t, actions + [action])
                else:
                    out.append((self.effect_key(start or a, end, t), actions + [action]))

        chains(state, None, None, [], [])
        return out

    def min_plies(self, board, target):
        # No piece is ever added and no man made: a player has no more pieces, nor more men, later. A ply of a
        # player fills at most one square with a piece of its own that was not there (the end of its move): the
        # squares where the target has a piece of the player that the board has not need that many plies of
        # that player, and the players alternate.
        need = [0, 0]
        for p in (0, 1):
            mine = [v for v in board.values() if v[0] == p]
            theirs = [v for v in target.values() if v[0] == p]
            if len(theirs) > len(mine) or sum(1 for v in theirs if v[1] == "man") > sum(
                    1 for v in mine if v[1] == "man"):
                return None
            need[p] = sum(1 for sq, v in target.items() if v[0] == p and board.get(sq) != v)
        return max(need[0] + need[1], 2 * max(need) - 1)

    def self_check(self, game):
        problems = []
        # OpenSpiel's start: 12 men of player 0 on the dark squares of ranks 1-3, 12 of player 1 on ranks 6-8.
        board = self.os_board(game.new_initial_state())
        expect = {f"{f}{r}": (0 if r <= 3 else 1, "man") for i, f in enumerate(self.FILES)
                  for r in (1, 2, 3, 6, 7, 8) if (i + r) % 2 == 1}
        if board != expect:
            problems.append(f"the start board reads as {sorted(board.items())}")
        # dagaz's start (games/english-checkers.zrf's board-setup) turned half round is OpenSpiel's.
        dagaz = {self.dagaz_square(sq): (0, "man") for sq in "b8 d8 f8 h8 a7 c7 e7 g7 b6 d6 f6 h6".split()}
        dagaz.update({self.dagaz_square(sq): (1, "man") for sq in "a3 c3 e3 g3 b2 d2 f2 h2 a1 c1 e1 g1".split()})
        if dagaz != expect:
            problems.append("dagaz's start turned half round is not OpenSpiel's")
        # Random games: every play of a position is a step, or jumps that take one piece each and end the turn;
        # plays with one key leave one board; some chains of two jumps or more occur.
        rng = np.random.RandomState(11)
        chains = shared = 0
        for _ in range(100):
            state = game.new_initial_state()
            while not state.is_terminal():
                plays = self.os_moves(state)
                boards = {}
                for k, acts in plays:
                    after = state.clone()
                    for x in acts:
                        after.apply_action(x)
                    taken = k.count("x")
                    if taken != (len(acts) if taken else 0) or (not taken and len(acts) != 1):
                        problems.append(f"play {k} is {len(acts)} actions")
                    if not after.is_terminal() and after.current_player() == state.current_player():
                        problems.append(f"after play {k} the same player moves again")
                    b = sorted(self.os_board(after).items())
                    if boards.setdefault(k, b) != b:
                        problems.append(f"two plays with key {k} leave different boards")
                    chains += len(acts) >= 2
                shared += len(plays) - len(boards)
                _, acts = plays[rng.randint(len(plays))]
                for x in acts:
                    state.apply_action(x)
        if chains < 50:
            problems.append(f"only {chains} chains of two jumps or more in 100 random games")
        if not problems:
            print(f"ok   english-checkers: 100 random games, {chains} plays of two jumps or more, {shared} "
                  "routes sharing a key with another, each play one dagaz move")
        return problems[:5]


def placed_square(adapter, state, action):
    """The square an OpenSpiel action puts a stone on (the one square it fills)."""
    before = adapter.os_board(state)
    after = adapter.os_board(state.child(action))
    new = [sq for sq in after if sq not in before]
    if len(new) != 1:
        raise MappingError(f"{adapter.key}: OpenSpiel's action {action} fills {len(new)} squares")
    return new[0]


def placement_bound(board, target):
    """Stones are only added, one a ply."""
    if any(target.get(sq) != v for sq, v in board.items()):
        return None
    return len(target) - len(board)


ADAPTERS = {a.key: a for a in (Breakthrough(), Othello(), ConnectFour(), Hex(), Go9(), EnglishCheckers())}


# --------------------------------------------------------------------------------------------------------------
# Search: MCTSBot's simulations, one at a time, until the clock runs out
# --------------------------------------------------------------------------------------------------------------


class TimedSearch:
    """Runs MCTSBot's search (UCT on `mcts.SearchNode`, the bot's evaluator and random stream, MCTS-Solver
    backups when the bot solves) simulation by simulation, so that it can stop at a deadline.
    Deterministic games only: a chance node is an error."""

    def __init__(self, bot, rng):
        self.bot = bot
        self.rng = rng  # the RandomState given to the MCTSBot: the same draws in the same order

    def search(self, state, deadline=None, simulations=None):
        root = mcts.SearchNode(None, state.current_player(), 1)
        done = 0
        while root.outcome is None:
            if simulations is not None and done >= simulations:
                break
            # Two at least: the first values the root, the second expands it and visits a child.
            if deadline is not None and done >= 2 and time.perf_counter() >= deadline:
                break
            self.simulate(root, state)
            done += 1
        return root, done

    def simulate(self, root, state):
        path, leaf = self.descend(root, state)
        if leaf.is_terminal():
            values = leaf.returns()
            path[-1].outcome = values
            proven = self.bot.solve
        else:
            values = self.bot.evaluator.evaluate(leaf)
            proven = False
        for node in reversed(path):
            node.total_reward += values[node.player]
            node.explore_count += 1
            if proven and node.children:
                proven = self.prove(node)

    def descend(self, root, state):
        """Down the tree by UCT to a node not visited yet or terminal, expanding visited nodes on the way."""
        node, work, path = root, state.clone(), [root]
        while node.explore_count > 0 and not work.is_terminal():
            if work.is_chance_node():
                raise MappingError("TimedSearch: chance nodes are not supported")
            if not node.children:
                priors = self.bot.evaluator.prior(work)
                self.rng.shuffle(priors)
                mover = work.current_player()
                node.children = [mcts.SearchNode(a, mover, p) for a, p in priors]
            parent_visits = node.explore_count
            node = max(node.children, key=lambda c: mcts.SearchNode.uct_value(c, parent_visits, self.bot.uct_c))
            work.apply_action(node.action)
            path.append(node)
        return path, work

    def prove(self, node):
        """MCTS-Solver: a node is solved when a child gives its mover the best utility, or every child is
        solved (then the best of them for the mover). Returns whether it is."""
        mover = node.children[0].player
        best, unsolved = None, False
        for c in node.children:
            if c.outcome is None:
                unsolved = True
            elif best is None or c.outcome[mover] > best.outcome[mover]:
                best = c
        if best is not None and (not unsolved or best.outcome[mover] == self.bot.max_utility):
            node.outcome = best.outcome
            return True
        return False


# OpenSpiel's MCTS examples' memory cap (open_spiel/examples/mcts_example.cc, --max_memory_mb): far above what
# a search of a few hundred milliseconds uses, so its garbage collection never runs here.
CPP_MAX_MEMORY_MB = 1000
# The C++ bot's max_simulations when the clock stops it (MCTSearch then ignores it; Step samples from the prior
# when it is 1 or less).
CPP_UNUSED_SIMULATIONS = 2**31 - 1


def cpp_root(game, state, uct_c, solve, seed, seconds=None, simulations=None):
    """The root of the C++ MCTSBot's search from `state`, OpenSpiel's clock stopping it after `seconds` (or
    after `simulations`)."""
    evaluator = pyspiel.RandomRolloutEvaluator(1, (seed ^ 0x5EED) % 2**31)
    timed = seconds is not None
    bot = pyspiel.MCTSBot(game, evaluator, uct_c, CPP_UNUSED_SIMULATIONS if timed else simulations,
                          CPP_MAX_MEMORY_MB, solve, seed % 2**31, False, pyspiel.ChildSelectionPolicy.UCT,
                          seconds if timed else -1.0)
    root = bot.mcts_search(state)
    if not root.children:
        # The clock ran out after the first simulation, which values the root without expanding it: two
        # simulations, the fewest that give the root children (Step would fail here).
        bot = pyspiel.MCTSBot(game, evaluator, uct_c, 2, CPP_MAX_MEMORY_MB, solve, seed % 2**31, False)
        root = bot.mcts_search(state)
    return root


def cpp_search(game, state, uct_c, solve, seed, seconds=None, simulations=None):
    """(the action `MCTSBot::Step` would play, the simulations run)."""
    root = cpp_root(game, state, uct_c, solve, seed, seconds, simulations)
    return root.best_child().action, root.explore_count


def make_bot(game, uct_c, solve, seed, max_simulations=1):
    rng = np.random.RandomState(seed)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(seed ^ 0x5EED))
    bot = mcts.MCTSBot(game, uct_c, max_simulations, evaluator, solve=solve, random_state=rng)
    return bot, rng


# --------------------------------------------------------------------------------------------------------------
# Keeping OpenSpiel's state in step with dagaz's game
# --------------------------------------------------------------------------------------------------------------


class Follower:
    """An OpenSpiel state and the dagaz ply it stands at."""

    NODE_LIMIT = 2_000_000

    def __init__(self, adapter, game):
        self.adapter = adapter
        self.game = game
        self.reset()

    def reset(self):
        self.state = self.game.new_initial_state()
        self.ply = 0

    def sync(self, request):
        a = self.adapter
        players = request["players"]
        if tuple(players) != a.players:
            raise MappingError(f"{a.key}: dagaz's players are {players}, this game expects {list(a.players)}")
        dstate = request["state"]
        target = a.dagaz_board(dstate, players)
        mover = players.index(request["player"])
        ply = dstate["ply"]
        starts = [(self.state, self.ply)] if ply >= self.ply else []
        if self.ply != 0 or not starts:
            starts.append((self.game.new_initial_state(), 0))
        for base, base_ply in starts:
            self.visited = 0
            found = self.find(base, ply - base_ply, target, mover, dstate.get("last_to"))
            if found is not None:
                self.state, self.ply = found, ply
                return
        also = f" (nor of {ply} from the start)" if self.ply else ""
        raise MappingError(
            f"{a.key}: no OpenSpiel play of {ply - self.ply} plies from its state at ply {self.ply}{also} reaches "
            f"dagaz's position at ply {ply} ({request['player']} to move):\n"
            f"dagaz: {sorted(target.items())}\nOpenSpiel:\n{self.state}"
        )

    def find(self, state, plies, target, mover, last_to):
        """A state `plies` plies after `state` with dagaz's board and player to move (depth first)."""
        a = self.adapter
        self.visited += 1
        if self.visited > self.NODE_LIMIT:
            raise MappingError(f"{a.key}: gave up finding the moves to dagaz's position after {self.NODE_LIMIT} nodes")
        board = a.os_board(state)
        if state.is_terminal():
            # Over for OpenSpiel: only the passes dagaz still plays may follow (see Othello).
            return state if board == target and (plies == 0 or a.passes_after_end) else None
        if plies == 0:
            return state if board == target and state.current_player() == mover else None
        bound = a.min_plies(board, target)
        if bound is None or bound > plies:
            return None
        plays = distinct(a.os_moves(state))
        if plies == 1 and last_to:
            # The last move first: it names dagaz's last destination.
            hint = a.dagaz_square(last_to)
            plays.sort(key=lambda kv: hint not in kv[0])
        for _, actions in plays:
            found = self.find(played(state, actions), plies - 1, target, mover, last_to)
            if found is not None:
                return found
        return None


def played(state, actions):
    """The state after `actions`."""
    state = state.clone()
    for action in actions:
        state.apply_action(action)
    return state


def distinct(plays):
    """The first play of each key (plays with one key leave one position)."""
    out, seen = [], set()
    for k, actions in plays:
        if k not in seen:
            seen.add(k)
            out.append((k, actions))
    return out


def match_moves(adapter, state, moves):
    """({key: dagaz move id}, {tuple of OpenSpiel actions: key} for every play of `state`), after checking that
    the two lists are the same moves."""
    by_key = {}
    for m in moves:
        k = adapter.dagaz_key(m["notation"])
        if k in by_key:
            raise MappingError(f"{adapter.key}: two dagaz moves map to `{k}`: {by_key[k]['notation']}, {m['notation']}")
        by_key[k] = m
    plays = adapter.os_moves(state)
    ids, key_of = {}, {}
    for k, actions in plays:
        if k not in by_key:
            raise MappingError(
                f"{adapter.key}: OpenSpiel's move `{k}` is not among dagaz's {len(moves)} moves "
                f"({', '.join(m['notation'] for m in moves)})"
            )
        ids[k] = by_key[k]["id"]
        key_of[tuple(actions)] = k
    if len(ids) != len(moves):
        missing = sorted(set(by_key) - set(ids))
        raise MappingError(
            f"{adapter.key}: dagaz has {len(moves)} moves, OpenSpiel {len(ids)}; not in OpenSpiel: {missing}"
        )
    return ids, key_of


# --------------------------------------------------------------------------------------------------------------
# The protocol loop
# --------------------------------------------------------------------------------------------------------------


class Player:
    def __init__(self, args):
        self.args = args
        self.adapter = ADAPTERS[args.game]
        self.game = pyspiel.load_game(self.adapter.openspiel)
        self.follower = Follower(self.adapter, self.game)
        self.stats = open(args.stats, "a", encoding="utf-8") if args.stats else None
        self.recorded = False  # whether this process wrote a statistics line yet (the first has its start-up)

    def answer(self, request):
        a, f = self.adapter, self.follower
        f.sync(request)
        moves = request["moves"]
        if a.final_pass(f.state, moves):
            self.pending = (request, 0, 0.0, len(moves))
            return moves[0]["id"]
        if f.state.is_terminal():
            raise MappingError(f"{a.key}: OpenSpiel's game is over but dagaz asks for a move:\n{f.state}")
        ids, key_of = match_moves(a, f.state, moves)
        start = time.perf_counter()
        seed = int(request["seed"]) % (2**32)
        if len(ids) == 1:
            actions, sims = next(iter(key_of)), 0
        else:
            actions, sims = self.play(f.state, seed)
        elapsed = time.perf_counter() - start
        self.pending = (request, sims, elapsed, len(moves))
        if tuple(actions) not in key_of:
            raise MappingError(f"{a.key}: the bot's actions {list(actions)} are not one of the moves")
        f.state = played(f.state, actions)
        f.ply += 1
        return ids[key_of[tuple(actions)]]

    def play(self, state, seed):
        """The OpenSpiel actions of the bot's move, and the simulations run. One action in most games; where a
        dagaz move is several actions of one player (a checkers jump chain), each one with a choice gets a
        search of its own, with the whole budget (`--ms` or `--sims`, as OpenSpiel plays such a game), and a
        forced one none."""
        mover, work = state.current_player(), state.clone()
        actions, sims = [], 0
        while True:
            legal = work.legal_actions()
            if len(legal) == 1:
                action = legal[0]
            else:
                action, n = self.search(work, (seed + len(actions)) % (2**32))
                sims += n
            actions.append(action)
            work.apply_action(action)
            if work.is_terminal() or work.current_player() != mover:
                return tuple(actions), sims

    def search(self, state, seed):
        """(OpenSpiel's MCTS's action in `state`, the simulations run)."""
        solve = not self.args.no_solve
        if self.args.impl == "cpp":
            if self.args.sims:
                return cpp_search(self.game, state, self.args.uct_c, solve, seed, simulations=self.args.sims)
            return cpp_search(self.game, state, self.args.uct_c, solve, seed, seconds=self.args.ms / 1000.0)
        if self.args.sims:
            bot, _ = make_bot(self.game, self.args.uct_c, solve, seed, self.args.sims)
            root = bot.mcts_search(state)  # what MCTSBot.step does, with the count (fewer if solved)
            return root.best_child().action, root.explore_count
        bot, rng = make_bot(self.game, self.args.uct_c, solve, seed)
        root, sims = TimedSearch(bot, rng).search(state, deadline=time.perf_counter() + self.args.ms / 1000.0)
        return root.best_child().action, sims

    def record(self, received, answered):
        request, sims, elapsed, legal = self.pending
        if self.stats:
            entry = {"game": self.adapter.key, "impl": self.args.impl, "request": request.get("request"),
                     "ply": request["state"]["ply"], "simulations": sims, "ms": round(elapsed * 1000, 3),
                     "answer_ms": round((answered - received) * 1000, 3), "legal": legal}
            if not self.recorded:
                entry["startup_ms"] = round((received - STARTED) * 1000, 3)
                self.recorded = True
            line = json.dumps(entry)
            # One write per line, in append mode: lines of bots running side by side do not mix.
            os.write(self.stats.fileno(), (line + "\n").encode())

    def run(self):
        for line in sys.stdin:
            if not line.strip():
                continue
            received = time.perf_counter()
            request = json.loads(line)
            kind = request.get("type")
            if kind == "quit":
                break
            if kind == "new-game":
                self.follower.reset()
                continue
            if kind != "move":
                continue
            try:
                move_id = self.answer(request)
            except MappingError as e:
                print(f"openspiel_bot: mapping error: {e}", file=sys.stderr, flush=True)
                sys.exit(2)
            print(json.dumps({"id": move_id, "request": request.get("request")}), flush=True)
            self.record(received, time.perf_counter())


# --------------------------------------------------------------------------------------------------------------
# Self-test
# --------------------------------------------------------------------------------------------------------------


def self_test(args):
    """Checks, per game, from positions along a random game:
    (1) the C++ bot (`--impl cpp`): with a fixed count it runs that many simulations (fewer only if it solved the
        root), its root has a child for each legal action, it plays a legal action, and two searches with the same
        seed give the same move and visits; with a time budget (`--self-test-ms`) it plays a legal action after
        two simulations at least, each search stops no earlier than the budget (unless it solved the root) and
        the median overrun of the searches of a game is at most 15 ms (one simulation, and the noise of a loaded
        machine);
    (2) the Python bot (`--impl python`): TimedSearch with a fixed count builds MCTSBot.mcts_search's tree
        (every root child's visits and rewards, and the move);
    (3) the board reader and the action keys work on those positions, and the keys of the legal actions are
        distinct (where a dagaz move is several actions, plays with one key leave one position);
    (4) the adapter's own checks (`Adapter.self_check`; English checkers: the start board as read, dagaz's start
        turned half round, and along 100 random games every play a step or a chain of jumps ending the turn)."""
    failures = 0
    budget = args.self_test_ms / 1000.0
    for key in args.self_test_games.split(","):
        adapter = ADAPTERS[key]
        game = pyspiel.load_game(adapter.openspiel)
        for problem in adapter.self_check(game):
            failures += 1
            print(f"FAIL {key}: {problem}", file=sys.stderr)
        rng = np.random.RandomState(7)
        state = game.new_initial_state()
        checked = 0
        overruns = []
        while not state.is_terminal() and checked < 6:
            if len(state.legal_actions()) == 1:
                # Forced (a checkers capture, say): the bot plays it without a search, and the C++ MCTS stops at
                # a root with one child, so there is nothing to check.
                state.apply_action(state.legal_actions()[0])
                continue
            seed = int(rng.randint(1 << 30))
            legal = state.legal_actions()
            problems = []
            # (1) C++, a fixed count, twice.
            n = 200
            roots = [cpp_root(game, state, args.uct_c, True, seed, simulations=n) for _ in range(2)]
            visits = [[(c.action, c.explore_count, c.total_reward) for c in r.children] for r in roots]
            moves = [r.best_child().action for r in roots]
            solved = bool(roots[0].outcome)
            if roots[0].explore_count != n and not solved:
                problems.append(f"C++: {roots[0].explore_count} simulations for a count of {n}")
            if sorted(c.action for c in roots[0].children) != sorted(legal):
                problems.append("C++: the root's children are not the legal actions")
            if moves[0] not in legal:
                problems.append(f"C++: illegal action {moves[0]}")
            if visits[0] != visits[1] or moves[0] != moves[1]:
                problems.append("C++: two searches with the same seed differ")
            # (1) C++, by the clock.
            t0 = time.perf_counter()
            root_t = cpp_root(game, state, args.uct_c, True, seed, seconds=budget)
            took = time.perf_counter() - t0
            move_t = root_t.best_child().action
            if move_t not in legal or root_t.explore_count < 2:
                problems.append(f"C++ timed: action {move_t} (legal: {move_t in legal}), "
                                f"{root_t.explore_count} simulations")
            if not root_t.outcome:
                if took < budget:
                    problems.append(f"C++ timed: stopped after {took * 1000:.1f} ms of {budget * 1000:g}")
                overruns.append(took - budget)
            # (2) Python: TimedSearch against MCTSBot.mcts_search, 60 simulations.
            bot_a, _ = make_bot(game, args.uct_c, True, seed, 60)
            root_a = bot_a.mcts_search(state)
            bot_b, rng_b = make_bot(game, args.uct_c, True, seed)
            root_b, _ = TimedSearch(bot_b, rng_b).search(state, simulations=60)
            tree_a = [(c.action, c.explore_count, c.total_reward, c.outcome is None) for c in root_a.children]
            tree_b = [(c.action, c.explore_count, c.total_reward, c.outcome is None) for c in root_b.children]
            if not (tree_a == tree_b and root_a.explore_count == root_b.explore_count
                    and root_a.best_child().action == root_b.best_child().action):
                problems.append("Python: TimedSearch's tree differs from MCTSBot.mcts_search's")
            # (3) Keys and board.
            try:
                keys = [k for k, _ in distinct(adapter.os_moves(state))]
            except MappingError as e:
                problems.append(str(e))
                keys = []
            board = adapter.os_board(state)
            if problems:
                failures += 1
                print(f"FAIL {key} ply {state.move_number()}: {'; '.join(problems)}", file=sys.stderr)
            else:
                print(f"ok   {key} ply {state.move_number()}: C++ {n} simulations{' (solved)' if solved else ''}, "
                      f"legal, repeatable; C++ timed {root_t.explore_count} simulations in {took * 1000:.1f} ms "
                      f"({budget * 1000:g} ms budget); Python {root_b.explore_count} simulations, same tree as "
                      f"MCTSBot.mcts_search; {len(keys)} distinct keys; {len(board)} pieces")
            checked += 1
            for _ in range(int(rng.randint(3, 9))):
                if state.is_terminal():
                    break
                state.apply_action(int(rng.choice(state.legal_actions())))
        if overruns:
            median = sorted(overruns)[len(overruns) // 2]
            line = (f"{key}: C++ timed searches overran the {budget * 1000:g} ms budget by {median * 1000:.2f} ms "
                    f"(median), {max(overruns) * 1000:.2f} ms at most")
            if median > 0.015:
                failures += 1
                print(f"FAIL {line}", file=sys.stderr)
            else:
                print(f"ok   {line}")
    print(f"{'FAILED' if failures else 'passed'}: {failures} failures")
    return 1 if failures else 0


def replay(args):
    """Replays the games of a dagaz run (`games.csv`: the `moves` column, in notation) in OpenSpiel, each move
    matched to the one legal action with its key, and checks that OpenSpiel's game ends where dagaz's does with
    the same winner (a draw: the same). Games cut short (`move-limit`, `bot-error`, `engine-error`) are replayed
    without the end check. Exit status 1 if any game differs."""
    import csv

    adapter = ADAPTERS[args.game]
    game = pyspiel.load_game(adapter.openspiel)
    checked = differ = 0
    with open(args.replay, newline="", encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    for row in rows:
        state = game.new_initial_state()
        problem = None
        for ply, notation in enumerate(row["moves"].split(";") if row["moves"] else []):
            if state.is_terminal():
                if adapter.passes_after_end and notation == "pass":
                    continue
                problem = f"OpenSpiel's game is over at ply {ply}, dagaz's goes on with {notation}"
                break
            try:
                key = adapter.dagaz_key(notation)
                plays = [actions for k, actions in adapter.os_moves(state) if k == key]
            except MappingError as e:
                problem = f"ply {ply}: {e}"
                break
            if not plays:
                problem = f"ply {ply}: {notation} is no move of OpenSpiel's"
                break
            state = played(state, plays[0])
        if problem is None and row["end_type"] not in ("move-limit", "bot-error", "engine-error"):
            dagaz = int(float(row["result_1"]))
            if not state.is_terminal():
                problem = f"dagaz's game ends ({row['end_type']}), OpenSpiel's does not"
            else:
                ours = state.returns()[0]
                if (ours > 0) - (ours < 0) != (dagaz > 0) - (dagaz < 0):
                    problem = f"dagaz's result for the first player is {dagaz}, OpenSpiel's {ours}"
        checked += 1
        if problem:
            differ += 1
            print(f"game {row['game_id']}: {problem}", file=sys.stderr)
    print(f"replayed {checked} games of {args.game} in OpenSpiel: {checked - differ} agree, {differ} differ")
    return 1 if differ else 0


def cross_check(args):
    """Plays `--cross-games` uniformly random games in dagaz (`dagaz session FILE [--variant V]`, docs/protocol.md)
    and in OpenSpiel side by side, the same move in both at every ply, and checks at every position that the two
    agree: the board (through the adapter's readers), the player to move, the moves (the same keys, each once)
    and whether and how the game is over (the same winner, or a draw; the passes dagaz plays after OpenSpiel's
    game is over, `Adapter.final_pass`, are played in dagaz alone). Exit status 1 at the first difference."""
    import subprocess

    adapter = ADAPTERS[args.game]
    game = pyspiel.load_game(adapter.openspiel)
    cmd = [args.dagaz, "session", args.cross_check] + (["--variant", args.variant] if args.variant else [])
    proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)

    def ask(request):
        proc.stdin.write(json.dumps(request) + "\n")
        proc.stdin.flush()
        answer = json.loads(proc.stdout.readline())
        if "error" in answer:
            raise MappingError(f"dagaz session: {answer['error']} (request {request})")
        return answer

    players = ask({"cmd": "info"})["players"]
    rng = np.random.RandomState(args.seed)
    positions = plies = 0
    ends = {}
    try:
        for g in range(args.cross_games):
            if g:
                ask({"cmd": "load", "position": start})
            else:
                start = ask({"cmd": "position"})["position"]
            state = game.new_initial_state()
            while True:
                where = f"game {g}, ply {plies}"
                dstate = ask({"cmd": "state"})
                if adapter.dagaz_board(dstate, players) != adapter.os_board(state):
                    raise MappingError(f"{where}: the boards differ:\n{dstate}\n{state}")
                result = ask({"cmd": "result"})
                positions += 1
                if not result["over"] and adapter.final_pass(state, ask({"cmd": "moves"})["moves"]):
                    # Over for OpenSpiel; dagaz still asks for a pass (see Othello).
                    ask({"cmd": "play", "move": "pass"})
                    plies += 1
                    continue
                if result["over"] or state.is_terminal():
                    if not (result["over"] and state.is_terminal()):
                        raise MappingError(f"{where}: over in {'dagaz' if result['over'] else 'OpenSpiel'} only")
                    ours = result["outcome"]["results"][players[0]]
                    theirs = state.returns()[0]
                    if (ours > 0) - (ours < 0) != (theirs > 0) - (theirs < 0):
                        raise MappingError(f"{where}: dagaz's result for the first player {ours}, OpenSpiel's {theirs}")
                    name = result["outcome"]["name"]
                    ends[name] = ends.get(name, 0) + 1
                    break
                if players.index(ask({"cmd": "moves"})["to_move"]) != state.current_player():
                    raise MappingError(f"{where}: another player to move")
                moves = ask({"cmd": "moves"})["moves"]
                ids, key_of = match_moves(adapter, state, moves)
                key = sorted(ids)[rng.randint(len(ids))]
                ask({"cmd": "play", "id": ids[key]})
                state = played(state, next(acts for acts, k in key_of.items() if k == key))
                plies += 1
    except MappingError as e:
        print(f"cross-check: {e}", file=sys.stderr)
        return 1
    finally:
        proc.stdin.close()
        proc.wait()
    print(f"cross-checked {args.cross_games} random games of {args.game}, {plies} plies, {positions} positions: "
          f"the same boards, players, moves and ends ({', '.join(f'{k}: {v}' for k, v in sorted(ends.items()))})")
    return 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--game", choices=sorted(ADAPTERS), help="the game (strength.py's key)")
    ap.add_argument("--ms", type=float, default=200, help="search time per move in milliseconds (default 200)")
    ap.add_argument("--impl", choices=("cpp", "python"), default="cpp",
                    help="OpenSpiel's C++ MCTSBot (pyspiel.MCTSBot, default) or the pure-Python one")
    ap.add_argument("--sims", type=int, default=0, help="a fixed number of simulations per move instead of --ms")
    ap.add_argument("--uct-c", type=float, default=2.0, help="UCT exploration constant (default 2)")
    ap.add_argument("--no-solve", action="store_true", help="no MCTS-Solver backups (MCTSBot's solve=False)")
    ap.add_argument("--stats", help="append one JSON line per move to this file")
    ap.add_argument("--self-test", action="store_true", help="run the checks and exit")
    ap.add_argument("--self-test-games", default=",".join(ADAPTERS), help="games for --self-test")
    ap.add_argument("--self-test-ms", type=float, default=30, help="the timed searches' budget in --self-test (default 30)")
    ap.add_argument("--replay", help="replay a run's games.csv in OpenSpiel (needs --game), check the ends, exit")
    ap.add_argument("--cross-check", metavar="FILE",
                    help="play random games of FILE in `dagaz session` and in OpenSpiel side by side (needs --game), "
                         "check that they agree at every position, exit")
    ap.add_argument("--variant", help="the variant of FILE, for --cross-check")
    ap.add_argument("--cross-games", type=int, default=100, help="games for --cross-check (default 100)")
    ap.add_argument("--seed", type=int, default=1, help="the random stream of --cross-check (default 1)")
    ap.add_argument("--dagaz", default="target/release/dagaz", help="dagaz's binary, for --cross-check")
    args = ap.parse_args()
    if args.ms <= 0 or args.sims < 0 or args.sims == 1 or args.self_test_ms <= 0:
        ap.error("--ms and --self-test-ms must be above 0, --sims 2 at least (0: by the clock)")
    if (args.impl == "cpp" or args.self_test) and "max_wall_clock_time" not in (pyspiel.MCTSBot.__init__.__doc__ or ""):
        sys.exit("openspiel_bot: this OpenSpiel's pyspiel.MCTSBot has no max_wall_clock_time (open-spiel 2.0 and "
                 "later have it): upgrade it (pip install -U open-spiel) or use --impl python")
    if args.self_test:
        sys.exit(self_test(args))
    if args.replay:
        if not args.game:
            ap.error("--replay needs --game")
        sys.exit(replay(args))
    if args.cross_check:
        if not args.game:
            ap.error("--cross-check needs --game")
        sys.exit(cross_check(args))
    if not args.game:
        ap.error("--game is required")
    Player(args).run()


if __name__ == "__main__":
    main()
