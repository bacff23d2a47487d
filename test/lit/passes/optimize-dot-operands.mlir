// RUN: tt-opt %s -split-input-file -tritongpu-optimize-dot-operands | FileCheck %s

// A wgmma operand stored from a register transpose (attention's K^T): the untransposed tensor is stored in the
// nvmma_shared layout of its own order and the descriptor is transposed instead; the tt.trans goes away.
// CHECK-DAG: #[[S:.*]] = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
// CHECK-DAG: #[[ST:.*]] = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 16}>
// CHECK-LABEL: tt.func public @fuse_trans
// CHECK-NOT: tt.trans
// CHECK: %[[A:.*]] = ttg.local_alloc %arg0 : (tensor<64x64xf16, #{{.*}}>) -> !ttg.memdesc<64x64xf16, #[[S]], #smem>
// CHECK-NEXT: %[[T:.*]] = ttg.memdesc_trans %[[A]] {order = array<i32: 1, 0>} : !ttg.memdesc<64x64xf16, #[[S]], #smem> -> !ttg.memdesc<64x64xf16, #[[ST]], #smem>
// CHECK-NEXT: ttng.warp_group_dot %arg1, %[[T]], %arg2
#lk = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#bt = #ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#s = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#st = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @fuse_trans(%k: tensor<64x64xf16, #lk>, %q: !ttg.memdesc<64x64xf16, #s, #smem>, %c: tensor<64x64xf32, #mma>) -> tensor<64x64xf32, #mma> {
    %kt = tt.trans %k {order = array<i32: 1, 0>} : tensor<64x64xf16, #lk> -> tensor<64x64xf16, #bt>
    %m = ttg.local_alloc %kt : (tensor<64x64xf16, #bt>) -> !ttg.memdesc<64x64xf16, #st, #smem>
    %d = ttng.warp_group_dot %q, %m, %c : !ttg.memdesc<64x64xf16, #s, #smem> * !ttg.memdesc<64x64xf16, #st, #smem> -> tensor<64x64xf32, #mma>
    tt.return %d : tensor<64x64xf32, #mma>
  }
}

// -----

// 32-bit elements too (Triton's FuseTransMMAV3Plus checks no element type): the inner buffer's layout is the
// transpose of the old one, so the wgmma reads the same K-major bytes through the transposed descriptor.
// CHECK-DAG: #[[S32:.*]] = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 32}>
// CHECK-DAG: #[[ST32:.*]] = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 32}>
// CHECK-LABEL: tt.func public @tf32_fuses_trans
// CHECK-NOT: tt.trans
// CHECK: %[[A:.*]] = ttg.local_alloc %arg0 : (tensor<64x32xf32, #{{.*}}>) -> !ttg.memdesc<64x32xf32, #[[S32]], #smem>
// CHECK-NEXT: ttg.memdesc_trans %[[A]] {order = array<i32: 1, 0>} : !ttg.memdesc<64x32xf32, #[[S32]], #smem> -> !ttg.memdesc<32x64xf32, #[[ST32]], #smem>
#lk = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#bt = #ttg.blocked<{sizePerThread = [4, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 8]}>
#s = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 32}>
#st = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 32}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @tf32_fuses_trans(%k: tensor<64x32xf32, #lk>, %q: !ttg.memdesc<64x64xf32, #s, #smem>, %c: tensor<64x32xf32, #mma>) -> tensor<64x32xf32, #mma> {
    %kt = tt.trans %k {order = array<i32: 1, 0>} : tensor<64x32xf32, #lk> -> tensor<32x64xf32, #bt>
    %m = ttg.local_alloc %kt : (tensor<32x64xf32, #bt>) -> !ttg.memdesc<32x64xf32, #st, #smem>
    %d = ttng.warp_group_dot %q, %m, %c {inputPrecision = 0 : i32} : !ttg.memdesc<64x64xf32, #s, #smem> * !ttg.memdesc<32x64xf32, #st, #smem> -> tensor<64x32xf32, #mma>
    tt.return %d : tensor<64x32xf32, #mma>
  }
}

// -----

