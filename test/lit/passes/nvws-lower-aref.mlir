// RUN: tt-opt %s -split-input-file -allow-unregistered-dialect -nvws-lower-aref=num-stages=2 | filecheck %s

// nvws-lower-aref: two TMA arefs read by one MMA are combined and get two slots; the put waits on `empty`,
// expects the bytes on `full` and copies with TMA, the get waits on `full` and the MMA commits to `empty`;
// a tensor aref (local_store / local_load) arrives on its barriers with arrive_barrier, no fence needed.

#ld = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#nv = #ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
#tm = #ttng.tensor_memory_encoding<blockM = 128, blockN = 32, colStride = 1>
module attributes {"ttg.num-warps" = 4 : i32, ttg.target = "cuda:100"} {
  // CHECK-LABEL: @tma_pair
  tt.func @tma_pair(%da: !tt.tensordesc<tensor<128x32xf16, #nv>>, %db: !tt.tensordesc<tensor<32x32xf16, #nv>>, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %true = arith.constant true
    %acc = ttng.tmem_alloc : () -> !ttg.memdesc<128x32xf32, #tm, #ttng.tensor_memory, mutable>
    // CHECK-DAG: [[A:%.*]] = ttg.local_alloc : () -> !ttg.memdesc<2x128x32xf16, #shared, #smem, mutable>
    // CHECK-DAG: [[B:%.*]] = ttg.local_alloc : () -> !ttg.memdesc<2x32x32xf16, #shared, #smem, mutable>
    // CHECK: [[EMPTY:%.*]] = ttg.local_alloc : () -> !ttg.memdesc<2x1xi64, #shared1, #smem, mutable>
    // CHECK: ttng.init_barrier {{.*}}, 1
    // CHECK: ttng.init_barrier {{.*}}, 1
    // CHECK: [[FULL:%.*]] = ttg.local_alloc : () -> !ttg.memdesc<2x1xi64, #shared1, #smem, mutable>
    // CHECK-NOT: nvws.aref
    %ba = ttg.local_alloc : () -> !ttg.memdesc<1x128x32xf16, #nv, #smem, mutable>
    %ra = nvws.aref.create %ba : <[!ttg.memdesc<1x128x32xf16, #nv, #smem, mutable>]>
    %bb = ttg.local_alloc : () -> !ttg.memdesc<1x32x32xf16, #nv, #smem, mutable>
    %rb = nvws.aref.create %bb : <[!ttg.memdesc<1x32x32xf16, #nv, #smem, mutable>]>
    scf.for %i = %c0 to %n step %c1 : i32 {
      // CHECK: [[E:%.*]] = ttg.memdesc_index [[EMPTY]]{{\[}}{{.*}}] {ttg.partition = array<i32: 2>}
      // CHECK-NEXT: ttng.wait_barrier [[E]], {{.*}} {ttg.partition = array<i32: 2>}
      // CHECK-NEXT: [[SA:%.*]] = ttg.memdesc_index [[A]]
      // CHECK-NEXT: [[SB:%.*]] = ttg.memdesc_index [[B]]
      // CHECK-NEXT: [[F:%.*]] = ttg.memdesc_index [[FULL]]
      // CHECK-NEXT: [[TRUE:%.*]] = arith.constant {ttg.partition = array<i32: 2>} true
      // CHECK-NEXT: ttng.barrier_expect [[F]], 10240 {ttg.partition = array<i32: 2>}, [[TRUE]]
      // CHECK-NEXT: ttng.async_tma_copy_global_to_local %arg0[%arg3, %c0_i32] [[SA]], [[F]], [[TRUE]] {ttg.partition = array<i32: 2>}
      // CHECK-NEXT: ttng.async_tma_copy_global_to_local %arg1[%arg3, %c0_i32] [[SB]], [[F]], [[TRUE]] {ttg.partition = array<i32: 2>}
      %pa:2 = nvws.aref.put.enter %ra {ttg.partition = array<i32: 2>} : <[!ttg.memdesc<1x128x32xf16, #nv, #smem, mutable>]> -> !ttg.memdesc<128x32xf16, #nv, #smem, mutable, 1x128x32>, !ttg.async.token
      nvws.descriptor_load %da[%i, %c0] 8192 %pa#0 {ttg.partition = array<i32: 2>} : !tt.tensordesc<tensor<128x32xf16, #nv>>, i32, i32, !ttg.memdesc<128x32xf16, #nv, #smem, mutable, 1x128x32>
      nvws.aref.put.exit %ra, %pa#1 [#nvws.async_op<tma_load>] {ttg.partition = array<i32: 2>} : <[!ttg.memdesc<1x128x32xf16, #nv, #smem, mutable>]>, !ttg.async.token
      %pb:2 = nvws.aref.put.enter %rb {ttg.partition = array<i32: 2>} : <[!ttg.memdesc<1x32x32xf16, #nv, #smem, mutable>]> -> !ttg.memdesc<32x32xf16, #nv, #smem, mutable, 1x32x32>, !ttg.async.token
      nvws.descriptor_load %db[%i, %c0] 2048 %pb#0 {ttg.partition = array<i32: 2>} : !tt.tensordesc<tensor<32x32xf16, #nv>>, i32, i32, !ttg.memdesc<32x32xf16, #nv, #smem, mutable, 1x32x32>
      nvws.aref.put.exit %rb, %pb#1 [#nvws.async_op<tma_load>] {ttg.partition = array<i32: 2>} : <[!ttg.memdesc<1x32x32xf16, #nv, #smem, mutable>]>, !ttg.async.token
      // CHECK: [[F2:%.*]] = ttg.memdesc_index [[FULL]]{{\[}}{{.*}}] {ttg.partition = array<i32: 1>}
      // CHECK-NEXT: ttng.wait_barrier [[F2]], {{.*}} {ttg.partition = array<i32: 1>}
      // CHECK-NEXT: [[GA:%.*]] = ttg.memdesc_index [[A]]
      // CHECK-NEXT: [[GB:%.*]] = ttg.memdesc_index [[B]]
      // CHECK-NEXT: ttng.tc_gen5_mma [[GA]], [[GB]], {{.*}} {is_async, ttg.partition = array<i32: 1>}
      // CHECK-NEXT: [[E2:%.*]] = ttg.memdesc_index [[EMPTY]]{{\[}}{{.*}}] {ttg.partition = array<i32: 1>}
      // CHECK-NEXT: ttng.tc_gen5_commit [[E2]] {ttg.partition = array<i32: 1>}
      %ga:2 = nvws.aref.get.enter %ra {ttg.partition = array<i32: 1>} : <[!ttg.memdesc<1x128x32xf16, #nv, #smem, mutable>]> -> !ttg.memdesc<128x32xf16, #nv, #smem, 1x128x32>, !ttg.async.token
      %gb:2 = nvws.aref.get.enter %rb {ttg.partition = array<i32: 1>} : <[!ttg.memdesc<1x32x32xf16, #nv, #smem, mutable>]> -> !ttg.memdesc<32x32xf16, #nv, #smem, 1x32x32>, !ttg.async.token
      ttng.tc_gen5_mma %ga#0, %gb#0, %acc, %true, %true {ttg.partition = array<i32: 1>} : !ttg.memdesc<128x32xf16, #nv, #smem, 1x128x32>, !ttg.memdesc<32x32xf16, #nv, #smem, 1x32x32>, !ttg.memdesc<128x32xf32, #tm, #ttng.tensor_memory, mutable>
      nvws.aref.get.exit %rb, %gb#1 [#nvws.async_op<tc5mma>] {ttg.partition = array<i32: 1>} : <[!ttg.memdesc<1x32x32xf16, #nv, #smem, mutable>]>, !ttg.async.token
      nvws.aref.get.exit %ra, %ga#1 [#nvws.async_op<tc5mma>] {ttg.partition = array<i32: 1>} : <[!ttg.memdesc<1x128x32xf16, #nv, #smem, mutable>]>, !ttg.async.token
    } {tt.warp_specialize, ttg.partition = array<i32: 1, 2>, ttg.partition.stages = [0 : i32, 0 : i32, 0 : i32], ttg.warp_specialize.tag = 0 : i32}
    // CHECK: ttng.inval_barrier
    // CHECK: ttg.local_dealloc [[EMPTY]]
    // CHECK: ttng.inval_barrier
    // CHECK: ttg.local_dealloc [[FULL]]
    tt.return
  }
}

// -----

#bl = #ttg.blocked<{sizePerThread = [1, 32], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [0, 1]}>
#sw = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0, 1]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, ttg.target = "cuda:100"} {
  // CHECK-LABEL: @tensor_aref
  tt.func @tensor_aref(%n: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    // CHECK: ttg.local_alloc : () -> !ttg.memdesc<1x128x32xf32, #shared, #smem, mutable>
    %buf = ttg.local_alloc : () -> !ttg.memdesc<1x128x32xf32, #sw, #smem, mutable>
    %r = nvws.aref.create %buf : <[!ttg.memdesc<1x128x32xf32, #sw, #smem, mutable>]>
    scf.for %i = %c0 to %n step %c1 : i32 {
      %x = "make"() {ttg.partition = array<i32: 0>} : () -> tensor<128x32xf32, #bl>
      %p:2 = nvws.aref.put.enter %r {ttg.partition = array<i32: 0>} : <[!ttg.memdesc<1x128x32xf32, #sw, #smem, mutable>]> -> !ttg.memdesc<128x32xf32, #sw, #smem, mutable, 1x128x32>, !ttg.async.token
      // CHECK: ttg.local_store
      // CHECK-NEXT: [[F:%.*]] = ttg.memdesc_index {{.*}} {ttg.partition = array<i32: 0>}
      // CHECK-NEXT: ttng.arrive_barrier [[F]], 1 {ttg.partition = array<i32: 0>}
      ttg.local_store %x, %p#0 {ttg.partition = array<i32: 0>} : tensor<128x32xf32, #bl> -> !ttg.memdesc<128x32xf32, #sw, #smem, mutable, 1x128x32>
      nvws.aref.put.exit %r, %p#1 [#nvws.async_op<none>] {ttg.partition = array<i32: 0>} : <[!ttg.memdesc<1x128x32xf32, #sw, #smem, mutable>]>, !ttg.async.token
      %g:2 = nvws.aref.get.enter %r {ttg.partition = array<i32: 1>} : <[!ttg.memdesc<1x128x32xf32, #sw, #smem, mutable>]> -> !ttg.memdesc<128x32xf32, #sw, #smem, 1x128x32>, !ttg.async.token
      // CHECK: ttg.local_load
      // CHECK-NEXT: [[E:%.*]] = ttg.memdesc_index {{.*}} {ttg.partition = array<i32: 1>}
      // CHECK-NEXT: ttng.arrive_barrier [[E]], 1 {ttg.partition = array<i32: 1>}
      %v = ttg.local_load %g#0 {ttg.partition = array<i32: 1>} : !ttg.memdesc<128x32xf32, #sw, #smem, 1x128x32> -> tensor<128x32xf32, #bl>
      nvws.aref.get.exit %r, %g#1 [#nvws.async_op<none>] {ttg.partition = array<i32: 1>} : <[!ttg.memdesc<1x128x32xf32, #sw, #smem, mutable>]>, !ttg.async.token
      "use"(%v) {ttg.partition = array<i32: 1>} : (tensor<128x32xf32, #bl>) -> ()
    } {tt.warp_specialize, ttg.partition = array<i32: 0, 1>, ttg.partition.stages = [0 : i32, 0 : i32], ttg.warp_specialize.tag = 0 : i32}
    tt.return
  }
}
