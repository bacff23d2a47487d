"""tt-tune's run: every config compiled at once on a pool of processes through the kernel cache, then checked
and timed, on the GPU (one timing worker per GPU) or in the interpreter, with a progress bar on stderr.

Everything that can overlap does, and nothing else runs in a process that times. The compile processes are forked
first (`compile_pool`, before any other thread exists) and import the compiler and set up LLVM
(`compiler.preload`) while the parent reads the kernel; they run at a lower priority than the GPU workers, whose
timing loop must keep the GPU fed. The GPU workers and the checking process (`check_pool`, lower still) are
spawned next (`GpuWorkers`, before the parent reads the kernel or imports NumPy):
while the parent prepares and the configs compile, each worker creates its CUDA context and L2 flush buffer and
draws the spec's initial values (`spec.fast_initial_values`, on several threads); once the parent has sent the
decorator's `reset_to_zero`, the worker uploads the values to its GPU, once (each config's buffers are
device-to-device copies of them). The checking process, one for all GPUs, draws the same values (they depend on
the seed alone) and computes each check's expected values once (`check.Reference`: a 4096^3 matmul in NumPy,
then each element's accepted interval): in its own process, so that its NumPy and its threads never hold the GIL
a timing loop waits for. A config is timed as soon as its compile is done and a GPU is free. The timing is
`triton.testing.do_bench`'s, with the CUDA driver (cuda-python) instead of torch: one launch, an estimate over five
launches each after an L2 flush (a 256 MB buffer set to zero, as Triton's `clear_cache`), then warm-up launches for
`warmup` ms and timed launches for `rep` ms, each between its own events and after a flush; the result is the 0.5,
0.2 and 0.8 quantiles of the times in ms. Every launch, timed or not, is what the autotuner's kernel call is: the
`reset_to_zero` buffers set to zero, the `restore_value` buffers saved, the kernel, the saved buffers copied back.
The outputs of the first launch (from the spec's initial values, `reset_to_zero` buffers zero) are read into a
pinned buffer and written, while the GPU times the config, to a file of the run's outbox (in /dev/shm where it
has room); the parent hands each file to the checking process (`check_one`), which checks it against the spec's
checks while the GPU times the next configs (`Reference.within`: integer passes over the output's bits; `compare`
only for an output it does not pass). The parent collects the checks' outcomes once every config is timed: a config
that gives wrong results is "wrong" (its time dropped), one that does not compile, load or launch is "failed";
neither is ever the winner. A CUDA error that breaks the worker's context replaces the worker.
"""

from __future__ import annotations

import ast
import concurrent.futures as cf
import math
import multiprocessing
import os
import shutil
import sys
import tempfile
import threading
import time

L2_FLUSH_BYTES = 256 * 1024 * 1024
QUANTILES = (0.5, 0.2, 0.8)
# below the parent and the GPU workers' timing loops, the compiles; below them, the checking process (the spec's
# values, the checks' references: a 4096^3 matmul on every core, and the checks), which only has to be done when
# the last config is timed
COMPILE_NICENESS = 5
CHECK_NICENESS = 10
OUTBOX_ROOM = 1 << 30  # the free bytes /dev/shm needs to hold the outputs waiting for their check


# ----------------------------------------------------------------------------- compiling (pool workers)


def compile_one(path: str, text: str, kernel: str, signature: str, options: dict) -> dict:
    """Compile one config to CUBIN through the kernel cache; never raises."""
    from ttc.driver import compiler
    from ttc.driver.cli import UsageError
    from ttc.ir.diagnostics import CompileError
    from ttc.lowering.cubin import AssemblerError

    start = time.perf_counter()
    try:
        result = compiler.compile(path, kernel, signature, compiler.Options(**options), text=text, tool="tt-tune")
    except CompileError as e:
        return {"ok": False, "error": e.render().split("\n")[0]}
    except (AssemblerError, UsageError) as e:
        return {"ok": False, "error": str(e).strip().split("\n")[0]}
    except Exception as e:  # noqa: BLE001 - a compiler bug fails this config, not the run
        return {"ok": False, "error": f"internal error: {type(e).__name__}: {e}"}
    if result.cache_dir is None:
        return {"ok": False, "error": "the kernel cache could not be written (set TRITON_CACHE_DIR)"}
    return {"ok": True, "cache_dir": result.cache_dir, "cache_hit": result.cache_hit,
            "shared": result.metadata.shared, "seconds": time.perf_counter() - start}


