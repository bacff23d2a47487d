// RUN: tt-opt %s -split-input-file -allow-unregistered-dialect -tritongpu-test-pipeline-lower-loop | FileCheck %s

// Only the pipeliner's lowering step runs, and the schedule is written back: the load of stage 0 becomes an async
// copy into one of two buffers (its user is two stages later) with the load's stage and cluster; the wait, the
// extract view and the local_load take the user's; the insert and extract indices are loop-carried from -1. A
// loop without a schedule is left alone.
// CHECK-LABEL: tt.func @one_load
// CHECK: %[[BUF:.*]] = ttg.local_alloc : () -> !ttg.memdesc<2x128xf32
// CHECK: scf.for {{.*}} iter_args(%[[INS:[^ ]+]] = %c-1_i32, %[[EXT:[^ ]+]] = %c-1_i32)
// CHECK: %[[INS1:.*]] = arith.addi %[[INS]], %{{.*}} {loop.cluster = 1 : i32, loop.stage = 0 : i32}
// CHECK: %[[EXT1:.*]] = arith.addi %[[EXT]], %{{.*}} {loop.cluster = 0 : i32, loop.stage = 2 : i32}
// CHECK: ttg.memdesc_index %[[BUF]][%{{.*}}] {loop.cluster = 1 : i32, loop.stage = 0 : i32}
// CHECK-NEXT: ttg.async_copy_global_to_local {{.*}} {contiguity = 4 : i32, loop.cluster = 1 : i32, loop.stage = 0 : i32}
// CHECK-NEXT: ttg.async_commit_group {{.*}} {loop.cluster = 1 : i32, loop.stage = 0 : i32}
// CHECK-NEXT: ttg.async_wait {{.*}} {loop.cluster = 0 : i32, loop.stage = 2 : i32, num = 0 : i32}
// CHECK-NEXT: ttg.memdesc_index %[[BUF]][%{{.*}}] {loop.cluster = 0 : i32, loop.stage = 2 : i32}
// CHECK-NEXT: %[[V:.*]] = ttg.local_load {{.*}} {loop.cluster = 0 : i32, loop.stage = 2 : i32}
// CHECK-NEXT: "use"(%[[V]]) {loop.cluster = 0 : i32, loop.stage = 2 : i32}
// CHECK: } {tt.scheduled_max_stage = 2 : i32}
// CHECK-NEXT: ttg.async_wait {num = 0 : i32}
// CHECK-NEXT: ttg.local_dealloc %[[BUF]]
// CHECK-LABEL: tt.func @unscheduled
// CHECK: scf.for
// CHECK-NEXT: tt.load
// CHECK-NEXT: "use"
#blocked = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @one_load(%p: tensor<128x!tt.ptr<f32>, #blocked> {tt.divisibility = dense<16> : tensor<1xi32>, tt.contiguity = dense<128> : tensor<1xi32>}, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    scf.for %i = %c0 to %n step %c1 : i32 {
      %v = tt.load %p {loop.cluster = 1 : i32, loop.stage = 0 : i32} : tensor<128x!tt.ptr<f32>, #blocked>
      "use"(%v) {loop.cluster = 0 : i32, loop.stage = 2 : i32} : (tensor<128xf32, #blocked>) -> ()
    } {tt.scheduled_max_stage = 2 : i32}
    tt.return
  }
  tt.func @unscheduled(%p: tensor<128x!tt.ptr<f32>, #blocked>, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    scf.for %i = %c0 to %n step %c1 : i32 {
      %v = tt.load %p : tensor<128x!tt.ptr<f32>, #blocked>
      "use"(%v) : (tensor<128xf32, #blocked>) -> ()
    }
    tt.return
  }
}

// -----

