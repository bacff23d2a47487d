"""tt-tune: the decorators evaluated as Triton evaluates them (comprehensions, helper functions, prune_configs_by,
heuristics), --configs files, the autotune cache file (a hit, and a miss on any change), tt-compile --autotuned,
do_bench's schedule, the --json schema, and every kernel in kernels/tuned tuned in the interpreter."""

from __future__ import annotations

import io
import json
import math
import os
import shutil
import types
import subprocess
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

import pytest

from ttc.driver import autotune
from ttc.driver.cli import run

ROOT = Path(__file__).resolve().parents[2]
INPUTS = ROOT / "test" / "lit" / "tt-tune" / "Inputs"
SCHEMA = ROOT / "ttc" / "runtime" / "tune.schema.json"


def _gpu() -> bool:
    try:
        from cuda.bindings import driver

        return driver.cuInit(0)[0] == driver.CUresult.CUDA_SUCCESS and driver.cuDeviceGetCount()[1] > 0
    except Exception:
        return False


def call(tool: str, *argv):
    from ttc.tools import tt_compile, tt_tune

    main = {"tt-tune": tt_tune.main, "tt-compile": tt_compile.main}[tool]
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        rc = run(tool, main, [str(a) for a in argv])
    return rc, out.getvalue(), err.getvalue()


