#!/usr/bin/env python3
"""games/pentago.zrf against OpenSpiel's `pentago` (open_spiel/games/pentago): perft and random games.

Run (OpenSpiel's Python, e.g. the strength harness's virtual environment):
  target/strength-venv/bin/python tests/reference/pentago_openspiel.py --perft 2 \
      --games 100 --seed 1 --dagaz target/release/dagaz
The ignored test `openspiel_agrees` of tests/pentago.rs runs it and compares the counts with dagaz's perft.

What is counted. OpenSpiel's move is an action: a point and one of the eight quarter turns (36 x 8 = 288 on
the empty board), so two actions that leave the same board are two moves. games/pentago.zrf's move is a point
and the board it leaves: actions with the same point and the same resulting board are one move (a turned empty
quadrant is no visible change). This script prints both: OpenSpiel's own action counts, and its actions merged
by (point, resulting board), which is what dagaz's perft counts.

The one rule where the two differ: games/pentago.zrf follows Wikipedia ("either before or after the twist"),
so a placement that already makes five for the mover wins at once and turns nothing; OpenSpiel always turns
and looks for rows of five only after the turn. At such a point the move dagaz must list is the placement
alone (found here from the board, not by OpenSpiel); a random game that plays one is checked to be won by the
mover in dagaz and is not followed further in OpenSpiel. Everything else (the moves, the turned boards, the
player to move, a five after the turn for one side or both, the full board) comes from OpenSpiel.

Board names: OpenSpiel prints row 1 at the top; dagaz's rank 6 is at the top. OpenSpiel's (file, row r) is
dagaz's (file, rank 7 - r). OpenSpiel's player 0 is White, who starts in games/pentago.zrf."""

import argparse
import json
import random
import subprocess
import sys

import pyspiel

FILES = "abcdef"
MARKS = {".": None, "O": 0, "@": 1}


def os_board(state):
    """{dagaz point: player} of an OpenSpiel state."""
    rows = str(state).split("\n")[2:8]
    board = {}
    for r, line in enumerate(rows, start=1):
        if line[2] != str(r):
            raise SystemExit(f"cannot read OpenSpiel's row {r}: {line!r}")
        for f in range(6):
            mark = line[4 + 2 * f]
            if mark not in MARKS:
                raise SystemExit(f"unknown mark {mark!r} in OpenSpiel's board:\n{state}")
            if MARKS[mark] is not None:
                board[f"{FILES[f]}{7 - r}"] = MARKS[mark]
    return board


def os_point(state, action):
    """The dagaz point an OpenSpiel action puts its marble on (`a1s`: a1, OpenSpiel's row 1 = rank 6)."""
    text = state.action_to_string(action)
    return f"{text[0]}{7 - int(text[1])}"


def key(point, board):
    return (point, tuple(sorted(board.items())))


def os_moves(state):
    """{(point, board after): [actions]} of OpenSpiel's legal actions."""
    out = {}
    for a in state.legal_actions():
        child = state.clone()
        child.apply_action(a)
        out.setdefault(key(os_point(state, a), os_board(child)), []).append(a)
    return out


def perft(state, depth, merged):
    if depth == 0:
        return 1
    if state.is_terminal():
        return 0
    if not merged:
        total = 0
        for a in state.legal_actions():
            child = state.clone()
            child.apply_action(a)
            total += perft(child, depth - 1, merged)
        return total
    total = 0
    for actions in os_moves(state).values():
        child = state.clone()
        child.apply_action(actions[0])
        total += perft(child, depth - 1, merged)
    return total


def five_at_placement(board, point, player):
    """Whether a marble of `player` on `point` makes five in a row before any turn (the only rule read here
    rather than from OpenSpiel; see the module's text)."""
    f, r = FILES.index(point[0]), int(point[1])
    mine = {(FILES.index(p[0]), int(p[1])) for p, who in board.items() if who == player} | {(f, r)}
    for df, dr in ((1, 0), (0, 1), (1, 1), (1, -1)):
        n = 1
        for sign in (1, -1):
            k = 1
            while (f + sign * k * df, r + sign * k * dr) in mine:
                n += 1
                k += 1
        if n >= 5:
            return True
    return False


def dagaz_moves(moves, board):
    """{(point, board after): id} of a dagaz `moves` answer, the board after computed from each move's actions
    (the `move` actions of a turn happen all at once)."""
    out = {}
    for m in moves:
        after = dict(board)
        if len(m["parts"]) != 1:
            raise SystemExit(f"a move of {len(m['parts'])} parts: {m['notation']}")
        part = m["parts"][0]
        moved = [(a["from"], a["to"]) for a in part["actions"] if a["action"] == "move"]
        owners = {frm: after.pop(frm) for frm, _ in moved}
        for frm, to in moved:
            after[to] = owners[frm]
        for a in part["actions"]:
            if a["action"] == "place":
                after[a["at"]] = a["player"]
            elif a["action"] != "move":
                raise SystemExit(f"unexpected action {a} in {m['notation']}")
        k = key(part["to"], after)
        if k in out:
            raise SystemExit(f"dagaz lists the move {k} twice")
        out[k] = m["id"]
    return out