// A load whose shared copy a warp_group_dot reads, here twice through one memdesc_trans, gets one more buffer
// (3: one wgmma stays in flight); the view ops are rebuilt on the extracted buffer where they were.
// CHECK-LABEL: tt.func @wgmma_two_users
// CHECK: %[[A:.*]] = ttg.local_alloc : () -> !ttg.memdesc<3x64x64xf16
// CHECK: scf.for
// CHECK: %[[AV:.*]] = ttg.memdesc_index %[[A]][%{{.*}}] {loop.cluster = 0 : i32, loop.stage = 2 : i32}
// CHECK: %[[AT:.*]] = ttg.memdesc_trans %[[AV]] {loop.cluster = 0 : i32, loop.stage = 2 : i32, order = array<i32: 1, 0>}
// CHECK-NEXT: ttng.warp_group_dot %[[AT]]
// CHECK-NEXT: ttng.warp_group_dot %[[AT]]
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#shared1 = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @wgmma_two_users(%p: tensor<64x64x!tt.ptr<f16>, #blocked> {tt.divisibility = dense<16> : tensor<2xi32>, tt.contiguity = dense<[1, 64]> : tensor<2xi32>}, %b: !ttg.memdesc<64x64xf16, #shared, #smem>, %n: i32) -> tensor<64x64xf32, #mma> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %zero = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #mma>
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<64x64xf32, #mma>) : i32 {
      %a = tt.load %p {loop.cluster = 1 : i32, loop.stage = 0 : i32} : tensor<64x64x!tt.ptr<f16>, #blocked>
      %as = ttg.local_alloc %a {loop.cluster = 0 : i32, loop.stage = 2 : i32} : (tensor<64x64xf16, #blocked>) -> !ttg.memdesc<64x64xf16, #shared, #smem>
      %at = ttg.memdesc_trans %as {loop.cluster = 0 : i32, loop.stage = 2 : i32, order = array<i32: 1, 0>} : !ttg.memdesc<64x64xf16, #shared, #smem> -> !ttg.memdesc<64x64xf16, #shared1, #smem>
      %d = ttng.warp_group_dot %at, %b, %acc {loop.cluster = 0 : i32, loop.stage = 2 : i32} : !ttg.memdesc<64x64xf16, #shared1, #smem> * !ttg.memdesc<64x64xf16, #shared, #smem> -> tensor<64x64xf32, #mma>
      %d2 = ttng.warp_group_dot %at, %b, %d {loop.cluster = 0 : i32, loop.stage = 2 : i32} : !ttg.memdesc<64x64xf16, #shared1, #smem> * !ttg.memdesc<64x64xf16, #shared, #smem> -> tensor<64x64xf32, #mma>
      scf.yield %d2 : tensor<64x64xf32, #mma>
    } {tt.scheduled_max_stage = 2 : i32}
    tt.return %r : tensor<64x64xf32, #mma>
  }
}

// -----

// A tensor descriptor made in a scheduled loop (here under an scf.if) gets num_stages - 1 = 2 128-byte tensormaps in
// global scratch; a loop-carried counter picks the one to write, carried out of the scf.if, which keeps its place
// in the schedule.
// CHECK-LABEL: tt.func @make_descriptor
// CHECK: %[[SCRATCH:.*]] = ttg.global_scratch_alloc {alignment = 128 : i32, nbytes = 256 : i32}
// CHECK: scf.for {{.*}} iter_args(%[[CNT:[^ ]+]] = %c0_i32{{.*}}) -> (i32)
// CHECK: %[[NEXT:.*]] = scf.if %{{.*}} -> (i32) {
// CHECK: tt.addptr %[[SCRATCH]]
// CHECK: ttng.tensormap_create
// CHECK-NEXT: ttng.tensormap_fenceproxy_acquire
// CHECK-NEXT: ttng.reinterpret_tensor_descriptor
// CHECK: } else {
// CHECK-NEXT: scf.yield %[[CNT]] : i32
// CHECK-NEXT: } {loop.cluster = 0 : i32, loop.stage = 2 : i32}
// CHECK-NEXT: scf.yield %[[NEXT]] : i32
#nvmma = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 32}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @make_descriptor(%n: i32, %p: !tt.ptr<f32>, %m: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c1_i64 = arith.constant 1 : i64
    scf.for %i = %c0 to %n step %c1 : i32 {
      %first = arith.cmpi eq, %i, %c0 {loop.cluster = 0 : i32, loop.stage = 2 : i32} : i32
      scf.if %first {
        %d = tt.make_tensor_descriptor %p, [%m, %m], [%c1_i64, %c1_i64] : <f32>, <tensor<32x32xf32, #nvmma>>
        "use"(%d) : (!tt.tensordesc<tensor<32x32xf32, #nvmma>>) -> ()
      } {loop.cluster = 0 : i32, loop.stage = 2 : i32}
    } {tt.scheduled_max_stage = 2 : i32}
    tt.return
  }
}

