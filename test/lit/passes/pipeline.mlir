// RUN: tt-opt %s -split-input-file -tritongpu-pipeline=num-stages=3 -canonicalize | FileCheck %s
// RUN: tt-opt %s -split-input-file -tritongpu-pipeline=num-stages=4 -canonicalize | FileCheck %s --check-prefix=S4
// RUN: tt-opt %s -split-input-file -tritongpu-pipeline=num-stages=1 | FileCheck %s --check-prefix=S1
// RUN: cd %S/../../.. && tt-frontend kernels/matmul.py -k matmul_kernel -s "*fp16:16,*fp16:16,*fp16:16,i32:16,i32:16,i32:16,i32:16,i32:1,i32:16,i32:1,i32:16,i32:1,64,64,32,8" \
// RUN:   | tt-opt -make-ttir | tt-opt -make-ttgir='target=cuda:80 num-warps=4 num-stages=1' -o %t.ttgir
// RUN: tt-opt %t.ttgir -tritongpu-pipeline=num-stages=3 -o %t.s3.ttgir
// RUN: cd %S/../../.. && tt-run %t.s3.ttgir --spec kernels/matmul.json --interpret --check | FileCheck %s --check-prefix=INTERP
// RUN: tt-opt %t.ttgir -tritongpu-pipeline=num-stages=5 -o %t.s5.ttgir
// RUN: cd %S/../../.. && tt-run %t.s5.ttgir --spec kernels/matmul.json --interpret --check | FileCheck %s --check-prefix=INTERP
// RUN: tt-opt %S/../../fixtures/triton/matmul_acc_i8_sm80.nodebug.ttir -make-ttgir='target=cuda:80 num-warps=4 num-stages=1' \
// RUN:   | tt-opt -tritongpu-pipeline=num-stages=3 -o %t.i8.ttgir
// RUN: FileCheck %s --check-prefix=I8 < %t.i8.ttgir
// RUN: cd %S/../../.. && tt-run %t.i8.ttgir --spec kernels/matmul_acc.json --interpret --check | FileCheck %s --check-prefix=I8-INTERP

// i8 operands (kWidth 4): A's buffer (K innermost) keeps 16 bytes together, B's (N innermost) 8; B's loads
// hold 16 contiguous bytes per thread, so its copies take a layout clipped to 8 (Triton's coalesce-async-copy),
// converted to before each copy (tritongpu-remove-layout-conversions then moves the whole address computation
// to it: make-ttgir's output has the copy layouts of Triton's, test_make_ttgir.py).
// I8-DAG: #[[B16:.*]] = #ttg.blocked<{sizePerThread = [1, 16], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
// I8-DAG: #[[B8:.*]] = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
// I8-DAG: #[[SHA:.*]] = #ttg.swizzled_shared<{vec = 16, perPhase = 4, maxPhase = 2, order = [1, 0]}>
// I8-DAG: #[[SHB:.*]] = #ttg.swizzled_shared<{vec = 8, perPhase = 2, maxPhase = 8, order = [1, 0]}>
// I8: ttg.async_copy_global_to_local {{.*}} -> <64x32xi8, #[[SHA]], #smem, mutable>
// I8: %[[P:.*]] = ttg.convert_layout %{{.*}} : tensor<32x64x!tt.ptr<i8>, #[[B16]]> -> tensor<32x64x!tt.ptr<i8>, #[[B8]]>
// I8: %[[M:.*]] = ttg.convert_layout %{{.*}} : tensor<32x64xi1, #[[B16]]> -> tensor<32x64xi1, #[[B8]]>
// I8: ttg.async_copy_global_to_local %[[P]], %{{.*}} mask %[[M]] other %{{.*}} : tensor<32x64x!tt.ptr<i8>, #[[B8]]> -> <32x64xi8, #[[SHB]], #smem, mutable>
// I8-INTERP: c: ok
// INTERP: c: ok

// The matmul kernel (kernels/matmul.json: K = 96, three iterations of BLOCK_K = 32, the last one masked) runs
// in the interpreter pipelined with 3 stages and with 5 (four stages ahead: the prologue's fourth copy is
// masked off entirely).

