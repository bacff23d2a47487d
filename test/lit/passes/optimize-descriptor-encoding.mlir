// RUN: tt-opt %s -split-input-file -triton-nvidia-optimize-descriptor-encoding | FileCheck %s

// Descriptors nothing asks anything of get Triton's default NVMMA layout for their block: 128-byte swizzle for 64
// f16 per row, 32 bytes for 16 f16, none below 8 rows, none for 1-d blocks; `rank = N` for blocks not 2-d.
// CHECK: #[[S128:.*]] = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
// CHECK: #[[S32:.*]] = #ttg.nvmma_shared<{swizzlingByteWidth = 32, transposed = false, elementBitWidth = 16}>
// CHECK: #[[S0:.*]] = #ttg.nvmma_shared<{swizzlingByteWidth = 0, transposed = false, elementBitWidth = 16}>
// CHECK: #[[R1:.*]] = #ttg.nvmma_shared<{swizzlingByteWidth = 0, transposed = false, elementBitWidth = 32, rank = 1}>
// CHECK: #[[R3:.*]] = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16, rank = 3}>
// CHECK: tt.func public @kernel(%arg0: !tt.tensordesc<tensor<64x64xf16, #[[S128]]>>, %arg1: i32, %arg2: !tt.tensordesc<tensor<8x16xf16, #[[S32]]>>, %arg3: !tt.tensordesc<tensor<4x64xf16, #[[S0]]>>, %arg4: !tt.tensordesc<tensor<16xf32, #[[R1]]>>, %arg5: !tt.ptr<f16>, %arg6: i64)
// CHECK: tt.make_tensor_descriptor %arg5, [%arg1, %arg1, %arg1], [%arg6, %arg6, %arg6] : <f16>, <tensor<2x16x64xf16, #[[R3]]>>
// CHECK: tt.descriptor_load %arg0[%arg1, %arg1] : !tt.tensordesc<tensor<64x64xf16, #[[S128]]>> -> tensor<64x64xf16, #{{.*}}>
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @kernel(%a: !tt.tensordesc<tensor<64x64xf16>>, %i: i32, %b: !tt.tensordesc<tensor<8x16xf16>>, %c: !tt.tensordesc<tensor<4x64xf16>>, %d: !tt.tensordesc<tensor<16xf32>>, %p: !tt.ptr<f16>, %s: i64) {
    %m = tt.make_tensor_descriptor %p, [%i, %i, %i], [%s, %s, %s] : <f16>, <tensor<2x16x64xf16>>
    %0 = tt.descriptor_load %a[%i, %i] : !tt.tensordesc<tensor<64x64xf16>> -> tensor<64x64xf16, #blocked>
    tt.return
  }
}

// -----

// A load whose value a local_alloc (or local_store) keeps in an untransposed NVMMA layout gives the descriptor that
// layout (64-byte swizzle, not the default 128); a transposed one or a swizzled one is not a TMA layout and leaves
// the default. Existing layouts are replaced.
// CHECK-DAG: #[[S64:.*]] = #ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = false, elementBitWidth = 16}>
// CHECK-DAG: #[[S128:.*]] = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
// CHECK-LABEL: tt.func public @wanted
// CHECK-SAME: %arg0: !tt.tensordesc<tensor<64x64xf16, #[[S64]]>>
// CHECK-SAME: %arg1: !tt.tensordesc<tensor<64x64xf16, #[[S64]]>>
// CHECK-SAME: %arg2: !tt.tensordesc<tensor<64x64xf16, #[[S128]]>>
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#nv64 = #ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = false, elementBitWidth = 16}>
#nvt = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @wanted(%a: !tt.tensordesc<tensor<64x64xf16>>, %b: !tt.tensordesc<tensor<64x64xf16, #nvt>>, %c: !tt.tensordesc<tensor<64x64xf16>>, %i: i32, %buf: !ttg.memdesc<64x64xf16, #nv64, #smem, mutable>) {
    %0 = tt.descriptor_load %a[%i, %i] : !tt.tensordesc<tensor<64x64xf16>> -> tensor<64x64xf16, #blocked>
    %1 = ttg.local_alloc %0 : (tensor<64x64xf16, #blocked>) -> !ttg.memdesc<64x64xf16, #nv64, #smem>
    %2 = tt.descriptor_load %b[%i, %i] : !tt.tensordesc<tensor<64x64xf16, #nvt>> -> tensor<64x64xf16, #blocked>
    ttg.local_store %2, %buf : tensor<64x64xf16, #blocked> -> !ttg.memdesc<64x64xf16, #nv64, #smem, mutable>
    %3 = tt.descriptor_load %c[%i, %i] : !tt.tensordesc<tensor<64x64xf16>> -> tensor<64x64xf16, #blocked>
    %4 = ttg.local_alloc %3 : (tensor<64x64xf16, #blocked>) -> !ttg.memdesc<64x64xf16, #nvt, #smem>
    tt.return
  }
}

