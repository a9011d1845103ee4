# scratch generator for a Dablot board (vertices V x0-5 y0-6 named a1..f7; centres named A1..E6)
V = lambda x,y: "abcdef"[x]+str(y+1)
C = lambda x,y: "ABCDE"[x]+str(y+1)
pos=[];links={d:[] for d in "n s e w ne nw se sw".split()}
for y in range(7):
  for x in range(6): pos.append(V(x,y))
for y in range(6):
  for x in range(5): pos.append(C(x,y))
def add(d,a,b): links[d].append((a,b))
for y in range(7):
  for x in range(6):
    if y<6: add("n",V(x,y),V(x,y+1)); add("s",V(x,y+1),V(x,y))
    if x<5: add("e",V(x,y),V(x+1,y)); add("w",V(x+1,y),V(x,y))
for y in range(6):
  for x in range(5):
    c=C(x,y)
    add("ne",V(x,y),c); add("ne",c,V(x+1,y+1))
    add("sw",V(x+1,y+1),c); add("sw",c,V(x,y))
    add("nw",V(x+1,y),c); add("nw",c,V(x,y+1))
    add("se",V(x,y+1),c); add("se",c,V(x+1,y))
sami_men=[V(x,y) for y in range(3) for x in range(6)]+[C(x,y) for y in range(2) for x in range(5)]
far_men=[V(x,y) for y in range(4,7) for x in range(6)]+[C(x,y) for y in range(4,6) for x in range(5)]
compulsory = __import__("sys").argv[1]=="c"
prio = "(move-priorities jump step) (optional-priority King Prince)" if compulsory else ""
def jumps(t, victims):
  cond = "(or "+" ".join(f"(piece? {v})" for v in victims)+")"
  return " ".join(f"(jump {d} {cond})" for d in links)
out=f"""
(define step ($1 (verify empty?) add))
(define jump ($1 (verify enemy?) (verify $2) capture $1 (verify empty?) (add-partial jump)))
(game (title "Dablot scratch") (players Sami Farmer) (turn-order Sami Farmer)
 (board (positions {' '.join(pos)})
"""
for d,l in links.items(): out+=f"  (links {d} {' '.join('('+a+' '+b+')' for a,b in l)})\n"
out+=f""" (symmetry Farmer (n s) (s n) (e w) (w e) (ne sw) (sw ne) (nw se) (se nw)))
 {prio}
 (piece (name Man) (moves (move-type jump) {jumps('Man',['Man'])} (move-type step) {' '.join(f'(step {d})' for d in links)}))
 (piece (name Prince) (moves (move-type jump) {jumps('Prince',['Man','Prince'])} (move-type step) {' '.join(f'(step {d})' for d in links)}))
 (piece (name King) (moves (move-type jump) {jumps('King',['Man','Prince','King'])} (move-type step) {' '.join(f'(step {d})' for d in links)}))
 (board-setup (Sami (Man {' '.join(sami_men)}) (Prince {C(4,2)}) (King {V(5,3)}))
              (Farmer (Man {' '.join(far_men)}) (Prince {C(0,3)}) (King {V(0,3)})))
 (loss-condition (Sami Farmer) (name "no move") stalemated))
"""
print(out)
