// RUN: tt-opt %s -split-input-file -allow-unregistered-dialect -tritoninstrument-concurrency-sanitizer | FileCheck %s

// The concurrency sanitizer (ConSan) puts its state at the start of the kernel and, around each memory op, calls to
// cached helper functions in a critical section (before the op; after it for allocations and waits). One case per
// kind of instrumented op. The helpers are private `tt.func`s at the start of the module, named after their warps
// and argument types.

// The state: the shared buffers the accesses use (a 2-slot buffer indexed dynamically, and a second allocation over
// the whole of it), sorted and padded to 4 with (0, 0); which of them overlap; the visibility tables in global
// scratch memory, zeroed through pointer tensors; the mbarrier, its state tables and the tracking tables (buffers x
// barriers); the lock. Every tensor is held whole by each thread.
// CHECK-DAG: #[[L4:.*]] = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
// CHECK-DAG: #[[VIS:.*]] = #ttg.blocked<{sizePerThread = [4, 64], threadsPerWarp = [1, 32], warpsPerCTA = [1, 1], order = [0, 1]}>
// CHECK-DAG: #[[AL:.*]] = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [1, 32], warpsPerCTA = [1, 1], order = [0, 1]}>
// CHECK-DAG: #[[TRK:.*]] = #ttg.blocked<{sizePerThread = [4, 1], threadsPerWarp = [1, 32], warpsPerCTA = [1, 1], order = [0, 1]}>
// An update helper runs under its predicate; a check returns what the call site asserts.
// CHECK: tt.func private @__triton_consan_set_read_visibility_nw1_{{[_TI0-9A-F]+}}(%arg0: i32, %arg1: i32, %arg2: i1, %arg3: i64, %arg4: tensor<4xi64, #[[L4]]>, %arg5: !tt.ptr<i64>) attributes {"ttg.num-warps" = 1 : i32} {
// CHECK-NEXT: cf.cond_br %arg2, ^bb1, ^bb2
// CHECK: tt.load {{.*}} : tensor<4x64x!tt.ptr<i64>, #[[VIS]]>
// CHECK: cf.br ^bb2
// CHECK: ^bb2:
// CHECK-NEXT: tt.return
// CHECK: tt.func private @__triton_consan_verify_write_visibility_nw1_{{[_TI0-9A-F]+}}({{.*}}, %arg6: tensor<4x4xi1, #[[AL]]>) -> tensor<4xi1, #[[L4]]>
// CHECK: "tt.reduce"
// CHECK: %[[R:.*]] = arith.select %arg2, {{.*}} : tensor<4xi1, #[[L4]]>
// CHECK-NEXT: tt.return %[[R]] : tensor<4xi1, #[[L4]]>
// CHECK: tt.func private @__triton_consan_init_barrier_state_nw1_
// CHECK-LABEL: tt.func public @state
// CHECK-NEXT: %[[BUFS:.*]] = tti.experimental_buffer_descriptors [0, 0, 64, 0], [64, 128, 64, 0], shared_mem : tensor<4xi64, #[[L4]]>
// CHECK-NEXT: %[[ALIAS:.*]] = arith.constant dense<{{\[\[}}true, true, false, false], [true, true, true, false], [false, true, true, false], [false, false, false, false]]> : tensor<4x4xi1, #[[AL]]>
// CHECK-NEXT: %[[Z:.*]] = arith.constant dense<0> : tensor<4xi64, #[[L4]]>
// CHECK-NEXT: %[[WVIS:.*]] = ttg.global_scratch_alloc {alignment = 8 : i32, nbytes = 32 : i32} : !tt.ptr<i64>
// CHECK-NEXT: %[[P:.*]] = tt.splat %[[WVIS]] : !tt.ptr<i64> -> tensor<4x!tt.ptr<i64>, #[[L4]]>
// CHECK-NEXT: %[[RG:.*]] = tt.make_range {end = 4 : i32, start = 0 : i32} : tensor<4xi32, #[[L4]]>
// CHECK-NEXT: %[[ST:.*]] = arith.constant dense<1> : tensor<4xi32, #[[L4]]>
// CHECK-NEXT: %[[OF:.*]] = arith.muli %[[RG]], %[[ST]]
// CHECK-NEXT: %[[PO:.*]] = tt.addptr %[[P]], %[[OF]]
// CHECK-NEXT: tt.store %[[PO]], %[[Z]] : tensor<4x!tt.ptr<i64>, #[[L4]]>
// CHECK-NEXT: arith.constant dense<0> : tensor<4x64xi64, #[[VIS]]>
// CHECK-NEXT: %[[RVIS:.*]] = ttg.global_scratch_alloc {alignment = 8 : i32, nbytes = 2048 : i32} : !tt.ptr<i64>
// CHECK: tt.store {{.*}} : tensor<4x64x!tt.ptr<i64>, #[[VIS]]>
// CHECK-NEXT: %[[BARS:.*]] = tti.experimental_buffer_descriptors [512], [8], shared_mem : tensor<1xi64, #{{.*}}>
// CHECK-NEXT: arith.constant dense<0> : tensor<1xi32
// CHECK-NEXT: %[[STATES:.*]] = ttg.global_scratch_alloc {alignment = 4 : i32, nbytes = 4 : i32} : !tt.ptr<i32>
// CHECK: arith.constant dense<0> : tensor<1xi32
// CHECK-NEXT: ttg.global_scratch_alloc {alignment = 4 : i32, nbytes = 4 : i32} : !tt.ptr<i32>
// CHECK: arith.constant dense<0> : tensor<4x1xi8, #[[TRK]]>
// CHECK-NEXT: ttg.global_scratch_alloc {alignment = 1 : i32, nbytes = 4 : i32} : !tt.ptr<i8>
// CHECK: arith.constant dense<0> : tensor<4x1xi64, #[[TRK]]>
// CHECK-NEXT: ttg.global_scratch_alloc {alignment = 8 : i32, nbytes = 32 : i32} : !tt.ptr<i64>
// CHECK: tt.store
// CHECK-NEXT: %[[LOCK:.*]] = ttg.global_scratch_alloc {alignment = 4 : i32, nbytes = 4 : i32} : !tt.ptr<i32>
// CHECK-NEXT: %[[ZERO:.*]] = arith.constant 0 : i32
// CHECK-NEXT: tt.atomic_rmw exch, acq_rel, gpu, %[[LOCK]], %[[ZERO]] : (!tt.ptr<i32>, i32) -> i32
// init_barrier: the barrier's count goes into its state.
// CHECK: %[[BAR:.*]] = ttg.local_alloc {allocation.offset = 512 : i32}
// CHECK-NEXT: tti.experimental_lock_acquire %[[LOCK]] : !tt.ptr<i32>
// CHECK-NEXT: %[[COUNT:.*]] = arith.constant 1 : i32
// CHECK-NEXT: %[[BOFF:.*]] = tti.experimental_memdesc_to_i32 %[[BAR]]
// CHECK-NEXT: %[[BLEN:.*]] = arith.constant 8 : i32
// CHECK-NEXT: tt.call @__triton_consan_init_barrier_state_nw1_{{[_TI0-9A-F]+}}(%[[BOFF]], %[[BLEN]], %[[COUNT]], %[[BARS]], %[[STATES]])
// CHECK-NEXT: tti.experimental_lock_release %[[LOCK]] : !tt.ptr<i32>
// CHECK-NEXT: ttng.init_barrier %[[BAR]], 1
// A read (thread 0) checks that it sees the last write to the 64-byte slot (or to any buffer overlapping it), then
// adds itself and its TMA and tensor-core peers (bits 0, 16, 32) to the slot's readers.
// CHECK: %[[SLOT:.*]] = ttg.memdesc_index
// CHECK-NEXT: tti.experimental_lock_acquire %[[LOCK]] : !tt.ptr<i32>
// CHECK-NEXT: %[[T:.*]] = arith.constant true
// CHECK-NEXT: %[[THREAD:.*]] = arith.constant 0 : i32
// CHECK-NEXT: %[[OFF:.*]] = tti.experimental_memdesc_to_i32 %[[SLOT]] : !ttg.memdesc<16xf32
// CHECK-NEXT: %[[LEN:.*]] = arith.constant 64 : i32
// CHECK-NEXT: %[[OK:.*]] = tt.call @__triton_consan_verify_write_visibility_nw1_{{[_TI0-9A-F]+}}(%[[OFF]], %[[LEN]], %[[T]], %[[THREAD]], %[[BUFS]], %[[WVIS]], %[[ALIAS]]) : (i32, i32, i1, i32, tensor<4xi64, #[[L4]]>, !tt.ptr<i64>, tensor<4x4xi1, #[[AL]]>) -> tensor<4xi1, #[[L4]]>
// CHECK-NEXT: tti.experimental_assert_in_thread %[[OK]], "Buffer being accessed has outstanding writes." {check_any = false} : tensor<4xi1, #[[L4]]>
// CHECK-NEXT: %[[T2:.*]] = arith.constant true
// CHECK-NEXT: %[[MASK:.*]] = arith.constant 4295032833 : i64
// CHECK-NEXT: %[[OFF2:.*]] = tti.experimental_memdesc_to_i32 %[[SLOT]]
// CHECK-NEXT: %[[LEN2:.*]] = arith.constant 64 : i32
// CHECK-NEXT: tt.call @__triton_consan_set_read_visibility_nw1_{{[_TI0-9A-F]+}}(%[[OFF2]], %[[LEN2]], %[[T2]], %[[MASK]], %[[BUFS]], %[[RVIS]])
// CHECK-NEXT: tti.experimental_lock_release %[[LOCK]]
// CHECK-NEXT: ttg.local_load %[[SLOT]]
// The whole buffer is 128 bytes.
// CHECK: %[[WHOLE:.*]] = ttg.local_alloc {allocation.offset = 0 : i32} : () -> !ttg.memdesc<32xf32
// CHECK: tti.experimental_memdesc_to_i32 %[[WHOLE]]
// CHECK-NEXT: arith.constant 128 : i32
// CHECK: ttg.local_load %[[WHOLE]]
#sh = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#blk = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @state(%i: i32) {
    %a = ttg.local_alloc {allocation.offset = 0 : i32} : () -> !ttg.memdesc<2x16xf32, #sh, #smem, mutable>
    %bar = ttg.local_alloc {allocation.offset = 512 : i32} : () -> !ttg.memdesc<1xi64, #sh, #smem, mutable>
    ttng.init_barrier %bar, 1 : !ttg.memdesc<1xi64, #sh, #smem, mutable>
    %s = ttg.memdesc_index %a[%i] : !ttg.memdesc<2x16xf32, #sh, #smem, mutable> -> !ttg.memdesc<16xf32, #sh, #smem, mutable>
    %x = ttg.local_load %s : !ttg.memdesc<16xf32, #sh, #smem, mutable> -> tensor<16xf32, #blk>
    %r = ttg.local_alloc {allocation.offset = 0 : i32} : () -> !ttg.memdesc<32xf32, #sh, #smem, mutable>
    %y = ttg.local_load %r : !ttg.memdesc<32xf32, #sh, #smem, mutable> -> tensor<32xf32, #blk>
    tt.return
  }
}

