"""The GPU launch of a `.cubin` or `.ptx` through the CUDA driver API (cuda-python's `cuda.bindings.driver`).

The kernel is loaded with cuModuleLoadData (PTX is JIT-compiled by the driver) and found by name (the spec's
"kernel", Triton's metadata, or the binary's only function). Its parameters (sizes from cuFuncGetParamInfo,
or from the PTX text) are matched with the spec's arguments; Triton's trailing scratch pointers (global and
profile scratch, Triton >= 3.3) get buffers of the metadata's sizes, or NULL. Launch: blockDim 32 * num_warps,
dynamic shared memory from the spec or metadata (opted in above 48 KB); with "launch_pdl" (the spec's, else the
metadata's) through cuLaunchKernelEx with the programmatic-stream-serialization attribute, as Triton launches it.
Outputs are copied back after the first launch; `--bench` then times warm-up + repeated launches with CUDA
events, queued behind a spin kernel so that the host's launch cost stays out of the numbers (ttc.runtime.timing:
median ms, and GB/s counting every pointer argument's bytes once) and reports the kernel's registers per thread,
local-memory (spill) bytes and resident blocks per SM. With `--against`, two binaries of the kernel are loaded
at once, each with its own buffers, and their timed launches interleaved. CUDA errors are reported by name and
message.
"""

from __future__ import annotations

import contextlib
import ctypes
import time
from pathlib import Path

import numpy as np

from ttc.ir.diagnostics import CompileError, Diagnostic
from ttc.runtime import binary, dtypes, tensormap
from ttc.runtime import spec as specs
from ttc.runtime.errors import SpecError
from ttc.runtime.launch import Outcome
from ttc.runtime.timing import time_interleaved

STATIC_SHARED_LIMIT = 48 * 1024


class _Driver:
    """cuda.bindings.driver with every call checked: a failing call raises a CompileError against the binary
    naming the call, the error's name and its message."""

    def __init__(self, path: str):
        from ttc.driver.cli import UsageError

        try:
            from cuda.bindings import driver
        except ImportError:
            try:
                from cuda import cuda as driver  # cuda-python < 12.6
            except ImportError:
                raise UsageError("the GPU path needs cuda-python (pip install 'ttc[gpu]'); "
                                 "use --interpret to run IR on the CPU") from None
        self.d = driver
        self.path = path

    def error(self, what: str, err) -> CompileError:
        _, name = self.d.cuGetErrorName(err)
        _, text = self.d.cuGetErrorString(err)
        name = name.decode() if isinstance(name, bytes) else str(err)
        text = text.decode() if isinstance(text, bytes) else ""
        return CompileError(Diagnostic(self.path, 0, 0, f"{what} failed: {name}: {text}"))

    def __call__(self, what: str, *args):
        result = getattr(self.d, what)(*args)
        err, rest = (result[0], result[1:]) if isinstance(result, tuple) else (result, ())
        if err != self.d.CUresult.CUDA_SUCCESS:
            raise self.error(what, err)
        return rest[0] if len(rest) == 1 else rest

    def ok(self, what: str, *args):
        """The call's value, or None when it fails (for optional queries)."""
        result = getattr(self.d, what, None)
        if result is None:
            return None
        result = result(*args)
        if result[0] != self.d.CUresult.CUDA_SUCCESS:
            return None
        return result[1] if len(result) == 2 else result[1:]


def _param_sizes(drv: _Driver, func) -> list | None:
    if getattr(drv.d, "cuFuncGetParamInfo", None) is None:
        return None
    sizes = []
    while True:
        info = drv.d.cuFuncGetParamInfo(func, len(sizes))
        if info[0] != drv.d.CUresult.CUDA_SUCCESS:
            # past the last parameter (CUDA_ERROR_INVALID_VALUE), or a driver without the call
            return sizes if info[0] == drv.d.CUresult.CUDA_ERROR_INVALID_VALUE else None
        sizes.append(int(info[2]))


