"""Padded MMA work of an expert-grouped GEMM under the bench's uniform routing (each token's K distinct
experts drawn uniformly): CUTLASS's 128-row tiles against passes rounded up to 32 rows (the bf16 large
TMA kernel's modes 0 and 1), over the real rows; and the passes per (expert, weight block)."""
import numpy as np
presets={'deepseek-v3':(256,8),'qwen3-30b-a3b':(128,8),'gpt-oss-120b':(128,4),'mixtral-8x7b':(8,2)}
def c32(x): return -(-x//32)*32
def width(r):  # MMA columns of a pass of r rows: one MMA rounded to 32, or two of 144 / 160
    return c32(r) if r<=256 else (288 if r<=288 else 320)
def tma_cols(n,mode):
    if n==0: return 0,0
    ps=320 if mode==2 else 256
    if mode==1 and n>256:
        p=-(-n//256); ps=c32(-(-n//p))
    cols=0; passes=0; t=0
    while t<n:
        r=min(ps,n-t); cols+=width(r); passes+=1; t+=ps
    return cols,passes
rng=np.random.default_rng(1)
print("preset T  rows/expert  tile128-waste  | tma mode 0, 1, 2: waste (passes per expert and block)")
for name,(E,K) in presets.items():
    for T in (1024,2048,4096,8192):
        counts=np.zeros(E,int)
        for t in range(T):
            counts[rng.choice(E,K,replace=False)]+=1
        tot=counts.sum()
        tile=sum(-(-n//128)*128 for n in counts)
        line=f"{name:14s} {T:5d} {tot/E:7.1f}  {tile/tot-1:6.1%}  |"
        for mode in (0,1,2):
            m=[tma_cols(n,mode) for n in counts]
            line+=f"  {sum(x for x,_ in m)/tot-1:6.1%} ({sum(p for _,p in m)/E:.2f})"
        print(line)
