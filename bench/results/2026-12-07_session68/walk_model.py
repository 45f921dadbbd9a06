# Session 68: a model of the balanced form's second refill path (small_balanced_v2.patch,
# w4a16_small_balanced_kernel: walk_unit): thread 0's cursor (w_ks, w_end, w_tile, w_it, w_tx), stepped
# once a stage with no division, must give the same (item, tile column, K stage) as the first form's
# unit_of(seq_unit(j)) for every j of every CTA. Checked over random (items, tiles a row of items, stages
# a tile, CTAs): `python3 walk_model.py` prints ok.
import os
import random
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "2026-12-07_session67"))
from partition_model import cta_order  # noqa: E402  (the first form's range and seq_unit)


def check(n_items, tiles_x, KS, P):
    U = n_items * tiles_x * KS
    for c in range(P):
        r = cta_order(U, P, KS, c)
        if r is None:
            continue
        ub, ue, seq_unit = r
        tile_hi, tile_lo = (ue - 1) // KS, ub // KS
        first_lo, count = max(ub, tile_hi * KS), ue - ub

        def unit_of(u):
            tile = u // KS
            it = tile // tiles_x
            return (it, tile - it * tiles_x, u - tile * KS)

        # the kernel's cursor, as written in walk_unit
        w_ks, w_end, w_tile = first_lo - tile_hi * KS, ue - tile_hi * KS, tile_hi
        w_it = tile_hi // tiles_x
        w_tx = tile_hi - w_it * tiles_x
        for j in range(count):
            got = (w_it, w_tx, w_ks)
            assert 0 <= w_it < n_items and 0 <= w_tx < tiles_x and 0 <= w_ks < KS, (n_items, tiles_x, KS, P, c, j)
            w_ks += 1
            if w_ks == w_end:
                w_tile -= 1
                w_tx -= 1
                if w_tx < 0:
                    w_tx, w_it = tiles_x - 1, w_it - 1
                w_ks = ub - tile_lo * KS if w_tile == tile_lo else 0
                w_end = KS
            want = unit_of(seq_unit(j))
            assert got == want, (n_items, tiles_x, KS, P, c, j, got, want)


random.seed(68)
for _ in range(20000):
    check(random.randint(1, 40), random.randint(1, 60), random.randint(1, 14),
          random.choice([1, 2, 3, 7, 132, 264, random.randint(1, 600)]))
print("ok")