// -----

// A gather or scatter asks for the layout of the rows it moves: 32 rows of 32 bytes swizzle 32 bytes, where the
// one-row block alone would not swizzle. A rank-reducing load asks for its shape with the unit dimension back.
// CHECK-DAG: #[[G:.*]] = #ttg.nvmma_shared<{swizzlingByteWidth = 32, transposed = false, elementBitWidth = 8}>
// CHECK-DAG: #[[R3:.*]] = #ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = false, elementBitWidth = 16, rank = 3}>
// CHECK-LABEL: tt.func public @shapes
// CHECK-SAME: %arg0: !tt.tensordesc<tensor<1x32xi8, #[[G]]>>
// CHECK-SAME: %arg1: !tt.tensordesc<tensor<1x32xi8, #[[G]]>>
// CHECK-SAME: %arg2: !tt.tensordesc<tensor<1x16x32xf16, #[[R3]]>>
#rows = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:100", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @shapes(%g: !tt.tensordesc<tensor<1x32xi8>>, %s: !tt.tensordesc<tensor<1x32xi8>>, %r: !tt.tensordesc<tensor<1x16x32xf16>>, %x: tensor<32xi32, #rows>, %i: i32, %v: tensor<32x32xi8, #blocked>) {
    %0 = tt.descriptor_gather %g[%x, %i] : (!tt.tensordesc<tensor<1x32xi8>>, tensor<32xi32, #rows>, i32) -> tensor<32x32xi8, #blocked>
    tt.descriptor_scatter %s[%x, %i], %v : !tt.tensordesc<tensor<1x32xi8>>, tensor<32xi32, #rows>, i32, tensor<32x32xi8, #blocked>
    %1 = tt.descriptor_load %r[%i, %i, %i] : !tt.tensordesc<tensor<1x16x32xf16>> -> tensor<16x32xf16, #blocked>
    tt.return
  }
}

// -----