// -----

// A scalar load of 32 bits or more is pipelined as a 1-element tensor load (default blocked layout): its pointer
// splat at its stage, its value `tt.unsplat` at its user's. Cluster ids are renumbered from 0 (here 5 and 3 become
// 2 and 0, the cluster between them having no op).
// CHECK-LABEL: tt.func @scalar_load
// CHECK: ttg.local_alloc : () -> !ttg.memdesc<2x1xi32
// CHECK: %[[P:.*]] = tt.splat %arg0 {loop.cluster = 2 : i32, loop.stage = 0 : i32} : !tt.ptr<i32> -> tensor<1x!tt.ptr<i32>, #[[BL:.*]]>
// CHECK: ttg.async_copy_global_to_local %[[P]], {{.*}} {loop.cluster = 2 : i32, loop.stage = 0 : i32}
// CHECK: %[[L:.*]] = ttg.local_load {{.*}} {loop.cluster = 0 : i32, loop.stage = 2 : i32} : {{.*}} -> tensor<1xi32, #[[BL]]>
// CHECK-NEXT: %[[V:.*]] = tt.unsplat %[[L]] {loop.cluster = 0 : i32, loop.stage = 2 : i32} : tensor<1xi32, #[[BL]]>
// CHECK-NEXT: "use"(%[[V]]) {loop.cluster = 0 : i32, loop.stage = 2 : i32} : (i32) -> ()
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @scalar_load(%p: !tt.ptr<i32>, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    scf.for %i = %c0 to %n step %c1 : i32 {
      %v = tt.load %p {loop.cluster = 5 : i32, loop.stage = 0 : i32} : !tt.ptr<i32>
      "use"(%v) {loop.cluster = 3 : i32, loop.stage = 2 : i32} : (i32) -> ()
    } {tt.scheduled_max_stage = 2 : i32}
    tt.return
  }
}

// -----

// A user in a later cluster than its load (an scf.if pushed to the epilogue cluster) reads the buffer after the
// next stage's copy into it has started: one more buffer (3 for a distance of 2).
// CHECK-LABEL: tt.func @later_cluster_user
// CHECK: ttg.local_alloc : () -> !ttg.memdesc<3x128xf32
#blocked = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @later_cluster_user(%p: tensor<128x!tt.ptr<f32>, #blocked> {tt.divisibility = dense<16> : tensor<1xi32>, tt.contiguity = dense<128> : tensor<1xi32>}, %n: i32, %c: i1) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    scf.for %i = %c0 to %n step %c1 : i32 {
      %v = tt.load %p {loop.cluster = 0 : i32, loop.stage = 0 : i32} : tensor<128x!tt.ptr<f32>, #blocked>
      scf.if %c {
        tt.store %p, %v : tensor<128x!tt.ptr<f32>, #blocked>
      } {loop.cluster = 1 : i32, loop.stage = 2 : i32}
    } {tt.scheduled_max_stage = 2 : i32}
    tt.return
  }
}

// -----

