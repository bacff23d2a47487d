// RUN: tt-opt %s -split-input-file -tritongpu-optimize-thread-locality | FileCheck %s

// An accumulated row reduction of a loaded tile with 4 elements per thread along the row: the loop keeps a
// per-thread partial tile (32x32, the row split into 32 threads x 8 elements), reduced once after the loop.
// The max accumulator starts at -inf.
// CHECK: #[[B3:.*]] = #ttg.blocked<{sizePerThread = [1, 1, 4], threadsPerWarp = [1, 32, 1], warpsPerCTA = [4, 1, 1], order = [2, 1, 0]}>
// CHECK-LABEL: tt.func public @row_max
// CHECK: %[[NEG:.*]] = arith.constant dense<0xFF800000> : tensor<32x32xf32, #ttg.slice<{dim = 2, parent = #[[B3]]}>>
// CHECK: %[[LOOP:.*]]:2 = scf.for {{.*}} iter_args(%[[OLD:.*]] = %{{.*}}, %[[PART:.*]] = %[[NEG]])
// CHECK: %[[X:.*]] = tt.load
// CHECK: %[[V:.*]] = tt.reshape %[[X]] allow_reorder efficient_layout : tensor<32x256xf32, #{{.*}}> -> tensor<32x32x8xf32, #[[B3]]>
// CHECK: %[[R:.*]] = "tt.reduce"(%[[V]]) <{axis = 2 : i32}>
// CHECK: %[[U:.*]] = arith.maxnumf %[[PART]], %[[R]]
// CHECK: scf.yield %[[OLD]], %[[U]]
// CHECK: %[[POST:.*]] = "tt.reduce"(%[[LOOP]]#1) <{axis = 1 : i32}>
// CHECK: %[[C:.*]] = ttg.convert_layout %[[POST]]
// CHECK: %[[F:.*]] = arith.maxnumf %cst, %[[C]]
// CHECK: tt.store %arg1, %[[F]]
#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#slice = #ttg.slice<{dim = 1, parent = #blocked}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @row_max(%ptr: tensor<32x256x!tt.ptr<f32>, #blocked>, %out: tensor<32x!tt.ptr<f32>, #slice>, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %cst = arith.constant dense<0xFF800000> : tensor<32xf32, #slice>
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %cst) -> (tensor<32xf32, #slice>) : i32 {
      %x = tt.load %ptr : tensor<32x256x!tt.ptr<f32>, #blocked>
      %s = "tt.reduce"(%x) <{axis = 1 : i32}> ({
      ^bb0(%a: f32, %b: f32):
        %t = arith.maxnumf %a, %b : f32
        tt.reduce.return %t : f32
      }) : (tensor<32x256xf32, #blocked>) -> tensor<32xf32, #slice>
      %u = arith.maxnumf %acc, %s : tensor<32xf32, #slice>
      scf.yield %u : tensor<32xf32, #slice>
    }
    tt.store %out, %r : tensor<32x!tt.ptr<f32>, #slice>
    tt.return
  }
}

// -----

// A reordering reshape feeding a reduction gets a layout with the reduced axis slowest (no cross-thread
// exchange), marked efficient_layout; the reduction reads it through a conversion.
// CHECK: #[[OLD:.*]] = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [1, 4], order = [1, 0]}>
// CHECK: #[[NEW:.*]] = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
// CHECK-LABEL: tt.func public @reshape_reduce
// CHECK: %[[V:.*]] = tt.reshape %arg0 allow_reorder efficient_layout : tensor<1024xf32, #{{.*}}> -> tensor<8x128xf32, #[[NEW]]>
// CHECK-NEXT: %[[C:.*]] = ttg.convert_layout %[[V]] : tensor<8x128xf32, #[[NEW]]> -> tensor<8x128xf32, #[[OLD]]>
// CHECK-NEXT: "tt.reduce"(%[[C]]) <{axis = 1 : i32}>
#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#blocked2 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [1, 4], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @reshape_reduce(%x: tensor<1024xf32, #blocked>) -> tensor<8xf32, #ttg.slice<{dim = 1, parent = #blocked2}>> {
    %v = tt.reshape %x allow_reorder : tensor<1024xf32, #blocked> -> tensor<8x128xf32, #blocked2>
    %s = "tt.reduce"(%v) <{axis = 1 : i32}> ({
    ^bb0(%a: f32, %b: f32):
      %t = arith.addf %a, %b : f32
      tt.reduce.return %t : f32
    }) : (tensor<8x128xf32, #blocked2>) -> tensor<8xf32, #ttg.slice<{dim = 1, parent = #blocked2}>>
    tt.return %s : tensor<8xf32, #ttg.slice<{dim = 1, parent = #blocked2}>>
  }
}