// Descriptors crossing a function boundary get the default layout of their block whatever their uses want: the
// arguments of a private (device) function, what is passed to or returned from a call, what is returned, what
// ttng.reinterpret_tensor_descriptor makes; so do the function's descriptor results.
// CHECK-DAG: #[[D:.*]] = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
// CHECK-LABEL: tt.func public @caller
// CHECK-SAME: (%arg0: !tt.tensordesc<tensor<64x64xf16, #[[D]]>>
// CHECK: tt.call @callee(%arg0, %arg1) : (!tt.tensordesc<tensor<64x64xf16, #[[D]]>>, i32) -> !tt.tensordesc<tensor<64x64xf16, #[[D]]>>
// CHECK: ttng.reinterpret_tensor_descriptor %arg2 : !tt.ptr<i8> to !tt.tensordesc<tensor<64x64xf16, #[[D]]>>
// CHECK-LABEL: tt.func private @callee
// CHECK-SAME: (%arg0: !tt.tensordesc<tensor<64x64xf16, #[[D]]>>, %arg1: i32) -> !tt.tensordesc<tensor<64x64xf16, #[[D]]>>
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#nv64 = #ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @caller(%a: !tt.tensordesc<tensor<64x64xf16>>, %i: i32, %raw: !tt.ptr<i8>) {
    %0 = tt.call @callee(%a, %i) : (!tt.tensordesc<tensor<64x64xf16>>, i32) -> !tt.tensordesc<tensor<64x64xf16>>
    %1 = ttng.reinterpret_tensor_descriptor %raw : !tt.ptr<i8> to !tt.tensordesc<tensor<64x64xf16>>
    %2 = tt.descriptor_load %1[%i, %i] : !tt.tensordesc<tensor<64x64xf16>> -> tensor<64x64xf16, #blocked>
    %3 = ttg.local_alloc %2 : (tensor<64x64xf16, #blocked>) -> !ttg.memdesc<64x64xf16, #nv64, #smem>
    tt.return
  }
  tt.func private @callee(%d: !tt.tensordesc<tensor<64x64xf16>>, %i: i32) -> !tt.tensordesc<tensor<64x64xf16>> {
    %0 = tt.descriptor_load %d[%i, %i] : !tt.tensordesc<tensor<64x64xf16>> -> tensor<64x64xf16, #blocked>
    %1 = ttg.local_alloc %0 : (tensor<64x64xf16, #blocked>) -> !ttg.memdesc<64x64xf16, #nv64, #smem>
    tt.return %d : !tt.tensordesc<tensor<64x64xf16>>
  }
}

// -----

// What a descriptor wants spreads to the values a loop ties to it (init, region argument, yielded value, result):
// the load after the loop wants 64-byte swizzle, so the descriptor made before it has it. Two uses wanting
// different layouts get the default.
// CHECK-DAG: #[[S64:.*]] = #ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = false, elementBitWidth = 16}>
// CHECK-DAG: #[[S128:.*]] = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
// CHECK-LABEL: tt.func public @spread
// CHECK: tt.make_tensor_descriptor {{.*}} : <f16>, <tensor<64x64xf16, #[[S64]]>>
// CHECK: scf.for {{.*}} -> (!tt.tensordesc<tensor<64x64xf16, #[[S64]]>>)
// CHECK: tt.descriptor_load %arg0{{.*}} : !tt.tensordesc<tensor<64x64xf16, #[[S128]]>>
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#nv32 = #ttg.nvmma_shared<{swizzlingByteWidth = 32, transposed = false, elementBitWidth = 16}>
#nv64 = #ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @spread(%a: !tt.tensordesc<tensor<64x64xf16>>, %p: !tt.ptr<f16>, %i: i32, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c1l = arith.constant 1 : i64
    %c64l = arith.constant 64 : i64
    %d = tt.make_tensor_descriptor %p, [%i, %i], [%c64l, %c1l] : <f16>, <tensor<64x64xf16>>
    %r = scf.for %k = %c0 to %n step %c1 iter_args(%x = %d) -> (!tt.tensordesc<tensor<64x64xf16>>) : i32 {
      scf.yield %x : !tt.tensordesc<tensor<64x64xf16>>
    }
    %0 = tt.descriptor_load %r[%i, %i] : !tt.tensordesc<tensor<64x64xf16>> -> tensor<64x64xf16, #blocked>
    %1 = ttg.local_alloc %0 : (tensor<64x64xf16, #blocked>) -> !ttg.memdesc<64x64xf16, #nv64, #smem>
    %2 = tt.descriptor_load %a[%i, %i] : !tt.tensordesc<tensor<64x64xf16>> -> tensor<64x64xf16, #blocked>
    %3 = ttg.local_alloc %2 : (tensor<64x64xf16, #blocked>) -> !ttg.memdesc<64x64xf16, #nv64, #smem>
    %4 = tt.descriptor_load %a[%i, %i] : !tt.tensordesc<tensor<64x64xf16>> -> tensor<64x64xf16, #blocked>
    %5 = ttg.local_alloc %4 : (tensor<64x64xf16, #blocked>) -> !ttg.memdesc<64x64xf16, #nv32, #smem>
    tt.return
  }
}
