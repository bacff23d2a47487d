"""One interpreted launch: parse the TTIR/TTGIR, pick the kernel, line the spec's arguments up with its
parameters (checking their types), evaluate the grid, place the buffers in memory, run, and read the buffers
back. `Outcome` is what a launch (this one or the GPU's, ttc.runtime.cuda) gives tt-run."""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np

from ttc.runtime import spec as specs
from ttc.runtime.errors import SpecError


@dataclass
class Outcome:
    kernel: str
    grid: tuple
    outputs: dict  # pointer argument name -> host array after the run
    seconds: float
    bench: dict | None = None
    launch_pdl: bool = False  # launched with programmatic dependent launch (GPU)


def _firsts(params: list, kept: list):
    """(type of its first kernel parameter, argument) for each argument."""
    i = 0
    for a in kept:
        yield params[i], a
        i += a.n_params


def _param_name(arg, i: int) -> str:
    return arg.name_hint or f"arg{i}"


def interpret(path: str, spec: specs.Spec, initial: dict, stdout) -> Outcome:
    from ttc.ir.parser import parse
    from ttc.driver.cli import read_input
    from ttc.ir.diagnostics import Source
    from ttc.runtime.interpreter import Interpreter, find_kernel
    from ttc.runtime.memory import Memory
    from ttc.runtime.ops_descriptors import describe

    name, text = read_input(path)
    source = Source.of(name, text)
    module = parse(text, name, source=source)
    if not any(op.name == "tt.func" and op.body.blocks for op in module.ops):  # not the spec's fault
        from ttc.ir.diagnostics import CompileError, Diagnostic

        raise CompileError(Diagnostic(name, 0, 0, "the IR file is empty: no kernel to run" if not text.strip()
                                      else "the IR file defines no kernel to run (no tt.func with a body)"))
    kernel = find_kernel(module, spec.kernel)
    params = list(kernel.function_type.inputs.data)
    names = [_param_name(a, i) for i, a in enumerate(kernel.body.blocks.first.args)]
    kept = specs.parameters(spec, len(params))
    specs.check_parameter_types(kept, params, names)
    warps = module.attributes.get("ttg.num-warps")
    if warps is not None and spec.num_warps is not None and warps.value.data != spec.num_warps:
        raise SpecError(f"num_warps is {spec.num_warps} but the module was compiled for {warps.value.data}", "num_warps")
    grid = specs.grid(spec, initial)

    memory = Memory()
    addresses, values = {}, []
    for b in spec.buffers:  # first, so that address tables can hold their addresses
        addresses[b.name] = memory.add(b.name, specs.to_device(b, initial[b.name]))
    initial = specs.with_addresses(spec, initial, addresses)
    for a, t in zip(kept, (p for p, _ in _firsts(params, kept))):
        if a.is_desc:
            addresses[a.name] = memory.add(a.name, specs.to_device(a, initial[a.name]))
            handle = (np.int64(addresses[a.name]) if a.decomposed
                      else describe(t, addresses[a.name], a.shape, a.strides))
            values += a.parameter_values(handle)
        elif a.is_ptr:
            addresses[a.name] = memory.add(a.name, specs.to_device(a, initial[a.name]))
            values.append(np.int64(addresses[a.name]))
        else:
            values.append(specs.scalar_value(a))

    ip = Interpreter(module, source, memory, grid, stdout)
    ip.check_supported(kernel)
    start = time.perf_counter()
    ip.launch(kernel, values)
    seconds = time.perf_counter() - start
    outputs = {a.name: specs.from_device(a, memory.contents(addresses[a.name]))
               for a in kept + spec.buffers if a.is_ptr}
    return Outcome(kernel.sym_name.data, grid, outputs, seconds)