// -----

// Not changed: the reduction is not along the innermost dimension.
// CHECK-LABEL: tt.func public @col_sum_not_innermost
// CHECK-NOT: tt.reshape
// CHECK: scf.for {{.*}} -> (tensor<32xf32, #ttg.slice<{dim = 0, parent = #blocked}>>)
// CHECK-NOT: tt.reshape
#blocked = #ttg.blocked<{sizePerThread = [4, 1], threadsPerWarp = [32, 1], warpsPerCTA = [1, 4], order = [0, 1]}>
#slice = #ttg.slice<{dim = 0, parent = #blocked}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @col_sum_not_innermost(%ptr: tensor<256x32x!tt.ptr<f32>, #blocked>, %out: tensor<32x!tt.ptr<f32>, #slice>, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %cst = arith.constant dense<0.000000e+00> : tensor<32xf32, #slice>
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %cst) -> (tensor<32xf32, #slice>) : i32 {
      %x = tt.load %ptr : tensor<256x32x!tt.ptr<f32>, #blocked>
      %s = "tt.reduce"(%x) <{axis = 0 : i32}> ({
      ^bb0(%a: f32, %b: f32):
        %t = arith.addf %a, %b : f32
        tt.reduce.return %t : f32
      }) : (tensor<256x32xf32, #blocked>) -> tensor<32xf32, #slice>
      %u = arith.addf %acc, %s : tensor<32xf32, #slice>
      scf.yield %u : tensor<32xf32, #slice>
    }
    tt.store %out, %r : tensor<32x!tt.ptr<f32>, #slice>
    tt.return
  }
}

// -----

// Not changed: each thread holds one element of the reduced row, so there is nothing to reduce locally.
// CHECK-LABEL: tt.func public @one_elem_per_thread
// CHECK-NOT: tt.reshape
// CHECK: scf.for {{.*}} -> (tensor<4xf32, #ttg.slice<{dim = 1, parent = #blocked}>>)
// CHECK-NOT: tt.reshape
#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#slice = #ttg.slice<{dim = 1, parent = #blocked}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @one_elem_per_thread(%ptr: tensor<4x32x!tt.ptr<f32>, #blocked>, %out: tensor<4x!tt.ptr<f32>, #slice>, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %cst = arith.constant dense<0.000000e+00> : tensor<4xf32, #slice>
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %cst) -> (tensor<4xf32, #slice>) : i32 {
      %x = tt.load %ptr : tensor<4x32x!tt.ptr<f32>, #blocked>
      %s = "tt.reduce"(%x) <{axis = 1 : i32}> ({
      ^bb0(%a: f32, %b: f32):
        %t = arith.addf %a, %b : f32
        tt.reduce.return %t : f32
      }) : (tensor<4x32xf32, #blocked>) -> tensor<4xf32, #slice>
      %u = arith.addf %acc, %s : tensor<4xf32, #slice>
      scf.yield %u : tensor<4xf32, #slice>
    }
    tt.store %out, %r : tensor<4x!tt.ptr<f32>, #slice>
    tt.return
  }
}

// -----

// Not changed: a 1-D reduction to a scalar.
// CHECK-LABEL: tt.func public @one_dimensional
// CHECK-NOT: tt.reshape
// CHECK: scf.for {{.*}} -> (f32)
// CHECK: "tt.reduce"(%{{.*}}) <{axis = 0 : i32}>
// CHECK-NOT: tt.reshape
#blocked = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @one_dimensional(%ptr: tensor<1024x!tt.ptr<f32>, #blocked>, %out: !tt.ptr<f32>, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %zero = arith.constant 0.000000e+00 : f32
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (f32) : i32 {
      %x = tt.load %ptr : tensor<1024x!tt.ptr<f32>, #blocked>
      %s = "tt.reduce"(%x) <{axis = 0 : i32}> ({
      ^bb0(%a: f32, %b: f32):
        %t = arith.addf %a, %b : f32
        tt.reduce.return %t : f32
      }) : (tensor<1024xf32, #blocked>) -> f32
      %u = arith.addf %acc, %s : f32
      scf.yield %u : f32
    }
    tt.store %out, %r : !tt.ptr<f32>
    tt.return
  }
}

// -----

