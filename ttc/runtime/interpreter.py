"""The TTIR/TTGIR interpreter: runs a kernel over its whole grid with NumPy.

Programs run one after another in program-id order (x fastest); each program's block is vectorized: a tensor
value is a NumPy array of the tensor's shape (layouts change nothing), a scalar a 0-d value, a pointer an int64
address into `Memory`. Ops are executed by the handlers in `registry.HANDLERS` (the `ops_*` modules); this
module walks regions and blocks, follows `cf.br`/`cf.cond_br`, calls functions, and turns a `Fault` raised by
a handler into a `file:line:col: error:` at that op.
"""

from __future__ import annotations

import sys

import numpy as np
from xdsl.dialects.builtin import ModuleOp, TensorType

from ttc.ir.diagnostics import CompileError, at_op
from ttc.ir.tt import FuncOp
from ttc.ir.tensordesc import TensorDescType
from ttc.ir.types import AsyncTokenType, PointerType, elt
from ttc.ir.memdesc import MemDescType
from ttc.runtime import dtypes, libdevice, ptx
from ttc.runtime.errors import Fault, NeedsScalar, SpecError, Unsupported
from ttc.runtime.registry import HANDLERS

# Terminators, run by `run_region` itself: branches continue in the region, the others end it.
TERMINATORS = {"tt.return", "scf.yield", "scf.condition", "tt.reduce.return", "tt.scan.return", "cf.br", "cf.cond_br"}
# Triton 3.6 ops that tt-opt reads and transforms and the interpreter does not run yet
NOT_YET = frozenset({"tt.descriptor_gather", "tt.descriptor_scatter", "ttng.async_tma_gather", "ttng.async_tma_scatter",
                     "tt.unsplat", "tt.map_elementwise"})


def _load_handlers() -> None:
    from ttc.runtime import ops_arith, ops_control, ops_descriptors, ops_memory, ops_program, ops_scaled, ops_tensor  # noqa: F401


def find_kernel(module: ModuleOp, name: str | None) -> FuncOp:
    """The kernel named `name`, or the module's only public function."""
    funcs = [op for op in module.ops if isinstance(op, FuncOp) and not op.is_declaration]
    if name is not None:
        for f in funcs:
            if f.sym_name.data == name:
                return f
        have = ", ".join(f.sym_name.data for f in funcs) or "none"
        raise SpecError(f"no kernel '{name}' in the module (functions: {have})", "kernel")
    public = [f for f in funcs if f.sym_visibility is None or f.sym_visibility.data == "public"]
    if len(public) != 1:
        names = ", ".join(f.sym_name.data for f in public) or "none"
        raise SpecError(f"the module has {len(public)} public functions ({names}); name one with \"kernel\"", "kernel")
    return public[0]


def _check_type(t) -> None:
    if isinstance(t, AsyncTokenType):
        return
    if isinstance(t, MemDescType):
        dtypes.value_dtype(t.element_type)
        return
    if isinstance(t, TensorDescType):
        dtypes.value_dtype(elt(t.value_type()))
        return
    e = t.element_type if isinstance(t, TensorType) else t
    if isinstance(e, PointerType):
        _check_type(e.pointee)
        return
    dtypes.value_dtype(e)


class Interpreter:
    def __init__(self, module: ModuleOp, source, memory, grid: tuple[int, int, int], stdout=None):
        _load_handlers()
        self.module = module
        self.source = source
        self.memory = memory
        self.grid = grid
        self.pid = (0, 0, 0)
        self.stdout = stdout or sys.stdout
        self.funcs = {op.sym_name.data: op for op in module.ops if isinstance(op, FuncOp)}
        self.env: dict = {}
        self.cache: dict = {}  # op -> a value that does not change between runs (constants, ranges)

    # ------------------------------------------------------------------------- before running

    def check_supported(self, kernel: FuncOp) -> None:
        """Refuse, before running, any op or type the interpreter cannot execute (in `kernel` and its callees)."""
        seen, todo = set(), [kernel]
        while todo:
            func = todo.pop()
            if func in seen:
                continue
            seen.add(func)
            if func.is_declaration:
                raise CompileError(at_op(func, self.source, f"function '{func.sym_name.data}' has no body to interpret"))
            for op in func.body.walk():
                if op is func:
                    continue
                if op.name in NOT_YET:
                    raise CompileError(at_op(op, self.source, f"'{op.name}' is not supported yet by the interpreter"))
                if op.name not in HANDLERS and op.name not in TERMINATORS:
                    raise CompileError(at_op(op, self.source, f"the interpreter does not support '{op.name}'"))
                try:
                    for v in list(op.results) + [a for r in op.regions for b in r.blocks for a in b.args]:
                        _check_type(v.type)
                except Unsupported as e:
                    raise CompileError(at_op(op, self.source, str(e))) from None
                if op.name == "tt.elementwise_inline_asm":
                    try:
                        ptx.check_op(op)
                    except Unsupported as e:
                        message = f"the interpreter cannot run this inline asm: {e}"
                        raise CompileError(at_op(op, self.source, message)) from None
                if op.name == "tt.extern_elementwise" and not libdevice.supports(op.symbol.data):
                    raise CompileError(at_op(op, self.source, f"the interpreter does not know the external function '{op.symbol.data}'"))
                if op.name == "tt.call":
                    callee = self.funcs.get(op.callee.root_reference.data)
                    if callee is None:
                        raise CompileError(at_op(op, self.source, f"call to unknown function '{op.callee.root_reference.data}'"))
                    todo.append(callee)

    # ------------------------------------------------------------------------- running

    def launch(self, kernel: FuncOp, args: list) -> None:
        """Run `kernel` once per program of the grid, in program-id order."""
        gx, gy, gz = self.grid
        with np.errstate(all="ignore"):
            for z in range(gz):
                for y in range(gy):
                    for x in range(gx):
                        self.pid = (x, y, z)
                        self.call(kernel, args)

    def call(self, func: FuncOp, args: list) -> list:
        saved, self.env = self.env, {}
        try:
            _, values = self.run_region(func.body, args)
        finally:
            self.env = saved
        return values

    def get(self, value):
        """The value of an optional operand (None when absent)."""
        return None if value is None else self.env[value]

    def run_region(self, region, args: list):
        """Run a region from its entry block with `args`; returns its final terminator and that terminator's
        operand values."""
        env = self.env
        block = region.blocks.first
        while True:
            for a, v in zip(block.args, args):
                env[a] = v
            term = block.last_op
            for op in block.ops:
                if op is term and op.name in TERMINATORS:
                    break
                self.execute(op)
            else:
                raise CompileError(at_op(block.parent_op(), self.source, "block without a terminator"))
            if op.name == "cf.br":
                block, args = op.successor, [env[v] for v in op.arguments]
            elif op.name == "cf.cond_br":
                cond = env[op.cond]
                if np.ndim(cond):
                    raise NeedsScalar()
                if cond:
                    block, args = op.then_block, [env[v] for v in op.then_arguments]
                else:
                    block, args = op.else_block, [env[v] for v in op.else_arguments]
            else:
                return op, [env[v] for v in op.operands]

    def execute(self, op) -> None:
        env = self.env
        try:
            result = HANDLERS[op.name](self, op, [env[v] for v in op.operands])
        except Fault as e:
            x, y, z = self.pid
            raise CompileError(at_op(op, self.source, f"{e} (in program ({x}, {y}, {z}))")) from None
        results = op.results
        if type(result) is list:
            for r, v in zip(results, result):
                env[r] = v
        elif results:
            env[results[0]] = result