// A rank-reducing descriptor load (block 1x64x64, value 64x64) copies into buffers of the 2-d shape in the
// descriptor's layout for it; a descriptor gather becomes a TMA gather into its slot, both waited for on the
// group's barrier.
// CHECK-LABEL: tt.func @tma_loads
// CHECK-DAG: ttg.local_alloc : () -> !ttg.memdesc<2x64x64xf16, #[[NV:[^,]*]], #smem, mutable>
// CHECK-DAG: ttg.local_alloc : () -> !ttg.memdesc<2x32x64xf16, #[[NV]], #smem, mutable>
// CHECK: scf.for
// CHECK: ttng.barrier_expect %{{.*}}, 12288 {{.*}}, %true
// CHECK: ttng.async_tma_copy_global_to_local %arg0[%c0_i32, %{{.*}}, %c0_i32]
// CHECK: ttng.async_tma_gather %arg1[%arg2, %{{.*}}]
// CHECK: ttng.wait_barrier
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#rows = #ttg.slice<{dim = 1, parent = #blocked}>
#nv3 = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16, rank = 3}>
#nv = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:100", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @tma_loads(%d: !tt.tensordesc<tensor<1x64x64xf16, #nv3>>, %g: !tt.tensordesc<tensor<1x64xf16, #nv>>, %x: tensor<32xi32, #rows>, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    scf.for %i = %c0 to %n step %c1 : i32 {
      %a = tt.descriptor_load %d[%c0, %i, %c0] {loop.cluster = 1 : i32, loop.stage = 0 : i32} : !tt.tensordesc<tensor<1x64x64xf16, #nv3>> -> tensor<64x64xf16, #blocked>
      %b = tt.descriptor_gather %g[%x, %i] {loop.cluster = 1 : i32, loop.stage = 0 : i32} : (!tt.tensordesc<tensor<1x64xf16, #nv>>, tensor<32xi32, #rows>, i32) -> tensor<32x64xf16, #blocked>
      "use"(%a, %b) {loop.cluster = 0 : i32, loop.stage = 2 : i32} : (tensor<64x64xf16, #blocked>, tensor<32x64xf16, #blocked>) -> ()
    } {tt.scheduled_max_stage = 2 : i32}
    tt.return
  }
}

// -----