// Two loads feeding an MMA dot: each gets a buffer of num-stages - 1 swizzled stages (32x32 f16: 64-byte rows,
// perPhase 2, maxPhase 4), a prologue copies iterations 0 .. S-2 (masked by "iteration < n"), and the loop
// waits for its own copies, reads the stage with local_load straight into the dot operand layouts, and copies
// iteration k + S - 1 into the stage it read; the stage index wraps at S - 1.
// CHECK: #[[SH:.*]] = #ttg.swizzled_shared<{vec = 8, perPhase = 2, maxPhase = 4, order = [1, 0]}>
// CHECK-LABEL: tt.func public @mm
// CHECK: %[[A:.*]] = ttg.local_alloc : () -> !ttg.memdesc<2x32x32xf16, #[[SH]], #smem, mutable>
// CHECK: %[[B:.*]] = ttg.local_alloc : () -> !ttg.memdesc<2x32x32xf16, #[[SH]], #smem, mutable>
// CHECK: %[[A0:.*]] = ttg.memdesc_index %[[A]][%c0_i32]
// CHECK: %[[P0:.*]] = arith.cmpi sgt, %arg2, %c0_i32 : i32
// CHECK: %[[M0:.*]] = tt.splat %[[P0]] : i1 -> tensor<32x32xi1, #blocked>
// CHECK: ttg.async_copy_global_to_local %{{.*}}, %[[A0]] mask %[[M0]]
// CHECK-NEXT: ttg.async_commit_group
// CHECK: ttg.memdesc_index %[[A]][%c1_i32]
// CHECK: arith.cmpi sgt, %arg2, %c1_i32 : i32
// CHECK-COUNT-2: ttg.async_commit_group
// CHECK-NOT: ttg.async_copy_global_to_local
// CHECK: scf.for %[[K:.*]] = %c0_i32 to %arg2 step %c1_i32 iter_args(%[[ACC:.*]] = %cst, %[[AP:.*]] = %{{.*}}, %[[BP:.*]] = %{{.*}}, %[[IDX:.*]] = %c0_i32)
// CHECK-NEXT: %[[W:.*]] = ttg.async_wait {num = 2 : i32}
// CHECK-NEXT: %[[AV:.*]] = ttg.memdesc_index %[[A]][%[[IDX]]]
// CHECK-NEXT: %[[BV:.*]] = ttg.memdesc_index %[[B]][%[[IDX]]]
// CHECK-NEXT: %[[X:.*]] = ttg.local_load %[[AV]] token %[[W]] : {{.*}} -> tensor<32x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
// CHECK-NEXT: %[[Y:.*]] = ttg.local_load %[[BV]] token %[[W]] : {{.*}} -> tensor<32x32xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>
// CHECK-NEXT: %[[D:.*]] = tt.dot %[[X]], %[[Y]], %[[ACC]]
// CHECK-NEXT: %[[AHEAD:.*]] = arith.addi %[[K]], %c2_i32 : i32
// CHECK-NEXT: %[[AP2:.*]] = tt.addptr %[[AP]]
// CHECK-NEXT: %[[BP2:.*]] = tt.addptr %[[BP]]
// CHECK-NEXT: %[[V:.*]] = arith.cmpi slt, %[[AHEAD]], %arg2 : i32
// CHECK-NEXT: %[[MA:.*]] = tt.splat %[[V]]
// CHECK-NEXT: ttg.async_copy_global_to_local %[[AP]], %[[AV]] mask %[[MA]]
// CHECK-NEXT: ttg.async_commit_group
// CHECK-NEXT: %[[MB:.*]] = tt.splat %[[V]]
// CHECK-NEXT: ttg.async_copy_global_to_local %[[BP]], %[[BV]] mask %[[MB]]
// CHECK-NEXT: ttg.async_commit_group
// CHECK-NEXT: %[[I1:.*]] = arith.addi %[[IDX]], %c1_i32 : i32
// CHECK-NEXT: %[[WRAP:.*]] = arith.cmpi sge, %[[I1]], %c2_i32 : i32
// CHECK-NEXT: %[[NEXT:.*]] = arith.select %[[WRAP]], %c0_i32, %[[I1]] : i32
// CHECK-NEXT: scf.yield %[[D]], %[[AP2]], %[[BP2]], %[[NEXT]]
// CHECK-NEXT: }
// CHECK-NEXT: ttg.async_wait {num = 0 : i32}
// CHECK-NEXT: ttg.local_dealloc %[[A]]
// CHECK-NEXT: ttg.local_dealloc %[[B]]

// Four stages: three buffers, a prologue of three iterations, the wait leaves the next two iterations' four
// groups in flight, the copies run three iterations ahead.
// S4-LABEL: tt.func public @mm
// S4: ttg.local_alloc : () -> !ttg.memdesc<3x32x32xf16
// S4-COUNT-6: ttg.async_commit_group
// S4: scf.for
// S4-NEXT: ttg.async_wait {num = 4 : i32}
// S4: arith.addi %{{.*}}, %c3_i32 : i32
// S4: arith.cmpi sge, %{{.*}}, %c3_i32 : i32

// num-stages=1: no pipelining.
// S1-NOT: ttg.async_copy_global_to_local
// S1-NOT: ttg.local_alloc
#bl = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @mm(%pa: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %pb: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %n: i32) -> tensor<32x32xf32, #mma> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %zero = arith.constant dense<0.000000e+00> : tensor<32x32xf32, #mma>
    %c32 = arith.constant dense<32> : tensor<32x1xi32, #bl>
    %step = arith.constant dense<1024> : tensor<32x32xi32, #bl>
    %r = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 1, parent = #bl}>>
    %c = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 0, parent = #bl}>>
    %r2 = tt.expand_dims %r {axis = 1 : i32} : tensor<32xi32, #ttg.slice<{dim = 1, parent = #bl}>> -> tensor<32x1xi32, #bl>
    %rs = arith.muli %r2, %c32 : tensor<32x1xi32, #bl>
    %rb = tt.broadcast %rs : tensor<32x1xi32, #bl> -> tensor<32x32xi32, #bl>
    %c2 = tt.expand_dims %c {axis = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 0, parent = #bl}>> -> tensor<1x32xi32, #bl>
    %cb = tt.broadcast %c2 : tensor<1x32xi32, #bl> -> tensor<32x32xi32, #bl>
    %off = arith.addi %rb, %cb : tensor<32x32xi32, #bl>
    %as = tt.splat %pa : !tt.ptr<f16> -> tensor<32x32x!tt.ptr<f16>, #bl>
    %a = tt.addptr %as, %off : tensor<32x32x!tt.ptr<f16>, #bl>, tensor<32x32xi32, #bl>
    %bs = tt.splat %pb : !tt.ptr<f16> -> tensor<32x32x!tt.ptr<f16>, #bl>
    %b = tt.addptr %bs, %off : tensor<32x32x!tt.ptr<f16>, #bl>, tensor<32x32xi32, #bl>
    %res:3 = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %zero, %ap = %a, %bp = %b) -> (tensor<32x32xf32, #mma>, tensor<32x32x!tt.ptr<f16>, #bl>, tensor<32x32x!tt.ptr<f16>, #bl>)  : i32 {
      %x = tt.load %ap : tensor<32x32x!tt.ptr<f16>, #bl>
      %y = tt.load %bp : tensor<32x32x!tt.ptr<f16>, #bl>
      %xd = ttg.convert_layout %x : tensor<32x32xf16, #bl> -> tensor<32x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
      %yd = ttg.convert_layout %y : tensor<32x32xf16, #bl> -> tensor<32x32xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>
      %d = tt.dot %xd, %yd, %acc, inputPrecision = tf32 : tensor<32x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>> * tensor<32x32xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>> -> tensor<32x32xf32, #mma>
      %ap2 = tt.addptr %ap, %step : tensor<32x32x!tt.ptr<f16>, #bl>, tensor<32x32xi32, #bl>
      %bp2 = tt.addptr %bp, %step : tensor<32x32x!tt.ptr<f16>, #bl>, tensor<32x32xi32, #bl>
      scf.yield %d, %ap2, %bp2 : tensor<32x32xf32, #mma>, tensor<32x32x!tt.ptr<f16>, #bl>, tensor<32x32x!tt.ptr<f16>, #bl>
    }
    tt.return %res#0 : tensor<32x32xf32, #mma>
  }
}