// -----

// A write checks that the writer sees the last write and every read, then makes itself (and its peers) the only
// threads that see the buffer, and forgets the barriers that tracked it and its readers.
// CHECK-LABEL: tt.func public @local_store
// CHECK: tti.experimental_lock_acquire
// CHECK: tt.call @__triton_consan_verify_write_visibility_nw1_
// CHECK: tti.experimental_assert_in_thread {{.*}}, "Buffer being accessed has outstanding writes."
// CHECK: tt.call @__triton_consan_verify_read_visibility_nw1_
// CHECK: tti.experimental_assert_in_thread {{.*}}, "Buffer being accessed has outstanding reads"
// CHECK: arith.constant 4295032833 : i64
// CHECK: tt.call @__triton_consan_set_write_visibility_nw1_
// CHECK: tt.call @__triton_consan_clear_write_tracking_nw1_
// CHECK: tt.call @__triton_consan_clear_read_visibility_nw1_
// CHECK: tt.call @__triton_consan_clear_read_tracking_nw1_
// CHECK-NEXT: tti.experimental_lock_release
// CHECK-NEXT: ttg.local_store
#sh = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#blk = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @local_store(%v: tensor<16xf32, #blk>) {
    %a = ttg.local_alloc {allocation.offset = 0 : i32} : () -> !ttg.memdesc<16xf32, #sh, #smem, mutable>
    %bar = ttg.local_alloc {allocation.offset = 64 : i32} : () -> !ttg.memdesc<1xi64, #sh, #smem, mutable>
    ttng.init_barrier %bar, 1 : !ttg.memdesc<1xi64, #sh, #smem, mutable>
    ttg.local_store %v, %a : tensor<16xf32, #blk> -> !ttg.memdesc<16xf32, #sh, #smem, mutable>
    tt.return
  }
}

