# scratch: Tamerlane chess (Wikipedia's common array), moves only; citadels left out (unreachable at low depth)
files="abcdefghijk"
P=lambda f,r: files[f]+str(r+1)
step_dirs={"n":(0,1),"s":(0,-1),"e":(1,0),"w":(-1,0),"ne":(1,1),"nw":(-1,1),"se":(1,-1),"sw":(-1,-1)}
out=["(define slide ($1 (while empty? add $1) (verify not-friend?) add))",
"(define step ($1 (verify not-friend?) add))",
"(define leap2 ($1 $2 (verify not-friend?) add))",
"(define leap3 ($1 $2 $3 (verify not-friend?) add))",
"(define leap4 ($1 $2 $3 $4 (verify not-friend?) add))",
"(define picket ($1 (verify empty?) $1 (while empty? add $1) (verify not-friend?) add))",
# giraffe: one diagonal step (empty), then along $2: two passed squares empty, land on the 3rd or further
"(define giraffe ($1 (verify empty?) $2 (verify empty?) $2 (verify empty?) $2 (while empty? add $2) (verify not-friend?) add))",
"(define pawn ((if (in-zone? last-rank) (verify false)) n (verify empty?) add))",
"(define pawnx ($1 (verify enemy?) add))",
"(game (title \"Tamerlane scratch\") (players White Black) (turn-order White Black)",
" (board (grid (dimensions (\"a/b/c/d/e/f/g/h/i/j/k\" (50 0)) (\"10/9/8/7/6/5/4/3/2/1\" (0 50)))",
"   (directions (n 0 -1) (e 1 0) (s 0 1) (w -1 0) (ne 1 -1) (nw -1 -1) (se 1 1) (sw -1 1)))",
"  (symmetry Black (n s) (s n) (ne se) (se ne) (nw sw) (sw nw) (e w) (w e))",
"  (zone (name last-rank) (players White) (positions a10 b10 c10 d10 e10 f10 g10 h10 i10 j10 k10))",
"  (zone (name last-rank) (players Black) (positions a1 b1 c1 d1 e1 f1 g1 h1 i1 j1 k1)))"]
K8=" ".join(f"(step {d})" for d in step_dirs)
out.append(f" (piece (name King) (moves {K8}))")
out.append(" (piece (name General) (moves (step ne) (step nw) (step se) (step sw)))")
out.append(" (piece (name Vizier) (moves (step n) (step s) (step e) (step w)))")
out.append(" (piece (name Rook) (moves (slide n) (slide s) (slide e) (slide w)))")
out.append(" (piece (name Knight) (moves (leap2 n ne) (leap2 n nw) (leap2 s se) (leap2 s sw) (leap2 e ne) (leap2 e se) (leap2 w nw) (leap2 w sw)))")
out.append(" (piece (name Picket) (moves (picket ne) (picket nw) (picket se) (picket sw)))")
out.append(" (piece (name Elephant) (moves (leap2 ne ne) (leap2 nw nw) (leap2 se se) (leap2 sw sw)))")
out.append(" (piece (name Dabbaba) (moves (leap2 n n) (leap2 s s) (leap2 e e) (leap2 w w)))")
out.append(" (piece (name Camel) (moves (leap3 n n ne) (leap3 n n nw) (leap3 s s se) (leap3 s s sw) (leap3 e e ne) (leap3 e e se) (leap3 w w nw) (leap3 w w sw)))")
out.append(" (piece (name Giraffe) (moves (giraffe ne n) (giraffe ne e) (giraffe nw n) (giraffe nw w) (giraffe se s) (giraffe se e) (giraffe sw s) (giraffe sw w)))")
out.append(" (piece (name Pawn) (moves (pawn) (pawnx ne) (pawnx nw)))")
back=["Elephant",None,"Camel",None,"Dabbaba",None,"Dabbaba",None,"Camel",None,"Elephant"]
second=["Rook","Knight","Picket","Giraffe","General","King","Vizier","Giraffe","Picket","Knight","Rook"]
def setup(rk1,rk2,rk3,mirror):
  d={}
  for f,t in enumerate(back):
    if t: d.setdefault(t,[]).append(P(f,rk1))
  for f,t in enumerate(second): d.setdefault(t,[]).append(P(f,rk2))
  d.setdefault("Pawn",[]).extend(P(f,rk3) for f in range(11))
  return " ".join(f"({t} {' '.join(v)})" for t,v in d.items())
# Black mirrors White through the board's centre point (rotation), so Black's King is on f9 too? use point reflection
def setup_black():
  d={}
  for f,t in enumerate(back):
    if t: d.setdefault(t,[]).append(P(10-f,9))
  for f,t in enumerate(second): d.setdefault(t,[]).append(P(10-f,8))
  d.setdefault("Pawn",[]).extend(P(f,7) for f in range(11))
  return " ".join(f"({t} {' '.join(v)})" for t,v in d.items())
out.append(f" (board-setup (White {setup(0,1,2,False)}) (Black {setup_black()}))")
out.append(" (invariant (name \"check\") (not-attacked King))")
out.append(" (loss-condition (White Black) (name \"stalemate or mate\") stalemated))")
print("\n".join(out))