// -----

// The loop's own tt.num_stages = 1 (what triton-loop-unroll leaves) wins over the option.
// CHECK-LABEL: tt.func public @num_stages_attr
// CHECK-NOT: ttg.local_alloc
// CHECK: tt.load
#bl = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @num_stages_attr(%pa: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %pb: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %n: i32) -> tensor<32x32xf32, #mma> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %zero = arith.constant dense<0.000000e+00> : tensor<32x32xf32, #mma>
    %c32 = arith.constant dense<32> : tensor<32x1xi32, #bl>
    %step = arith.constant dense<1024> : tensor<32x32xi32, #bl>
    %r = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 1, parent = #bl}>>
    %c = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 0, parent = #bl}>>
    %r2 = tt.expand_dims %r {axis = 1 : i32} : tensor<32xi32, #ttg.slice<{dim = 1, parent = #bl}>> -> tensor<32x1xi32, #bl>
    %rs = arith.muli %r2, %c32 : tensor<32x1xi32, #bl>
    %rb = tt.broadcast %rs : tensor<32x1xi32, #bl> -> tensor<32x32xi32, #bl>
    %c2 = tt.expand_dims %c {axis = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 0, parent = #bl}>> -> tensor<1x32xi32, #bl>
    %cb = tt.broadcast %c2 : tensor<1x32xi32, #bl> -> tensor<32x32xi32, #bl>
    %off = arith.addi %rb, %cb : tensor<32x32xi32, #bl>
    %as = tt.splat %pa : !tt.ptr<f16> -> tensor<32x32x!tt.ptr<f16>, #bl>
    %a = tt.addptr %as, %off : tensor<32x32x!tt.ptr<f16>, #bl>, tensor<32x32xi32, #bl>
    %bs = tt.splat %pb : !tt.ptr<f16> -> tensor<32x32x!tt.ptr<f16>, #bl>
    %b = tt.addptr %bs, %off : tensor<32x32x!tt.ptr<f16>, #bl>, tensor<32x32xi32, #bl>
    %res:3 = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %zero, %ap = %a, %bp = %b) -> (tensor<32x32xf32, #mma>, tensor<32x32x!tt.ptr<f16>, #bl>, tensor<32x32x!tt.ptr<f16>, #bl>)  : i32 {
      %x = tt.load %ap : tensor<32x32x!tt.ptr<f16>, #bl>
      %y = tt.load %bp : tensor<32x32x!tt.ptr<f16>, #bl>
      %xd = ttg.convert_layout %x : tensor<32x32xf16, #bl> -> tensor<32x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
      %yd = ttg.convert_layout %y : tensor<32x32xf16, #bl> -> tensor<32x32xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>
      %d = tt.dot %xd, %yd, %acc, inputPrecision = tf32 : tensor<32x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>> * tensor<32x32xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>> -> tensor<32x32xf32, #mma>
      %ap2 = tt.addptr %ap, %step : tensor<32x32x!tt.ptr<f16>, #bl>, tensor<32x32xi32, #bl>
      %bp2 = tt.addptr %bp, %step : tensor<32x32x!tt.ptr<f16>, #bl>, tensor<32x32xi32, #bl>
      scf.yield %d, %ap2, %bp2 : tensor<32x32xf32, #mma>, tensor<32x32x!tt.ptr<f16>, #bl>, tensor<32x32x!tt.ptr<f16>, #bl>
    } {tt.num_stages = 1 : i32}
    tt.return %res#0 : tensor<32x32xf32, #mma>
  }
}

// -----