// -----

// An allocation that stores a value is a write, checked after the allocation (its value exists only then). With
// no barriers there is no tracking to clear.
// CHECK-LABEL: tt.func public @alloc_with_value
// CHECK: %[[A:.*]] = ttg.local_alloc %arg0
// CHECK-NEXT: tti.experimental_lock_acquire
// CHECK: tti.experimental_memdesc_to_i32 %[[A]]
// CHECK: tt.call @__triton_consan_verify_write_visibility_nw1_
// CHECK: tt.call @__triton_consan_verify_read_visibility_nw1_
// CHECK: tt.call @__triton_consan_set_write_visibility_nw1_
// CHECK-NOT: clear_write_tracking
// CHECK: tt.call @__triton_consan_clear_read_visibility_nw1_
// CHECK-NEXT: tti.experimental_lock_release
// CHECK-NEXT: tt.return
#sh = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#blk = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @alloc_with_value(%v: tensor<16xf32, #blk>) {
    %a = ttg.local_alloc %v {allocation.offset = 0 : i32} : (tensor<16xf32, #blk>) -> !ttg.memdesc<16xf32, #sh, #smem, mutable>
    tt.return
  }
}

// -----

// Tensor memory: its own descriptors (offsets and lengths in columns) and tables; the helpers take 4 warps' layouts.
// A TMEM store writes, a TMEM load reads.
// CHECK-LABEL: tt.func public @tmem
// CHECK-NEXT: %[[TBUFS:.*]] = tti.experimental_buffer_descriptors [64], [64], tensor_mem : tensor<1xi64
// CHECK: %[[T:.*]] = ttng.tmem_alloc %arg0
// CHECK-NEXT: tti.experimental_lock_acquire
// CHECK: tt.call @__triton_consan_verify_write_visibility_nw4_{{.*}}, %[[TBUFS]],
// CHECK: tti.experimental_lock_release
// CHECK: tt.call @__triton_consan_verify_read_visibility_nw4_
// CHECK: tt.call @__triton_consan_set_write_visibility_nw4_
// CHECK: tti.experimental_lock_release
// CHECK-NEXT: ttng.tmem_store %arg0, %[[T]]
// CHECK: tt.call @__triton_consan_verify_write_visibility_nw4_
// CHECK: tt.call @__triton_consan_set_read_visibility_nw4_
// CHECK: tti.experimental_lock_release
// CHECK-NEXT: ttng.tmem_load %[[T]]
#sh = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#acc = #ttg.blocked<{sizePerThread = [1, 64], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [0, 1]}>
#smem = #ttg.shared_memory
#tm = #ttng.tensor_memory_encoding<blockM = 128, blockN = 64, colStride = 1>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:100", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @tmem(%v: tensor<128x64xf32, #acc>) {
    %true = arith.constant true
    %t = ttng.tmem_alloc %v {tensor_memory_col_offset = 64 : i32, tensor_memory_row_offset = 0 : i32} : (tensor<128x64xf32, #acc>) -> !ttg.memdesc<128x64xf32, #tm, #ttng.tensor_memory, mutable>
    ttng.tmem_store %v, %t, %true : tensor<128x64xf32, #acc> -> !ttg.memdesc<128x64xf32, #tm, #ttng.tensor_memory, mutable>
    %r = ttng.tmem_load %t : !ttg.memdesc<128x64xf32, #tm, #ttng.tensor_memory, mutable> -> tensor<128x64xf32, #acc>
    tt.return
  }
}

// -----

