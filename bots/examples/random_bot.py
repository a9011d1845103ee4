#!/usr/bin/env python3
"""A minimal external bot for dagaz (see docs/bot-protocol.md): plays a uniformly random legal move.

Reads one JSON request per line on stdin and answers one JSON line on stdout. It draws from the request's
`seed`, so the same game with the same run seed gives the same moves. Logs go to stderr, never stdout.
Run it in a tournament with:  dagaz ... --bot 'external:command=python3 bots/examples/random_bot.py'
"""
import json
import random
import sys


def choose(request):
    moves = request["moves"]
    rng = random.Random(request["seed"])
    # Prefer a capture when there is one, like a (very) greedy player would: uncomment to try.
    # captures = [m for m in moves if any(a["action"] == "capture" for p in m["parts"] for a in p["actions"])]
    # if captures: return rng.choice(captures)["id"]
    return rng.choice(moves)["id"]


def main():
    for line in sys.stdin:
        if not line.strip():
            continue
        request = json.loads(line)
        kind = request.get("type")
        if kind == "quit":
            break
        if kind != "move":  # "new-game" and anything unknown need no answer
            continue
        # Echoing the request's number lets the runner tell this answer from a late one.
        print(json.dumps({"id": choose(request), "request": request.get("request")}), flush=True)


if __name__ == "__main__":
    main()
