// RUN: tt-opt %s -split-input-file -allocate-shared-memory | FileCheck %s

// A reduction across the 4 warps of its axis: one f32 per warp (16 bytes) of scratch, for each reduction
// (they do not live at the same time, so both start at 0).
// CHECK: module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.shared = 16 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32}
// CHECK-LABEL: tt.func public @softmax_kernel
// CHECK: }) {allocation.offset = 0 : i32} : (tensor<256xf32, #blocked>) -> f32
// CHECK: }) {allocation.offset = 0 : i32} : (tensor<256xf32, #blocked>) -> f32
#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @softmax_kernel(%arg0: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg1: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg2: i32, %arg3: i32, %arg4: i32) attributes {noinline = false} {
    %cst = arith.constant dense<0xFF800000> : tensor<256xf32, #blocked>
    %0 = tt.get_program_id x : i32
    %1 = arith.muli %0, %arg2 : i32
    %2 = tt.addptr %arg1, %1 : !tt.ptr<f32>, i32
    %3 = tt.make_range {end = 256 : i32, start = 0 : i32} : tensor<256xi32, #blocked>
    %4 = tt.splat %2 : !tt.ptr<f32> -> tensor<256x!tt.ptr<f32>, #blocked>
    %5 = tt.addptr %4, %3 : tensor<256x!tt.ptr<f32>, #blocked>, tensor<256xi32, #blocked>
    %6 = tt.splat %arg4 : i32 -> tensor<256xi32, #blocked>
    %7 = arith.cmpi slt, %3, %6 : tensor<256xi32, #blocked>
    %8 = tt.load %5, %7, %cst : tensor<256x!tt.ptr<f32>, #blocked>
    %9 = "tt.reduce"(%8) <{axis = 0 : i32}> ({
    ^bb0(%arg5: f32, %arg6: f32):
      %20 = arith.maxnumf %arg5, %arg6 : f32
      tt.reduce.return %20 : f32
    }) : (tensor<256xf32, #blocked>) -> f32
    %10 = tt.splat %9 : f32 -> tensor<256xf32, #blocked>
    %11 = arith.subf %8, %10 : tensor<256xf32, #blocked>
    %12 = math.exp %11 : tensor<256xf32, #blocked>
    %13 = "tt.reduce"(%12) <{axis = 0 : i32}> ({
    ^bb0(%arg5: f32, %arg6: f32):
      %20 = arith.addf %arg5, %arg6 : f32
      tt.reduce.return %20 : f32
    }) : (tensor<256xf32, #blocked>) -> f32
    %14 = tt.splat %13 : f32 -> tensor<256xf32, #blocked>
    %15 = arith.divf %12, %14 : tensor<256xf32, #blocked>
    %16 = arith.muli %0, %arg3 : i32
    %17 = tt.addptr %arg0, %16 : !tt.ptr<f32>, i32
    %18 = tt.splat %17 : !tt.ptr<f32> -> tensor<256x!tt.ptr<f32>, #blocked>
    %19 = tt.addptr %18, %3 : tensor<256x!tt.ptr<f32>, #blocked>, tensor<256xi32, #blocked>
    tt.store %19, %15, %7 : tensor<256x!tt.ptr<f32>, #blocked>
    tt.return
  }
}

// -----

// A scan of 256 f32 over 4 warps, in 2 blocks of the axis: 4 * 2 elements.
// CHECK: ttg.shared = 32 : i32
// CHECK-LABEL: tt.func public @cumsum_kernel
// CHECK: }) {allocation.offset = 0 : i32} : (tensor<256xf32, #blocked>) -> tensor<256xf32, #blocked>
#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @cumsum_kernel(%arg0: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg1: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg2: i32, %arg3: i32, %arg4: i32) attributes {noinline = false} {
    %cst = arith.constant dense<0.000000e+00> : tensor<256xf32, #blocked>
    %0 = tt.get_program_id x : i32
    %1 = tt.make_range {end = 256 : i32, start = 0 : i32} : tensor<256xi32, #blocked>
    %2 = tt.splat %arg2 : i32 -> tensor<256xi32, #blocked>
    %3 = arith.cmpi slt, %1, %2 : tensor<256xi32, #blocked>
    %4 = arith.muli %0, %arg3 : i32
    %5 = tt.addptr %arg0, %4 : !tt.ptr<f32>, i32
    %6 = tt.splat %5 : !tt.ptr<f32> -> tensor<256x!tt.ptr<f32>, #blocked>
    %7 = tt.addptr %6, %1 : tensor<256x!tt.ptr<f32>, #blocked>, tensor<256xi32, #blocked>
    %8 = tt.load %7, %3, %cst : tensor<256x!tt.ptr<f32>, #blocked>
    %9 = "tt.scan"(%8) <{axis = 0 : i32, reverse = false}> ({
    ^bb0(%arg5: f32, %arg6: f32):
      %14 = arith.addf %arg5, %arg6 : f32
      tt.scan.return %14 : f32
    }) : (tensor<256xf32, #blocked>) -> tensor<256xf32, #blocked>
    %10 = arith.muli %0, %arg4 : i32
    %11 = tt.addptr %arg1, %10 : !tt.ptr<f32>, i32
    %12 = tt.splat %11 : !tt.ptr<f32> -> tensor<256x!tt.ptr<f32>, #blocked>
    %13 = tt.addptr %12, %1 : tensor<256x!tt.ptr<f32>, #blocked>, tensor<256xi32, #blocked>
    tt.store %13, %9, %3 : tensor<256x!tt.ptr<f32>, #blocked>
    tt.return
  }
}

