"""ttc.runtime.timing without a GPU: the warm-up's count and duration, the spin's size, the spin kernel's PTX,
and time_interleaved against a stand-in driver (events, launches and the retry when queueing outlasts the spin)."""

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
    """The calls time_interleaved makes, recorded; events are numbers, every elapsed time is 0.25 ms."""

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


@pytest.fixture
def steady_clock(monkeypatch):
    """timing's clock advances 1 us a reading, so that queueing never outlasts the 1 ms spin however loaded the
    machine running the tests is (CI once read 52 ms of queueing for 22 calls of the stand-in driver)."""
    ticks = iter(range(10**9))
    monkeypatch.setattr(timing, "time", type("Clock", (), {"perf_counter": staticmethod(lambda: next(ticks) * 1e-6)}))


def test_one_binary_queues_behind_the_spin(steady_clock):
    drv, launches = FakeDriver(), []
    r, = timing.time_interleaved(drv, [lambda: launches.append(1)], warmup=2, rep=5, min_warmup_s=0)
    names = [c[0] for c in drv.calls]
    spin = names.index("cuLaunchKernel")  # the spin kernel, then the timed launches' events
    assert names[spin + 1:].count("cuEventRecord") == 2 * 5 + 2
    assert len(launches) == 2 + 5 + 5 and r["queued"] and r["warmup"] == 2 and r["rep"] == 5
    assert r["median_ms"] == r["min_ms"] == 0.25 and r["batch_ms"] == pytest.approx(0.05)
    assert r["spin_ms"] == timing.MIN_SPIN_NS / 1e6
    assert len(FakeDriver.destroyed) >= 2 * 6 + 1  # every event and the spin module


def test_one_binary_retries_with_a_longer_spin():
    drv, n = FakeDriver(), [0]

    def run_once():  # fast while warming up, then 2 ms per launch: 1 ms of spin cannot cover 10 of them
        n[0] += 1
        if n[0] > 2:
            time.sleep(0.002)

    r, = timing.time_interleaved(drv, [run_once], warmup=2, rep=5, min_warmup_s=0)
    spins = [c for c in drv.calls if c[0] == "cuLaunchKernel"]
    assert len(spins) >= 2 and r["spin_ms"] > timing.MIN_SPIN_NS / 1e6


class PairDriver(FakeDriver):
    """FakeDriver whose events remember the launch recorded after them: an event pair around a launch of A
    measures 0.25 ms, around B 0.5 ms; a back-to-back block's marks 1 ms."""

    def __init__(self, launches):
        super().__init__()
        self.launches, self.after = launches, {}

    def __call__(self, what, *args):
        if what == "cuEventRecord":
            self.after[args[0]] = len(self.launches)
        if what == "cuEventElapsedTime":
            begin, end = args
            ran = self.launches[self.after[begin]:self.after[end]]
            return {("A",): 0.25, ("B",): 0.5}.get(tuple(ran), 1.0)
        return super().__call__(what, *args)


def test_time_interleaved_alternates_the_order(monkeypatch, steady_clock):
    """Two binaries: launch i of each in turn, A then B when i is even, B then A when it is odd; then blocks
    of rep // 2 back to back, A B then B A; one result each, from its own launches' events."""
    launches = []
    drv = PairDriver(launches)
    monkeypatch.setattr(timing._Spin, "launch", lambda self, ns: launches.append("spin"))
    r = timing.time_interleaved(drv, [lambda: launches.append("A"), lambda: launches.append("B")],
                                warmup=2, rep=4, min_warmup_s=0)
    spin = launches.index("spin")
    assert launches[:spin] == ["A", "B", "A", "B"]  # the warm-up, in turn
    assert launches[spin + 1:spin + 9] == ["A", "B", "B", "A", "A", "B", "B", "A"]
    assert launches[spin + 9:] == ["A", "A", "B", "B", "B", "B", "A", "A"]
    assert [x["median_ms"] for x in r] == [0.25, 0.5] and [x["min_ms"] for x in r] == [0.25, 0.5]
    assert [x["batch_ms"] for x in r] == [pytest.approx(0.5), pytest.approx(0.5)]  # 2 blocks of 1 ms, 4 launches
    assert all(x["rep"] == 4 and x["warmup"] == 2 and x["queued"] for x in r)