// barrier_expect and arrive_barrier arrive on the barrier: it tracks what the thread sees (no buffers here, so no
// tracking calls), the arrival is checked against the count and applied, under the op's predicate (or `true`).
// CHECK-LABEL: tt.func public @arrivals
// CHECK: arith.constant 3 : i32
// CHECK: tt.call @__triton_consan_init_barrier_state_nw1_
// CHECK: tti.experimental_lock_acquire
// CHECK-NEXT: %[[ONE:.*]] = arith.constant 1 : i32
// CHECK-NOT: track_visible
// CHECK: %[[OK:.*]] = tt.call @__triton_consan_verify_barrier_arrive_nw1_{{[_TI0-9A-F]+}}(%{{.*}}, %{{.*}}, %[[ONE]], %arg0,
// CHECK-NEXT: tti.experimental_assert_in_thread %[[OK]], "Barrier arrive underflow: current count would become negative" {check_any = false}
// CHECK: tt.call @__triton_consan_update_barrier_state_nw1_{{[_TI0-9A-F]+}}(%{{.*}}, %{{.*}}, %{{.*}}, %arg0,
// CHECK-NEXT: tti.experimental_lock_release
// CHECK-NEXT: ttng.barrier_expect
// CHECK: %[[TRUE:.*]] = arith.constant true
// CHECK-NEXT: %[[TWO:.*]] = arith.constant 2 : i32
// CHECK: tt.call @__triton_consan_verify_barrier_arrive_nw1_{{[_TI0-9A-F]+}}(%{{.*}}, %{{.*}}, %[[TWO]], %[[TRUE]],
// CHECK: tt.call @__triton_consan_update_barrier_state_nw1_
// CHECK-NEXT: tti.experimental_lock_release
// CHECK-NEXT: ttng.arrive_barrier
#sh = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @arrivals(%p: i1) {
    %bar = ttg.local_alloc {allocation.offset = 0 : i32} : () -> !ttg.memdesc<1xi64, #sh, #smem, mutable>
    ttng.init_barrier %bar, 3 : !ttg.memdesc<1xi64, #sh, #smem, mutable>
    ttng.barrier_expect %bar, 1024, %p : !ttg.memdesc<1xi64, #sh, #smem, mutable>
    ttng.arrive_barrier %bar, 2 : !ttg.memdesc<1xi64, #sh, #smem, mutable>
    tt.return
  }
}

// -----

// A TMA load runs on the TMA thread (16): a write checked and made visible to that thread alone, tracked by its
// barrier, under the copy's predicate; the barrier's arrival is barrier_expect's, not the copy's.
// CHECK-LABEL: tt.func public @tma_load
// CHECK: ttng.init_barrier
// CHECK-NEXT: tti.experimental_lock_acquire
// CHECK-NEXT: %[[TMA:.*]] = arith.constant 16 : i32
// CHECK: tt.call @__triton_consan_verify_write_visibility_nw1_{{[_TI0-9A-F]+}}(%{{.*}}, %{{.*}}, %arg2, %[[TMA]],
// CHECK: tt.call @__triton_consan_verify_read_visibility_nw1_
// CHECK: %[[BIT:.*]] = arith.constant 65536 : i64
// CHECK: tt.call @__triton_consan_set_write_visibility_nw1_{{[_TI0-9A-F]+}}(%{{.*}}, %{{.*}}, %arg2, %[[BIT]],
// CHECK: tt.call @__triton_consan_track_visible_writes_nw1_
// CHECK: tt.call @__triton_consan_track_visible_reads_nw1_
// CHECK-NOT: verify_barrier_arrive
// CHECK: tti.experimental_lock_release
// CHECK-NEXT: ttng.async_tma_copy_global_to_local
#nv = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 32}>
#sh = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @tma_load(%d: !tt.tensordesc<tensor<32x32xf32, #nv>>, %i: i32, %p: i1) {
    %a = ttg.local_alloc {allocation.offset = 0 : i32} : () -> !ttg.memdesc<32x32xf32, #nv, #smem, mutable>
    %bar = ttg.local_alloc {allocation.offset = 4096 : i32} : () -> !ttg.memdesc<1xi64, #sh, #smem, mutable>
    ttng.init_barrier %bar, 1 : !ttg.memdesc<1xi64, #sh, #smem, mutable>
    ttng.async_tma_copy_global_to_local %d[%i, %i] %a, %bar, %p : !tt.tensordesc<tensor<32x32xf32, #nv>>, !ttg.memdesc<1xi64, #sh, #smem, mutable> -> !ttg.memdesc<32x32xf32, #nv, #smem, mutable>
    tt.return
  }
}

// -----