// -----

// Conversions of 1024 pointers (8 bytes each) and of the mask, one after the other.
// CHECK: ttg.shared = 8192 : i32
// CHECK-LABEL: tt.func public @histogram_kernel
// CHECK: ttg.convert_layout %{{.*}} {allocation.offset = 0 : i32} : tensor<1024x!tt.ptr<i32>, #blocked>
// CHECK: ttg.convert_layout %{{.*}} {allocation.offset = 0 : i32} : tensor<1024xi1, #blocked>
#blocked = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @histogram_kernel(%arg0: !tt.ptr<i32> {tt.divisibility = 16 : i32}, %arg1: !tt.ptr<i32> {tt.divisibility = 16 : i32}, %arg2: i32, %arg3: i32) attributes {noinline = false} {
    %cst = arith.constant dense<0> : tensor<1024xi32, #blocked>
    %cst_0 = arith.constant dense<1> : tensor<1024xi32, #blocked1>
    %c1024_i32 = arith.constant 1024 : i32
    %0 = tt.get_program_id x : i32
    %1 = arith.muli %0, %c1024_i32 : i32
    %2 = tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32, #blocked>
    %3 = tt.splat %1 : i32 -> tensor<1024xi32, #blocked>
    %4 = arith.addi %3, %2 : tensor<1024xi32, #blocked>
    %5 = tt.splat %arg2 : i32 -> tensor<1024xi32, #blocked>
    %6 = arith.cmpi slt, %4, %5 : tensor<1024xi32, #blocked>
    %7 = tt.splat %arg0 : !tt.ptr<i32> -> tensor<1024x!tt.ptr<i32>, #blocked>
    %8 = tt.addptr %7, %4 : tensor<1024x!tt.ptr<i32>, #blocked>, tensor<1024xi32, #blocked>
    %9 = tt.load %8, %6, %cst : tensor<1024x!tt.ptr<i32>, #blocked>
    %10 = arith.cmpi sge, %9, %cst : tensor<1024xi32, #blocked>
    %11 = arith.andi %6, %10 : tensor<1024xi1, #blocked>
    %12 = tt.splat %arg3 : i32 -> tensor<1024xi32, #blocked>
    %13 = arith.cmpi slt, %9, %12 : tensor<1024xi32, #blocked>
    %14 = arith.andi %11, %13 : tensor<1024xi1, #blocked>
    %15 = tt.splat %arg1 : !tt.ptr<i32> -> tensor<1024x!tt.ptr<i32>, #blocked>
    %16 = tt.addptr %15, %9 : tensor<1024x!tt.ptr<i32>, #blocked>, tensor<1024xi32, #blocked>
    %17 = ttg.convert_layout %16 : tensor<1024x!tt.ptr<i32>, #blocked> -> tensor<1024x!tt.ptr<i32>, #blocked1>
    %18 = ttg.convert_layout %14 : tensor<1024xi1, #blocked> -> tensor<1024xi1, #blocked1>
    %19 = tt.atomic_rmw add, acq_rel, gpu, %17, %cst_0, %18 : (tensor<1024x!tt.ptr<i32>, #blocked1>, tensor<1024xi32, #blocked1>, tensor<1024xi1, #blocked1>) -> tensor<1024xi32, #blocked1>
    tt.return
  }
}

// -----

