"""The back end: TTGIR -> LLVM IR (llvmlite) -> PTX (LLVM's NVPTX backend) -> CUBIN (nvJitLink or ptxas).

- `linear_layout`: which element each (register, lane, warp) holds, for blocked/slice/dot-operand layouts;
- `translate` and the op lowerings it imports (`elementwise`, `shapes`, `convert`, `global_memory`, `atomics`,
  `reduce`, `scan`, `dot`, `histogram`, `gather`, `control_flow`, `program`, `local_memory`, `async_copy`):
  TTGIR to LLVM IR (`llvm_text` writes its text); `exchange_plan`: where shared-memory exchanges and buffers put
  each element;
- `pipeline`: the text-level stages with their dumps; `target`: the NVPTX target machine and O3;
- `cubin`: PTX to CUBIN; `disasm`: CUBIN to SASS; `metadata`: what travels with each stage.
"""
