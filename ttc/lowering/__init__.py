"""The back end: TTGIR -> LLVM IR (llvmlite) -> PTX (LLVM's NVPTX backend) -> CUBIN (nvJitLink or ptxas).

- `translate` and the op lowerings it imports (`elementwise`, `shapes`, `convert`, `global_memory`, `atomics`,
  `reduce`, `scan`, `dot`, `wgmma`, `histogram`, `gather`, `control_flow`, `program`, `local_memory`,
  `async_copy`, `tma`, `inline_asm`, `device_print`; with `mma_v2` choosing a dot's mma.sync and `minifloat` decoding fp8/fp4):
  TTGIR to LLVM IR (`llvm_text` writes its text; `ttc.ir.linear_layout` says which element each register, lane
  and warp holds); `exchange_plan` and `linear_exchange`: where shared-memory exchanges and buffers put
  each element;
- `pipeline`: the text-level stages with their dumps; `target`: the NVPTX target machine and O3;
- `cubin`: PTX to CUBIN; `disasm`: CUBIN to SASS; `metadata`: what travels with each stage.
"""