// A TMA store reads under commit counting: a commit table for TMA stores (buffers x 16 base threads), the read
// staged for thread 0 and committed at once; async_tma_store_wait retires all but `pendings` commits and hands
// their reads to thread 0 and its peers.
// CHECK-LABEL: tt.func public @tma_store
// CHECK: arith.constant dense<0> : tensor<1x16xi8
// CHECK-NEXT: %[[COMMITS:.*]] = ttg.global_scratch_alloc {alignment = 1 : i32, nbytes = 16 : i32} : !tt.ptr<i8>
// CHECK: tt.call @__triton_consan_verify_write_visibility_nw1_
// CHECK: %[[BASE:.*]] = arith.constant 0 : i32
// CHECK: tt.call @__triton_consan_stage_access_for_commit_nw1_{{[_TI0-9A-F]+}}(%{{.*}}, %{{.*}}, %{{.*}}, %[[BASE]], %{{.*}}, %[[COMMITS]])
// CHECK: tt.call @__triton_consan_commit_accesses_nw1_{{[_TI0-9A-F]+}}(%{{.*}}, %{{.*}}, %[[COMMITS]])
// CHECK-NEXT: tti.experimental_lock_release
// CHECK-NEXT: ttng.async_tma_copy_local_to_global
// CHECK: %[[PEERS:.*]] = arith.constant 4295032833 : i64
// CHECK-NEXT: %[[PENDING:.*]] = arith.constant 1 : i32
// CHECK-NEXT: tt.call @__triton_consan_clear_outstanding_commits_transfer_reads_nw1_{{[_TI0-9A-F]+}}(%{{.*}}, %[[PEERS]], %[[PENDING]], %{{.*}}, %[[COMMITS]],
// CHECK-NEXT: tti.experimental_lock_release
// CHECK-NEXT: ttng.async_tma_store_wait
#nv = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 32}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @tma_store(%d: !tt.tensordesc<tensor<32x32xf32, #nv>>, %i: i32) {
    %a = ttg.local_alloc {allocation.offset = 0 : i32} : () -> !ttg.memdesc<32x32xf32, #nv, #smem, mutable>
    ttng.async_tma_copy_local_to_global %d[%i, %i] %a : !tt.tensordesc<tensor<32x32xf32, #nv>>, !ttg.memdesc<32x32xf32, #nv, #smem, mutable>
    ttng.async_tma_store_wait {pendings = 1 : i32}
    tt.return
  }
}

// -----

// A TMA gather writes like a TMA load (thread 16, tracked by its barrier); a scatter only reads, untracked.
// CHECK-LABEL: tt.func public @tma_gather_scatter
// CHECK: arith.constant 16 : i32
// CHECK: tt.call @__triton_consan_set_write_visibility_nw1_
// CHECK: tt.call @__triton_consan_track_visible_writes_nw1_
// CHECK: ttng.async_tma_gather
// CHECK-NEXT: tti.experimental_lock_acquire
// CHECK-NEXT: arith.constant true
// CHECK-NEXT: arith.constant 16 : i32
// CHECK: tt.call @__triton_consan_verify_write_visibility_nw1_
// CHECK-NEXT: tti.experimental_assert_in_thread
// CHECK-NEXT: tti.experimental_lock_release
// CHECK-NEXT: ttng.async_tma_scatter
#nv = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 32}>
#sh = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "cuda:100", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @tma_gather_scatter(%d: !tt.tensordesc<tensor<1x32xf32, #nv>>, %x: tensor<32xi32>, %i: i32, %p: i1) {
    %a = ttg.local_alloc {allocation.offset = 0 : i32} : () -> !ttg.memdesc<32x32xf32, #nv, #smem, mutable>
    %bar = ttg.local_alloc {allocation.offset = 4096 : i32} : () -> !ttg.memdesc<1xi64, #sh, #smem, mutable>
    ttng.init_barrier %bar, 1 : !ttg.memdesc<1xi64, #sh, #smem, mutable>
    ttng.async_tma_gather %d[%x, %i] %a, %bar, %p : !tt.tensordesc<tensor<1x32xf32, #nv>>, tensor<32xi32>, i32, !ttg.memdesc<1xi64, #sh, #smem, mutable>, !ttg.memdesc<32x32xf32, #nv, #smem, mutable>, i1
    ttng.async_tma_scatter %d[%x, %i] %a : !tt.tensordesc<tensor<1x32xf32, #nv>>, tensor<32xi32>, i32, !ttg.memdesc<32x32xf32, #nv, #smem, mutable>
    tt.return
  }
}

// -----

// cp.async: the copy is a write, checked against outstanding cp.async writes too, and staged; a commit group
// commits it; async_wait retires all but `num` groups and hands the writes to the thread and its peers.
// CHECK-LABEL: tt.func public @cp_async
// CHECK: %[[COMMITS:.*]] = ttg.global_scratch_alloc {alignment = 1 : i32, nbytes = 16 : i32} : !tt.ptr<i8>
// CHECK: tt.call @__triton_consan_verify_write_visibility_nw1_
// CHECK: tt.call @__triton_consan_check_outstanding_commits_nw1_{{.*}}, %[[COMMITS]],
// CHECK-NEXT: tti.experimental_assert_in_thread {{.*}}, "Accessing buffer with pending access. Pending access type: async_copy_global_to_shared" {check_any = false} : tensor<1x16xi1
// CHECK: tt.call @__triton_consan_verify_read_visibility_nw1_
// CHECK: tt.call @__triton_consan_stage_access_for_commit_nw1_{{.*}}, %[[COMMITS]])
// CHECK-NEXT: tti.experimental_lock_release
// CHECK-NEXT: ttg.async_copy_global_to_local
// CHECK: tt.call @__triton_consan_commit_accesses_nw1_{{.*}}, %[[COMMITS]])
// CHECK-NEXT: tti.experimental_lock_release
// CHECK-NEXT: ttg.async_commit_group
// CHECK: %[[PEERS:.*]] = arith.constant 4295032833 : i64
// CHECK-NEXT: %[[NUM:.*]] = arith.constant 0 : i32
// CHECK-NEXT: tt.call @__triton_consan_clear_outstanding_commits_transfer_writes_nw1_{{[_TI0-9A-F]+}}(%{{.*}}, %[[PEERS]], %[[NUM]], %{{.*}}, %[[COMMITS]],
// CHECK-NEXT: tti.experimental_lock_release
// CHECK-NEXT: ttg.async_wait
#blk = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [1, 1], order = [1, 0]}>
#nv = #ttg.nvmma_shared<{swizzlingByteWidth = 32, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @cp_async(%ptr: tensor<16x16x!tt.ptr<f16>, #blk>) {
    %a = ttg.local_alloc {allocation.offset = 0 : i32} : () -> !ttg.memdesc<16x16xf16, #nv, #smem, mutable>
    %t = ttg.async_copy_global_to_local %ptr, %a : tensor<16x16x!tt.ptr<f16>, #blk> -> <16x16xf16, #nv, #smem, mutable>
    %c = ttg.async_commit_group
    %w = ttg.async_wait {num = 0 : i32}
    tt.return
  }
}

