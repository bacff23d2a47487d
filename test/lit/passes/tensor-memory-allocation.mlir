// RUN: tt-opt %s -split-input-file -allow-unregistered-dialect -triton-tensor-memory-allocation | FileCheck %s

#tm = #ttng.tensor_memory_encoding<blockM = 128, blockN = 32, colStride = 1>
#tm64 = #ttng.tensor_memory_encoding<blockM = 64, blockN = 64, colStride = 1>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:100", "ttg.threads-per-warp" = 32 : i32} {
  // Allocations live at once take the next free columns; 64-row ones fill the second row block before new
  // columns. 160 columns round up to 256, and shared memory gets the 4 bytes the TMEM base address needs.
  // CHECK: module attributes {{{.*}}ttg.shared = 4 : i32{{.*}}ttg.tensor_memory_size = 256 : i32
  // CHECK-LABEL: tt.func @side_by_side
  // CHECK-NEXT: ttng.tmem_alloc {tensor_memory_col_offset = 0 : i32, tensor_memory_row_offset = 0 : i32}
  // CHECK-NEXT: ttng.tmem_alloc {tensor_memory_col_offset = 32 : i32, tensor_memory_row_offset = 0 : i32}
  // CHECK-NEXT: ttng.tmem_alloc {tensor_memory_col_offset = 32 : i32, tensor_memory_row_offset = 16 : i32}
  // CHECK-NEXT: ttng.tmem_alloc {tensor_memory_col_offset = 96 : i32, tensor_memory_row_offset = 0 : i32}
  tt.func @side_by_side() {
    %a = ttng.tmem_alloc : () -> !ttg.memdesc<128x32xf32, #tm, #ttng.tensor_memory, mutable>
    %b = ttng.tmem_alloc : () -> !ttg.memdesc<64x64xf32, #tm64, #ttng.tensor_memory, mutable>
    %c = ttng.tmem_alloc : () -> !ttg.memdesc<64x64xf32, #tm64, #ttng.tensor_memory, mutable>
    %d = ttng.tmem_alloc : () -> !ttg.memdesc<64x64xf32, #tm64, #ttng.tensor_memory, mutable>
    "use"(%a, %b, %c, %d) : (!ttg.memdesc<128x32xf32, #tm, #ttng.tensor_memory, mutable>, !ttg.memdesc<64x64xf32, #tm64, #ttng.tensor_memory, mutable>, !ttg.memdesc<64x64xf32, #tm64, #ttng.tensor_memory, mutable>, !ttg.memdesc<64x64xf32, #tm64, #ttng.tensor_memory, mutable>) -> ()
    tt.return
  }
}

// -----