def _kernel_name(drv: _Driver, module, spec, meta: dict, entries) -> str:
    if spec.kernel:
        return spec.kernel
    if meta.get("name"):
        return meta["name"]
    if entries is not None:
        if len(entries) == 1:
            return entries[0].name
        names = ", ".join(e.name for e in entries) or "none"
        raise SpecError(f"the PTX has {len(entries)} kernels ({names}); name one with \"kernel\"", "kernel")
    count = drv.ok("cuModuleGetFunctionCount", module)
    if count == 1:
        funcs = drv("cuModuleEnumerateFunctions", 1, module)
        return drv("cuFuncGetName", funcs[0]).decode()
    raise SpecError("the spec must name the kernel (\"kernel\"): the cubin has "
                    f"{'several functions' if count else 'no function list this driver can read'}", "kernel")


def _param_bytes(a, part: int) -> int:
    """The size of a kernel parameter: a descriptor is its 128-byte tensor map, i32 shape, i64 strides."""
    if a.is_desc and a.decomposed:  # pointer, i64 shape and strides, i1 padding, i32 shape, i64 strides
        r = len(a.block)
        return 1 if part == 1 + 2 * r else 4 if 2 + 2 * r <= part < 2 + 3 * r else 8
    if a.is_desc:
        return 128 if part == 0 else 4 if part <= len(a.block) else 8
    return 8 if a.is_ptr else dtypes.storage_dtype(a.elt).itemsize


def _match(spec, sizes: list) -> tuple[list, int]:
    """(the arguments passed, the number of trailing scratch-pointer parameters)."""
    total = len(sizes)
    specs.choose_descriptor_form(spec.args, total, slack=2)
    if spec.signature is not None or sum(a.n_params for a in spec.args) not in (total, total - 1, total - 2):
        kept = specs.parameters(spec, None)
    else:
        kept = list(spec.args)
    specs.choose_descriptor_form(kept, total, slack=2)
    n = sum(a.n_params for a in kept)
    extra = total - n
    if extra < 0 or extra > 2 or any(s != 8 for s in sizes[n:]):
        raise SpecError(f"the kernel takes {total} parameters (sizes {sizes}) but the spec gives {n} "
                        "(Triton kernels add up to 2 trailing scratch pointers)", "args")
    for i, ((a, part), size) in enumerate(zip(specs.expand(kept), sizes)):
        want = _param_bytes(a, part)
        if size != want:
            raise SpecError(f"'{a.name}' is '{a.type}' ({want} bytes) but kernel parameter {i} takes {size} bytes",
                            f"{a.where}.type")
    return kept, extra


def _pdl_config(d, grid, threads: int, shared: int):
    """cuLaunchKernelEx's configuration with programmatic stream serialization, as Triton launches a kernel
    compiled with launch_pdl=True: the launch may overlap the previous kernel of the stream until the kernel's
    griddepcontrol.wait."""
    attr = d.CUlaunchAttribute()
    attr.id = d.CUlaunchAttributeID.CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION
    attr.value.programmaticStreamSerializationAllowed = 1
    config = d.CUlaunchConfig()
    config.gridDimX, config.gridDimY, config.gridDimZ = grid
    config.blockDimX, config.blockDimY, config.blockDimZ = threads, 1, 1
    config.sharedMemBytes = shared
    config.hStream = d.CUstream(0)
    config.attrs = [attr]
    config.numAttrs = 1
    return config


class Loaded:
    """A kernel loaded with its arguments in device memory (`loaded`): `run_once()` launches it, `outputs()`
    copies the pointer arguments back, `attributes()` gives registers, spills and blocks per SM."""

    def __init__(self, **fields):
        self.__dict__.update(fields)

    def output_buffers(self, names=None) -> list:
        """(argument, device address, bytes) of every pointer argument's buffer, or of those in `names`."""
        return [(a, *self.buffers[a.name]) for a in self.kept + self.spec.buffers
                if a.is_ptr and (names is None or a.name in names)]

    def outputs(self, names=None) -> dict:
        """Every pointer argument's buffer after the run, or only those in `names`."""
        out = {}
        for a, ptr, nbytes in self.output_buffers(names):
            raw = np.empty(nbytes, dtype=np.uint8)
            if nbytes:
                self.drv("cuMemcpyDtoH", raw.ctypes.data, ptr, nbytes)
            out[a.name] = specs.from_device(a, raw)
        return out

    def attributes(self) -> dict:
        attr = self.drv.d.CUfunction_attribute
        get = lambda a: int(self.drv("cuFuncGetAttribute", a, self.func))  # noqa: E731
        return {"n_regs": get(attr.CU_FUNC_ATTRIBUTE_NUM_REGS), "spill_bytes": get(attr.CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES),
                "blocks_per_sm": int(self.drv("cuOccupancyMaxActiveBlocksPerMultiprocessor", self.func, self.threads,
                                              self.shared))}