// -----

// An asynchronous wgmma reads its shared operands under commit counting (staged, then committed by the op
// itself); a synchronous one is not instrumented; warp_group_dot_wait retires commits.
// CHECK-LABEL: tt.func public @wgmma
// CHECK: tt.call @__triton_consan_verify_write_visibility_nw4_
// CHECK-NEXT: tti.experimental_assert_in_thread {{.*}}, "Buffer being accessed has outstanding writes. Operand: A"
// CHECK: tt.call @__triton_consan_stage_access_for_commit_nw4_
// CHECK: "Buffer being accessed has outstanding writes. Operand: B"
// CHECK: tt.call @__triton_consan_stage_access_for_commit_nw4_
// CHECK: tt.call @__triton_consan_commit_accesses_nw4_
// CHECK-NEXT: tti.experimental_lock_release
// CHECK-NEXT: ttng.warp_group_dot {{.*}} {isAsync = true}
// CHECK-NEXT: ttng.warp_group_dot
// CHECK-NEXT: tti.experimental_lock_acquire
// CHECK: tt.call @__triton_consan_clear_outstanding_commits_transfer_reads_nw4_
// CHECK-NEXT: tti.experimental_lock_release
// CHECK-NEXT: ttng.warp_group_dot_wait
#nv = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @wgmma(%acc: tensor<64x64xf32, #mma>) {
    %a = ttg.local_alloc {allocation.offset = 0 : i32} : () -> !ttg.memdesc<64x64xf16, #nv, #smem, mutable>
    %b = ttg.local_alloc {allocation.offset = 8192 : i32} : () -> !ttg.memdesc<64x64xf16, #nv, #smem, mutable>
    %d = ttng.warp_group_dot %a, %b, %acc {isAsync = true} : !ttg.memdesc<64x64xf16, #nv, #smem, mutable> * !ttg.memdesc<64x64xf16, #nv, #smem, mutable> -> tensor<64x64xf32, #mma>
    %e = ttng.warp_group_dot %a, %b, %d : !ttg.memdesc<64x64xf16, #nv, #smem, mutable> * !ttg.memdesc<64x64xf16, #nv, #smem, mutable> -> tensor<64x64xf32, #mma>
    %r = ttng.warp_group_dot_wait %e {pendings = 0 : i32} : tensor<64x64xf32, #mma>
    tt.return
  }
}

// -----

// tcgen5 MMA runs on the tensor-core thread (32): reads of A and B, a write of the accumulator (in tensor
// memory), under the MMA's predicate; its completion barrier, under the barrier's predicate and the MMA's, tracks
// what the thread sees in both memories and takes one arrival. tc_gen5_commit is an arrival alone.
// CHECK-LABEL: tt.func public @tcgen5
// CHECK: %[[TC:.*]] = arith.constant 32 : i32
// CHECK: tt.call @__triton_consan_verify_write_visibility_nw4_{{[_TI0-9A-F]+}}(%{{.*}}, %{{.*}}, %arg0, %[[TC]],
// CHECK-NEXT: tti.experimental_assert_in_thread {{.*}}, "Buffer being accessed has outstanding writes. Operand: A"
// CHECK-NEXT: %[[TCBIT:.*]] = arith.constant 4294967296 : i64
// CHECK: tt.call @__triton_consan_set_read_visibility_nw4_{{[_TI0-9A-F]+}}(%{{.*}}, %{{.*}}, %arg0, %[[TCBIT]],
// CHECK: "Buffer being accessed has outstanding writes. Operand: B"
// CHECK: "Buffer being accessed has outstanding writes. Operand: Acc"
// CHECK: "Buffer being accessed has outstanding reads. Operand: Acc"
// CHECK: tt.call @__triton_consan_clear_read_tracking_nw4_
// CHECK-NEXT: %[[P:.*]] = arith.andi %arg1, %arg0 : i1
// CHECK: tt.call @__triton_consan_track_visible_writes_nw4_{{[_TI0-9A-F]+}}(%{{.*}}, %{{.*}}, %[[P]],
// CHECK: tt.call @__triton_consan_track_visible_reads_nw4_{{[_TI0-9A-F]+}}(%{{.*}}, %{{.*}}, %[[P]],
// CHECK: tt.call @__triton_consan_track_visible_writes_nw4_
// CHECK: tt.call @__triton_consan_track_visible_reads_nw4_
// CHECK: tt.call @__triton_consan_verify_barrier_arrive_nw4_{{[_TI0-9A-F]+}}(%{{.*}}, %{{.*}}, %{{.*}}, %[[P]],
// CHECK: tt.call @__triton_consan_update_barrier_state_nw4_
// CHECK-NEXT: tti.experimental_lock_release
// CHECK-NEXT: ttng.tc_gen5_mma
// CHECK-NEXT: tti.experimental_lock_acquire
// CHECK-NEXT: arith.constant true
// CHECK-NEXT: arith.constant 32 : i32
// CHECK: tt.call @__triton_consan_update_barrier_state_nw4_
// CHECK-NEXT: tti.experimental_lock_release
// CHECK-NEXT: ttng.tc_gen5_commit
#nv = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#sh = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
#tm = #ttng.tensor_memory_encoding<blockM = 128, blockN = 128, colStride = 1>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:100", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @tcgen5(%p: i1, %q: i1) {
    %true = arith.constant true
    %a = ttg.local_alloc {allocation.offset = 0 : i32} : () -> !ttg.memdesc<128x64xf16, #nv, #smem, mutable>
    %b = ttg.local_alloc {allocation.offset = 16384 : i32} : () -> !ttg.memdesc<64x128xf16, #nv, #smem, mutable>
    %bar = ttg.local_alloc {allocation.offset = 32768 : i32} : () -> !ttg.memdesc<1xi64, #sh, #smem, mutable>
    ttng.init_barrier %bar, 1 : !ttg.memdesc<1xi64, #sh, #smem, mutable>
    %acc = ttng.tmem_alloc {tensor_memory_col_offset = 0 : i32, tensor_memory_row_offset = 0 : i32} : () -> !ttg.memdesc<128x128xf32, #tm, #ttng.tensor_memory, mutable>
    ttng.tc_gen5_mma %a, %b, %acc[], %true, %p, %bar[%q] {is_async} : !ttg.memdesc<128x64xf16, #nv, #smem, mutable>, !ttg.memdesc<64x128xf16, #nv, #smem, mutable>, !ttg.memdesc<128x128xf32, #tm, #ttng.tensor_memory, mutable>, !ttg.memdesc<1xi64, #sh, #smem, mutable>
    ttng.tc_gen5_commit %bar : !ttg.memdesc<1xi64, #sh, #smem, mutable>
    tt.return
  }
}