def compile_init(target: str) -> None:
    """A compile worker's start (tt-tune's pool on the GPU path, forked before the parent reads the kernel): below
    the GPU workers' priority (their timing loop is one thread that must keep the GPU fed; compiles only need
    to stay ahead of it), and with the compiler's imports and LLVM's set-up done before the first config comes."""
    from ttc.driver import compiler

    _below(COMPILE_NICENESS)
    compiler.preload(target)


def compile_pool(n_jobs: int, target: str):
    """The compile processes of a GPU run, started now (before any other thread of this process: they are
    forked) and set up while the parent prepares; `run` takes them as its `cpu`."""
    pool = _pool("fork", max(1, n_jobs), initializer=compile_init, initargs=(target,))
    pool.submit(int, 0)  # the processes start now, not with the first config
    return pool


# ----------------------------------------------------------------------------- running (pool workers)

_drawn: dict = {}  # per worker: spec path -> the spec and its values, or the Future drawing them in a thread
_specs: dict = {}  # per worker: (spec path, reset_to_zero) -> (spec, initial values)


def _load(spec_path: str):
    """The spec and its initial values (the random draws: 2 x 16M values for a 4096^2 fp16 matmul)."""
    from ttc.runtime import spec as specs

    spec = specs.load(spec_path, validate=False)  # the parent validates it (a bad spec ends the run there)
    spec.num_warps = None  # each config's own
    return spec, specs.fast_initial_values(spec)


def _spec(spec_path: str, reset_to_zero: tuple):
    import numpy as np

    k = (spec_path, tuple(reset_to_zero))
    if k not in _specs:
        drawn = _drawn.get(spec_path)
        if drawn is None:
            drawn = _drawn[spec_path] = _load(spec_path)
        spec, initial = drawn.result() if isinstance(drawn, cf.Future) else drawn
        initial = dict(initial)
        for name in reset_to_zero:  # the autotuner zeroes them before every launch
            if isinstance(initial.get(name), np.ndarray):
                initial[name] = np.zeros_like(initial[name])
        _specs[k] = (spec, initial)
    return _specs[k]


_references: dict = {}  # per worker: (spec, check name, the config values it uses) -> check.Reference


def _uses(expr: str, names) -> set:
    """The names of `names` that the expression reads (all of them when it does not parse: its evaluation reports
    the error)."""
    try:
        tree = ast.parse(expr, mode="eval")
    except SyntaxError:
        return set(names)
    return {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)} & set(names)


def _reference(spec, initial: dict, constexprs: dict, name: str):
    """The check's expected values for these config values, computed once per worker (a 4096^3 matmul in NumPy
    takes a second) and prepared for fast comparisons."""
    from ttc.runtime import check as checks

    k = (spec.path, name, tuple(sorted((u, constexprs[u]) for u in _uses(spec.checks[name], constexprs))))
    if k not in _references:
        a = spec.arg(name)
        rtol, atol = checks.default_tolerance(a)
        rtol = spec.rtol if spec.rtol is not None else rtol
        atol = spec.atol if spec.atol is not None else atol
        _references[k] = checks.Reference(checks.expected(spec, name, {**initial, **constexprs}), rtol, atol,
                                          a.host)
    return _references[k]


def _check(spec, initial: dict, constexprs: dict, outputs: dict) -> str | None:
    """None when every check passes, else why not. `Reference.within` decides most outputs in a few float32
    passes; only one it cannot pass gets the full float64 comparison, which reports it (or passes it, when it
    was within tolerance by less than float32's rounding)."""
    for name in spec.checks:
        ref = _reference(spec, initial, constexprs, name)
        if ref.within(outputs[name]):
            continue
        r = ref.compare(name, outputs[name])
        if not r.ok:
            return r.text()
    return None