def launch_all(paths: list, spec, initial: dict, bench: bool = False, warmup: int = 10, rep: int = 100) -> list:
    """One Outcome per binary of the kernel (`tt-run --against`): each is loaded with its own buffers made from
    the same initial values and run once, its outputs read back; with `bench`, all are timed together,
    their launches interleaved (ttc.runtime.timing.time_interleaved)."""
    with contextlib.ExitStack() as stack:
        ks = [stack.enter_context(loaded(path, spec, initial)) for path in paths]
        firsts = []
        for k in ks:
            start = time.perf_counter()
            k.run_once()
            k.drv("cuCtxSynchronize")
            firsts.append((time.perf_counter() - start, k.outputs()))
        timings = time_interleaved(ks[0].drv, [k.run_once for k in ks], warmup, rep) if bench else [None] * len(ks)
        for k, timing in zip(ks, timings):
            if timing is not None:
                median = timing["median_ms"]
                timing.update({"bytes": k.total_bytes, **k.attributes(),
                               "gbps": k.total_bytes / (median * 1e-3) / 1e9 if median > 0 else 0.0})
        return [Outcome(k.name, k.grid, outputs, seconds, timing, k.pdl)
                for k, (seconds, outputs), timing in zip(ks, firsts, timings)]


@contextlib.contextmanager
def loaded(path: str, spec, initial: dict, device: int = 0, sources: dict | None = None):
    """Load the binary on GPU `device`, put the arguments (`initial` values; grid expressions also see any other
    names in it) in device memory and yield a `Loaded`; everything is freed on exit. `sources` (name -> (device
    address, bytes)) holds device copies of arguments' initial bytes (tt-tune uploads them once per GPU): such
    an argument's buffer is a fresh device-to-device copy of it, so the kernel may write it."""
    drv = _Driver(path)
    d = drv.d
    data = Path(path).read_bytes()
    is_ptx = path.endswith(".ptx")
    entries = binary.ptx_entries(data.decode("utf-8", errors="replace")) if is_ptx else None
    meta = binary.metadata(path, spec.path)

    try:
        drv("cuInit", 0)
    except CompileError:
        raise
    except Exception as e:  # no libcuda at all: the bindings raise their own errors
        raise CompileError(Diagnostic(path, 0, 0, f"cannot use the CUDA driver: {e}")) from None
    device = drv("cuDeviceGet", device)
    context = drv("cuDevicePrimaryCtxRetain", device)
    drv("cuCtxSetCurrent", context)
    module = drv("cuModuleLoadData", data + b"\0" if is_ptx else data)
    allocations = []
    try:
        name = _kernel_name(drv, module, spec, meta, entries)
        result = d.cuModuleGetFunction(module, name.encode())
        if result[0] != d.CUresult.CUDA_SUCCESS:
            raise SpecError(f"no kernel '{name}' in {path}", "kernel")
        func = result[1]
        entry = next((e for e in entries or [] if e.name == name), None)
        sizes = _param_sizes(drv, func)
        if sizes is None:
            if entry is None:
                raise CompileError(Diagnostic(path, 0, 0, "this driver cannot list the kernel's parameters "
                                              "(cuFuncGetParamInfo needs CUDA 12.4); launch the .ptx instead"))
            sizes = entry.param_sizes
        kept, extra = _match(spec, sizes)
        grid = specs.grid(spec, initial)

        if spec.num_warps is not None:
            threads = 32 * spec.num_warps
        elif "num_warps" in meta:
            threads = 32 * int(meta["num_warps"])
        elif entry is not None and entry.threads:
            threads = entry.threads
        else:
            threads = int(drv("cuFuncGetAttribute",
                              d.CUfunction_attribute.CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, func))
        shared = spec.shared if spec.shared is not None else int(meta.get("shared", 0))
        if shared > STATIC_SHARED_LIMIT:
            drv("cuFuncSetAttribute", func, d.CUfunction_attribute.CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                shared)

        def alloc(nbytes: int) -> int:
            ptr = drv("cuMemAlloc", max(int(nbytes), 1))
            allocations.append(ptr)
            return int(ptr)

        def upload(a) -> int:
            """A buffer holding the argument's initial bytes: copied from `sources`, else from the host."""
            source = (sources or {}).get(a.name)
            if source is not None:
                ptr, nbytes = alloc(source[1]), source[1]
                if nbytes:
                    drv("cuMemcpyDtoD", ptr, source[0], nbytes)
            else:
                host = np.ascontiguousarray(specs.to_device(a, initial[a.name]))
                ptr, nbytes = alloc(host.nbytes), host.nbytes
                if nbytes:
                    drv("cuMemcpyHtoD", ptr, host.ctypes.data, nbytes)
            buffers[a.name] = (ptr, nbytes)
            return ptr

        buffers, holders = {}, []
        for b in spec.buffers:  # first, so that address tables can hold their addresses
            upload(b)
        initial = specs.with_addresses(spec, initial, {n: ptr for n, (ptr, _) in buffers.items()})
        descriptors = iter(meta.get("tensordesc_meta") or [])
        for a in kept:
            if a.is_desc:  # a buffer, then its tensor map, shape and strides
                ptr = upload(a)
                if a.decomposed:  # a kernel compiled below sm_90: the pointer, shapes, strides, padding flag
                    holders += [ctypes.c_uint64(ptr), *[ctypes.c_int64(d) for d in a.shape],
                                *[ctypes.c_int64(st) for st in a.strides], ctypes.c_int8(0),
                                *[ctypes.c_int32(d) for d in a.shape], *[ctypes.c_int64(st) for st in a.strides]]
                    continue
                desc = next(descriptors, None)
                if desc is None:
                    raise SpecError(f"'{a.name}' is a descriptor but the kernel's metadata has no tensordesc_meta "
                                    "for it (compile with tt-translate/tt-compile, or give Triton's .json)",
                                    a.where)
                try:
                    args = tensormap.tensormap_args(ptr, a.shape, dtypes.storage_dtype(a.elt).itemsize, desc,
                                                    a.strides)
                except ValueError as e:
                    raise SpecError(f"'{a.name}': {e}", a.where) from None
                holders.append(tensormap.encode(drv, args))
                holders += [ctypes.c_int32(d) for d in a.shape] + [ctypes.c_int64(st) for st in a.strides]
            elif a.is_ptr:
                holders.append(ctypes.c_uint64(upload(a)))
            else:
                raw = np.asarray(specs.scalar_value(a))
                raw = dtypes.to_storage(raw, a.elt).tobytes()
                holders.append(ctypes.create_string_buffer(raw, len(raw)))
        programs = grid[0] * grid[1] * grid[2]
        for key in ("global_scratch_size", "profile_scratch_size")[:extra]:
            size = int(meta.get(key, 0)) * programs
            holders.append(ctypes.c_uint64(alloc(size) if size else 0))
        params = (ctypes.c_void_p * len(holders))(*[ctypes.addressof(h) for h in holders])

        pdl = spec.launch_pdl if spec.launch_pdl is not None else bool(meta.get("launch_pdl", False))
        config = _pdl_config(d, grid, threads, shared) if pdl else None

        def run_once():
            if config is not None:
                drv("cuLaunchKernelEx", config, func, ctypes.addressof(params), 0)
            else:
                drv("cuLaunchKernel", func, grid[0], grid[1], grid[2], threads, 1, 1, shared, 0,
                    ctypes.addressof(params), 0)

        total_bytes = sum(nbytes for _, nbytes in buffers.values())
        yield Loaded(drv=drv, name=name, grid=grid, func=func, threads=threads, shared=shared, pdl=pdl, kept=kept,
                     spec=spec, buffers=buffers, total_bytes=total_bytes, run_once=run_once, params=params,
                     holders=holders)
    finally:
        for ptr in allocations:
            d.cuMemFree(ptr)
        d.cuModuleUnload(module)
        d.cuDevicePrimaryCtxRelease(device)
