"""A fake CECP (xboard protocol) engine for dagaz's tests, written for them.

Usage: cecp.py MODE [LOG] [MOVE ...]

It declares the version 2 features `usermove=1 ping=1 setboard=1 myname="fake-cecp-MODE" done=1` (MODE `v1`
declares none and answers `protover` with `Illegal move (no match) protover`, as version 1 engines do), writes every line it reads to LOG
when given, and at each `go`:
  play     answers the MOVEs in turn, each after a thinking line `3 42 10 777 MOVE`;
  illegal  answers `move e2e5`;
  garbage  answers `move` and nothing more;
  hang     never answers;
  crash    writes to its error output and exits with status 3;
  refuse   answers `Illegal move: X` for the last move it was sent (or plays e2e4 when it was sent none);
  claim    answers `1/2-1/2 {fake draw claim}` instead of moving;
  v1       plays the MOVEs in the old form `1. ... MOVE`.
"""
import sys

mode = sys.argv[1]
log = open(sys.argv[2], "a") if len(sys.argv) > 2 and sys.argv[2] != "-" else None
answers = sys.argv[3:]
last = None


def say(line):
    print(line, flush=True)


for line in sys.stdin:
    if log:
        log.write(line)
        log.flush()
    w = line.split()
    if not w:
        continue
    cmd = w[0]
    if cmd == "protover":
        if mode == "v1":
            say("Illegal move (no match) protover")
        else:
            say('feature usermove=1 ping=1 setboard=1 myname="fake-cecp-%s" san=1' % mode)
            say("feature done=1")
    elif cmd == "ping":
        say("pong " + w[1])
    elif cmd == "usermove":
        last = w[1]
    elif cmd == "quit":
        break
    elif cmd == "go":
        if mode in ("play", "v1"):
            move = answers.pop(0) if answers else "a1a1"
            if mode == "v1":
                say("1. ... " + move)
            else:
                say("3 42 10 777 " + move)
                say("move " + move)
        elif mode == "illegal":
            say("move e2e5")
        elif mode == "garbage":
            say("move")
        elif mode == "crash":
            sys.stderr.write("imitated segmentation fault\n")
            sys.stderr.flush()
            sys.exit(3)
        elif mode == "refuse":
            say("Illegal move: " + last if last else "move e2e4")
        elif mode == "claim":
            say("1/2-1/2 {fake draw claim}")
        # hang: no answer
    elif mode == "v1" and len(cmd) >= 4 and cmd[0] in "abcdefgh" and cmd[1].isdigit():
        last = cmd