// A load that is also stored is not a dot operand only: the other one is pipelined alone.
// CHECK-LABEL: tt.func public @stored
// CHECK: ttg.local_alloc
// CHECK-NOT: ttg.local_alloc
// CHECK: scf.for
// CHECK-NEXT: ttg.async_wait {num = 1 : i32}
// CHECK: %[[Y:.*]] = tt.load
// CHECK: tt.store %{{.*}}, %[[Y]]
#bl = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @stored(%pa: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %pb: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %n: i32) -> tensor<32x32xf32, #mma> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %zero = arith.constant dense<0.000000e+00> : tensor<32x32xf32, #mma>
    %c32 = arith.constant dense<32> : tensor<32x1xi32, #bl>
    %step = arith.constant dense<1024> : tensor<32x32xi32, #bl>
    %r = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 1, parent = #bl}>>
    %c = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 0, parent = #bl}>>
    %r2 = tt.expand_dims %r {axis = 1 : i32} : tensor<32xi32, #ttg.slice<{dim = 1, parent = #bl}>> -> tensor<32x1xi32, #bl>
    %rs = arith.muli %r2, %c32 : tensor<32x1xi32, #bl>
    %rb = tt.broadcast %rs : tensor<32x1xi32, #bl> -> tensor<32x32xi32, #bl>
    %c2 = tt.expand_dims %c {axis = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 0, parent = #bl}>> -> tensor<1x32xi32, #bl>
    %cb = tt.broadcast %c2 : tensor<1x32xi32, #bl> -> tensor<32x32xi32, #bl>
    %off = arith.addi %rb, %cb : tensor<32x32xi32, #bl>
    %as = tt.splat %pa : !tt.ptr<f16> -> tensor<32x32x!tt.ptr<f16>, #bl>
    %a = tt.addptr %as, %off : tensor<32x32x!tt.ptr<f16>, #bl>, tensor<32x32xi32, #bl>
    %bs = tt.splat %pb : !tt.ptr<f16> -> tensor<32x32x!tt.ptr<f16>, #bl>
    %b = tt.addptr %bs, %off : tensor<32x32x!tt.ptr<f16>, #bl>, tensor<32x32xi32, #bl>
    %res:3 = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %zero, %ap = %a, %bp = %b) -> (tensor<32x32xf32, #mma>, tensor<32x32x!tt.ptr<f16>, #bl>, tensor<32x32x!tt.ptr<f16>, #bl>)  : i32 {
      %x = tt.load %ap : tensor<32x32x!tt.ptr<f16>, #bl>
      %y = tt.load %bp : tensor<32x32x!tt.ptr<f16>, #bl>
      %xd = ttg.convert_layout %x : tensor<32x32xf16, #bl> -> tensor<32x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
      %yd = ttg.convert_layout %y : tensor<32x32xf16, #bl> -> tensor<32x32xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>
      tt.store %bp, %y : tensor<32x32x!tt.ptr<f16>, #bl>
      %d = tt.dot %xd, %yd, %acc, inputPrecision = tf32 : tensor<32x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>> * tensor<32x32xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>> -> tensor<32x32xf32, #mma>
      %ap2 = tt.addptr %ap, %step : tensor<32x32x!tt.ptr<f16>, #bl>, tensor<32x32xi32, #bl>
      %bp2 = tt.addptr %bp, %step : tensor<32x32x!tt.ptr<f16>, #bl>, tensor<32x32xi32, #bl>
      scf.yield %d, %ap2, %bp2 : tensor<32x32xf32, #mma>, tensor<32x32x!tt.ptr<f16>, #bl>, tensor<32x32x!tt.ptr<f16>, #bl>
    }
    tt.return %res#0 : tensor<32x32xf32, #mma>
  }
}

// -----

// The pointers are used after the loop (where they would hold values from iterations ahead): not pipelined.
// CHECK-LABEL: tt.func public @used_after
// CHECK-NOT: ttg.local_alloc
#bl = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @used_after(%pa: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %pb: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %n: i32) -> tensor<32x32xf32, #mma> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %zero = arith.constant dense<0.000000e+00> : tensor<32x32xf32, #mma>
    %c32 = arith.constant dense<32> : tensor<32x1xi32, #bl>
    %step = arith.constant dense<1024> : tensor<32x32xi32, #bl>
    %r = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 1, parent = #bl}>>
    %c = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 0, parent = #bl}>>
    %r2 = tt.expand_dims %r {axis = 1 : i32} : tensor<32xi32, #ttg.slice<{dim = 1, parent = #bl}>> -> tensor<32x1xi32, #bl>
    %rs = arith.muli %r2, %c32 : tensor<32x1xi32, #bl>
    %rb = tt.broadcast %rs : tensor<32x1xi32, #bl> -> tensor<32x32xi32, #bl>
    %c2 = tt.expand_dims %c {axis = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 0, parent = #bl}>> -> tensor<1x32xi32, #bl>
    %cb = tt.broadcast %c2 : tensor<1x32xi32, #bl> -> tensor<32x32xi32, #bl>
    %off = arith.addi %rb, %cb : tensor<32x32xi32, #bl>
    %as = tt.splat %pa : !tt.ptr<f16> -> tensor<32x32x!tt.ptr<f16>, #bl>
    %a = tt.addptr %as, %off : tensor<32x32x!tt.ptr<f16>, #bl>, tensor<32x32xi32, #bl>
    %bs = tt.splat %pb : !tt.ptr<f16> -> tensor<32x32x!tt.ptr<f16>, #bl>
    %b = tt.addptr %bs, %off : tensor<32x32x!tt.ptr<f16>, #bl>, tensor<32x32xi32, #bl>
    %res:3 = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %zero, %ap = %a, %bp = %b) -> (tensor<32x32xf32, #mma>, tensor<32x32x!tt.ptr<f16>, #bl>, tensor<32x32x!tt.ptr<f16>, #bl>)  : i32 {
      %x = tt.load %ap : tensor<32x32x!tt.ptr<f16>, #bl>
      %y = tt.load %bp : tensor<32x32x!tt.ptr<f16>, #bl>
      %xd = ttg.convert_layout %x : tensor<32x32xf16, #bl> -> tensor<32x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
      %yd = ttg.convert_layout %y : tensor<32x32xf16, #bl> -> tensor<32x32xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>
      %d = tt.dot %xd, %yd, %acc, inputPrecision = tf32 : tensor<32x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>> * tensor<32x32xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>> -> tensor<32x32xf32, #mma>
      %ap2 = tt.addptr %ap, %step : tensor<32x32x!tt.ptr<f16>, #bl>, tensor<32x32xi32, #bl>
      %bp2 = tt.addptr %bp, %step : tensor<32x32x!tt.ptr<f16>, #bl>, tensor<32x32xi32, #bl>
      scf.yield %d, %ap2, %bp2 : tensor<32x32xf32, #mma>, tensor<32x32x!tt.ptr<f16>, #bl>, tensor<32x32x!tt.ptr<f16>, #bl>
    }
    %last = tt.load %res#1 : tensor<32x32x!tt.ptr<f16>, #bl>
    tt.store %res#2, %last : tensor<32x32x!tt.ptr<f16>, #bl>
    tt.return %res#0 : tensor<32x32xf32, #mma>
  }
}

// -----