// An MMA v2 operand converted from a register transpose (attention's K^T on sm80) goes through shared memory:
// the untransposed tensor is stored swizzled for the operand as seen before the transpose (Triton's needTrans:
// vec and stride swapped), and the transposed descriptor is loaded in the operand's layout.
// CHECK-DAG: #[[SW:.*]] = #ttg.swizzled_shared<{vec = 8, perPhase = 2, maxPhase = 4, order = [1, 0]}>
// CHECK-DAG: #[[SWT:.*]] = #ttg.swizzled_shared<{vec = 8, perPhase = 2, maxPhase = 4, order = [0, 1]}>
// CHECK-LABEL: tt.func public @mma_v2_transposed_b
// CHECK-NEXT: %[[A:.*]] = ttg.local_alloc %arg1 : (tensor<64x32xf16, #{{.*}}>) -> !ttg.memdesc<64x32xf16, #[[SW]], #smem>
// CHECK-NEXT: %[[T:.*]] = ttg.memdesc_trans %[[A]] {order = array<i32: 1, 0>} : !ttg.memdesc<64x32xf16, #[[SW]], #smem> -> !ttg.memdesc<32x64xf16, #[[SWT]], #smem>
// CHECK-NEXT: %[[L:.*]] = ttg.local_load %[[T]] : !ttg.memdesc<32x64xf16, #[[SWT]], #smem> -> tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>
// CHECK-NEXT: tt.dot %arg0, %[[L]], %arg2
#bn = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#bt = #ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @mma_v2_transposed_b(%a: tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>, %k: tensor<64x32xf16, #bn>, %c: tensor<64x64xf32, #mma>) -> tensor<64x64xf32, #mma> {
    %kt = tt.trans %k {order = array<i32: 1, 0>} : tensor<64x32xf16, #bn> -> tensor<32x64xf16, #bt>
    %b = ttg.convert_layout %kt : tensor<32x64xf16, #bt> -> tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>
    %d = tt.dot %a, %b, %c : tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>> * tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>> -> tensor<64x64xf32, #mma>
    tt.return %d : tensor<64x64xf32, #mma>
  }
}

// -----

// A tcgen05 MMA operand is fused the same way (Triton's FuseTransMMAV3Plus covers MMAv5), and in a 2-CTA module
// the CGALayout is transposed with the layout: the inner buffer splits the first dimension over the CTAs.
// CHECK-DAG: #[[B2:.*]] = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0], CGALayout = {{\[\[1, 0\]\]}}}>
// CHECK-DAG: #[[N:.*]] = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16, CGALayout = {{\[\[0, 1\]\]}}}>
// CHECK-DAG: #[[NT:.*]] = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 16, CGALayout = {{\[\[1, 0\]\]}}}>
// CHECK-LABEL: tt.func @tcgen05_fuse_trans_2cta
// CHECK-NOT: tt.trans
// CHECK: %[[A:.*]] = ttg.local_alloc %arg0 : (tensor<128x64xf16, #[[B2]]>) -> !ttg.memdesc<128x64xf16, #[[NT]], #smem>
// CHECK-NEXT: %[[T:.*]] = ttg.memdesc_trans %[[A]] {order = array<i32: 1, 0>} : !ttg.memdesc<128x64xf16, #[[NT]], #smem> -> !ttg.memdesc<64x128xf16, #[[N]], #smem>
// CHECK-NEXT: ttng.tc_gen5_mma %arg1, %[[T]], %arg2
#b = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0], CGALayout = [[1, 0]]}>
#bt = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [1, 4], order = [0, 1], CGALayout = [[0, 1]]}>
#sa = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16, CGALayout = [[1, 0]]}>
#sb = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16, CGALayout = [[0, 1]]}>
#smem = #ttg.shared_memory
#tmem = #ttng.tensor_memory_encoding<blockM = 128, blockN = 128, colStride = 1>
module attributes {"ttg.num-ctas" = 2 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:100", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @tcgen05_fuse_trans_2cta(%x: tensor<128x64xf16, #b>, %a: !ttg.memdesc<256x64xf16, #sa, #smem>, %acc: !ttg.memdesc<256x128xf32, #tmem, #ttng.tensor_memory, mutable>) {
    %true = arith.constant true
    %xt = tt.trans %x {order = array<i32: 1, 0>} : tensor<128x64xf16, #b> -> tensor<64x128xf16, #bt>
    %m = ttg.local_alloc %xt : (tensor<64x128xf16, #bt>) -> !ttg.memdesc<64x128xf16, #sb, #smem>
    ttng.tc_gen5_mma %a, %m, %acc, %true, %true : !ttg.memdesc<256x64xf16, #sa, #smem>, !ttg.memdesc<64x128xf16, #sb, #smem>, !ttg.memdesc<256x128xf32, #tmem, #ttng.tensor_memory, mutable>
    tt.return
  }
}