def cross_check(args):
    game = pyspiel.load_game("pentago")
    proc = subprocess.Popen([args.dagaz, "session", args.file], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, text=True)

    def ask(request):
        proc.stdin.write(json.dumps(request) + "\n")
        proc.stdin.flush()
        answer = json.loads(proc.stdout.readline())
        if "error" in answer:
            raise SystemExit(f"dagaz session: {answer['error']} (request {request})")
        return answer

    players = ask({"cmd": "info"})["players"]
    if players != ["White", "Black"]:
        raise SystemExit(f"players {players}")
    start = ask({"cmd": "position"})["position"]
    rng = random.Random(args.seed)
    plies = positions = 0
    ends = {}
    for g in range(args.games):
        ask({"cmd": "load", "position": start})
        state = game.new_initial_state()
        while True:
            where = f"game {g}, ply {state.move_number()}"
            theirs = os_board(state)
            dstate = ask({"cmd": "state"})
            ours = {p["at"]: players.index(p["player"]) for p in dstate["pieces"]}
            if ours != theirs:
                raise SystemExit(f"{where}: the boards differ: dagaz {ours}, OpenSpiel {theirs}")
            result = ask({"cmd": "result"})
            positions += 1
            if result["over"] or state.is_terminal():
                if not (result["over"] and state.is_terminal()):
                    raise SystemExit(f"{where}: over in {'dagaz' if result['over'] else 'OpenSpiel'} only")
                mine, os_first = result["outcome"]["results"]["White"], state.returns()[0]
                if (mine > 0) - (mine < 0) != (os_first > 0) - (os_first < 0):
                    raise SystemExit(f"{where}: White's result {mine} in dagaz, {os_first} in OpenSpiel")
                name = result["outcome"]["name"]
                ends[name] = ends.get(name, 0) + 1
                break
            answer = ask({"cmd": "moves"})
            mover = state.current_player()
            if players.index(answer["to_move"]) != mover:
                raise SystemExit(f"{where}: dagaz's {answer['to_move']} to move, OpenSpiel's player {mover}")
            named = {p: players[who] for p, who in theirs.items()}
            d = dagaz_moves(answer["moves"], named)
            expected = {}
            for (point, after), actions in os_moves(state).items():
                if five_at_placement(theirs, point, mover):
                    placed = dict(named)
                    placed[point] = players[mover]
                    expected[key(point, placed)] = None
                else:
                    expected[key(point, {p: players[w] for p, w in after})] = actions
            if set(d) != set(expected):
                only_d = sorted(set(d) - set(expected))[:3]
                only_os = sorted(set(expected) - set(d))[:3]
                raise SystemExit(f"{where}: the moves differ ({len(d)} in dagaz, {len(expected)} expected); "
                                 f"dagaz only {only_d}; OpenSpiel only {only_os}")
            k = sorted(d)[rng.randrange(len(d))]
            ask({"cmd": "play", "id": d[k]})
            plies += 1
            if expected[k] is None:
                result = ask({"cmd": "result"})
                if not (result["over"] and result["outcome"]["results"][players[mover]] == 1):
                    raise SystemExit(f"{where}: five before the turn, but dagaz says {result}")
                ends["five before the turn (dagaz only)"] = ends.get("five before the turn (dagaz only)", 0) + 1
                break
            state.apply_action(expected[k][0])
    proc.stdin.close()
    proc.wait()
    print(f"cross-checked {args.games} random games, {plies} plies, {positions} positions: the same boards, "
          f"players, moves and ends ({', '.join(f'{k}: {v}' for k, v in sorted(ends.items()))})")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--perft", type=int, default=2, help="perft depth (default 2; 0: none)")
    ap.add_argument("--games", type=int, default=0, help="random games played beside dagaz (default 0)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--dagaz", default="target/release/dagaz")
    ap.add_argument("--file", default="games/pentago.zrf")
    args = ap.parse_args()
    game = pyspiel.load_game("pentago")
    for d in range(1, args.perft + 1):
        s = game.new_initial_state()
        print(f"openspiel d{d}: actions {perft(s, d, False)}, merged {perft(s, d, True)}", flush=True)
    if args.games:
        cross_check(args)


if __name__ == "__main__":
    main()