def _prepare(spec_path: str, reset_to_zero: tuple, config_names: frozenset) -> None:
    """The spec's initial values and the references of the checks that no config value changes, made while the
    configs compile. A bad spec or check is reported when a config runs, so errors are ignored here."""
    try:
        spec, initial = _spec(spec_path, reset_to_zero)
        for name, expr in spec.checks.items():
            if not _uses(expr, config_names):
                _reference(spec, initial, {}, name)
    except Exception:  # noqa: BLE001
        pass


# ----------------------------------------------------------------------------- checking (its own process)


def check_init() -> None:
    """The checking process's start: below the compiles (its references and checks need only be done when the
    last config is timed)."""
    _below(CHECK_NICENESS)


def check_pool():
    """The checking process of a GPU run, started now (spawned, in `GpuWorkers`' thread); the GPU workers'
    outputs come to it as files (`check_one`)."""
    pool = _pool("spawn", 1, initializer=check_init)
    pool.submit(int, 0)  # the process starts now, not with the first check
    return pool


def check_prepare(spec_path: str, reset_to_zero: tuple, config_names: frozenset) -> None:
    """The checking process's first task, sent when the parent has read the kernel: the spec's values and the
    references of the checks that no config value changes, ahead of the first check."""
    _prepare(spec_path, reset_to_zero, config_names)


def check_one(spec_path: str, reset_to_zero: tuple, constexprs: dict, outputs: dict) -> dict:
    """Check one config's outputs, as a GPU worker wrote them (`outputs`: {"file": path, "args": [[name, offset,
    bytes], ...]}, the buffers' bytes as the kernel left them); the file is removed. Returns {"status": "ok" |
    "wrong: ..." | "failed: ..."} or {"spec_error": [message, where]}."""
    import numpy as np

    from ttc.runtime import spec as specs
    from ttc.runtime.errors import SpecError

    try:
        raw = np.fromfile(outputs["file"], dtype=np.uint8)
        os.unlink(outputs["file"])
        spec, initial = _spec(spec_path, reset_to_zero)
        got = {name: specs.from_device(spec.arg(name), raw[off:off + n]) for name, off, n in outputs["args"]}
        wrong = _check(spec, initial, constexprs, got)
    except SpecError as e:
        return {"spec_error": [e.message, e.where]}
    except Exception as e:  # noqa: BLE001 - a check that breaks fails its config, not the run
        return {"status": f"failed: the check raised {type(e).__name__}: {e}"}
    return {"status": f"wrong: {wrong}" if wrong else "ok"}


def _outbox() -> str:
    """A new folder for the outputs waiting for their check: in memory (/dev/shm) where it has room."""
    try:
        room = os.statvfs("/dev/shm")
        root = "/dev/shm" if room.f_bavail * room.f_frsize >= OUTBOX_ROOM else None
    except OSError:
        root = None
    return tempfile.mkdtemp(prefix="tt-tune-", dir=root)


def _write(path: str, data) -> None:
    """`data`'s bytes to a new file (os.write releases the GIL: the timing thread runs meanwhile)."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    try:
        view = memoryview(data).cast("B")
        while view:
            view = view[os.write(fd, view):]
    finally:
        os.close(fd)


def interpret_one(task: dict) -> dict:
    """Run one compiled config's TTGIR in the interpreter and check it."""
    import numpy as np

    from ttc.ir.diagnostics import CompileError
    from ttc.runtime.errors import SpecError
    from ttc.runtime.launch import interpret

    spec, initial = _spec(task["spec"], task["reset_to_zero"])
    ttgir = os.path.join(task["cache_dir"], f"{task['kernel']}.ttgir")
    try:
        with open(os.devnull, "w") as devnull, np.errstate(all="ignore"):
            outcome = interpret(ttgir, spec, {**initial, **task["constexprs"]}, devnull)
            wrong = _check(spec, initial, task["constexprs"], outcome.outputs)
    except SpecError as e:
        return {"spec_error": [e.message, e.where]}
    except CompileError as e:
        return {"status": f"failed: {e.render().split(chr(10))[0]}", "ms": None}
    except Exception as e:  # noqa: BLE001
        return {"status": f"failed: {type(e).__name__}: {e}", "ms": None}
    return {"status": f"wrong: {wrong}" if wrong else "ok", "ms": None}