// -----

// A buffer stored from a reshape keeps the reshape's source shape when an nvmma_shared layout of that shape is a
// view of the buffer's (ReshapeMemDesc): the reshape becomes a ttg.memdesc_reshape of the descriptor.
// CHECK-DAG: #[[S2:.*]] = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
// CHECK-DAG: #[[S3:.*]] = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16, rank = 3}>
// CHECK-LABEL: tt.func @reshape_memdesc
// CHECK-NOT: tt.reshape
// CHECK: %[[A:.*]] = ttg.local_alloc %arg0 : (tensor<4x16x64xf16, #{{.*}}>) -> !ttg.memdesc<4x16x64xf16, #[[S3]], #smem>
// CHECK-NEXT: %[[R:.*]] = ttg.memdesc_reshape %[[A]] : !ttg.memdesc<4x16x64xf16, #[[S3]], #smem> -> !ttg.memdesc<64x64xf16, #[[S2]], #smem>
// CHECK-NEXT: tt.return %[[R]]
#b3 = #ttg.blocked<{sizePerThread = [1, 1, 8], threadsPerWarp = [1, 4, 8], warpsPerCTA = [1, 4, 1], order = [2, 1, 0]}>
#b2 = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#s = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:100", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @reshape_memdesc(%x: tensor<4x16x64xf16, #b3>) -> !ttg.memdesc<64x64xf16, #s, #smem> {
    %r = tt.reshape %x : tensor<4x16x64xf16, #b3> -> tensor<64x64xf16, #b2>
    %m = ttg.local_alloc %r : (tensor<64x64xf16, #b2>) -> !ttg.memdesc<64x64xf16, #s, #smem>
    tt.return %m : !ttg.memdesc<64x64xf16, #s, #smem>
  }
}

// -----

// Not when the buffer is transposed (its contiguous dimension is the one the reshape splits).
// CHECK-LABEL: tt.func @reshape_memdesc_transposed
// CHECK-NOT: ttg.memdesc_reshape
// CHECK: tt.reshape
#b3 = #ttg.blocked<{sizePerThread = [1, 1, 8], threadsPerWarp = [1, 4, 8], warpsPerCTA = [1, 4, 1], order = [2, 1, 0]}>
#b2 = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#s = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:100", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @reshape_memdesc_transposed(%x: tensor<4x16x64xf16, #b3>) -> !ttg.memdesc<64x64xf16, #s, #smem> {
    %r = tt.reshape %x : tensor<4x16x64xf16, #b3> -> tensor<64x64xf16, #b2>
    %m = ttg.local_alloc %r : (tensor<64x64xf16, #b2>) -> !ttg.memdesc<64x64xf16, #s, #smem>
    tt.return %m : !ttg.memdesc<64x64xf16, #s, #smem>
  }
}

// -----