// Before sm80 there is no cp.async.
// CHECK-LABEL: tt.func public @sm75
// CHECK-NOT: ttg.local_alloc
#bl = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:75", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @sm75(%pa: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %pb: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %n: i32) -> tensor<32x32xf32, #mma> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %zero = arith.constant dense<0.000000e+00> : tensor<32x32xf32, #mma>
    %c32 = arith.constant dense<32> : tensor<32x1xi32, #bl>
    %step = arith.constant dense<1024> : tensor<32x32xi32, #bl>
    %r = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 1, parent = #bl}>>
    %c = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 0, parent = #bl}>>
    %r2 = tt.expand_dims %r {axis = 1 : i32} : tensor<32xi32, #ttg.slice<{dim = 1, parent = #bl}>> -> tensor<32x1xi32, #bl>
    %rs = arith.muli %r2, %c32 : tensor<32x1xi32, #bl>
    %rb = tt.broadcast %rs : tensor<32x1xi32, #bl> -> tensor<32x32xi32, #bl>
    %c2 = tt.expand_dims %c {axis = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 0, parent = #bl}>> -> tensor<1x32xi32, #bl>
    %cb = tt.broadcast %c2 : tensor<1x32xi32, #bl> -> tensor<32x32xi32, #bl>
    %off = arith.addi %rb, %cb : tensor<32x32xi32, #bl>
    %as = tt.splat %pa : !tt.ptr<f16> -> tensor<32x32x!tt.ptr<f16>, #bl>
    %a = tt.addptr %as, %off : tensor<32x32x!tt.ptr<f16>, #bl>, tensor<32x32xi32, #bl>
    %bs = tt.splat %pb : !tt.ptr<f16> -> tensor<32x32x!tt.ptr<f16>, #bl>
    %b = tt.addptr %bs, %off : tensor<32x32x!tt.ptr<f16>, #bl>, tensor<32x32xi32, #bl>
    %res:3 = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %zero, %ap = %a, %bp = %b) -> (tensor<32x32xf32, #mma>, tensor<32x32x!tt.ptr<f16>, #bl>, tensor<32x32x!tt.ptr<f16>, #bl>)  : i32 {
      %x = tt.load %ap : tensor<32x32x!tt.ptr<f16>, #bl>
      %y = tt.load %bp : tensor<32x32x!tt.ptr<f16>, #bl>
      %xd = ttg.convert_layout %x : tensor<32x32xf16, #bl> -> tensor<32x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
      %yd = ttg.convert_layout %y : tensor<32x32xf16, #bl> -> tensor<32x32xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>
      %d = tt.dot %xd, %yd, %acc, inputPrecision = tf32 : tensor<32x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>> * tensor<32x32xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>> -> tensor<32x32xf32, #mma>
      %ap2 = tt.addptr %ap, %step : tensor<32x32x!tt.ptr<f16>, #bl>, tensor<32x32xi32, #bl>
      %bp2 = tt.addptr %bp, %step : tensor<32x32x!tt.ptr<f16>, #bl>, tensor<32x32xi32, #bl>
      scf.yield %d, %ap2, %bp2 : tensor<32x32xf32, #mma>, tensor<32x32x!tt.ptr<f16>, #bl>, tensor<32x32x!tt.ptr<f16>, #bl>
    }
    tt.return %res#0 : tensor<32x32xf32, #mma>
  }
}

// -----

// A mask of the induction variable alone, shared with a load that is not pipelined (it is also stored): the
// pipelined load's copies get a clone for iteration k + 2, the original stays for the other load.
// CHECK-LABEL: tt.func public @shared_mask
// CHECK: ttg.local_alloc
// CHECK-NOT: ttg.local_alloc
// CHECK: scf.for %[[K:[^ ]*]] =
// CHECK: %[[KS:.*]] = tt.splat %[[K]]
// CHECK: %[[M:.*]] = arith.cmpi slt, %[[KS]], %{{.*}}
// CHECK-NEXT: %[[Y:.*]] = tt.load %{{.*}}, %[[M]]
// CHECK: tt.store %{{.*}}, %[[Y]]
// CHECK: %[[AHEAD:.*]] = arith.addi %[[K]], %c2_i32
// CHECK: tt.splat %[[AHEAD]]
// CHECK: ttg.async_copy_global_to_local
#bl = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @shared_mask(%pa: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %pb: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %n: i32) -> tensor<32x32xf32, #mma> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %zero = arith.constant dense<0.000000e+00> : tensor<32x32xf32, #mma>
    %c32 = arith.constant dense<32> : tensor<32x1xi32, #bl>
    %step = arith.constant dense<1024> : tensor<32x32xi32, #bl>
    %r = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 1, parent = #bl}>>
    %c = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 0, parent = #bl}>>
    %r2 = tt.expand_dims %r {axis = 1 : i32} : tensor<32xi32, #ttg.slice<{dim = 1, parent = #bl}>> -> tensor<32x1xi32, #bl>
    %rs = arith.muli %r2, %c32 : tensor<32x1xi32, #bl>
    %rb = tt.broadcast %rs : tensor<32x1xi32, #bl> -> tensor<32x32xi32, #bl>
    %c2 = tt.expand_dims %c {axis = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 0, parent = #bl}>> -> tensor<1x32xi32, #bl>
    %cb = tt.broadcast %c2 : tensor<1x32xi32, #bl> -> tensor<32x32xi32, #bl>
    %off = arith.addi %rb, %cb : tensor<32x32xi32, #bl>
    %as = tt.splat %pa : !tt.ptr<f16> -> tensor<32x32x!tt.ptr<f16>, #bl>
    %a = tt.addptr %as, %off : tensor<32x32x!tt.ptr<f16>, #bl>, tensor<32x32xi32, #bl>
    %bs = tt.splat %pb : !tt.ptr<f16> -> tensor<32x32x!tt.ptr<f16>, #bl>
    %b = tt.addptr %bs, %off : tensor<32x32x!tt.ptr<f16>, #bl>, tensor<32x32xi32, #bl>
    %res:3 = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %zero, %ap = %a, %bp = %b) -> (tensor<32x32xf32, #mma>, tensor<32x32x!tt.ptr<f16>, #bl>, tensor<32x32x!tt.ptr<f16>, #bl>)  : i32 {
      %ks = tt.splat %k : i32 -> tensor<32x32xi32, #bl>
      %ns = tt.splat %n : i32 -> tensor<32x32xi32, #bl>
      %m = arith.cmpi slt, %ks, %ns : tensor<32x32xi32, #bl>
      %x = tt.load %ap, %m : tensor<32x32x!tt.ptr<f16>, #bl>
      %y = tt.load %bp, %m : tensor<32x32x!tt.ptr<f16>, #bl>
      tt.store %bp, %y : tensor<32x32x!tt.ptr<f16>, #bl>
      %xd = ttg.convert_layout %x : tensor<32x32xf16, #bl> -> tensor<32x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
      %yd = ttg.convert_layout %y : tensor<32x32xf16, #bl> -> tensor<32x32xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>
      %d = tt.dot %xd, %yd, %acc, inputPrecision = tf32 : tensor<32x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>> * tensor<32x32xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>> -> tensor<32x32xf32, #mma>
      %ap2 = tt.addptr %ap, %step : tensor<32x32x!tt.ptr<f16>, #bl>, tensor<32x32xi32, #bl>
      %bp2 = tt.addptr %bp, %step : tensor<32x32x!tt.ptr<f16>, #bl>, tensor<32x32xi32, #bl>
      scf.yield %d, %ap2, %bp2 : tensor<32x32xf32, #mma>, tensor<32x32x!tt.ptr<f16>, #bl>, tensor<32x32x!tt.ptr<f16>, #bl>
    }
    tt.return %res#0 : tensor<32x32xf32, #mma>
  }
}

