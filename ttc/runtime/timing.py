"""`tt-run --bench`'s timing of a kernel's binaries: CUDA events around each launch, with the host's launch cost
kept out of the numbers, so that two binaries of a kernel that runs a few microseconds compare by what the GPU does.

An event pair recorded from Python around a launch measures, when the GPU is idle, the host's time to issue
the launch (cuda-python, ctypes and the driver: several microseconds) as well as the kernel: the begin event
completes at once and the end event waits for a kernel the host has not yet submitted. So the timed launches
are queued behind a spin kernel (`SPIN_PTX`: one thread polls `%globaltimer`) that runs longer than the host
takes to queue them; the GPU then runs events and launches back to back, and each pair measures the GPU's own
launch processing and the kernel. The spin is sized from the host's measured cost per launch and checked:
when queueing took longer than the spin, the spin doubles and the timing runs again (`queued` false in the
result when that never fit).

Warm-up is by time as well as by count: at least `warmup` launches and at least `WARMUP_S` seconds of them
(synchronizing as it goes), so that the GPU's clocks have left their idle state before the timed launches; ten
launches of a 5 us kernel would not be enough for that, and the first binary timed after a long compile would
pay for it. `batch_ms` is the time per launch of launches queued back to back with no events between them
(the GPU overlaps one launch's set-up with the previous kernel's tail, as in an application's stream).

With several binaries (`tt-run --against`) their launches are interleaved in one sequence (`time_interleaved`):
a large kernel's time can move by ~10% between two processes on its own (the GPU's clocks and power state), which
timing each binary in a process of its own would report as a difference between them.
"""

from __future__ import annotations

import ctypes
import statistics
import time

WARMUP_S = 0.05
MIN_SPIN_NS = 1_000_000
TRIES = 3

SPIN_PTX = """\
.version 6.0
.target sm_70
.address_size 64

.visible .entry ttc_spin(.param .u64 ns)
{
\t.reg .pred %p;
\t.reg .b64 %n, %t0, %t1, %d;
\tld.param.u64 %n, [ns];
\tmov.u64 %t0, %globaltimer;
SPIN:
\tmov.u64 %t1, %globaltimer;
\tsub.u64 %d, %t1, %t0;
\tsetp.lt.u64 %p, %d, %n;
\t@%p bra SPIN;
\tret;
}
"""


def spin_ns(host_launch_s: float, rep: int) -> int:
    """How long the GPU must be held busy while the host queues `rep` timed launches, each with two event
    records (counted as launches), then `rep` more for `batch_ms`: four times the estimate, at least 1 ms."""
    return max(MIN_SPIN_NS, int(4 * 4 * rep * host_launch_s * 1e9))


def warm_up(run_once, sync, warmup: int, min_seconds: float = WARMUP_S) -> tuple[int, float]:
    """At least `warmup` launches and at least `min_seconds` of them, synchronizing every 64 so that the time
    is the GPU's. Returns (launches, the host's mean time to issue one)."""
    start = time.perf_counter()
    n, issuing = 0, 0.0
    while n < warmup or time.perf_counter() - start < min_seconds:
        t = time.perf_counter()
        run_once()
        issuing += time.perf_counter() - t
        n += 1
        if n % 64 == 0:
            sync()
        if n >= warmup and min_seconds <= 0:
            break
    sync()
    return n, issuing / max(n, 1)


class _Spin:
    def __init__(self, drv):
        self.drv = drv
        self.module = drv("cuModuleLoadData", SPIN_PTX.encode() + b"\0")
        self.func = drv("cuModuleGetFunction", self.module, b"ttc_spin")

    def launch(self, ns: int) -> None:
        arg = ctypes.c_uint64(ns)
        params = (ctypes.c_void_p * 1)(ctypes.addressof(arg))
        self.drv("cuLaunchKernel", self.func, 1, 1, 1, 1, 1, 1, 0, 0, ctypes.addressof(params), 0)

    def close(self) -> None:
        self.drv.d.cuModuleUnload(self.module)


def time_interleaved(drv, runs: list, warmup: int = 10, rep: int = 100, min_warmup_s: float = WARMUP_S) -> list:
    """Median/min ms of `rep` launches of each binary of one kernel in `runs` (one for `tt-run --bench`, two with
    `--against`), each launch between its own pair of events, all queued behind a spin kernel; `batch_ms` per
    launch back to back. One result per run. `drv` is cuda.py's checked driver. The warm-up launches the runs
    in turn, and the timed sequence queues launch i of each, first to last when i is even, last to first when it
    is odd, so that every binary sees the same clocks, temperature and power state. Back to back: one block of
    `rep` launches for a single run; for several, a block of rep // 2 of each, first to last, then the blocks
    again last to first."""
    sync = lambda: drv("cuCtxSynchronize")  # noqa: E731
    k = len(runs)
    warm, host_s = warm_up(lambda: [run() for run in runs], sync, warmup, min_warmup_s)
    host_s /= k
    order = list(range(k))
    blocks = [order] if k == 1 else [order, order[::-1]]
    per_block = rep if k == 1 else max(rep // 2, 1)
    spin = _Spin(drv)
    events = [[(drv("cuEventCreate", 0), drv("cuEventCreate", 0)) for _ in range(rep)] for _ in runs]
    marks = [drv("cuEventCreate", 0) for _ in range(k * len(blocks) + 1)]
    try:
        ns = spin_ns(host_s * k, rep)
        for attempt in range(TRIES):
            spin.launch(ns)
            t = time.perf_counter()
            for i in range(rep):
                for j in order if i % 2 == 0 else order[::-1]:
                    begin, end = events[j][i]
                    drv("cuEventRecord", begin, 0)
                    runs[j]()
                    drv("cuEventRecord", end, 0)
            drv("cuEventRecord", marks[0], 0)
            mark = 1
            for block in blocks:
                for j in block:
                    for _ in range(per_block):
                        runs[j]()
                    drv("cuEventRecord", marks[mark], 0)
                    mark += 1
            queueing = time.perf_counter() - t
            sync()
            queued = queueing * 1e9 < 0.9 * ns
            if queued or attempt == TRIES - 1:
                break
            ns = max(2 * ns, int(2 * queueing * 1e9))
        batch = [0.0] * k
        for m, j in enumerate(j for block in blocks for j in block):
            batch[j] += drv("cuEventElapsedTime", marks[m], marks[m + 1])
        results = []
        for j in order:
            times = [drv("cuEventElapsedTime", begin, end) for begin, end in events[j]]
            results.append({"median_ms": statistics.median(times), "min_ms": min(times),
                            "batch_ms": batch[j] / (per_block * len(blocks)), "warmup": warm, "rep": rep,
                            "queued": queued, "spin_ms": ns / 1e6, "host_launch_us": host_s * 1e6})
    finally:
        for begin, end in (e for side in events for e in side):
            drv.d.cuEventDestroy(begin)
            drv.d.cuEventDestroy(end)
        for m in marks:
            drv.d.cuEventDestroy(m)
        spin.close()
    return results