// Block scales that registers only re-arrange (reshape to (M/128, K/4, 32, 4, 4), transpose (0, 3, 2, 1, 4),
// a layout conversion, reshape back) on their way from a shared buffer to tensor memory are read from the shared buffer through the same
// views (UseShmemForScales: tcgen05.cp from shared memory), when the buffer keeps 512 scales contiguous in rows of
// whole 32x128-bit chunks. A buffer of 128-scale rows (1024 bits) keeps the tensor-memory copy.
// CHECK-LABEL: tt.func @scales_in_shmem
// CHECK: %[[RS:.*]] = ttg.memdesc_reshape %arg0 : !ttg.memdesc<1x512xi8, #{{.*}}, #smem, mutable> -> !ttg.memdesc<1x1x32x4x4xi8,
// CHECK-NEXT: %[[TR:.*]] = ttg.memdesc_trans %[[RS]] {order = array<i32: 0, 3, 2, 1, 4>} : {{.*}} -> !ttg.memdesc<1x4x32x1x4xi8,
// CHECK-NEXT: %[[SC:.*]] = ttg.memdesc_reshape %[[TR]] : {{.*}} -> !ttg.memdesc<128x4xi8,
// CHECK: %[[TM:.*]] = ttng.tmem_alloc %{{.*}} : (tensor<128x4xi8, #{{.*}}>) -> !ttg.memdesc<128x4xi8, #{{.*}}, #ttng.tensor_memory>
// CHECK-NEXT: ttng.tc_gen5_mma_scaled %arg2, %arg2, %arg3, %[[SC]], %[[TM]],
#s = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 8}>
#sw = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
#b2 = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [1, 32], warpsPerCTA = [1, 4], order = [1, 0]}>
#b4 = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#b5 = #ttg.blocked<{sizePerThread = [1, 1, 1, 1, 4], threadsPerWarp = [1, 1, 8, 4, 1], warpsPerCTA = [1, 1, 4, 1, 1], order = [4, 3, 2, 1, 0]}>
#b5t = #ttg.blocked<{sizePerThread = [1, 1, 1, 1, 4], threadsPerWarp = [1, 4, 8, 1, 1], warpsPerCTA = [1, 1, 4, 1, 1], order = [4, 1, 2, 3, 0]}>
#b5c = #ttg.blocked<{sizePerThread = [1, 4, 1, 1, 4], threadsPerWarp = [1, 1, 32, 1, 1], warpsPerCTA = [1, 1, 1, 1, 4], order = [4, 3, 2, 1, 0]}>
#bs = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [32, 1], warpsPerCTA = [1, 4], order = [1, 0]}>
#tmem = #ttng.tensor_memory_encoding<blockM = 128, blockN = 128, colStride = 1>
#tmem_scales = #ttng.tensor_memory_scales_encoding<>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:100", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @scales_in_shmem(%sa: !ttg.memdesc<1x512xi8, #sw, #smem, mutable>, %sb: !ttg.memdesc<4x128xi8, #sw, #smem, mutable>, %x: !ttg.memdesc<128x128xf8E5M2, #s, #smem>, %acc: !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>) {
    %true = arith.constant true
    %la = ttg.local_load %sa : !ttg.memdesc<1x512xi8, #sw, #smem, mutable> -> tensor<1x512xi8, #b2>
    %ra = tt.reshape %la : tensor<1x512xi8, #b2> -> tensor<1x1x32x4x4xi8, #b5>
    %ta = tt.trans %ra {order = array<i32: 0, 3, 2, 1, 4>} : tensor<1x1x32x4x4xi8, #b5> -> tensor<1x4x32x1x4xi8, #b5t>
    %ca = ttg.convert_layout %ta : tensor<1x4x32x1x4xi8, #b5t> -> tensor<1x4x32x1x4xi8, #b5c>
    %a2 = tt.reshape %ca : tensor<1x4x32x1x4xi8, #b5c> -> tensor<128x4xi8, #bs>
    %am = ttng.tmem_alloc %a2 : (tensor<128x4xi8, #bs>) -> !ttg.memdesc<128x4xi8, #tmem_scales, #ttng.tensor_memory>
    %lb = ttg.local_load %sb : !ttg.memdesc<4x128xi8, #sw, #smem, mutable> -> tensor<4x128xi8, #b4>
    %rb = tt.reshape %lb : tensor<4x128xi8, #b4> -> tensor<1x1x32x4x4xi8, #b5>
    %tb = tt.trans %rb {order = array<i32: 0, 3, 2, 1, 4>} : tensor<1x1x32x4x4xi8, #b5> -> tensor<1x4x32x1x4xi8, #b5t>
    %cb = ttg.convert_layout %tb : tensor<1x4x32x1x4xi8, #b5t> -> tensor<1x4x32x1x4xi8, #b5c>
    %b2 = tt.reshape %cb : tensor<1x4x32x1x4xi8, #b5c> -> tensor<128x4xi8, #bs>
    %bm = ttng.tmem_alloc %b2 : (tensor<128x4xi8, #bs>) -> !ttg.memdesc<128x4xi8, #tmem_scales, #ttng.tensor_memory>
    ttng.tc_gen5_mma_scaled %x, %x, %acc, %am, %bm, %true, %true lhs = e5m2 rhs = e5m2 : !ttg.memdesc<128x128xf8E5M2, #s, #smem>, !ttg.memdesc<128x128xf8E5M2, #s, #smem>, !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>, !ttg.memdesc<128x4xi8, #tmem_scales, #ttng.tensor_memory>, !ttg.memdesc<128x4xi8, #tmem_scales, #ttng.tensor_memory>
    tt.return
  }
}
