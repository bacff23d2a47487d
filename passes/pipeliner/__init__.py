"""The software pipeliner's parts (Triton's lib/Dialect/TritonGPU/Transforms/Pipeliner/), shared by
tritongpu-assign-latencies, -schedule-loops, -pipeline and the warp-specialization passes: the coarse loop
schedule (`schedule.py`), which loads are pipelined and their shared layouts (`loads.py`), the modulo-schedule
expander (`expander.py`), multi-buffered in-kernel descriptors (`descriptors.py`), MMA v5 lowering in a
scheduled loop (`mma.py`) and the register-operand wgmma split along K (`rs_dot_split.py`)."""