_gpu: dict = {}  # per GPU worker: driver, device index, L2 flush buffer, limits


def gpu_init(device: int, spec_path: str) -> None:
    """A GPU worker's start, spawned before the parent has read the kernel: the spec's values are drawn in a
    thread while this one imports the driver, creates the context and the L2 flush buffer."""
    _drawn[spec_path] = _helper().submit(_load, spec_path)
    from ttc.runtime.cuda import _Driver

    drv = _Driver("tt-tune")
    drv("cuInit", 0)
    dev = drv("cuDeviceGet", device)
    ctx = drv("cuDevicePrimaryCtxRetain", dev)
    drv("cuCtxSetCurrent", ctx)
    attr = drv.d.CUdevice_attribute
    _gpu.update(drv=drv, device=device, flush=int(drv("cuMemAlloc", L2_FLUSH_BYTES)),
                max_shared=int(drv("cuDeviceGetAttribute", attr.CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN, dev)),
                name=drv("cuDeviceGetName", 256, dev).split(b"\0")[0].decode())


def gpu_prepare(spec_path: str, reset_to_zero: tuple) -> None:
    """The worker's first task, sent when the parent has read the kernel: the values (`reset_to_zero` buffers
    zeroed) uploaded to the GPU. A bad spec is reported when a config runs, so errors are ignored here."""
    try:
        _resident(spec_path, reset_to_zero)
    except Exception:  # noqa: BLE001
        pass


def _resident(spec_path: str, reset_to_zero: tuple) -> dict:
    """The spec's initial values in this GPU's memory, uploaded once: name -> (device address, bytes). Each
    config's buffers are device-to-device copies of them (`cuda.loaded`'s sources), so a config that writes its
    inputs leaves them as they were for the next. Address tables (device addresses, different per config) are
    uploaded by each config."""
    import numpy as np

    from ttc.runtime import spec as specs

    k = (spec_path, tuple(reset_to_zero))
    if k not in _gpu.setdefault("resident", {}):
        drv = _gpu["drv"]
        spec, initial = _spec(spec_path, reset_to_zero)
        resident = {}
        for a in spec.args + spec.buffers:
            if (a.is_ptr or a.is_desc) and a.addresses is None and isinstance(initial.get(a.name), np.ndarray):
                host = np.ascontiguousarray(specs.to_device(a, initial[a.name]))
                ptr = int(drv("cuMemAlloc", max(host.nbytes, 1)))
                if host.nbytes:
                    drv("cuMemcpyHtoD", ptr, host.ctypes.data, host.nbytes)
                resident[a.name] = (ptr, host.nbytes)
        _gpu["resident"][k] = resident
    return _gpu["resident"][k]


def do_bench(drv, fn, flush, warmup: float = 25, rep: float = 100, quantiles=QUANTILES) -> list[float]:
    """triton.testing.do_bench with the CUDA driver: `fn` launches on the default stream, `flush` clears L2."""
    fn()
    drv("cuCtxSynchronize")
    start, end = drv("cuEventCreate", 0), drv("cuEventCreate", 0)
    drv("cuEventRecord", start, 0)
    for _ in range(5):
        flush()
        fn()
    drv("cuEventRecord", end, 0)
    drv("cuCtxSynchronize")
    estimate = drv("cuEventElapsedTime", start, end) / 5
    drv.d.cuEventDestroy(start)
    drv.d.cuEventDestroy(end)
    n_warmup = max(1, int(warmup / estimate)) if estimate > 0 else 1000
    n_repeat = max(1, int(rep / estimate)) if estimate > 0 else 1000
    events = [(drv("cuEventCreate", 0), drv("cuEventCreate", 0)) for _ in range(n_repeat)]
    try:
        for _ in range(n_warmup):
            fn()
        for s, e in events:
            flush()
            drv("cuEventRecord", s, 0)
            fn()
            drv("cuEventRecord", e, 0)
        drv("cuCtxSynchronize")
        times = [drv("cuEventElapsedTime", s, e) for s, e in events]
    finally:
        for s, e in events:
            drv.d.cuEventDestroy(s)
            drv.d.cuEventDestroy(e)
    return quantile(times, quantiles)


