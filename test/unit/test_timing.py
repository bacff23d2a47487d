"""ttc.runtime.timing without a GPU: the warm-up's count and duration, the spin's size, the spin kernel's PTX,
and time_launches against a stand-in driver (events, launches and the retry when queueing outlasts the spin)."""

import time

import pytest

from ttc.runtime import timing


def test_warm_up_runs_the_count_and_the_time():
    calls, syncs = [], []
    n, per_launch = timing.warm_up(lambda: calls.append(1), lambda: syncs.append(1), warmup=3, min_seconds=0.02)
    assert n == len(calls) and n >= 3 and syncs  # synchronized at the end at least
    assert 0 <= per_launch < 0.02
    n, _ = timing.warm_up(lambda: calls.append(1), lambda: None, warmup=5, min_seconds=0)
    assert n == 5


def test_spin_covers_the_queueing():
    assert timing.spin_ns(0.0, 100) == timing.MIN_SPIN_NS
    # 10 us per launch, 100 timed launches with two events each and 100 batched: 4 x 4 x 100 x 10 us
    assert timing.spin_ns(10e-6, 100) == 16_000_000


def test_spin_ptx_assembles():
    from ttc.lowering.cubin import AsmOptions, AssemblerError, with_nvjitlink

    try:
        cubin = with_nvjitlink(timing.SPIN_PTX, "spin.ptx", AsmOptions(arch="sm_90"))
    except AssemblerError as e:
        if "not available" in str(e):
            pytest.skip(str(e))
        raise
    assert cubin[:4] == b"\x7fELF"


class FakeDriver:
    """The calls time_launches makes, recorded; events are numbers, every elapsed time is 0.25 ms."""

    class d:
        @staticmethod
        def cuEventDestroy(e):
            FakeDriver.destroyed.append(e)

        @staticmethod
        def cuModuleUnload(m):
            FakeDriver.destroyed.append(m)

    destroyed: list = []

    def __init__(self):
        self.calls, self.next = [], 0

    def __call__(self, what, *args):
        self.calls.append((what, args))
        if what in ("cuEventCreate", "cuModuleLoadData", "cuModuleGetFunction"):
            self.next += 1
            return self.next
        if what == "cuEventElapsedTime":
            return 0.25
        return None


def test_time_launches_queues_behind_the_spin():
    drv, launches = FakeDriver(), []
    r = timing.time_launches(drv, lambda: launches.append(1), warmup=2, rep=5, min_warmup_s=0)
    names = [c[0] for c in drv.calls]
    spin = names.index("cuLaunchKernel")  # the spin kernel, then the timed launches' events
    assert names[spin + 1:].count("cuEventRecord") == 2 * 5 + 2
    assert len(launches) == 2 + 5 + 5 and r["queued"] and r["warmup"] == 2 and r["rep"] == 5
    assert r["median_ms"] == r["min_ms"] == 0.25 and r["batch_ms"] == pytest.approx(0.05)
    assert r["spin_ms"] == timing.MIN_SPIN_NS / 1e6
    assert len(FakeDriver.destroyed) >= 2 * 6 + 1  # every event and the spin module


def test_time_launches_retries_with_a_longer_spin():
    drv, n = FakeDriver(), [0]

    def run_once():  # fast while warming up, then 2 ms per launch: 1 ms of spin cannot cover 10 of them
        n[0] += 1
        if n[0] > 2:
            time.sleep(0.002)

    r = timing.time_launches(drv, run_once, warmup=2, rep=5, min_warmup_s=0)
    spins = [c for c in drv.calls if c[0] == "cuLaunchKernel"]
    assert len(spins) >= 2 and r["spin_ms"] > timing.MIN_SPIN_NS / 1e6
