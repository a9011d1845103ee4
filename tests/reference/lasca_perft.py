#!/usr/bin/env python3
"""Lasca perft written independently of dagaz, from Lasker's rules (see games/lasca.zrf): used to
cross-check tests/perft.rs `lasca` (no published Lasca perft exists). Run: python3 tests/reference/lasca_perft.py 12
Conventions: a capture chain is one move; moves with the same start square and resulting position are one
move; a position with no move is a leaf of no count."""
import sys
N=7
def sq(f,r): return (f,r)
def on(f,r): return 0<=f<N and 0<=r<N
start={}
for f,r in [(0,0),(2,0),(4,0),(6,0),(1,1),(3,1),(5,1),(0,2),(2,2),(4,2),(6,2)]:
    start[(f,r)]=(('W',False),)
for f,r in [(0,4),(2,4),(4,4),(6,4),(1,5),(3,5),(5,5),(0,6),(2,6),(4,6),(6,6)]:
    start[(f,r)]=(('B',False),)
def fwd(c): return 1 if c=='W' else -1
def dirs(c,officer):
    d=[(1,fwd(c)),(-1,fwd(c))]
    if officer: d+= [(1,-fwd(c)),(-1,-fwd(c))]
    return d
def last(c): return N-1 if c=='W' else 0
def moves(board,c):
    caps=[]
    def chain(frm,cur,col,jumped,path):
        top=col[0]
        found=False
        for dx,dy in dirs(c,top[1]):
            o=(cur[0]+dx,cur[1]+dy); l=(cur[0]+2*dx,cur[1]+2*dy)
            if not on(*l) or o not in board or o in jumped: continue
            if board[o][0][0]==c: continue
            if l in board and l!=frm: continue
            found=True
            nj=jumped+[o]
            if not top[1] and l[1]==last(c):
                caps.append((frm,l,nj,True))
            else:
                chain(frm,l,col,nj,path+[l])
        if not found and jumped:
            caps.append((frm,cur,jumped,False))
    for p,col in board.items():
        if col[0][0]==c:
            chain(p,p,col,[],[p])
    res=[]
    if caps:
        for frm,to,jumped,prom in caps:
            b=dict(board); col=list(b.pop(frm))
            if prom: col[0]=(col[0][0],True)
            for o in jumped:
                oc=list(b[o]); t=oc.pop(0); col.append(t)
                if oc: b[o]=tuple(oc)
                else: del b[o]
            b[to]=tuple(col); res.append((frm,b))
    else:
        for p,col in board.items():
            if col[0][0]!=c: continue
            for dx,dy in dirs(c,col[0][1]):
                l=(p[0]+dx,p[1]+dy)
                if on(*l) and l not in board:
                    b=dict(board); cl=list(b.pop(p))
                    if not cl[0][1] and l[1]==last(c): cl[0]=(c,True)
                    b[l]=tuple(cl); res.append((p,b))
    seen=set(); out=[]
    for frm,b in res:
        k=(frm,frozenset(b.items()))
        if k not in seen: seen.add(k); out.append(b)
    return out
def perft(b,c,d):
    ms=moves(b,c)
    if d==1: return len(ms)
    o='B' if c=='W' else 'W'
    return sum(perft(m,o,d-1) for m in ms)
for d in range(1,int(sys.argv[1])+1):
    print(d,perft(start,'W',d))
