"""`triton.language.extra.cuda` (`tl.extra.cuda`): libdevice, grid dependency control for programmatic dependent
launch (`gdc_wait`, `gdc_launch_dependents`: `griddepcontrol` PTX, harmless when the kernel is launched without
PDL), and the `globaltimer` / `smid` special registers; all of them inline asm, as in Triton.
"""

from __future__ import annotations

from ttc.frontend import dtypes as T
from ttc.frontend.language.builtin import builtin
from ttc.frontend.language.external import inline_asm
from ttc.frontend.language.libdevice import LIBDEVICE
from ttc.frontend.language.namespace import Namespace


@builtin
def gdc_wait(g):
    """Wait until the grids this one depends on have finished and their memory is visible."""
    inline_asm(g, "griddepcontrol.wait; // dummy $0", "=r", [], [T.int32], False, 1)


@builtin
def gdc_launch_dependents(g):
    """Let the next kernel (launched with PDL) start once every program has called this or finished."""
    inline_asm(g, "griddepcontrol.launch_dependents; // dummy $0", "=r", [], [T.int32], False, 1)


@builtin
def globaltimer(g):
    return inline_asm(g, "mov.u64 $0, %globaltimer;", "=l", [], [T.int64], False, 1)[0]


@builtin
def smid(g):
    return inline_asm(g, "mov.u32 $0, %smid;", "=r", [], [T.int32], True, 1)[0]


CUDA = Namespace("triton.language.extra.cuda", {
    "libdevice": LIBDEVICE, "gdc_wait": gdc_wait, "gdc_launch_dependents": gdc_launch_dependents,
    "globaltimer": globaltimer, "smid": smid,
})
EXTRA = Namespace("triton.language.extra", {"cuda": CUDA, "libdevice": LIBDEVICE})