def quantile(values, qs) -> list[float]:
    """Linear-interpolated quantiles, as triton.testing's."""
    a = sorted(values)
    out = []
    for q in qs:
        point = q * (len(a) - 1)
        lo, hi = math.floor(point), math.ceil(point)
        out.append((1 - (point - lo)) * a[lo] + (point - lo) * a[hi])
    return out


def _below(niceness: int) -> None:
    """This thread (and the threads it starts from now on) at `niceness` (Linux keeps a priority per thread)."""
    try:
        os.nice(niceness)
    except OSError:  # not allowed here: same priority as the rest
        pass


def _helper() -> cf.ThreadPoolExecutor:
    """This worker's second thread: the spec's values drawn at its start, then each config's outputs written to
    the outbox while the GPU times the config."""
    if "helper" not in _gpu:
        _gpu["helper"] = cf.ThreadPoolExecutor(max_workers=1)
    return _gpu["helper"]


def _staging(nbytes: int):
    """This worker's pinned buffer for reading outputs back (as a NumPy byte array of at least `nbytes`), grown
    when a config needs more."""
    import ctypes

    import numpy as np

    drv = _gpu["drv"]
    ptr, size = _gpu.get("staging", (0, 0))
    if nbytes > size:
        if ptr:
            drv("cuMemFreeHost", ptr)
        size = max(nbytes, 2 * size)
        ptr = int(drv("cuMemHostAlloc", size, 0))
        _gpu["staging"] = (ptr, size)
    return np.ctypeslib.as_array((ctypes.c_ubyte * size).from_address(ptr))