// Not changed except for the total: nothing uses shared memory.
// CHECK: ttg.shared = 0 : i32
// CHECK-LABEL: tt.func public @add_kernel
// CHECK-NOT: allocation.offset
#blocked = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @add_kernel(%arg0: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg1: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg2: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg3: i32) attributes {noinline = false} {
    %c1024_i32 = arith.constant 1024 : i32
    %0 = tt.get_program_id x : i32
    %1 = arith.muli %0, %c1024_i32 : i32
    %2 = tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32, #blocked>
    %3 = tt.splat %1 : i32 -> tensor<1024xi32, #blocked>
    %4 = arith.addi %3, %2 : tensor<1024xi32, #blocked>
    %5 = tt.splat %arg3 : i32 -> tensor<1024xi32, #blocked>
    %6 = arith.cmpi slt, %4, %5 : tensor<1024xi32, #blocked>
    %7 = tt.splat %arg0 : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>, #blocked>
    %8 = tt.addptr %7, %4 : tensor<1024x!tt.ptr<f32>, #blocked>, tensor<1024xi32, #blocked>
    %9 = tt.load %8, %6 : tensor<1024x!tt.ptr<f32>, #blocked>
    %10 = tt.splat %arg1 : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>, #blocked>
    %11 = tt.addptr %10, %4 : tensor<1024x!tt.ptr<f32>, #blocked>, tensor<1024xi32, #blocked>
    %12 = tt.load %11, %6 : tensor<1024x!tt.ptr<f32>, #blocked>
    %13 = arith.addf %9, %12 : tensor<1024xf32, #blocked>
    %14 = tt.splat %arg2 : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>, #blocked>
    %15 = tt.addptr %14, %4 : tensor<1024x!tt.ptr<f32>, #blocked>, tensor<1024xi32, #blocked>
    tt.store %15, %13, %6 : tensor<1024x!tt.ptr<f32>, #blocked>
    tt.return
  }
}

// -----

// A reduction whose axis is held by one warp needs no shared memory.
// CHECK: ttg.shared = 0 : i32
// CHECK-LABEL: tt.func public @warp_local_reduce
// CHECK-NOT: allocation.offset
#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @warp_local_reduce(%x: tensor<16x32xf32, #blocked>) -> tensor<16xf32, #ttg.slice<{dim = 1, parent = #blocked}>> {
    %s = "tt.reduce"(%x) <{axis = 1 : i32}> ({
    ^bb0(%a: f32, %b: f32):
      %t = arith.addf %a, %b : f32
      tt.reduce.return %t : f32
    }) : (tensor<16x32xf32, #blocked>) -> tensor<16xf32, #ttg.slice<{dim = 1, parent = #blocked}>>
    tt.return %s : tensor<16xf32, #ttg.slice<{dim = 1, parent = #blocked}>>
  }
}

// -----

// A buffer still in use when a conversion runs: the conversion's scratch goes after it.
// CHECK: ttg.shared = 8192 : i32
// CHECK-LABEL: tt.func public @buffer_and_scratch
// CHECK: ttg.local_alloc %arg0 {allocation.offset = 0 : i32}
// CHECK: ttg.convert_layout %arg0 {allocation.offset = 4096 : i32}
#A = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#B = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @buffer_and_scratch(%x: tensor<1024xf32, #A>) -> tensor<1024xf32, #B> {
    %m = ttg.local_alloc %x : (tensor<1024xf32, #A>) -> !ttg.memdesc<1024xf32, #shared, #smem>
    %c = ttg.convert_layout %x : tensor<1024xf32, #A> -> tensor<1024xf32, #B>
    %l = ttg.local_load %m : !ttg.memdesc<1024xf32, #shared, #smem> -> tensor<1024xf32, #B>
    %s = arith.addf %c, %l : tensor<1024xf32, #B>
    tt.return %s : tensor<1024xf32, #B>
  }
}

// -----

// A gather whose indices reach across warps writes its whole source to scratch (64 x 32 x f32); a call gets
// the offset of its callee's shared memory (a virtual buffer), and ttg.shared is the largest over the
// functions nothing calls (the caller's 8192 + 256).
// CHECK: ttg.shared = 8448 : i32
// CHECK-LABEL: tt.func @gather_callee
// CHECK: tt.gather {{.*}}{allocation.offset = 0 : i32
// CHECK-LABEL: tt.func @gather_caller
// CHECK: ttg.local_alloc %arg0 {allocation.offset = 8192 : i32}
// CHECK: tt.call @gather_callee(%arg1, %arg2) {allocation.offset = 0 : i32}
#b = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [2, 2], order = [1, 0]}>
#sh = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @gather_callee(%src: tensor<64x32xf32, #b>, %idx: tensor<128x32xi32, #b>) {
    %g = tt.gather %src[%idx] {axis = 0 : i32} : (tensor<64x32xf32, #b>, tensor<128x32xi32, #b>) -> tensor<128x32xf32, #b>
    tt.return
  }
  tt.func @gather_caller(%x: tensor<64xf32, #ttg.slice<{dim = 1, parent = #b}>>, %src: tensor<64x32xf32, #b>, %idx: tensor<128x32xi32, #b>) {
    %a = ttg.local_alloc %x : (tensor<64xf32, #ttg.slice<{dim = 1, parent = #b}>>) -> !ttg.memdesc<64xf32, #sh, #smem>
    tt.call @gather_callee(%src, %idx) : (tensor<64x32xf32, #b>, tensor<128x32xi32, #b>) -> ()
    %l = ttg.local_load %a : !ttg.memdesc<64xf32, #sh, #smem> -> tensor<64xf32, #ttg.slice<{dim = 1, parent = #b}>>
    tt.return
  }
}
