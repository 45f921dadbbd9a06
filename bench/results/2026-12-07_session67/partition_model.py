# Session 67: a model of the balanced form's partition (small_balanced.patch, w4a16_small_balanced_kernel):
# the unit order of a CTA (its last tile's segment first, then the tiles below it), the segment kinds
# (contributor / finisher / whole tile) and the finisher's contributor set (CTAs cta_of(tile start) .. c - 1 with
# non-empty ranges), checked over random (units, CTAs, stages a tile): `python3 partition_model.py` prints ok.
import random
def cta_order(U, P, KS, c):
    """CTA c's unit range [ub, ue) and its run order seq(j) (the kernel's seq_unit); None if empty."""
    ub, ue = U*c//P, U*(c+1)//P
    if ub >= ue: return None
    tile_hi, tile_lo = (ue-1)//KS, ub//KS
    first_lo = max(ub, tile_hi*KS)
    len0 = ue - first_lo
    def seq(j):
        if j < len0: return first_lo + j
        j -= len0
        t = tile_hi - 1 - j//KS
        return (ub if t == tile_lo else t*KS) + j % KS
    return ub, ue, seq
def sim(U, P, KS):
    seen = {}
    partial_writers = {}
    finishers = {}
    direct = set()
    for c in range(P):
        r = cta_order(U, P, KS, c)
        if r is None: continue
        ub, ue, seq = r
        len0 = ue - max(ub, (ue-1)//KS*KS); count = ue - ub
        j = 0; npart = 0; order = []
        while j < count:
            u0 = seq(j); tile = u0//KS; ksf = u0 - tile*KS
            seg = len0 if j == 0 else KS - ksf
            for s in range(seg):
                u = seq(j); assert u // KS == tile and u - tile*KS == ksf + s, (U,P,KS,c)
                assert u not in seen; seen[u] = c; j += 1
            ends = ksf + seg == KS
            if not ends:
                npart += 1; partial_writers.setdefault(tile, []).append(c); order.append('P')
            elif ksf > 0:
                cf = ((tile*KS + 1)*P - 1)//U
                finishers[tile] = (c, cf); order.append('F')
            else:
                direct.add(tile); order.append('D')
        assert npart <= 1
        if 'P' in order: assert order[0] == 'P'
        if 'F' in order: assert order[-1] == 'F'
    assert sorted(seen) == list(range(U))
    for tile, (c, cf) in finishers.items():
        contrib = [cc for cc in range(cf, c) if U*cc//P != U*(cc+1)//P]
        assert sorted(partial_writers.get(tile, [])) == contrib, (U,P,KS,tile,contrib,partial_writers.get(tile))
    for tile in partial_writers: assert tile in finishers
    assert not (set(finishers) & direct)
if __name__ == "__main__":
    random.seed(1)
    for _ in range(20000):
        KS = random.randint(1, 14); tiles = random.randint(1, 300); P = random.choice([1,2,3,7,132,264, random.randint(1,600)])
        sim(tiles*KS, P, KS)
    print("ok")