// -----

// wait_barrier: before it, under the wait's predicate, the thread is marked waiting for the phase and the wait
// must not leave every active thread waiting (one thread: mask 1); after it, what the barrier tracked becomes
// visible to the thread and its peers and the mark is cleared.
// CHECK-LABEL: tt.func public @wait
// CHECK: ttng.init_barrier
// CHECK-NEXT: tti.experimental_lock_acquire %[[LOCK:.*]], %arg1 : !tt.ptr<i32>
// CHECK-NEXT: %[[BASE:.*]] = arith.constant 0 : i32
// CHECK: tt.call @__triton_consan_set_waiting_nw1_{{[_TI0-9A-F]+}}(%{{.*}}, %{{.*}}, %[[BASE]], %arg0, %arg1,
// CHECK-NEXT: %[[ACTIVE:.*]] = arith.constant 1 : i32
// CHECK-NEXT: %[[OK:.*]] = tt.call @__triton_consan_check_all_active_waiting_nw1_{{[_TI0-9A-F]+}}(%[[ACTIVE]], %arg1, %{{.*}}, %{{.*}}) : (i32, i1, !tt.ptr<i32>, !tt.ptr<i32>) -> i1
// CHECK-NEXT: tti.experimental_assert_in_thread %[[OK]], "Deadlock detected: all active threads are waiting on mbarriers" {check_any = false} : i1
// CHECK-NEXT: tti.experimental_lock_release %[[LOCK]], %arg1 : !tt.ptr<i32>
// CHECK-NEXT: ttng.wait_barrier
// CHECK-NEXT: tti.experimental_lock_acquire %[[LOCK]] : !tt.ptr<i32>
// CHECK-NEXT: %[[PEERS:.*]] = arith.constant 4295032833 : i64
// CHECK: tt.call @__triton_consan_transfer_visible_writes_nw1_{{[_TI0-9A-F]+}}(%{{.*}}, %{{.*}}, %arg1, %[[PEERS]],
// CHECK: tt.call @__triton_consan_transfer_visible_reads_nw1_
// CHECK: tt.call @__triton_consan_clear_waiting_nw1_
// CHECK-NEXT: tti.experimental_lock_release %[[LOCK]] : !tt.ptr<i32>
// CHECK-NEXT: tti.experimental_lock_acquire %[[LOCK]] : !tt.ptr<i32>
// CHECK: ttg.local_load
#sh = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#blk = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @wait(%phase: i32, %p: i1) {
    %a = ttg.local_alloc {allocation.offset = 0 : i32} : () -> !ttg.memdesc<16xf32, #sh, #smem, mutable>
    %bar = ttg.local_alloc {allocation.offset = 64 : i32} : () -> !ttg.memdesc<1xi64, #sh, #smem, mutable>
    ttng.init_barrier %bar, 1 : !ttg.memdesc<1xi64, #sh, #smem, mutable>
    ttng.wait_barrier %bar, %phase, %p : !ttg.memdesc<1xi64, #sh, #smem, mutable>
    %x = ttg.local_load %a : !ttg.memdesc<16xf32, #sh, #smem, mutable> -> tensor<16xf32, #blk>
    tt.return
  }
}

// -----