// Gathers get a layout that keeps each column along the gather axis in one warp: along axis 0 of a 32x32
// source, 32 lanes down the column and the 4 warps across; along axis 1, 32 lanes along the row and the warps
// down. Source and indices are converted to it, the result back, and the gather is marked efficient_layout.
// CHECK-DAG: #[[COLS:.*]] = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [1, 4], order = [0, 1]}>
// CHECK-DAG: #[[ROWS:.*]] = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-LABEL: tt.func public @gathers
// CHECK: %[[S0:.*]] = ttg.convert_layout %arg0 : {{.*}} -> tensor<32x32xf32, #[[COLS]]>
// CHECK-NEXT: %[[I0:.*]] = ttg.convert_layout %arg1 : {{.*}} -> tensor<64x32xi32, #[[COLS]]>
// CHECK-NEXT: %[[G0:.*]] = tt.gather %[[S0]][%[[I0]]] {axis = 0 : i32, efficient_layout} : (tensor<32x32xf32, #[[COLS]]>, tensor<64x32xi32, #[[COLS]]>) -> tensor<64x32xf32, #[[COLS]]>
// CHECK-NEXT: %[[R0:.*]] = ttg.convert_layout %[[G0]] : tensor<64x32xf32, #[[COLS]]> -> tensor<64x32xf32, #blocked>
// CHECK: tt.gather {{.*}} {axis = 1 : i32, efficient_layout} : (tensor<32x32xf32, #[[ROWS]]>, tensor<32x32xi32, #[[ROWS]]>) -> tensor<32x32xf32, #[[ROWS]]>
// CHECK: tt.return %[[R0]], %{{.*}}
#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @gathers(%src: tensor<32x32xf32, #blocked>, %rows: tensor<64x32xi32, #blocked>, %perm: tensor<32x32xi32, #blocked>) -> (tensor<64x32xf32, #blocked>, tensor<32x32xf32, #blocked>) {
    %0 = tt.gather %src[%rows] {axis = 0 : i32} : (tensor<32x32xf32, #blocked>, tensor<64x32xi32, #blocked>) -> tensor<64x32xf32, #blocked>
    %1 = tt.gather %src[%perm] {axis = 1 : i32} : (tensor<32x32xf32, #blocked>, tensor<32x32xi32, #blocked>) -> tensor<32x32xf32, #blocked>
    tt.return %0, %1 : tensor<64x32xf32, #blocked>, tensor<32x32xf32, #blocked>
  }
}

// -----

// A 1-D gather keeps its layout.
// CHECK-LABEL: tt.func public @gather_1d
// CHECK-NOT: ttg.convert_layout
// CHECK: tt.gather %arg0[%arg1] {axis = 0 : i32} : (tensor<256xf32, #blocked>, tensor<256xi32, #blocked>) -> tensor<256xf32, #blocked>
#blocked = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @gather_1d(%src: tensor<256xf32, #blocked>, %idx: tensor<256xi32, #blocked>) -> tensor<256xf32, #blocked> {
    %0 = tt.gather %src[%idx] {axis = 0 : i32} : (tensor<256xf32, #blocked>, tensor<256xi32, #blocked>) -> tensor<256xf32, #blocked>
    tt.return %0 : tensor<256xf32, #blocked>
  }
}

// -----

// A gather's layout spreads lanes over the other dimensions in the source's thread order as Triton reads it off
// the linear layout: dimension 1 (extent 2) is held in registers, so its lanes broadcast and it comes after
// dimension 0, though the layout's order puts it first.
// CHECK: #[[G:.*]] = #ttg.blocked<{sizePerThread = [1, 1, 1], threadsPerWarp = [1, 1, 32], warpsPerCTA = [2, 2, 1], order = [2, 0, 1]}>
// CHECK-LABEL: tt.func public @gather_thread_order
// CHECK: tt.gather {{.*}} {axis = 2 : i32, efficient_layout} : (tensor<16x2x32xf16, #[[G]]>, tensor<16x2x8xi32, #[[G]]>) -> tensor<16x2x8xf16, #[[G]]>
#blocked = #ttg.blocked<{sizePerThread = [1, 2, 1], threadsPerWarp = [16, 2, 1], warpsPerCTA = [1, 1, 4], order = [1, 0, 2]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @gather_thread_order(%src: tensor<16x2x32xf16, #blocked>, %idx: tensor<16x2x8xi32, #blocked>) -> tensor<16x2x8xf16, #blocked> {
    %0 = tt.gather %src[%idx] {axis = 2 : i32} : (tensor<16x2x32xf16, #blocked>, tensor<16x2x8xi32, #blocked>) -> tensor<16x2x8xf16, #blocked>
    tt.return %0 : tensor<16x2x8xf16, #blocked>
  }
}