def gpu_one(task: dict) -> dict:
    """Load, launch and time one compiled config on this worker's GPU; the outputs of its first launch are
    written to the outbox for the checking process (`out["outputs"]`, `check_one`'s argument), so that no
    timing waits for a check."""
    from ttc.ir.diagnostics import CompileError
    from ttc.runtime.cuda import loaded
    from ttc.runtime.errors import SpecError

    drv, d = _gpu["drv"], _gpu["drv"].d
    cubin = os.path.join(task["cache_dir"], f"{task['kernel']}.cubin")
    out = {"status": "ok", "ms": None, "shared": task["shared"], "device": _gpu["device"]}
    if task["shared"] > _gpu["max_shared"]:
        out["status"] = (f"failed: out of resource: shared memory, {task['shared']} bytes needed, "
                         f"{_gpu['max_shared']} the hardware limit")
        return out
    saved, written = [], None
    try:
        spec, initial = _spec(task["spec"], task["reset_to_zero"])  # drawn at the worker's start
        sources = _resident(task["spec"], task["reset_to_zero"])
        with loaded(cubin, spec, {**initial, **task["constexprs"]}, device=_gpu["device"], sources=sources) as k:
            out.update(k.attributes())
            zero = [k.buffers[n] for n in task["reset_to_zero"] if n in k.buffers]
            for n in task["restore_value"]:
                if n in k.buffers:
                    ptr, nbytes = k.buffers[n]
                    saved.append((ptr, nbytes, int(drv("cuMemAlloc", max(nbytes, 1)))))

            def call():
                for ptr, nbytes in zero:
                    drv("cuMemsetD8Async", ptr, 0, nbytes, 0)
                for ptr, nbytes, copy in saved:
                    drv("cuMemcpyDtoDAsync", copy, ptr, nbytes, 0)
                k.run_once()
                for ptr, nbytes, copy in saved:
                    drv("cuMemcpyDtoDAsync", ptr, copy, nbytes, 0)

            for ptr, nbytes, copy in saved:  # the checked launch: from the initial values, outputs read before
                drv("cuMemcpyDtoDAsync", copy, ptr, nbytes, 0)  # the restore_value buffers are restored
            k.run_once()
            drv("cuCtxSynchronize")
            if spec.checks:  # the outputs read back (pinned), then written to a file while the GPU times
                buffers = k.output_buffers(spec.checks)
                staging = _staging(sum(nbytes for _, _, nbytes in buffers))
                layout, total = [], 0
                for a, ptr, nbytes in buffers:
                    if nbytes:
                        drv("cuMemcpyDtoH", staging.ctypes.data + total, ptr, nbytes)
                    layout.append([a.name, total, nbytes])
                    total += nbytes
                path = os.path.join(task["outbox"], f"{task['id']}.out")
                written = _helper().submit(_write, path, staging[:total])
            for ptr, nbytes, copy in saved:
                drv("cuMemcpyDtoDAsync", ptr, copy, nbytes, 0)
            flush = lambda: drv("cuMemsetD32Async", _gpu["flush"], 0, L2_FLUSH_BYTES // 4, 0)  # noqa: E731
            out["ms"] = do_bench(drv, call, flush, task["warmup"], task["rep"])
            if written is not None:
                try:
                    written.result()
                    out["outputs"] = {"file": path, "args": layout}
                except OSError as e:
                    out.update(status=f"failed: its outputs could not be kept for the check: {e}", ms=None)
    except SpecError as e:
        return {"spec_error": [e.message, e.where]}
    except CompileError as e:
        out["status"] = f"failed: {e.render().split(chr(10))[0]}"
        out["broken"] = d.cuCtxSynchronize()[0] != d.CUresult.CUDA_SUCCESS
    finally:
        for _, _, copy in saved:
            d.cuMemFree(copy)
        if written is not None:  # the pinned buffer is the next config's once its file is written
            cf.wait([written])
    return out


def gpu_count() -> int:
    """The GPUs the CUDA driver sees (0 with no driver or device). It imports cuda.bindings only (not ttc's
    launcher), so that it can run in a thread beside the parent's own imports."""
    from ttc.driver.cli import UsageError

    try:
        from cuda.bindings import driver as d
    except ImportError:
        try:
            from cuda import cuda as d  # cuda-python < 12.6
        except ImportError:
            raise UsageError("the GPU path needs cuda-python (pip install 'ttc[gpu]'); use --interpret to run the "
                             "configs in the interpreter") from None
    try:
        if d.cuInit(0)[0] != d.CUresult.CUDA_SUCCESS:
            return 0
        err, n = d.cuDeviceGetCount()
        return int(n) if err == d.CUresult.CUDA_SUCCESS else 0
    except Exception:  # noqa: BLE001 - no driver
        return 0


# ----------------------------------------------------------------------------- the parent


def _pool(kind: str, workers: int, **kw):
    methods = multiprocessing.get_all_start_methods()
    method = kind if kind in methods else "spawn"
    return cf.ProcessPoolExecutor(max_workers=workers, mp_context=multiprocessing.get_context(method), **kw)


class GpuWorkers:
    """The timing processes, one per GPU, started first thing (before the parent reads the kernel): a thread
    spawns GPU 0's worker at once, then counts the GPUs (importing the CUDA bindings) and spawns one for each
    other GPU (or ends GPU 0's when there is none), so that each worker's start (imports, CUDA context, flush
    buffer, the spec's values) runs beside the parent's preparation and the compiles; between them it starts
    `checker`, the checking process (`check_pool`). `prepare` sends the workers the decorator's `reset_to_zero` (they
    upload the values) and the checking process also the config names (it makes the references from them);
    `check` queues a config's check; `stop` ends them all (`now`: killed and not waited for)."""

    def __init__(self, spec_path: str):
        self.spec_path, self.checker, self.pools, self.setup, self.error = spec_path, None, [], None, None
        self.lock, self.spawned, self.given = threading.Lock(), [], set()  # `prepare` against the start
        self.thread = threading.Thread(target=self._start, name="tt-tune GPU workers", daemon=True)
        self.thread.start()

    def _start(self) -> None:
        first = None
        try:
            first = self._spawn(0)
            checker = check_pool()
            with self.lock:
                self.checker = checker
                self._give(checker, check_prepare, self.spec_path, *(self.setup or ()))
            n = gpu_count()
            self.pools = [first] + [self._spawn(g) for g in range(1, n)] if n else []
            if not n:
                _kill(first)
        except Exception as e:  # noqa: BLE001 - raised where the count is needed
            if first is not None:
                _kill(first)
            self.error = e

    def _spawn(self, g: int):
        pool = _pool("spawn", 1, initializer=gpu_init, initargs=(g, self.spec_path))
        pool.submit(int, 0)  # the process starts now, not with the first config
        with self.lock:
            self.spawned.append(pool)
            self._give(pool, gpu_prepare, self.spec_path, *(self.setup or ())[:1])
        return pool

    def _give(self, pool, fn, *args) -> None:
        """`pool`'s first task, once `prepare` has come (with `self.lock` held)."""
        if self.setup is not None and pool not in self.given:
            self.given.add(pool)
            pool.submit(fn, *args)

    def count(self) -> int:
        self.thread.join()
        if self.error is not None:
            raise self.error
        return len(self.pools)

    def prepare(self, reset_to_zero: tuple, config_names: frozenset) -> None:
        with self.lock:  # what has started gets it now, the rest as it starts
            self.setup = (tuple(reset_to_zero), frozenset(config_names))
            for pool in self.spawned:
                self._give(pool, gpu_prepare, self.spec_path, self.setup[0])
            if self.checker is not None:
                self._give(self.checker, check_prepare, self.spec_path, *self.setup)

    def replace(self, g: int) -> None:
        """A worker whose CUDA context broke: a fresh one for GPU g."""
        _kill(self.pools[g])
        with self.lock:
            self.spawned.remove(self.pools[g])
        self.pools[g] = self._spawn(g)

    def submit(self, g: int, fn, *args):
        return self.pools[g].submit(fn, *args)

    def check(self, constexprs: dict, outputs: dict):
        """A config's check (its outputs as `gpu_one` wrote them), queued on the checking process."""
        return self.checker.submit(check_one, self.spec_path, self.setup[0], constexprs, outputs)

    def stop(self, now: bool = False) -> None:
        self.thread.join()
        for pool in self.pools + ([self.checker] if self.checker else []):
            if now:
                _kill(pool)
            else:
                pool.shutdown(wait=True, cancel_futures=True)
        self.pools = []


def _kill(pool) -> None:
    """End a pool's processes now and do not wait for them: a killed GPU worker's exit (the driver tearing down
    its CUDA context and memory) takes a good part of a second, which neither this process nor its exit (where
    multiprocessing and concurrent.futures join their children) should wait for; the processes are dropped
    from both's lists, and are reaped by the next `_kill` or by init once this process has exited."""
    import multiprocessing.process

    for proc in _killed:
        if proc.exitcode is not None:  # polls (reaps) it
            _killed.remove(proc)
    procs = getattr(pool, "_processes", None) or {}
    # with work still pending (a run that ended early: an error, a cache hit), the pool's manager thread waits for
    # its results until it sees the processes die, and this process's exit joins that thread: the killed
    # processes stay in the pool's list then (the exit waits for them), or it would never end
    pending = bool(getattr(pool, "_pending_work_items", None))
    for proc in list(procs.values()):
        proc.kill()
        if not pending:
            _killed.append(proc)
            multiprocessing.process._children.discard(proc)
    if not pending:
        procs.clear()  # the pool's manager thread joins what is left in it
    pool.shutdown(wait=False, cancel_futures=True)


_killed: list = []  # processes `_kill` killed and has not seen exit


def run(jobs: list[dict], *, path: str, text: str, kernel: str, spec_path: str, n_jobs: int,
        gpus: GpuWorkers | None, progress: bool, cpu=None) -> list[dict]:
    """Compile and run every job ({"signature", "options", "constexprs", "reset_to_zero", "restore_value",
    "warmup", "rep"}) on the started `gpus`, or in the interpreter when None; returns per job {"status", "ms",
    "compile": {...}, ...} in the jobs' order. Each config is timed as soon as its compile is done and a GPU is
    free, so the timing order is the compiles' finishing order. `cpu`: the compile pool `compile_pool` started
    (GPU runs); made here otherwise, after the spec's values, which the interpreter's forked workers inherit."""
    from tqdm import tqdm

    interpret = gpus is None
    n = len(jobs)
    results: list = [None] * n
    bars = [tqdm(total=n, desc="compiled", file=sys.stderr, disable=not progress, position=0, leave=progress,
                 dynamic_ncols=True),
            tqdm(total=n, desc="checked" if interpret else "timed", file=sys.stderr, disable=not progress,
                 position=1, leave=progress, dynamic_ncols=True)]
    names = frozenset(k for job in jobs for k in job["constexprs"])
    reset = tuple(jobs[0]["reset_to_zero"]) if jobs else ()
    if interpret:  # the forked workers inherit the spec's values and the checks' references
        _prepare(spec_path, reset, names)
    else:
        gpus.prepare(reset, names)
    n_gpus = 0 if interpret else len(gpus.pools)
    own = cpu is None  # a pool handed in is its caller's to end (tt-tune kills it, not waiting for its exit)
    cpu = cpu or _pool("fork", max(1, n_jobs))
    busy: dict = {}  # running future -> (kind, job index, GPU index or None)
    idle = list(range(n_gpus))
    ready: list[int] = []
    checks: dict = {}  # job index -> its check's future (GPU runs)
    outbox = None if interpret else _outbox()
    try:
        for i, job in enumerate(jobs):
            busy[cpu.submit(compile_one, path, text, kernel, job["signature"], job["options"])] = ("compile", i, None)

        def start_runs():
            while ready and (interpret or idle):
                i = ready.pop(0)
                job, comp = jobs[i], results[i]["compile"]
                task = {"id": i, "spec": spec_path, "kernel": kernel, "cache_dir": comp["cache_dir"], "shared": comp["shared"],
                        "outbox": outbox,
                        **{k: job[k] for k in ("constexprs", "reset_to_zero", "restore_value", "warmup", "rep")}}
                if interpret:
                    busy[cpu.submit(interpret_one, task)] = ("run", i, None)
                else:
                    g = idle.pop(0)
                    busy[gpus.submit(g, gpu_one, task)] = ("run", i, g)

        while busy:
            done, _ = cf.wait(list(busy), return_when=cf.FIRST_COMPLETED)
            for f in done:
                kind, i, g = busy.pop(f)
                try:
                    value = f.result()
                except Exception as e:  # noqa: BLE001 - a worker died (a crash in the driver, out of memory)
                    value = {"ok": False, "error": f"the worker died: {type(e).__name__}: {e}"} if kind == "compile" \
                        else {"status": f"failed: the worker died: {type(e).__name__}: {e}", "ms": None, "broken": True}
                if kind == "compile":
                    bars[0].update(1)
                    results[i] = {"compile": value}
                    if value["ok"]:
                        ready.append(i)
                    else:
                        results[i].update(status=f"failed: {value['error']}", ms=None)
                        bars[1].update(1)
                    continue
                if "spec_error" in value:
                    raise SpecFailure(*value["spec_error"])
                if value.pop("broken", False) and g is not None:
                    gpus.replace(g)
                if "outputs" in value:  # checked while the GPU times the next configs
                    checks[i] = gpus.check(jobs[i]["constexprs"], value.pop("outputs"))
                results[i].update(value)
                bars[1].update(1)
                if g is not None:
                    idle.append(g)
            start_runs()
        for i, checking in checks.items():  # they ran beside the timings; only now is a wrong config's time dropped
            try:
                outcome = checking.result()
            except Exception as e:  # noqa: BLE001 - the checking process died (out of memory)
                outcome = {"status": f"failed: its check was lost: {type(e).__name__}: {e}"}
            if "spec_error" in outcome:
                raise SpecFailure(*outcome["spec_error"])
            results[i]["check"] = outcome
            if outcome["status"] != "ok" and results[i]["status"] == "ok":
                results[i].update(status=outcome["status"], ms=None)
    finally:
        for b in bars:
            b.close()
        if own:
            cpu.shutdown(wait=True, cancel_futures=True)
        if outbox is not None:
            shutil.rmtree(outbox, ignore_errors=True)
    return results


class SpecFailure(Exception):
    """A check expression of the spec that cannot be evaluated (found in a worker)."""

    def __init__(self, message: str, where: str):
        super().__init__(message)
        self.message, self.where = message, where