// -----

// A conversion inside an scf.if: its local_load goes where the conversion was, in the branch.
// CHECK-LABEL: tt.func public @nested_convert
// CHECK: scf.for
// CHECK: scf.if
// CHECK-NEXT: ttg.local_load {{.*}} -> tensor<32x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
// CHECK-NEXT: scf.yield
// CHECK-NEXT: } else {
// CHECK-NEXT: ttg.local_load
#bl = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @nested_convert(%pa: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %pb: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %n: i32) -> tensor<32x32xf32, #mma> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %zero = arith.constant dense<0.000000e+00> : tensor<32x32xf32, #mma>
    %c32 = arith.constant dense<32> : tensor<32x1xi32, #bl>
    %step = arith.constant dense<1024> : tensor<32x32xi32, #bl>
    %r = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 1, parent = #bl}>>
    %c = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 0, parent = #bl}>>
    %r2 = tt.expand_dims %r {axis = 1 : i32} : tensor<32xi32, #ttg.slice<{dim = 1, parent = #bl}>> -> tensor<32x1xi32, #bl>
    %rs = arith.muli %r2, %c32 : tensor<32x1xi32, #bl>
    %rb = tt.broadcast %rs : tensor<32x1xi32, #bl> -> tensor<32x32xi32, #bl>
    %c2 = tt.expand_dims %c {axis = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 0, parent = #bl}>> -> tensor<1x32xi32, #bl>
    %cb = tt.broadcast %c2 : tensor<1x32xi32, #bl> -> tensor<32x32xi32, #bl>
    %off = arith.addi %rb, %cb : tensor<32x32xi32, #bl>
    %as = tt.splat %pa : !tt.ptr<f16> -> tensor<32x32x!tt.ptr<f16>, #bl>
    %a = tt.addptr %as, %off : tensor<32x32x!tt.ptr<f16>, #bl>, tensor<32x32xi32, #bl>
    %bs = tt.splat %pb : !tt.ptr<f16> -> tensor<32x32x!tt.ptr<f16>, #bl>
    %b = tt.addptr %bs, %off : tensor<32x32x!tt.ptr<f16>, #bl>, tensor<32x32xi32, #bl>
    %res:3 = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %zero, %ap = %a, %bp = %b) -> (tensor<32x32xf32, #mma>, tensor<32x32x!tt.ptr<f16>, #bl>, tensor<32x32x!tt.ptr<f16>, #bl>)  : i32 {
      %x = tt.load %ap : tensor<32x32x!tt.ptr<f16>, #bl>
      %y = tt.load %bp : tensor<32x32x!tt.ptr<f16>, #bl>
      %cond = arith.cmpi sgt, %k, %c0 : i32
      %xd = scf.if %cond -> (tensor<32x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>) {
        %t = ttg.convert_layout %x : tensor<32x32xf16, #bl> -> tensor<32x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
        scf.yield %t : tensor<32x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
      } else {
        %t = ttg.convert_layout %x : tensor<32x32xf16, #bl> -> tensor<32x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
        scf.yield %t : tensor<32x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
      }
      %yd = ttg.convert_layout %y : tensor<32x32xf16, #bl> -> tensor<32x32xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>
      %d = tt.dot %xd, %yd, %acc, inputPrecision = tf32 : tensor<32x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>> * tensor<32x32xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>> -> tensor<32x32xf32, #mma>
      %ap2 = tt.addptr %ap, %step : tensor<32x32x!tt.ptr<f16>, #bl>, tensor<32x32xi32, #bl>
      %bp2 = tt.addptr %bp, %step : tensor<32x32x!tt.ptr<f16>, #bl>, tensor<32x32xi32, #bl>
      scf.yield %d, %ap2, %bp2 : tensor<32x32xf32, #mma>, tensor<32x32x!tt.ptr<f16>, #bl>, tensor<32x32x!tt.ptr<f16>, #bl>
    }
    tt.return %res#0 : tensor<32x32xf32, #mma>
  }
}


// -----

