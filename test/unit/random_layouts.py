"""Random blocked layouts for the layout-exchange tests (test_exchange_plan.py, test_linear_exchange.py): sizes per
thread, lanes and warps drawn per dimension, in a random order, so that every lane and warp is used."""

from ttc.ir.layouts import blocked


def random_blocked(rng, shape, warps):
    rank = len(shape)
    order = list(range(rank))
    rng.shuffle(order)
    lanes_left, warps_left = 32, warps
    spt, tpw, wpc = [1] * rank, [1] * rank, [1] * rank
    for d in order:
        spt[d] = rng.choice([1, 2, 4, 8])
    for d in order:
        t = rng.choice([x for x in (1, 2, 4, 8, 16, 32) if x <= lanes_left])
        tpw[d] = t
        lanes_left //= t
    tpw[order[-1]] *= lanes_left
    for d in order:
        t = rng.choice([x for x in (1, 2, 4) if x <= warps_left])
        wpc[d] = t
        warps_left //= t
    wpc[order[-1]] *= warps_left
    return blocked(spt, tpw, wpc, order)