#ld = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#acc = #ttg.blocked<{sizePerThread = [1, 64], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [1, 0]}>
#nv = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#tm = #ttng.tensor_memory_encoding<blockM = 128, blockN = 64, colStride = 1>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:100", "ttg.threads-per-warp" = 32 : i32} {
// An MMAv5 with a self latency becomes asynchronous: it signals one of two mbarriers (picked by a loop-carried
// index), a wait_barrier on it with the loop-carried phase, its operands as deps, follows one stage later, and the
// index and phase step at the end of the body, at the MMA's stage.
// CHECK-LABEL: tt.func @mma_async
// CHECK: %[[BARS:.*]] = ttg.local_alloc : () -> !ttg.memdesc<2x1xi64
// CHECK-COUNT-2: ttng.init_barrier
// CHECK: scf.for {{.*}} iter_args(%[[TOK:[^ ]*]] = %{{[^ ]*}}, %[[PHASE:[^ ]*]] = %c0{{[^ ]*}}, %[[IDX:[^ ]*]] = %c0
// CHECK: %[[BAR:.*]] = ttg.memdesc_index %[[BARS]][%[[IDX]]] {loop.cluster = 0 : i32, loop.stage = 1 : i32}
// CHECK: %[[M:.*]] = ttng.tc_gen5_mma %[[A:[^ ]*]], %[[B:[^ ]*]], %{{.*}}[%[[TOK]]], %true, %true, %[[BAR]][%{{.*}}] {is_async, loop.cluster = 0 : i32, loop.stage = 1 : i32}
// CHECK-NEXT: ttng.wait_barrier %[[BAR]], %[[PHASE]] deps %[[A]], %[[B]] {loop.cluster = 0 : i32, loop.stage = 2 : i32}
// CHECK: %[[FLIP:.*]] = arith.xori %[[PHASE]], %{{.*}} {loop.cluster = 0 : i32, loop.stage = 1 : i32}
// CHECK: %[[NEXT:.*]] = arith.addi %[[IDX]]
// CHECK: %[[WRAP:.*]] = arith.cmpi sge, %[[NEXT]]
// CHECK: %[[NIDX:.*]] = arith.select %[[WRAP]], %{{.*}}, %[[NEXT]]
// CHECK: %[[NPHASE:.*]] = arith.select %[[WRAP]], %[[FLIP]], %[[PHASE]]
// CHECK: scf.yield %[[M]], %[[NPHASE]], %[[NIDX]],
// CHECK: } {tt.scheduled_max_stage = 2 : i32}
// CHECK: ttng.inval_barrier
// CHECK: ttng.inval_barrier
// CHECK: ttg.local_dealloc %[[BARS]]
tt.func @mma_async(%pa: tensor<128x64x!tt.ptr<f16>, #ld> {tt.contiguity = dense<[1, 64]> : tensor<2xi32>, tt.divisibility = dense<16> : tensor<2xi32>},
                   %pb: tensor<64x64x!tt.ptr<f16>, #ld> {tt.contiguity = dense<[1, 64]> : tensor<2xi32>, tt.divisibility = dense<16> : tensor<2xi32>},
                   %n: i32) -> tensor<128x64xf32, #acc> {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %true = arith.constant true
  %zero = arith.constant dense<0.0> : tensor<128x64xf32, #acc>
  %acc, %t0 = ttng.tmem_alloc : () -> (!ttg.memdesc<128x64xf32, #tm, #ttng.tensor_memory, mutable>, !ttg.async.token)
  %t1 = ttng.tmem_store %zero, %acc[%t0], %true : tensor<128x64xf32, #acc> -> !ttg.memdesc<128x64xf32, #tm, #ttng.tensor_memory, mutable>
  %tl = scf.for %i = %c0 to %n step %c1 iter_args(%t = %t1) -> (!ttg.async.token) : i32 {
    %a = tt.load %pa {loop.cluster = 1 : i32, loop.stage = 0 : i32} : tensor<128x64x!tt.ptr<f16>, #ld>
    %b = tt.load %pb {loop.cluster = 1 : i32, loop.stage = 0 : i32} : tensor<64x64x!tt.ptr<f16>, #ld>
    %as = ttg.local_alloc %a {loop.cluster = 0 : i32, loop.stage = 1 : i32} : (tensor<128x64xf16, #ld>) -> !ttg.memdesc<128x64xf16, #nv, #ttg.shared_memory>
    %bs = ttg.local_alloc %b {loop.cluster = 0 : i32, loop.stage = 1 : i32} : (tensor<64x64xf16, #ld>) -> !ttg.memdesc<64x64xf16, #nv, #ttg.shared_memory>
    %m = ttng.tc_gen5_mma %as, %bs, %acc[%t], %true, %true {loop.cluster = 0 : i32, loop.stage = 1 : i32, tt.self_latency = 1 : i32} : !ttg.memdesc<128x64xf16, #nv, #ttg.shared_memory>, !ttg.memdesc<64x64xf16, #nv, #ttg.shared_memory>, !ttg.memdesc<128x64xf32, #tm, #ttng.tensor_memory, mutable>
    scf.yield %m : !ttg.async.token
  } {tt.scheduled_max_stage = 1 : i32}
  %r, %rt = ttng.tmem_load %acc[%tl] : !ttg.memdesc<128x64xf32, #tm, #ttng.tensor_memory, mutable> -> tensor<128x64xf32, #acc>
  tt.return %r : tensor<128x64xf32, #acc>
}
}

// -----

#ld = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#acc = #ttg.blocked<{sizePerThread = [1, 64], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [1, 0]}>
#nv = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#tm = #ttng.tensor_memory_encoding<blockM = 128, blockN = 64, colStride = 1>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:100", "ttg.threads-per-warp" = 32 : i32} {
// A store into the accumulator in the loop and a load of it in a later stage and cluster: two TMEM buffers; the
// store switches to the next one (from a loop-carried index starting at -1), the MMA and the load use it, the
// accumulator's tokens are dropped, and the wait goes right before the load in a cluster of its own.
// CHECK-LABEL: tt.func @acc_two_buffers
// CHECK: %[[BUFS:.*]], %{{.*}} = ttng.tmem_alloc : () -> (!ttg.memdesc<2x128x64xf32
// CHECK: %[[POISON:.*]] = ub.poison : !ttg.async.token
// CHECK: scf.for {{.*}} iter_args(%{{[^ ]*}} = %{{[^ ]*}}, %{{[^ ]*}} = %c0{{[^ ]*}}, %{{[^ ]*}} = %c0{{[^ ]*}}, %[[BUF:[^ ]*]] = %c-1
// CHECK: %[[P1:.*]] = arith.addi %[[BUF]], %{{.*}} {loop.cluster = 0 : i32, loop.stage = 1 : i32}
// CHECK: %[[W:.*]] = arith.cmpi sge, %[[P1]]
// CHECK: %[[NBUF:.*]] = arith.select %[[W]], %{{.*}}, %[[P1]]
// CHECK: %[[S:.*]] = ttg.memdesc_index %[[BUFS]][%{{.*}}] {loop.cluster = 0 : i32, loop.stage = 1 : i32}
// CHECK: ttng.tmem_store %{{.*}}, %[[S]][], %true {loop.cluster = 0 : i32, loop.stage = 1 : i32}
// CHECK: %[[SM:.*]] = ttg.memdesc_index %[[BUFS]]
// CHECK: ttng.tc_gen5_mma %{{.*}}, %{{.*}}, %[[SM]][], %true, %true, {{.*}} {is_async, loop.cluster = 0 : i32, loop.stage = 1 : i32}
// CHECK: ttng.wait_barrier {{.*}} {loop.cluster = 1 : i32, loop.stage = 2 : i32}
// CHECK: %[[SL:.*]] = ttg.memdesc_index %[[BUFS]][%{{.*}}] {loop.cluster = 2 : i32, loop.stage = 2 : i32}
// CHECK: ttng.tmem_load %[[SL]][] {loop.cluster = 2 : i32, loop.stage = 2 : i32}
// CHECK: scf.yield %[[POISON]], 
tt.func @acc_two_buffers(%pa: tensor<128x64x!tt.ptr<f16>, #ld> {tt.contiguity = dense<[1, 64]> : tensor<2xi32>, tt.divisibility = dense<16> : tensor<2xi32>},
                   %pb: tensor<64x64x!tt.ptr<f16>, #ld> {tt.contiguity = dense<[1, 64]> : tensor<2xi32>, tt.divisibility = dense<16> : tensor<2xi32>},
                   %n: i32, %x: tensor<128x64xf32, #acc>) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %true = arith.constant true
  %acc, %t0 = ttng.tmem_alloc : () -> (!ttg.memdesc<128x64xf32, #tm, #ttng.tensor_memory, mutable>, !ttg.async.token)
  %tl = scf.for %i = %c0 to %n step %c1 iter_args(%t = %t0) -> (!ttg.async.token) : i32 {
    %a = tt.load %pa {loop.cluster = 2 : i32, loop.stage = 0 : i32} : tensor<128x64x!tt.ptr<f16>, #ld>
    %b = tt.load %pb {loop.cluster = 2 : i32, loop.stage = 0 : i32} : tensor<64x64x!tt.ptr<f16>, #ld>
    %as = ttg.local_alloc %a {loop.cluster = 1 : i32, loop.stage = 1 : i32} : (tensor<128x64xf16, #ld>) -> !ttg.memdesc<128x64xf16, #nv, #ttg.shared_memory>
    %bs = ttg.local_alloc %b {loop.cluster = 1 : i32, loop.stage = 1 : i32} : (tensor<64x64xf16, #ld>) -> !ttg.memdesc<64x64xf16, #nv, #ttg.shared_memory>
    %st = ttng.tmem_store %x, %acc[%t], %true {loop.cluster = 1 : i32, loop.stage = 1 : i32} : tensor<128x64xf32, #acc> -> !ttg.memdesc<128x64xf32, #tm, #ttng.tensor_memory, mutable>
    %m = ttng.tc_gen5_mma %as, %bs, %acc[%st], %true, %true {loop.cluster = 1 : i32, loop.stage = 1 : i32, tt.self_latency = 1 : i32} : !ttg.memdesc<128x64xf16, #nv, #ttg.shared_memory>, !ttg.memdesc<64x64xf16, #nv, #ttg.shared_memory>, !ttg.memdesc<128x64xf32, #tm, #ttng.tensor_memory, mutable>
    %r, %rt = ttng.tmem_load %acc[%m] {loop.cluster = 1 : i32, loop.stage = 2 : i32} : !ttg.memdesc<128x64xf32, #tm, #ttng.tensor_memory, mutable> -> tensor<128x64xf32, #acc>
    "use"(%r) {loop.cluster = 1 : i32, loop.stage = 2 : i32} : (tensor<128x64xf32, #acc>) -> ()
    scf.yield %rt : !ttg.async.token
  } {tt.scheduled_max_stage = 2 : i32}
  tt.return
}
}

// -----

#ld = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#acc = #ttg.blocked<{sizePerThread = [1, 64], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [1, 0]}>
#nv = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#tm = #ttng.tensor_memory_encoding<blockM = 128, blockN = 64, colStride = 1>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:100", "ttg.threads-per-warp" = 32 : i32} {
// An A operand put in TMEM in the loop is not pipelined: its buffer is allocated before the loop, a store into it
// takes the alloc's place, and the MMA's wait goes right before that store of the next iteration.
// CHECK-LABEL: tt.func @unpipelined_operand
// CHECK: %[[ABUF:.*]] = ttng.tmem_alloc : () -> !ttg.memdesc<128x64xf16, #tmem, #ttng.tensor_memory, mutable>
// CHECK: scf.for
// CHECK: ttng.tmem_store %{{.*}}, %[[ABUF]], %{{.*}} {loop.cluster = 1 : i32, loop.stage = 1 : i32}
// CHECK: ttng.tc_gen5_mma %[[ABUF]], {{.*}} {is_async, loop.cluster = 1 : i32, loop.stage = 1 : i32}
// CHECK-NEXT: ttng.wait_barrier {{.*}} deps %[[ABUF]], {{.*}} {loop.cluster = 0 : i32, loop.stage = 2 : i32}
tt.func @unpipelined_operand(%pa: tensor<128x64x!tt.ptr<f16>, #ld> {tt.contiguity = dense<[1, 64]> : tensor<2xi32>, tt.divisibility = dense<16> : tensor<2xi32>},
                   %pb: tensor<64x64x!tt.ptr<f16>, #ld> {tt.contiguity = dense<[1, 64]> : tensor<2xi32>, tt.divisibility = dense<16> : tensor<2xi32>},
                   %n: i32, %xa: tensor<128x64xf16, #acc>) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %true = arith.constant true
  %acc, %t0 = ttng.tmem_alloc : () -> (!ttg.memdesc<128x64xf32, #tm, #ttng.tensor_memory, mutable>, !ttg.async.token)
  %tl = scf.for %i = %c0 to %n step %c1 iter_args(%t = %t0) -> (!ttg.async.token) : i32 {
    %b = tt.load %pb {loop.cluster = 2 : i32, loop.stage = 0 : i32} : tensor<64x64x!tt.ptr<f16>, #ld>
    %at = ttng.tmem_alloc %xa {loop.cluster = 1 : i32, loop.stage = 1 : i32} : (tensor<128x64xf16, #acc>) -> !ttg.memdesc<128x64xf16, #tm, #ttng.tensor_memory>
    %bs = ttg.local_alloc %b {loop.cluster = 1 : i32, loop.stage = 1 : i32} : (tensor<64x64xf16, #ld>) -> !ttg.memdesc<64x64xf16, #nv, #ttg.shared_memory>
    %m = ttng.tc_gen5_mma %at, %bs, %acc[%t], %true, %true {loop.cluster = 1 : i32, loop.stage = 1 : i32, tt.self_latency = 1 : i32} : !ttg.memdesc<128x64xf16, #tm, #ttng.tensor_memory>, !ttg.memdesc<64x64xf16, #nv, #ttg.shared_memory>, !ttg.memdesc<128x64xf32, #tm, #ttng.tensor_memory, mutable>
    scf.yield %m : !ttg.async.token
  } {tt.scheduled_max_stage = 1 : i32}
  tt.return
}
}

// -----

#ld = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#acc = #ttg.blocked<{sizePerThread = [1, 64], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [1, 0]}>
#nv = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#tm = #ttng.tensor_memory_encoding<blockM = 128, blockN = 64, colStride = 1>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:100", "ttg.threads-per-warp" = 32 : i32} {
// A load of the accumulator under an scf.if of a stage before the wait's waits itself, right before it.
// CHECK-LABEL: tt.func @wait_in_if
// CHECK: scf.for
// CHECK: %[[BAR:.*]] = ttg.memdesc_index %{{.*}}[%arg
// CHECK: ttng.tc_gen5_mma {{.*}}, %[[BAR]][%{{.*}}] {is_async
// CHECK-NEXT: ttng.wait_barrier %[[BAR]], %[[PH:[^ ]*]] deps {{.*}} {loop.cluster = 0 : i32, loop.stage = 2 : i32}
// CHECK: scf.if
// CHECK-NEXT: ttng.wait_barrier %[[BAR]], %[[PH]] deps
// CHECK-NEXT: ttng.tmem_load
tt.func @wait_in_if(%pa: tensor<128x64x!tt.ptr<f16>, #ld> {tt.contiguity = dense<[1, 64]> : tensor<2xi32>, tt.divisibility = dense<16> : tensor<2xi32>},
                   %pb: tensor<64x64x!tt.ptr<f16>, #ld> {tt.contiguity = dense<[1, 64]> : tensor<2xi32>, tt.divisibility = dense<16> : tensor<2xi32>},
                   %n: i32, %c: i1) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %true = arith.constant true
  %acc, %t0 = ttng.tmem_alloc : () -> (!ttg.memdesc<128x64xf32, #tm, #ttng.tensor_memory, mutable>, !ttg.async.token)
  %tl = scf.for %i = %c0 to %n step %c1 iter_args(%t = %t0) -> (!ttg.async.token) : i32 {
    %a = tt.load %pa {loop.cluster = 2 : i32, loop.stage = 0 : i32} : tensor<128x64x!tt.ptr<f16>, #ld>
    %b = tt.load %pb {loop.cluster = 2 : i32, loop.stage = 0 : i32} : tensor<64x64x!tt.ptr<f16>, #ld>
    %as = ttg.local_alloc %a {loop.cluster = 1 : i32, loop.stage = 1 : i32} : (tensor<128x64xf16, #ld>) -> !ttg.memdesc<128x64xf16, #nv, #ttg.shared_memory>
    %bs = ttg.local_alloc %b {loop.cluster = 1 : i32, loop.stage = 1 : i32} : (tensor<64x64xf16, #ld>) -> !ttg.memdesc<64x64xf16, #nv, #ttg.shared_memory>
    %m = ttng.tc_gen5_mma %as, %bs, %acc[%t], %true, %true {loop.cluster = 1 : i32, loop.stage = 1 : i32, tt.self_latency = 1 : i32} : !ttg.memdesc<128x64xf16, #nv, #ttg.shared_memory>, !ttg.memdesc<64x64xf16, #nv, #ttg.shared_memory>, !ttg.memdesc<128x64xf32, #tm, #ttng.tensor_memory, mutable>
    %u = scf.if %c -> (!ttg.async.token) {
      %r, %rt = ttng.tmem_load %acc[%m] : !ttg.memdesc<128x64xf32, #tm, #ttng.tensor_memory, mutable> -> tensor<128x64xf32, #acc>
      "use"(%r) : (tensor<128x64xf32, #acc>) -> ()
      scf.yield %rt : !ttg.async.token
    } else {
      scf.yield %m : !ttg.async.token
    } {loop.cluster = 3 : i32, loop.stage = 1 : i32}
    scf.yield %u : !ttg.async.token
  } {tt.scheduled_max_stage = 1 : i32}
  tt.return
}
}

// -----

// A pointer layout whose `order` names dimension 0 first while each thread's registers run along dimension 1:
// the copy width follows the registers (Triton reads the order off the linear layout), 8 halves per copy.
#rows = #ttg.blocked<{sizePerThread = [1, 64], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [0, 1]}>
#nv = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
// CHECK-LABEL: tt.func @copy_width_by_registers
// CHECK: ttg.async_copy_global_to_local {{.*}} {contiguity = 8 : i32, loop.cluster = 1 : i32, loop.stage = 0 : i32}
tt.func @copy_width_by_registers(%p: tensor<128x64x!tt.ptr<f16>, #rows> {tt.contiguity = dense<[1, 64]> : tensor<2xi32>, tt.divisibility = dense<16> : tensor<2xi32>}, %n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  scf.for %i = %c0 to %n step %c1 : i32 {
    %x = tt.load %p {loop.cluster = 1 : i32, loop.stage = 0 : i32} : tensor<128x64x!tt.ptr<f16>, #rows>
    %s = ttg.local_alloc %x {loop.cluster = 0 : i32, loop.stage = 1 : i32} : (tensor<128x64xf16, #rows>) -> !ttg.memdesc<128x64xf16, #nv, #ttg.shared_memory>
    "use"(%s) {loop.cluster = 0 : i32, loop.stage = 1 : i32} : (!ttg.memdesc<128x64xf16, #nv, #ttg.shared_memory>) -> ()
  } {tt.scheduled_max_stage = 1 : i32}
  tt.return
}
}