@pytest.fixture
def cache(tmp_path, monkeypatch):
    monkeypatch.setenv("TRITON_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("TRITON_PRINT_AUTOTUNING", raising=False)
    monkeypatch.delenv("TRITON_ALWAYS_COMPILE", raising=False)
    return tmp_path / "cache"


# ----------------------------------------------------------------------------- decorators


def test_configs_helpers_prune_and_heuristics():
    p = autotune.prepare(str(INPUTS / "decorated.py"), "scale_kernel", str(INPUTS / "scale.json"))
    # block_configs: 9 configs; drop_large keeps BLOCK <= 128 (6); perf_model's 3 smallest BLOCK * warps + scale
    assert [(v.config.kwargs["BLOCK"], v.config.num_warps) for v in p.variants] == [(32, 1), (64, 1), (64, 2)]
    assert p.key == (96, "torch.float32", "torch.float32")
    # the outer heuristic sees the call's scale (fixed by the spec), the inner one the config's BLOCK; CLAMP is
    # its default
    assert [v.signature for v in p.variants] == [
        "*fp32:16,*fp32:16,i32,0.5,32,True,1.0,False",
        "*fp32:16,*fp32:16,i32,0.5,64,False,1.0,False",
        "*fp32:16,*fp32:16,i32,0.5,64,False,1.0,False",
    ]
    assert p.variants[2].options == {"num_warps": 2, "num_stages": 1, "num_ctas": 1, "maxnreg": None}
    assert p.variants[0].constexprs == {"scale": 0.5, "SCALE2": 1.0, "BLOCK": 32, "EVEN": True, "CLAMP": False}
    assert len(p.tunable.configs) == 9 and p.tunable.autotuned.key == ["n"]


def test_config_as_triton_prints_and_compares_it():
    c = autotune.Config({"BLOCK": 64}, num_warps=8)
    assert str(c) == "BLOCK: 64, num_warps: 8, num_ctas: 1, num_stages: 3, maxnreg: None"
    assert c == autotune.Config({"BLOCK": 64}, num_warps=8) and c != autotune.Config({"BLOCK": 64})
    assert c.all_kwargs() == {"BLOCK": 64, "num_warps": 8, "num_ctas": 1, "num_stages": 3}


def test_real_triton_modules_are_untouched(monkeypatch):
    import sys
    import types

    fake = types.ModuleType("triton")
    monkeypatch.setitem(sys.modules, "triton", fake)
    autotune.read(str(INPUTS / "decorated.py"), "scale_kernel")
    assert sys.modules["triton"] is fake


def test_configs_file(tmp_path):
    f = tmp_path / "configs.json"
    f.write_text(json.dumps([{"kwargs": {"BLOCK": 128}, "num_warps": 4, "num_stages": 2, "maxnreg": 128}]))
    p = autotune.prepare(str(INPUTS / "decorated.py"), "scale_kernel", str(INPUTS / "scale.json"), str(f))
    [v] = p.variants  # early_config_prune keeps it; one config is under top_k
    assert v.config.as_dict() == {"kwargs": {"BLOCK": 128}, "num_warps": 4, "num_stages": 2, "maxnreg": 128}
    assert v.options["maxnreg"] == 128 and ",128,False," in v.signature
    f.write_text(json.dumps([{"kwargs": {"BLOCK": 128}, "num_warps": 3}]))
    with pytest.raises(Exception, match=r"\[0\]\.num_warps: 3 is not a power of two"):
        autotune.configs_from_file(str(f))
    f.write_text(json.dumps([{"kwargs": {}, "warps": 4}]))
    with pytest.raises(Exception, match=r"\[0\]: unknown key 'warps'"):
        autotune.configs_from_file(str(f))


# ----------------------------------------------------------------------------- the autotune cache


def _fake_results(p, ms):
    """The cache file tt-tune would write after timing `p`'s configs at `ms` (None: failed)."""
    return [{"config": v.config, "status": "ok" if m else "failed: out of resource", "ms": m, "n_regs": 40,
             "spills": 0, "shared": 0} for v, m in zip(p.variants, ms)]


def _store(p, target="cuda:90", ms=([0.3, 0.2, 0.4], [0.1, 0.09, 0.2], None)):
    path = autotune.cache_path(p.tunable, p.spec_text, target, p.key, [v.config for v in p.variants])
    autotune.store(path, p.key, _fake_results(p, ms))
    return path


def test_autotune_cache_file_is_tritons(cache):
    p = autotune.prepare(str(INPUTS / "decorated.py"), "scale_kernel", str(INPUTS / "scale.json"))
    path = Path(_store(p))
    assert path.name == "scale_kernel.autotune.json" and path.parent.parent == cache
    assert len(path.parent.name) == 52  # base32 of a sha256, as Triton names cache directories
    data = json.loads(path.read_text())
    assert data["key"] == [96, "torch.float32", "torch.float32"]
    config, timing = data["configs_timings"][1]
    assert config == {"kwargs": {"BLOCK": 64}, "num_warps": 1, "num_ctas": 1, "num_stages": 1, "maxnreg": None,
                      "pre_hook": None, "ir_override": None}
    assert timing == [0.1, 0.09, 0.2] and data["configs_timings"][2][1] == [math.inf] * 3
    assert autotune.best_cached(data) == p.variants[1].config


def test_autotune_cache_hit_times_nothing(cache, monkeypatch):
    p = autotune.prepare(str(INPUTS / "decorated.py"), "scale_kernel", str(INPUTS / "scale.json"))
    _store(p)
    monkeypatch.setenv("TRITON_PRINT_AUTOTUNING", "1")
    rc, out, err = call("tt-tune", INPUTS / "decorated.py", "-k", "scale_kernel", "--spec", INPUTS / "scale.json")
    assert rc == 0, err
    assert "(autotune cache hit: nothing compiled or timed)" in out and "Autotuning kernel" not in out
    lines = out.splitlines()
    assert lines[2].startswith("BLOCK=64 warps=1 stages=1") and "0.1000 [0.0900, 0.2000]" in lines[2]
    assert lines[4].startswith("BLOCK=64 warps=2 stages=1") and "failed: out of resource" in lines[4]
    assert lines[-1] == "best: BLOCK=64 warps=1 stages=1: 0.1000 ms"
    rc, out, err = call("tt-tune", INPUTS / "decorated.py", "-k", "scale_kernel", "--spec", INPUTS / "scale.json",
                        "--json")
    report = json.loads(out)
    assert report["cached"] and report["best"]["kwargs"] == {"BLOCK": 64} and report["compiled"] == 0
    assert report["configs"][1]["gbps"] == pytest.approx(2 * 96 * 4 / 0.1e-3 / 1e9)
    _validate(report)


@pytest.mark.skipif(_gpu(), reason="a miss on a GPU machine would tune for real")
@pytest.mark.parametrize("change", ["spec", "source", "target", "configs"])
def test_autotune_cache_misses_on_any_change(cache, tmp_path, change):
    src, spec = tmp_path / "decorated.py", tmp_path / "scale.json"
    shutil.copy(INPUTS / "decorated.py", src)
    shutil.copy(INPUTS / "scale.json", spec)
    _store(autotune.prepare(str(src), "scale_kernel", str(spec)))
    argv = [src, "-k", "scale_kernel", "--spec", spec]
    assert call("tt-tune", *argv)[0] == 0
    if change == "spec":
        spec.write_text(spec.read_text().replace('"init": "randn"', '"init": "rand"'))
    elif change == "source":
        src.write_text(src.read_text() + "\n# an edit\n")
    elif change == "target":
        argv += ["--target", "cuda:80"]
    else:
        (tmp_path / "c.json").write_text(json.dumps([{"kwargs": {"BLOCK": 32}, "num_warps": 1, "num_stages": 1}]))
        argv += ["--configs", tmp_path / "c.json"]
    rc, out, err = call("tt-tune", *argv)
    assert rc == 1 and "tt-tune: error: no GPU" in err, out + err


def test_compile_autotuned_and_output_from_the_cache(cache, tmp_path):
    p = autotune.prepare(str(INPUTS / "decorated.py"), "scale_kernel", str(INPUTS / "scale.json"))
    argv = [INPUTS / "decorated.py", "-k", "scale_kernel", "--autotuned", "--spec", INPUTS / "scale.json"]
    rc, out, err = call("tt-compile", *argv, "-o", tmp_path / "x.cubin")
    assert rc == 1 and "no autotune result for 'scale_kernel'" in err and "run tt-tune first" in err
    _store(p)
    rc, out, err = call("tt-compile", *argv, "-o", tmp_path / "best.cubin", "-v")
    assert rc == 0, err
    assert "autotuned config: BLOCK: 64, num_warps: 1" in err
    meta = json.loads((tmp_path / "best.cubin.json").read_text())
    assert meta["name"] == "scale_kernel" and meta["num_warps"] == 1
    # tt-tune -o from the cache hit writes the same winner (a kernel cache hit now)
    rc, out, err = call("tt-tune", INPUTS / "decorated.py", "-k", "scale_kernel", "--spec", INPUTS / "scale.json",
                        "-o", tmp_path / "tuned.cubin")
    assert rc == 0, err
    assert (tmp_path / "tuned.cubin").read_bytes() == (tmp_path / "best.cubin").read_bytes()
    assert json.loads((tmp_path / "tuned.cubin.json").read_text()) == meta
    rc, out, err = call("tt-compile", INPUTS / "decorated.py", "-k", "scale_kernel", "--autotuned")
    assert rc == 1 and "--autotuned needs --spec" in err


# ----------------------------------------------------------------------------- do_bench


class FakeDriver:
    """Events are numbers; a kernel call takes 0.5 ms, so 5 calls between the estimate's events take 2.5 ms."""

    class d:
        @staticmethod
        def cuEventDestroy(e):
            pass

    def __init__(self):
        self.calls, self.next = [], 0

    def __call__(self, what, *args):
        self.calls.append(what)
        if what == "cuEventCreate":
            self.next += 1
            return self.next
        if what == "cuEventElapsedTime":
            s, e = args
            return 2.5 if (s, e) == (1, 2) else 0.5 + 0.01 * (s % 7)
        return None


def test_do_bench_schedule_and_quantiles():
    from ttc.runtime import tune

    drv, log = FakeDriver(), []
    ms = tune.do_bench(drv, lambda: log.append("fn"), lambda: log.append("flush"), warmup=5, rep=10)
    # one call, 5 (flush, call) for the estimate (0.5 ms each), warm-up 5 / 0.5 = 10 calls, then 10 / 0.5 = 20
    # timed calls each after a flush
    assert log[:11] == ["fn"] + ["flush", "fn"] * 5
    assert log[11:21] == ["fn"] * 10 and log[21:] == ["flush", "fn"] * 20
    assert drv.calls.count("cuEventRecord") == 2 + 2 * 20
    times = sorted(0.5 + 0.01 * (s % 7) for s in range(3, 3 + 40, 2))
    assert ms == pytest.approx(tune.quantile(times, (0.5, 0.2, 0.8)))
    assert tune.quantile([1, 2, 3, 4], (0.5, 0.2, 0.8)) == pytest.approx([2.5, 1.6, 3.4])


# ----------------------------------------------------------------------------- --json and the example kernels


def _validate(report):
    import jsonschema

    jsonschema.Draft202012Validator(json.loads(SCHEMA.read_text())).validate(report)


def test_json_schema_rejects_what_it_should():
    import jsonschema

    good = {"kernel": "k", "key": [], "target": "cuda:90", "mode": "interpret", "cached": False, "best": None,
            "configs": [{"kwargs": {}, "num_warps": 4, "num_stages": 3, "status": "ok", "ms": None}]}
    _validate(good)
    for bad in ({**good, "configs": [{**good["configs"][0], "status": "slow"}]},
                {**good, "configs": [{**good["configs"][0], "ms": [1.0]}]}, {**good, "extra": 1}):
        with pytest.raises(jsonschema.ValidationError):
            _validate(bad)


TUNED = sorted(p.stem for p in (ROOT / "kernels" / "tuned").glob("*.json"))


@pytest.mark.usefixtures("use_tool_server")  # tt-tune forked from the fork server (conftest), no start-up each
@pytest.mark.parametrize("name", TUNED)
def test_tuned_kernels_in_the_interpreter(name, tmp_path):
    """Each autotuned example kernel, a few of its configs (evenly spaced), compiled and checked in the
    interpreter: no config gives a wrong result, at least one runs, and any that fails is the compiler's
    located error."""
    spec = ROOT / "kernels" / "tuned" / f"{name}.json"
    kernel = json.loads(spec.read_text())["kernel"]
    env = {**os.environ, "TRITON_CACHE_DIR": str(tmp_path / "cache")}
    proc = subprocess.run(["tt-tune", str(ROOT / "kernels" / "tuned" / f"{name}.py"), "-k", kernel, "--spec",
                           str(spec), "--interpret", "--json", "--limit", "2", "-j", "2"],
                          capture_output=True, text=True, env=env)
    assert proc.returncode == 0, proc.stderr[-3000:]
    report = json.loads(proc.stdout)
    _validate(report)
    statuses = [c["status"] for c in report["configs"]]
    assert len(statuses) == 2 and "ok" in statuses, statuses
    for s in statuses:
        assert s == "ok" or s.startswith(f"failed: {ROOT / 'kernels' / 'tuned' / name}.py:"), s


@pytest.mark.parametrize("case", ["close", "mismatch", "nan_output", "inf_both", "nan_both", "int_exact",
                                  "float64_output", "broadcast"])
def test_prepared_reference_reports_as_compare(case):
    """tt-tune compares every config's output with one prepared reference (check.Reference): its result is
    compare's, field for field, for outputs in and out of tolerance, NaN and infinity, integers, broadcasts."""
    import numpy as np

    from ttc.runtime.check import Reference, compare

    rng = np.random.default_rng(1)
    want = rng.standard_normal((24, 40)).astype(np.float32)
    want[0, 0] = 0
    got = (want + rng.standard_normal(want.shape) * 0.01).astype(np.float16)
    if case == "mismatch":
        got[3, 4] = 5
    elif case == "nan_output":
        got[1, 1] = np.nan
    elif case == "inf_both":
        want[2, 2], got[2, 2] = np.inf, np.inf
    elif case == "nan_both":
        want[2, 2], got[2, 2] = np.nan, np.nan
    elif case == "int_exact":
        want, got = want.astype(np.int32), got.astype(np.int32)
        got[5, 5] += 1
    elif case == "float64_output":
        got = got.astype(np.float64)
    elif case == "broadcast":
        want = np.float32(0.5)
    rtol, atol = (0.0, 0.0) if case == "int_exact" else (0.02, 0.05)
    ref = Reference(np.asarray(want), rtol, atol)
    with np.errstate(all="ignore"):
        for _ in range(2):  # the scratch buffers are reused
            result = ref.compare("c", got)
            assert repr(result) == repr(compare("c", got, np.asarray(want), rtol, atol))
    assert result.ok == (case in ("close", "inf_both", "nan_both", "float64_output"))


@pytest.mark.parametrize("dtype", ["float16", "float32"])
@pytest.mark.parametrize("rtol,atol", [(0.02, 0.5), (1e-3, 1e-3), (1e-5, 1e-6), (0.0, 1e-3), (0.0, 0.0)])
def test_reference_within_is_compares_answer(dtype, rtol, atol):
    """tt-tune's per-config check (Reference.within: the output's bits against each element's accepted interval,
    found once) passes an element exactly when compare does, at the edges of the tolerance too (values a few
    ulps either side of atol + rtol * |e|, tiny, huge, zero, infinite and NaN ones)."""
    import numpy as np

    from ttc.runtime.check import Reference, _accepts, _order

    rng = np.random.default_rng(7)
    dt = np.dtype(dtype).type
    m = 20000
    e = rng.standard_normal(m) * 10.0 ** rng.uniform(-6, 5, m)
    e[:12] = [0, -0.0, np.inf, -np.inf, np.nan, 1e6, -7e4, 6e4, 1e-8, 65504, -65504, 3e-7]
    with np.errstate(all="ignore"):
        tol = atol + rtol * np.abs(e)
        got = (e + rng.choice([-1, 1], m) * tol * rng.uniform(0.999, 1.001, m)).astype(dt)
        steps = rng.integers(-2, 3, m)
        for k in range(2):
            got[steps > k] = np.nextafter(got[steps > k], dt(np.inf))
            got[steps < -k] = np.nextafter(got[steps < -k], dt(-np.inf))
    got[rng.random(m) < 0.05] = np.nan
    ref = Reference(e, rtol, atol, dt)
    keys = _order(got.view(ref.lo.dtype), np.empty(m, ref.lo.dtype))
    inside = (keys >= ref.lo) & (keys <= ref.hi)
    passes = _accepts(got.astype(np.float64), e, tol)
    number = ~np.isnan(e) & ~np.isinf(e)
    assert not (inside & ~passes).any()  # never passes what compare fails
    assert (inside == passes)[number].all()  # and is compare's answer wherever a number is expected
    assert 0 < passes.sum() < m


def test_reference_within_catches_a_wrong_output():
    """One element out of tolerance among 2^20 (in the last block, past the first) fails `within`; tt-tune's
    check then reports compare's mismatch."""
    import numpy as np

    from ttc.runtime import tune
    from ttc.runtime.check import Reference, compare

    rng = np.random.default_rng(3)
    want = rng.standard_normal((1024, 1024)).astype(np.float32) * 20
    good = (want + rng.uniform(-0.4, 0.4, want.shape)).astype(np.float16)
    ref = Reference(want, 0.02, 0.5, np.float16)
    assert ref.within(good) and compare("c", good, want, 0.02, 0.5).ok
    bad = good.copy()
    bad[1000, 1000] += np.float16(0.6) + np.float16(0.02) * abs(bad[1000, 1000])
    assert not ref.within(bad)
    assert not ref.within(good.astype(np.float32))  # another dtype: compare decides
    r = ref.compare("c", bad)
    assert not r.ok and r.mismatches == 1 and r.first[0] == (1000, 1000)

    class Spec:
        checks, path = {"c": "unused"}, "s.json"

    key = ("s.json", "c", ())
    tune._references[key] = ref
    try:
        assert tune._check(Spec, {}, {}, {"c": good}) is None
        assert tune._check(Spec, {}, {}, {"c": bad}).startswith("c: MISMATCH in 1 of 1048576 elements")
    finally:
        del tune._references[key]


def test_prepare_draws_no_values(monkeypatch):
    """The parent's prepare gives the decorators' functions shapes, strides and dtypes without drawing the spec's
    random inputs; reading a pointer argument's values draws them (all, once)."""
    from ttc.runtime import spec as specs

    draws = []
    real = specs.fast_initial_values
    monkeypatch.setattr(specs, "fast_initial_values", lambda spec: draws.append(1) or real(spec))
    p = autotune.prepare(str(INPUTS / "decorated.py"), "scale_kernel", str(INPUTS / "scale.json"))
    assert len(p.variants) == 3 and draws == []
    x = p.nargs["x_ptr"]
    assert (x.shape, x.stride(), x.numel(), x.element_size(), str(x.dtype)) == ((96,), (1,), 96, 4, "torch.float32")
    assert x.array.shape == (96,) and draws == [1]
    assert p.nargs["out_ptr"].array is p.initial()["out_ptr"] and draws == [1]


# ----------------------------------------------------------------------------- the GPU path, with a fake GPU

ORDER: list = []


def fake_compile(path, text, kernel, signature, options):
    """Configs finish compiling in the reverse of their order (BLOCK 64 last); BLOCK 96 does not compile."""
    import time

    block = int(signature.split(",")[-1])
    if block == 96:
        return {"ok": False, "error": "fails.py:10:39: error: arange's range must be a power of 2"}
    time.sleep({64: 1.0, 128: 0.1}[block])
    return {"ok": True, "cache_dir": f"/nowhere/{block}", "cache_hit": False, "shared": 1024, "seconds": 0.1}


_HOST: list = []  # the fake drivers' pinned host buffers (kept alive)


def _host_alloc(nbytes: int) -> int:
    import ctypes

    _HOST.append(ctypes.create_string_buffer(nbytes))
    return ctypes.addressof(_HOST[-1])


class FakeGpu:
    """What gpu_init, _resident and gpu_one ask of the CUDA driver, and a `loaded` whose kernel computes
    x + 1 (x + 2 with BLOCK 128, the wrong config), recording the order in which configs are timed."""

    class d:
        class CUresult:
            CUDA_SUCCESS = 0

        class CUdevice_attribute:
            CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN = 97

        cuMemFree = staticmethod(lambda ptr: (0,))
        cuCtxSynchronize = staticmethod(lambda: (0,))

    def __init__(self, path):
        pass

    def __call__(self, what, *args):
        if what == "cuMemHostAlloc":
            return _host_alloc(args[0])
        if what == "cuMemcpyDtoH":  # from the one output buffer there is
            import ctypes

            ctypes.memmove(args[0], FakeGpu.out.ctypes.data, args[2])
        return {"cuDeviceGetAttribute": 232448, "cuDeviceGetName": b"Fake GPU\0", "cuMemAlloc": 4096}.get(what, 0)

    @staticmethod
    def loaded(cubin, spec, values, device=0, sources=None):
        import contextlib

        import numpy as np

        @contextlib.contextmanager
        def cm():
            block = values["BLOCK"]
            ORDER.append(block)
            FakeGpu.out = (values["x_ptr"] + 1 + (block == 128)).astype(np.float32)
            yield types.SimpleNamespace(attributes=lambda: {"n_regs": 40, "spill_bytes": 0, "blocks_per_sm": 2},
                                        buffers={"x_ptr": (1, 800), "out_ptr": (2, 800)}, run_once=lambda: None,
                                        output_buffers=lambda names: [(spec.arg("out_ptr"), 2, 800)])
        return cm()


def _tune_on_fake_gpu(monkeypatch, pool, compile_one, bench):
    """tt-tune on fails.py with one fake GPU (FakeGpu's driver and memory), these compiles and this do_bench."""
    import concurrent.futures as cf

    from ttc.runtime import cuda, tune

    monkeypatch.setattr(tune, "_pool", pool)
    monkeypatch.setattr(tune, "gpu_count", lambda: 1)
    monkeypatch.setattr(tune, "compile_one", compile_one)
    monkeypatch.setattr(tune, "do_bench", bench)
    monkeypatch.setattr(cuda, "_Driver", FakeGpu)
    monkeypatch.setattr(cuda, "loaded", FakeGpu.loaded)
    monkeypatch.setattr(tune, "_gpu", {})
    return call("tt-tune", INPUTS / "fails.py", "-k", "add_one", "--spec", INPUTS / "fails.json", "--json")


def test_gpu_path_pipelined_with_a_fake_gpu(cache, monkeypatch):
    """tt-tune's GPU path end to end on the CPU: the worker (a thread standing in for the spawned process) is
    started before the kernel is read, each config is timed as soon as its compile finishes (BLOCK 128 before
    BLOCK 64, the reverse of their order), the table and JSON keep the configs' order, the wrong config's check
    (in the checking process, really spawned: the outputs reach it as a file of the outbox) reports it and drops
    its time, the winner is the right config, and the outbox is gone."""
    import concurrent.futures as cf

    from ttc.runtime import tune

    ORDER.clear()
    real_pool = tune._pool
    started = []

    def pool(kind, workers, **kw):
        if kw.get("initializer") is tune.gpu_init:
            started.append(kw["initargs"])
            return cf.ThreadPoolExecutor(max_workers=1, **kw)
        return real_pool(kind, workers, **kw)  # the compile processes, the checking process

    def fake_bench(drv, fn, flush, warmup=25, rep=100, quantiles=tune.QUANTILES):
        fn()
        return [ORDER[-1] / 1000] * 3

    outboxes = []
    real_outbox = tune._outbox
    monkeypatch.setattr(tune, "_outbox", lambda: outboxes.append(real_outbox()) or outboxes[-1])
    rc, out, err = _tune_on_fake_gpu(monkeypatch, pool, fake_compile, fake_bench)
    assert rc == 0, err
    assert len(outboxes) == 1 and not os.path.exists(outboxes[0])
    assert started == [(0, str(INPUTS / "fails.json"))]
    assert ORDER == [128, 64]  # timed in the order the compiles finished
    report = json.loads(out)
    _validate(report)
    assert [c["kwargs"]["BLOCK"] for c in report["configs"]] == [64, 96, 128]
    ok, failed, wrong = report["configs"]
    assert ok["status"] == "ok" and ok["ms"] == [0.064] * 3 and ok["n_regs"] == 40
    assert failed["status"].startswith("failed: fails.py:10:39: error:") and failed["ms"] is None
    assert wrong["status"].startswith("wrong: out_ptr: MISMATCH in 200 of 200 elements") and wrong["ms"] is None
    assert report["best"]["kwargs"] == {"BLOCK": 64}
    data = json.loads(Path(report["autotune_cache"]).read_text())
    assert [t for _, t in data["configs_timings"]] == [[0.064] * 3, [math.inf] * 3, [math.inf] * 3]


def test_checks_never_block_the_next_timing(cache, monkeypatch):
    """A config's check runs in the checking process while the next configs are timed: here the wrong
    config's check (BLOCK 128, timed first) does not finish until BLOCK 64 has been timed, and it still drops
    BLOCK 128's time and keeps it from winning."""
    import concurrent.futures as cf
    import threading

    from ttc.runtime import tune

    ORDER.clear()
    real_pool, real_check = tune._pool, tune._check
    timed_64, waited = threading.Event(), []

    def pool(kind, workers, **kw):
        if kind == "spawn":  # the worker and the checking process as threads: slow_check sees timed_64
            return cf.ThreadPoolExecutor(max_workers=1, **kw)
        return real_pool(kind, workers, **kw)

    def fake_bench(drv, fn, flush, warmup=25, rep=100, quantiles=tune.QUANTILES):
        if ORDER[-1] == 64:
            timed_64.set()
        return [ORDER[-1] / 1000] * 3

    def slow_check(spec, initial, constexprs, outputs):
        if constexprs["BLOCK"] == 128:  # a gpu_one that waited for its check would never time BLOCK 64
            waited.append(timed_64.wait(timeout=20))
        return real_check(spec, initial, constexprs, outputs)

    monkeypatch.setattr(tune, "_check", slow_check)
    rc, out, err = _tune_on_fake_gpu(monkeypatch, pool, fake_compile, fake_bench)
    assert rc == 0, err
    assert ORDER == [128, 64] and waited == [True]
    ok, _, wrong = json.loads(out)["configs"]
    assert ok["status"] == "ok" and ok["ms"] == [0.064] * 3
    assert wrong["status"].startswith("wrong: out_ptr: MISMATCH") and wrong["ms"] is None
    assert json.loads(out)["best"]["kwargs"] == {"BLOCK": 64}


class MemoryGpu:
    """The CUDA driver calls of `cuda.loaded` and `tune.gpu_one` over host bytearrays standing in for device
    memory; its one kernel (fails.json's add_one, written in place) adds 1 to x and stores x in out, and records
    the x each launch read."""

    class d:
        class CUresult:
            CUDA_SUCCESS, CUDA_ERROR_INVALID_VALUE = 0, 1

        class CUfunction_attribute:
            CU_FUNC_ATTRIBUTE_NUM_REGS, CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES = 4, 5
            CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK = 0

        cuModuleGetFunction = staticmethod(lambda module, name: (0, "func"))
        cuFuncGetParamInfo = staticmethod(lambda func, i: (0, 8 * i, (8, 8, 4)[i]) if i < 3 else (1,))
        cuModuleUnload = cuDevicePrimaryCtxRelease = cuCtxSynchronize = staticmethod(lambda *a: (0,))

    def __init__(self):
        self.mem, self.calls, self.seen = {}, [], []
        self.d.cuMemFree = lambda ptr: self.mem.pop(int(ptr)) and (0,)

    def __call__(self, what, *a):
        import ctypes

        import numpy as np

        self.calls.append(what)
        if what == "cuMemHostAlloc":
            return _host_alloc(a[0])
        if what == "cuMemAlloc":
            ptr = 4096 * (len(self.calls) + 1)
            self.mem[ptr] = bytearray(a[0])
            return ptr
        if what == "cuMemcpyHtoD":
            self.mem[a[0]][: a[2]] = ctypes.string_at(a[1], a[2])
        elif what in ("cuMemcpyDtoD", "cuMemcpyDtoDAsync"):
            self.mem[a[0]][: a[2]] = self.mem[a[1]][: a[2]]
        elif what == "cuMemcpyDtoH":
            ctypes.memmove(a[0], bytes(self.mem[a[1]][: a[2]]), a[2])
        elif what == "cuLaunchKernel":
            params = (ctypes.c_void_p * 3).from_address(a[9])
            x_ptr, out_ptr = (ctypes.c_uint64.from_address(params[i]).value for i in (0, 1))
            n = ctypes.c_int32.from_address(params[2]).value
            x = np.frombuffer(self.mem[x_ptr], np.float32, n)
            self.seen.append(x.copy())
            x += 1
            np.frombuffer(self.mem[out_ptr], np.float32, n)[:] = x
        elif what in ("cuFuncGetAttribute", "cuOccupancyMaxActiveBlocksPerMultiprocessor"):
            return 1
        return None


@pytest.mark.parametrize("restore", [(), ("x_ptr",)])
def test_inputs_uploaded_once_each_config_from_the_initial_values(tmp_path, monkeypatch, restore):
    """On a GPU worker the spec's values are uploaded once; each config's buffers are device copies of them,
    so a kernel that writes its input x (in place) gives every config's checked launch the initial x (both
    configs check, from the files the worker writes), and `restore_value` still gives each timed launch the
    initial x."""
    from ttc.runtime import cuda, tune

    gpu = MemoryGpu()
    cubin = tmp_path / "add_one.cubin"
    cubin.write_bytes(b"\0")
    (tmp_path / "add_one.json").write_text(json.dumps({"name": "add_one", "num_warps": 1, "shared": 0}))
    for name, value in (("_gpu", {"drv": gpu, "device": 0, "flush": 0, "max_shared": 1 << 20}), ("_drawn", {}),
                        ("_specs", {}), ("_references", {})):
        monkeypatch.setattr(tune, name, value)
    monkeypatch.setattr(cuda, "_Driver", lambda path: gpu)
    monkeypatch.setattr(tune, "do_bench", lambda drv, fn, flush, warmup, rep: [fn(), fn(), fn()] and [1.0] * 3)
    spec = str(INPUTS / "fails.json")
    tune.gpu_prepare(spec, ())
    x0 = tune._spec(spec, ())[1]["x_ptr"]
    outputs = []
    for i, block in enumerate((64, 128)):
        out = tune.gpu_one({"id": i, "spec": spec, "kernel": "add_one", "cache_dir": str(tmp_path), "shared": 0,
                            "constexprs": {"BLOCK": block}, "reset_to_zero": (), "restore_value": restore,
                            "warmup": 25, "rep": 100, "outbox": str(tmp_path)})
        assert out["status"] == "ok" and out["ms"] == [1.0] * 3
        outputs.append(out["outputs"])
    assert gpu.calls.count("cuMemcpyHtoD") == 2  # x and out, once
    checked, timed = gpu.seen[0::4] + gpu.seen[4::4], gpu.seen[1:4] + gpu.seen[5:8]
    assert all((x == x0).all() for x in checked)
    assert all((x == (x0 if restore else x0 + 1 + k % 3)).all() for k, x in enumerate(timed))
    for block, o in zip((64, 128), outputs):
        assert tune.check_one(spec, (), {"BLOCK": block}, o) == {"status": "ok"} and not os.path.exists(o["file"])
    tune._gpu["helper"].shutdown()


def test_fast_draw_same_distribution_any_thread_count(tmp_path):
    """tt-tune's draw: the values depend on the seed alone (not on the threads), randn/rand keep their
    distributions in the argument's dtype (bf16 rounded), and other inits are as tt-run's."""
    import numpy as np

    from ttc.runtime import spec as specs

    n = 3 * specs.DRAW_CHUNK + 5
    data = {"kernel": "k", "grid": [1], "seed": 7, "args": [
        {"name": "a", "type": "*fp16", "shape": [n], "init": "randn"},
        {"name": "b", "type": "*bf16", "shape": [1000], "init": "rand"},
        {"name": "c", "type": "*i32", "shape": [10], "init": "arange"},
        {"name": "d", "type": "*fp32", "shape": [10], "init": {"randint": [0, 5]}},
        {"name": "m", "type": "i32", "value": 3}]}
    (tmp_path / "s.json").write_text(json.dumps(data))
    spec = specs.load(str(tmp_path / "s.json"))
    one, many = specs.fast_initial_values(spec, 1), specs.fast_initial_values(spec, 4)
    for k in "abcd":
        assert one[k].dtype == specs.initial_values(spec)[k].dtype and (one[k] == many[k]).all()
    a = one["a"].astype(np.float64)
    assert abs(a.mean()) < 0.01 and abs(a.std() - 1) < 0.01 and len(np.unique(one["a"][:1000])) > 500
    assert (0 <= one["b"]).all() and (one["b"] <= 1).all() and (one["b"] == specs.dtypes.round_bf16(one["b"])).all()
    assert (one["c"] == np.arange(10)).all() and set(one["d"]) <= {0, 1, 2, 3, 4} and one["m"] == 3
    data["seed"] = 8
    (tmp_path / "s.json").write_text(json.dumps(data))
    assert not (specs.fast_initial_values(specs.load(str(tmp_path / "s.json")))["a"] == one["a"]).all()


@pytest.mark.parametrize("case", ["unknown kernel", "bad spec"])
def test_an_early_error_ends_the_command(case, tmp_path):
    """An error before anything is timed (an unknown kernel, a spec that is not JSON) ends the command at once, with
    the compile processes and the GPU worker (really spawned: this process has no fake driver) still starting:
    their pools' pending work must not keep the exit waiting on a killed process (it used to hang)."""
    spec = ROOT / "kernels" / "tuned" / "matmul.json"
    if case == "bad spec":
        spec = tmp_path / "bad.json"
        spec.write_text("{")
    kernel = "nope" if case == "unknown kernel" else "matmul_kernel"
    proc = subprocess.run(["tt-tune", str(ROOT / "kernels" / "tuned" / "matmul.py"), "--kernel", kernel, "--spec",
                           str(spec)], capture_output=True, text=True, timeout=120,
                          env={**os.environ, "TRITON_CACHE_DIR": str(tmp_path)})
    assert proc.returncode == 1 and "error:" in proc.stderr and "Traceback" not in proc.stderr, proc.stderr


def test_checking_process_below_the_compiles():
    """The checking process (values, references, checks: NumPy on every core) is a process of its own, below the
    compile processes' priority; the parent keeps its own."""
    from ttc.runtime import tune

    base = os.getpriority(os.PRIO_PROCESS, 0)
    pool = tune.check_pool()
    try:
        checking = pool.submit(os.getpriority, os.PRIO_PROCESS, 0).result()
        pid = pool.submit(os.getpid).result()
    finally:
        tune._kill(pool)
    assert os.getpriority(os.PRIO_PROCESS, 0) == base and pid != os.getpid()
    assert checking == min(19, base + tune.CHECK_NICENESS) and tune.CHECK_NICENESS > tune.COMPILE_NICENESS
