"""Whether a fixture's PTX differs from Triton's because of the LLVM IR that reaches O3 or because of the optimizer:
each compiler's pre-O3 LLVM IR through our O3 and NVPTX code generation, with the registers ptxas gives each.

    /tmp/tritonvenv/bin/python bench/ir_swap.py --triton NAME DIR   # Triton 3.6.0: DIR/triton_pre.ll, triton_post.ll
    python bench/ir_swap.py NAME DIR                                 # ours: DIR/ours_pre.ll, the swap, the table

The first wraps `llvm.optimize_module` (what Triton's make_llir calls on the translated module) to write the module
before and after it, compiling test/fixtures/triton/NAME.nodebug.ttgir for GPUTarget("cuda", 90, 32). The second
writes our lowering's pre-O3 IR, runs `target.optimize` (our O3) on both pre-O3 modules (and nothing on Triton's
post-O3 one), emits PTX with our target machine and prints, per PTX, ptxas -v registers (`, debug` taken off
`.target` as Triton's make_ptx does), the instruction count and the `<8 x i32>` / `<2 x i32>` mentions after O3,
and whether our O3 of Triton's IR gives Triton's post-O3 kernel (its body, attribute groups aside). libtriton binds
no LLVM IR parser, so Triton's optimize_module cannot be run on our IR; our O3 reproducing Triton's output from
Triton's input is what shows the two pipelines equal.
"""

from __future__ import annotations

import re
import shutil
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FIXTURES = ROOT / "test" / "fixtures" / "triton"


def triton_side(name: str, out: Path) -> None:
    import triton
    from triton._C.libtriton import llvm
    from triton.backends.compiler import GPUTarget

    optimize = llvm.optimize_module

    def wrapped(mod, *args, **kwargs):
        (out / "triton_pre.ll").write_text(str(mod))
        optimize(mod, *args, **kwargs)
        (out / "triton_post.ll").write_text(str(mod))

    llvm.optimize_module = wrapped
    triton.knobs.compilation.always_compile = True
    triton.compile(str(FIXTURES / f"{name}.nodebug.ttgir"), target=GPUTarget("cuda", 90, 32))


def ours_side(name: str, out: Path) -> None:
    sys.path.insert(0, str(ROOT))
    sys.path.insert(0, str(ROOT / "bench"))
    from ptx_compare import histogram, ptxas_usage
    from ttc.lowering import pipeline, target
    from ttc.lowering.translate import lower_module

    path = FIXTURES / f"{name}.nodebug.ttgir"
    ttgir = pipeline.parse_ttgir(path.read_text(), str(path), pipeline.Options())
    tm = target.target_machine(ttgir.cpu, ttgir.ptx_version)
    lowered = lower_module(ttgir.module, source=ttgir.source, data_layout=target.data_layout(tm),
                           target=f"cuda:{ttgir.cpu[3:]}", source_hash=ttgir.hash)
    (out / "ours_pre.ll").write_text(lowered.llvm_ir)
    b, ptxas = target.llvm(), shutil.which("ptxas")
    body = lambda s: re.sub(r" #\d+", "", re.search(r"^define .*?^}", s, re.M | re.S).group(0))
    print(f"{'pre-O3 IR':<12} {'O3':<6} {'regs':>5} {'instrs':>6} {'<8 x i32>':>9} {'<2 x i32>':>9}")
    for pre, o3 in (("ours", True), ("triton", True), ("triton", False)):
        src = out / (f"{pre}_pre.ll" if o3 else f"{pre}_post.ll")
        mod = b.parse_assembly(src.read_text())
        if o3:
            target.optimize(mod, tm, lowered.largest_block)
        ir = str(mod)
        if pre == "triton" and o3:
            same = body(ir) == body((out / "triton_post.ll").read_text())
        ptx = re.sub(r",\s*debug|debug,\s*", "", target.emit_ptx(b.parse_assembly(ir), tm))
        (out / f"{pre}_{'ours_o3' if o3 else 'triton_o3'}.ptx").write_text(ptx)
        regs, _ = ptxas_usage(ptx, ptxas)
        print(f"{pre:<12} {'ours' if o3 else 'triton':<6} {regs:5d} {sum(histogram(ptx).values()):6d} "
              f"{ir.count('<8 x i32>'):9d} {ir.count('<2 x i32>'):9d}")
    print(f"our O3 of Triton's pre-O3 IR gives Triton's post-O3 kernel: {same}")


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    triton = argv[:1] == ["--triton"]
    if len(argv) != 2 + triton:
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 1
    name, out = argv[triton], Path(argv[triton + 1])
    out.mkdir(parents=True, exist_ok=True)
    (triton_side if triton else ours_side)(name, out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
