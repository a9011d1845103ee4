#!/usr/bin/env python3
"""Bashni perft written independently of dagaz, from the rules of Russian draughts with columns (see
games/bashni.zrf): used to cross-check tests/perft.rs `bashni` (no published Bashni perft exists).
Run: python3 tests/reference/bashni_perft.py 7. Conventions as in lasca_perft.py."""
import sys
N=8
def on(f,r): return 0<=f<N and 0<=r<N
start={}
for r in range(3):
    for f in range(N):
        if (f+r)%2==0: start[(f,r)]=(('W',False),)
for r in range(5,8):
    for f in range(N):
        if (f+r)%2==0: start[(f,r)]=(('B',False),)
D=[(1,1),(-1,1),(1,-1),(-1,-1)]
def fwd(c): return 1 if c=='W' else -1
def last(c): return N-1 if c=='W' else 0
def moves(board,c):
    caps=[]
    def empty(p,frm): return p not in board or p==frm
    def king_caps(frm,cur,jumped,back):
        # list of (over, [landings]) for a flying king at cur
        out=[]
        for d in D:
            if back is not None and d==back: continue
            p=(cur[0]+d[0],cur[1]+d[1])
            while on(*p) and empty(p,frm): p=(p[0]+d[0],p[1]+d[1])
            if not on(*p) or p in jumped or board[p][0][0]==c: continue
            o=p; lands=[]; q=(o[0]+d[0],o[1]+d[1])
            while on(*q) and empty(q,frm):
                lands.append(q); q=(q[0]+d[0],q[1]+d[1])
            if lands: out.append((d,o,lands))
        return out
    def man_caps(frm,cur,jumped):
        out=[]
        for d in D:
            o=(cur[0]+d[0],cur[1]+d[1]); l=(cur[0]+2*d[0],cur[1]+2*d[1])
            if not on(*l) or o not in board or o in jumped or board[o][0][0]==c: continue
            if not empty(l,frm): continue
            out.append((d,o,[l]))
        return out
    def chain(frm,cur,king,jumped,back):
        opts=king_caps(frm,cur,jumped,back) if king else man_caps(frm,cur,jumped)
        if not opts:
            if jumped: caps.append((frm,cur,jumped,king))
            return
        for d,o,lands in opts:
            nj=jumped+[o]
            nb=(-d[0],-d[1])
            if king:
                # must land where the capture goes on, if any landing allows it
                goes=[l for l in lands if king_caps(frm,l,nj,nb)]
                for l in (goes if goes else lands):
                    chain(frm,l,True,nj,nb)
            else:
                l=lands[0]
                k=(l[1]==last(c))
                chain(frm,l,k,nj,nb if k else None)
    for p,col in board.items():
        if col[0][0]==c: chain(p,p,col[0][1],[],None)
    res=[]
    if caps:
        for frm,to,jumped,king in caps:
            b=dict(board); col=list(b.pop(frm))
            col[0]=(c,king)
            for o in jumped:
                oc=list(b[o]); t=oc.pop(0); col.append(t)
                if oc: b[o]=tuple(oc)
                else: del b[o]
            b[to]=tuple(col); res.append((frm,b))
    else:
        for p,col in board.items():
            if col[0][0]!=c: continue
            if col[0][1]:
                for d in D:
                    l=(p[0]+d[0],p[1]+d[1])
                    while on(*l) and l not in board:
                        b=dict(board); b[l]=b.pop(p); res.append((p,b)); l=(l[0]+d[0],l[1]+d[1])
            else:
                for dx in (1,-1):
                    l=(p[0]+dx,p[1]+fwd(c))
                    if on(*l) and l not in board:
                        b=dict(board); cl=list(b.pop(p))
                        if l[1]==last(c): cl[0]=(c,True)
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
    print(d,perft(start,'W',d),flush=True)