// sm90: a wgmma whose shared operands come from a multi-buffer and whose result only feeds the next iteration
// stays in flight: isAsync, one `warp_group_dot_wait {pendings = 1}` after it (threading the result and the
// operands it reads), the yield takes the waited result, and a `pendings = 0` wait follows the loop.
// CHECK-LABEL: tt.func public @wgmma_in_flight
// CHECK: %[[R:.*]] = scf.for {{.*}} iter_args(%[[ACC:.*]] = %arg0)
// CHECK: %[[A:.*]] = ttg.memdesc_index
// CHECK: %[[D:.*]] = ttng.warp_group_dot %[[A]], %[[A]], %[[ACC]] {isAsync = true}
// CHECK-NEXT: %[[W:.*]]:2 = ttng.warp_group_dot_wait %[[D]], %[[A]] {pendings = 1 : i32}
// CHECK-NEXT: scf.yield %[[W]]#0
// CHECK: %[[F:.*]] = ttng.warp_group_dot_wait %[[R]] {pendings = 0 : i32}
// CHECK-NEXT: tt.return %[[F]]
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#s = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @wgmma_in_flight(%c: tensor<64x64xf32, #mma>, %n: i32, %buf: !ttg.memdesc<3x64x64xf16, #s, #smem, mutable>) -> tensor<64x64xf32, #mma> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %c) -> (tensor<64x64xf32, #mma>) : i32 {
      %a = ttg.memdesc_index %buf[%i] : !ttg.memdesc<3x64x64xf16, #s, #smem, mutable> -> !ttg.memdesc<64x64xf16, #s, #smem, mutable>
      %d = ttng.warp_group_dot %a, %a, %acc : !ttg.memdesc<64x64xf16, #s, #smem, mutable> * !ttg.memdesc<64x64xf16, #s, #smem, mutable> -> tensor<64x64xf32, #mma>
      scf.yield %d : tensor<64x64xf32, #mma>
    }
    tt.return %r : tensor<64x64xf32, #mma>
  }
}

// -----

// sm90, num-stages 1 (or loads that are not pipelined): operands stored from registers in the loop cannot stay
// in flight, so each wgmma is async with a `pendings = 0` wait right after it (Triton's matmul_64x64x32_s1).
// S1-LABEL: tt.func public @wgmma_wait_now
// S1: %[[D:.*]] = ttng.warp_group_dot %[[A:.*]], %[[A]], %{{.*}} {isAsync = true}
// S1-NEXT: %[[W:.*]]:2 = ttng.warp_group_dot_wait %[[D]], %[[A]] {pendings = 0 : i32}
// S1-NEXT: scf.yield %[[W]]#0
// S1-NOT: ttng.warp_group_dot_wait
// S1: tt.return
#bl = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#s = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @wgmma_wait_now(%c: tensor<64x64xf32, #mma>, %n: i32, %x: tensor<64x64xf16, #bl>) -> tensor<64x64xf32, #mma> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %c) -> (tensor<64x64xf32, #mma>) : i32 {
      %a = ttg.local_alloc %x : (tensor<64x64xf16, #bl>) -> !ttg.memdesc<64x64xf16, #s, #smem>
      %d = ttng.warp_group_dot %a, %a, %acc : !ttg.memdesc<64x64xf16, #s, #smem> * !ttg.memdesc<64x64xf16, #s, #smem> -> tensor<64x64xf32, #mma>
      scf.yield %d : tensor<64x64xf32, #mma>
    }
    tt.return %r : tensor<64x64xf32, #mma>
  }
}

// -----

// sm90, attention's two chained wgmmas: the first one's result is used in the loop (wait 0 right after it), the
// second (A in registers) stays in flight; its loop-carried accumulator goes through the first one's wait, whose
// result the loop then uses, and no other wait is added in the loop.
// CHECK-LABEL: tt.func public @wgmma_chain
// CHECK: scf.for {{.*}} iter_args(%[[ACC:.*]] = %arg0)
// CHECK: %[[S:.*]] = ttng.warp_group_dot {{.*}} {isAsync = true}
// CHECK-NEXT: %[[W:.*]]:3 = ttng.warp_group_dot_wait %[[S]], %arg2, %[[ACC]] {pendings = 0 : i32}
// CHECK-NEXT: %[[P:.*]] = arith.truncf %[[W]]#0
// CHECK: %[[O:.*]] = ttng.warp_group_dot {{.*}}, %[[W]]#2 {isAsync = true}
// CHECK-NEXT: scf.yield %[[O]]
// CHECK: ttng.warp_group_dot_wait %{{.*}} {pendings = 0 : i32}
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#s = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @wgmma_chain(%c: tensor<64x64xf32, #mma>, %n: i32, %q: !ttg.memdesc<64x64xf16, #s, #smem>) -> tensor<64x64xf32, #mma> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %c) -> (tensor<64x64xf32, #mma>) : i32 {
      %s = ttng.warp_group_dot %q, %q, %c : !ttg.memdesc<64x64xf16, #s, #smem> * !ttg.memdesc<64x64xf16, #s, #smem> -> tensor<64x64xf32, #mma>
      %p = arith.truncf %s : tensor<64x64xf32, #mma> to tensor<64x64xf16, #mma>
      %pa = ttg.convert_layout %p : tensor<64x64xf16, #mma> -> tensor<64x64xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
      %o = ttng.warp_group_dot %pa, %q, %acc : tensor<64x64xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>> * !ttg.memdesc<64x64xf16, #s, #smem> -> tensor<64x64xf32, #mma>
      scf.yield %o : tensor<64x64xf32, #mma>
    }
    tt.return %r : tensor<64x64xf32, #mma>
  }
}

// -----