#tm = #ttng.tensor_memory_encoding<blockM = 128, blockN = 32, colStride = 1>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.shared = 1024 : i32, ttg.target = "cuda:100", "ttg.threads-per-warp" = 32 : i32} {
  // Memory whose last use is before an allocation is reused; a view (memdesc_index) keeps its buffer live, and
  // so does a use inside a loop until the loop ends (then both are free again). 64 columns are enough; ttg.shared stays.
  // CHECK: module attributes {{{.*}}ttg.shared = 1024 : i32{{.*}}ttg.tensor_memory_size = 64 : i32
  // CHECK-LABEL: tt.func @reuse
  // CHECK: %[[A:.*]] = ttng.tmem_alloc {tensor_memory_col_offset = 0 : i32, tensor_memory_row_offset = 0 : i32}
  // CHECK-NEXT: "use"(%[[A]])
  // CHECK-NEXT: %[[B:.*]] = ttng.tmem_alloc {tensor_memory_col_offset = 0 : i32, tensor_memory_row_offset = 0 : i32} : () -> !ttg.memdesc<1x128x32xf32
  // CHECK-NEXT: ttg.memdesc_index %[[B]]
  // CHECK-NEXT: ttng.tmem_alloc {tensor_memory_col_offset = 32 : i32, tensor_memory_row_offset = 0 : i32}
  // CHECK: scf.for
  // CHECK: }
  // CHECK-NEXT: ttng.tmem_alloc {tensor_memory_col_offset = 0 : i32, tensor_memory_row_offset = 0 : i32}
  tt.func @reuse(%n: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %a = ttng.tmem_alloc : () -> !ttg.memdesc<128x32xf32, #tm, #ttng.tensor_memory, mutable>
    "use"(%a) : (!ttg.memdesc<128x32xf32, #tm, #ttng.tensor_memory, mutable>) -> ()
    %b = ttng.tmem_alloc : () -> !ttg.memdesc<1x128x32xf32, #tm, #ttng.tensor_memory, mutable>
    %v = ttg.memdesc_index %b[%c0] : !ttg.memdesc<1x128x32xf32, #tm, #ttng.tensor_memory, mutable> -> !ttg.memdesc<128x32xf32, #tm, #ttng.tensor_memory, mutable>
    %c = ttng.tmem_alloc : () -> !ttg.memdesc<128x32xf32, #tm, #ttng.tensor_memory, mutable>
    scf.for %i = %c0 to %n step %c1  : i32 {
      "use"(%v) : (!ttg.memdesc<128x32xf32, #tm, #ttng.tensor_memory, mutable>) -> ()
      "use"(%c) : (!ttg.memdesc<128x32xf32, #tm, #ttng.tensor_memory, mutable>) -> ()
    }
    %d = ttng.tmem_alloc : () -> !ttg.memdesc<128x32xf32, #tm, #ttng.tensor_memory, mutable>
    "use"(%d) : (!ttg.memdesc<128x32xf32, #tm, #ttng.tensor_memory, mutable>) -> ()
    tt.return
  }
}

// -----

#tm = #ttng.tensor_memory_encoding<blockM = 128, blockN = 32, colStride = 1>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:100", "ttg.threads-per-warp" = 32 : i32} {
  // The default region and the partitions of a warp_specialize run at once: their allocations never share,
  // while two short-lived ones of the same partition do.
  // CHECK-LABEL: tt.func @regions_at_once
  // CHECK: default {
  // CHECK-NEXT: ttng.tmem_alloc {tensor_memory_col_offset = 0 : i32
  // CHECK: partition0() num_warps(4) {
  // CHECK-NEXT: ttng.tmem_alloc {tensor_memory_col_offset = 32 : i32
  // CHECK-NEXT: ttng.tmem_alloc {tensor_memory_col_offset = 32 : i32
  tt.func @regions_at_once() {
    ttg.warp_specialize()
    default {
      %a = ttng.tmem_alloc : () -> !ttg.memdesc<128x32xf32, #tm, #ttng.tensor_memory, mutable>
      ttg.warp_yield
    }
    partition0() num_warps(4) {
      %b = ttng.tmem_alloc : () -> !ttg.memdesc<128x32xf32, #tm, #ttng.tensor_memory, mutable>
      %c = ttng.tmem_alloc : () -> !ttg.memdesc<128x32xf32, #tm, #ttng.tensor_memory, mutable>
      ttg.warp_return
    } : () -> ()
    tt.return
  }
}

// -----

#tm64 = #ttng.tensor_memory_encoding<blockM = 64, blockN = 64, colStride = 1>
#sb = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 32}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:100", "ttg.threads-per-warp" = 32 : i32} {
  // An MMA with a 64-row A operand in tensor memory needs A and its accumulator in the same row block: the
  // accumulator goes to the second row block like A, not the first one where the columns are free.
  // CHECK-LABEL: tt.func @same_rows
  // CHECK-NEXT: ttng.tmem_alloc {tensor_memory_col_offset = 0 : i32, tensor_memory_row_offset = 0 : i32}
  // CHECK-NEXT: ttng.tmem_alloc {tensor_memory_col_offset = 0 : i32, tensor_memory_row_offset = 16 : i32}
  // CHECK-NEXT: ttng.tmem_alloc {tensor_memory_col_offset = 64 : i32, tensor_memory_row_offset = 16 : i32}
  tt.func @same_rows(%b: !ttg.memdesc<64x64xf32, #sb, #smem>, %c: i1) {
    %other = ttng.tmem_alloc : () -> !ttg.memdesc<64x64xf32, #tm64, #ttng.tensor_memory, mutable>
    %a = ttng.tmem_alloc : () -> !ttg.memdesc<64x64xf32, #tm64, #ttng.tensor_memory, mutable>
    %d = ttng.tmem_alloc : () -> !ttg.memdesc<64x64xf32, #tm64, #ttng.tensor_memory, mutable>
    ttng.tc_gen5_mma %a, %b, %d, %c, %c : !ttg.memdesc<64x64xf32, #tm64, #ttng.tensor_memory, mutable>, !ttg.memdesc<64x64xf32, #sb, #smem>, !ttg.memdesc<64x64xf32, #tm64, #ttng.tensor_memory, mutable>
    "use"(%other) : (!ttg.memdesc<64x64xf32, #tm64, #ttng.tensor_memory, mutable>) -> ()
    tt.return
  }
}

// -----

module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:100", "ttg.threads-per-warp" = 32 : i32} {
  // No tensor memory: size 0 and no ttg.shared.
  // CHECK: module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:100", ttg.tensor_memory_size = 0 : i32, "ttg.threads-per-warp" = 32 : i32}
  tt.func @none() {
    tt.return
  }
}