// warp_specialize: the scratch tables and the lock become captures (new partition arguments); descriptors and
// alias matrices are made again at the start of each partition, with that partition's warps; the default thread's
// visibility is copied to partitions 1 and 2 (threads 1, 2 and their peers). In a partition, ops run on thread
// index + 1, the helpers take its warps, and a wait counts 3 active threads (mask 0b10101).
// CHECK-LABEL: tt.func public @ws
// CHECK: %[[WVIS:.*]] = ttg.global_scratch_alloc {alignment = 8 : i32, nbytes = 16 : i32} : !tt.ptr<i64>
// CHECK: tt.atomic_rmw exch, acq_rel, gpu, %[[LOCK:[^,]*]],
// CHECK: ttng.init_barrier
// CHECK-NEXT: tti.experimental_lock_acquire %[[LOCK]]
// CHECK-NEXT: arith.constant true
// CHECK-NEXT: %[[SRC:.*]] = arith.constant 0 : i32
// CHECK-NEXT: %[[DEST:.*]] = arith.constant 25770196998 : i64
// CHECK-NEXT: tt.call @__triton_consan_copy_write_visibility_nw4_{{[_TI0-9A-F]+}}(%[[SRC]], %[[DEST]], %{{.*}}, %[[WVIS]])
// CHECK: tt.call @__triton_consan_copy_read_visibility_nw4_{{[_TI0-9A-F]+}}_I25770196998(
// CHECK-NEXT: tti.experimental_lock_release %[[LOCK]]
// CHECK-NEXT: ttg.warp_specialize(%{{.*}}, %{{.*}}, %arg0, %[[WVIS]], %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[LOCK]])
// CHECK: partition0({{.*}}, %arg3: i32, %arg4: !tt.ptr<i64>, %arg5: !tt.ptr<i64>, %arg6: !tt.ptr<i32>, %arg7: !tt.ptr<i32>, %arg8: !tt.ptr<i8>, %arg9: !tt.ptr<i64>, %arg10: !tt.ptr<i32>) num_warps(2) {
// CHECK-NEXT: tti.experimental_buffer_descriptors [64], [8], shared_mem : tensor<1xi64, #[[P0BAR:[a-z0-9]+]]>
// CHECK-NEXT: arith.constant dense<{{.*}}> : tensor<2x2xi1
// CHECK-NEXT: tti.experimental_buffer_descriptors [0, 64], [64, 8], shared_mem : tensor<2xi64
// CHECK-NEXT: tti.experimental_lock_acquire %arg10 : !tt.ptr<i32>
// CHECK-NEXT: arith.constant true
// CHECK-NEXT: %[[ONE:.*]] = arith.constant 1 : i32
// CHECK: tt.call @__triton_consan_set_waiting_nw2_{{[_TI0-9A-F]+}}(%{{.*}}, %{{.*}}, %[[ONE]], %arg3,
// CHECK-NEXT: arith.constant true
// CHECK-NEXT: %[[ACTIVE:.*]] = arith.constant 21 : i32
// CHECK-NEXT: tt.call @__triton_consan_check_all_active_waiting_nw2_{{[_TI0-9A-F]+}}(%[[ACTIVE]], %{{.*}}, %arg7, %arg6)
// CHECK: ttng.wait_barrier %arg2, %arg3
// CHECK: arith.constant 8590065666 : i64
// CHECK: tt.call @__triton_consan_transfer_visible_writes_nw2_{{.*}}, %arg4, %arg8)
// CHECK: partition1(
// CHECK: tti.experimental_lock_acquire %arg10
// CHECK-NEXT: arith.constant true
// CHECK-NEXT: %[[TWO:.*]] = arith.constant 2 : i32
// CHECK: tt.call @__triton_consan_verify_write_visibility_nw1_{{[_TI0-9A-F]+}}(%{{.*}}, %{{.*}}, %{{.*}}, %[[TWO]], %{{.*}}, %arg4,
// CHECK: arith.constant 17180131332 : i64
// CHECK: tt.call @__triton_consan_set_read_visibility_nw1_{{.*}}, %arg5)
// CHECK-NEXT: tti.experimental_lock_release %arg10
// CHECK-NEXT: ttg.local_load %arg1
#sh = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @ws(%phase: i32) {
    %a = ttg.local_alloc {allocation.offset = 0 : i32} : () -> !ttg.memdesc<16xf32, #sh, #smem, mutable>
    %bar = ttg.local_alloc {allocation.offset = 64 : i32} : () -> !ttg.memdesc<1xi64, #sh, #smem, mutable>
    ttng.init_barrier %bar, 1 : !ttg.memdesc<1xi64, #sh, #smem, mutable>
    ttg.warp_specialize(%a, %bar, %phase) attributes {requestedRegisters = array<i32: 32, 32>, warpGroupStartIds = array<i32: 4, 6>}
    default {
      ttg.warp_yield
    }
    partition0(%pa: !ttg.memdesc<16xf32, #sh, #smem, mutable>, %pb: !ttg.memdesc<1xi64, #sh, #smem, mutable>, %ph: i32) num_warps(2) {
      ttng.wait_barrier %pb, %ph : !ttg.memdesc<1xi64, #sh, #smem, mutable>
      ttg.warp_return
    }
    partition1(%pa: !ttg.memdesc<16xf32, #sh, #smem, mutable>, %pb: !ttg.memdesc<1xi64, #sh, #smem, mutable>, %ph: i32) num_warps(1) {
      %x = ttg.local_load %pa : !ttg.memdesc<16xf32, #sh, #smem, mutable> -> tensor<16xf32, #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>>
      ttg.warp_return
    } : (!ttg.memdesc<16xf32, #sh, #smem, mutable>, !ttg.memdesc<1xi64, #sh, #smem, mutable>, i32) -> ()
    tt.return
  }
}

// -----

// A kernel without memory accesses gets only the lock.
// CHECK-LABEL: tt.func public @no_memory
// CHECK-NEXT: %[[LOCK:.*]] = ttg.global_scratch_alloc {alignment = 4 : i32, nbytes = 4 : i32} : !tt.ptr<i32>
// CHECK-NEXT: %[[ZERO:.*]] = arith.constant 0 : i32
// CHECK-NEXT: tt.atomic_rmw exch, acq_rel, gpu, %[[LOCK]], %[[ZERO]]
// CHECK-NEXT: arith.addi
// CHECK-NEXT: tt.return
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @no_memory(%x: i32) -> i32 {
    %y = arith.addi %x, %x : i32
    tt.return %y : i32
  }
}