// sm90: loads stored for wgmma (`ttg.local_alloc` into #ttg.nvmma_shared) are pipelined into num-stages buffers
// of that layout (one more than the copies run ahead: the wgmma of the previous iteration is still reading one);
// the dot reads the stage's view directly, B through a memdesc_trans that becomes mutable too; the copies for
// iteration k + 2 go to buffer (idx + 2) mod 3, after the dot's `pendings = 1` wait.
// CHECK-LABEL: tt.func public @wgmma_loads
// CHECK-DAG: %[[BA:.*]] = ttg.local_alloc : () -> !ttg.memdesc<3x64x64xf16, #shared, #smem, mutable>
// CHECK-DAG: %[[BB:.*]] = ttg.local_alloc : () -> !ttg.memdesc<3x64x64xf16, #shared, #smem, mutable>
// CHECK-COUNT-4: ttg.async_copy_global_to_local
// CHECK: scf.for {{.*}} iter_args({{.*}}, %[[IDX:[^ ]*]] = %c0_i32)
// CHECK-NEXT: ttg.async_wait {num = 2 : i32}
// CHECK-NEXT: %[[VA:.*]] = ttg.memdesc_index %[[BA]][%[[IDX]]]
// CHECK-NEXT: %[[VB:.*]] = ttg.memdesc_index %[[BB]][%[[IDX]]]
// CHECK: %[[T:.*]] = ttg.memdesc_trans %[[VB]] {order = array<i32: 1, 0>} : !ttg.memdesc<64x64xf16, #shared, #smem, mutable> -> !ttg.memdesc<64x64xf16, #shared1, #smem, mutable>
// CHECK: %[[D:.*]] = ttng.warp_group_dot %[[VA]], %[[T]], {{.*}} {isAsync = true}
// CHECK-NEXT: ttng.warp_group_dot_wait %[[D]], %[[VA]], %[[T]] {pendings = 1 : i32}
// CHECK: %[[SUM:.*]] = arith.addi %[[IDX]], %c2_i32
// CHECK: %[[WRAP:.*]] = arith.cmpi sge, %[[SUM]], %c3_i32
// CHECK: %[[INS:.*]] = arith.select %[[WRAP]]
// CHECK: ttg.memdesc_index %[[BA]][%[[INS]]]
// CHECK: ttg.memdesc_index %[[BB]][%[[INS]]]
// CHECK-COUNT-2: ttg.async_copy_global_to_local
// CHECK: scf.yield
// CHECK: ttng.warp_group_dot_wait %{{.*}} {pendings = 0 : i32}
// CHECK-NEXT: ttg.async_wait {num = 0 : i32}
// CHECK-NEXT: ttg.local_dealloc %[[BA]]
// CHECK-NEXT: ttg.local_dealloc %[[BB]]
#bl = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#s = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#st = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @wgmma_loads(%pa: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %pb: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %n: i32) -> tensor<64x64xf32, #mma> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %acc0 = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #mma>
    %step = arith.constant dense<64> : tensor<64x64xi32, #bl>
    %r0 = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #bl}>>
    %c0e = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #bl}>>
    %rows = tt.expand_dims %r0 {axis = 1 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #bl}>> -> tensor<64x1xi32, #bl>
    %c64 = arith.constant dense<64> : tensor<64x1xi32, #bl>
    %rs = arith.muli %rows, %c64 : tensor<64x1xi32, #bl>
    %cols = tt.expand_dims %c0e {axis = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #bl}>> -> tensor<1x64xi32, #bl>
    %rb = tt.broadcast %rs : tensor<64x1xi32, #bl> -> tensor<64x64xi32, #bl>
    %cb = tt.broadcast %cols : tensor<1x64xi32, #bl> -> tensor<64x64xi32, #bl>
    %off = arith.addi %rb, %cb : tensor<64x64xi32, #bl>
    %sa = tt.splat %pa : !tt.ptr<f16> -> tensor<64x64x!tt.ptr<f16>, #bl>
    %sb = tt.splat %pb : !tt.ptr<f16> -> tensor<64x64x!tt.ptr<f16>, #bl>
    %a0 = tt.addptr %sa, %off : tensor<64x64x!tt.ptr<f16>, #bl>, tensor<64x64xi32, #bl>
    %b0 = tt.addptr %sb, %off : tensor<64x64x!tt.ptr<f16>, #bl>, tensor<64x64xi32, #bl>
    %res:3 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %acc0, %ap = %a0, %bp = %b0) -> (tensor<64x64xf32, #mma>, tensor<64x64x!tt.ptr<f16>, #bl>, tensor<64x64x!tt.ptr<f16>, #bl>) : i32 {
      %x = tt.load %ap : tensor<64x64x!tt.ptr<f16>, #bl>
      %y = tt.load %bp : tensor<64x64x!tt.ptr<f16>, #bl>
      %xs = ttg.local_alloc %x : (tensor<64x64xf16, #bl>) -> !ttg.memdesc<64x64xf16, #s, #smem>
      %ys = ttg.local_alloc %y : (tensor<64x64xf16, #bl>) -> !ttg.memdesc<64x64xf16, #s, #smem>
      %yt = ttg.memdesc_trans %ys {order = array<i32: 1, 0>} : !ttg.memdesc<64x64xf16, #s, #smem> -> !ttg.memdesc<64x64xf16, #st, #smem>
      %d = ttng.warp_group_dot %xs, %yt, %acc : !ttg.memdesc<64x64xf16, #s, #smem> * !ttg.memdesc<64x64xf16, #st, #smem> -> tensor<64x64xf32, #mma>
      %ap2 = tt.addptr %ap, %step : tensor<64x64x!tt.ptr<f16>, #bl>, tensor<64x64xi32, #bl>
      %bp2 = tt.addptr %bp, %step : tensor<64x64x!tt.ptr<f16>, #bl>, tensor<64x64xi32, #bl>
      scf.yield %d, %ap2, %bp2 : tensor<64x64xf32, #mma>, tensor<64x64x!tt.ptr<f16>, #bl>, tensor<64x64x!tt.ptr<f16>, #bl>
    }
    tt.return %res#0 : tensor<64x64xf32, #mma>
  }
}
