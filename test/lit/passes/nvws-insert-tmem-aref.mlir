// RUN: tt-opt %s -split-input-file -allow-unregistered-dialect -nvws-insert-tmem-aref | filecheck %s

// nvws-insert-tmem-aref: an accumulator zeroed by one partition, accumulated by another in an inner loop and
// read by the first gets a one-slot aref handed over put/get/put; when the MMA partition also zeroes it
// (producer, consumer, producer) it is double-buffered; an alloc with a source stores it into the slot; an
// accumulator with one owner is left alone.

#bl = #ttg.blocked<{sizePerThread = [1, 32], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [0, 1]}>
#nv = #ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
#tm = #ttng.tensor_memory_encoding<blockM = 128, blockN = 32, colStride = 1>
module attributes {"ttg.num-warps" = 4 : i32, ttg.target = "cuda:100"} {
  // CHECK-LABEL: @single_slot
  tt.func @single_slot(%a: !ttg.memdesc<128x32xf16, #nv, #smem>, %b: !ttg.memdesc<32x32xf16, #nv, #smem>, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %true = arith.constant true
    %false = arith.constant false
    %zero = arith.constant dense<0.0> : tensor<128x32xf32, #bl>
    // CHECK: [[BUF:%.*]] = ttng.tmem_alloc : () -> !ttg.memdesc<1x128x32xf32, #tmem, #ttng.tensor_memory, mutable>
    // CHECK-NEXT: [[AREF:%.*]] = nvws.aref.create [[BUF]]
    // CHECK-NEXT: [[POISON:%.*]] = ub.poison : !ttg.async.token
    // CHECK-NEXT: [[S0:%.*]], [[T0:%.*]] = nvws.aref.put.enter [[AREF]] :
    // CHECK-NEXT: ttng.tmem_alloc
    %acc, %tok = ttng.tmem_alloc : () -> (!ttg.memdesc<128x32xf32, #tm, #ttng.tensor_memory, mutable>, !ttg.async.token)
    // CHECK-NEXT: scf.for {{.*}} iter_args([[LT:%.*]] = [[T0]])
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%t0 = %tok) -> (!ttg.async.token) : i32 {
      // CHECK-NEXT: [[B1:%.*]] = nvws.aref.buffer [[AREF]], [[LT]] {ttg.partition = array<i32: 0>}
      // CHECK-NEXT: ttng.tmem_store %cst, [[B1]][], %true {ttg.partition = array<i32: 0>}
      // CHECK-NEXT: nvws.aref.put.exit [[AREF]], [[LT]] [#nvws.async_op<none>] {ttg.partition = array<i32: 0>}
      // CHECK-NEXT: [[S2:%.*]], [[T2:%.*]] = nvws.aref.get.enter [[AREF]] {ttg.partition = array<i32: 1>}
      %st = ttng.tmem_store %zero, %acc[%t0], %true {ttg.partition = array<i32: 0>} : tensor<128x32xf32, #bl> -> !ttg.memdesc<128x32xf32, #tm, #ttng.tensor_memory, mutable>
      // CHECK-NEXT: [[IN:%.*]]:2 = scf.for {{.*}} iter_args({{.*}} = %false, [[IT:%.*]] = [[T2]])
      %r2:2 = scf.for %j = %c0 to %n step %c1 iter_args(%use = %false, %t = %st) -> (i1, !ttg.async.token) : i32 {
        // CHECK-NEXT: [[B2:%.*]] = nvws.aref.buffer [[AREF]], [[IT]] {ttg.partition = array<i32: 1>}
        // CHECK-NEXT: ttng.tc_gen5_mma %arg0, %arg1, [[B2]][], {{.*}} {ttg.partition = array<i32: 1>}
        // CHECK-NEXT: scf.yield {ttg.partition = array<i32: 1>} %true, [[IT]]
        %m = ttng.tc_gen5_mma %a, %b, %acc[%t], %use, %true {ttg.partition = array<i32: 1>} : !ttg.memdesc<128x32xf16, #nv, #smem>, !ttg.memdesc<32x32xf16, #nv, #smem>, !ttg.memdesc<128x32xf32, #tm, #ttng.tensor_memory, mutable>
        scf.yield {ttg.partition = array<i32: 1>} %true, %m : i1, !ttg.async.token
      } {ttg.partition = array<i32: 1>, ttg.partition.outputs = [array<i32: 1>, array<i32: 1>]}
      // CHECK: nvws.aref.get.exit [[AREF]], [[IN]]#1 [#nvws.async_op<tc5mma>] {ttg.partition = array<i32: 1>}
      // CHECK-NEXT: [[S3:%.*]], [[T3:%.*]] = nvws.aref.put.enter [[AREF]] {ttg.partition = array<i32: 0>}
      // CHECK-NEXT: [[B3:%.*]] = nvws.aref.buffer [[AREF]], [[T3]] {ttg.partition = array<i32: 0>}
      // CHECK-NEXT: {{.*}} = ttng.tmem_load [[B3]][] {ttg.partition = array<i32: 0>}
      %v, %lt = ttng.tmem_load %acc[%r2#1] {ttg.partition = array<i32: 0>} : !ttg.memdesc<128x32xf32, #tm, #ttng.tensor_memory, mutable> -> tensor<128x32xf32, #bl>
      "use"(%v) {ttg.partition = array<i32: 0>} : (tensor<128x32xf32, #bl>) -> ()
      // CHECK: scf.yield {ttg.partition = array<i32: 0, 1>} [[T3]]
      scf.yield {ttg.partition = array<i32: 0, 1>} %lt : !ttg.async.token
    } {tt.warp_specialize, ttg.partition = array<i32: 0, 1>, ttg.partition.outputs = [array<i32: 0>], ttg.partition.stages = [0 : i32, 0 : i32], ttg.warp_specialize.tag = 0 : i32}
    // CHECK: nvws.aref.put.exit [[AREF]], {{.*}} [#nvws.async_op<none>] {ttg.partition = array<i32: 0>, ttg.warp_specialize.tag = 0 : i32}
    // CHECK-NEXT: nvws.aref.get.enter [[AREF]] {ttg.partition = array<i32: 1>, ttg.warp_specialize.tag = 0 : i32}
    // CHECK-NEXT: nvws.aref.get.exit {{.*}} {ttg.partition = array<i32: 1>, ttg.warp_specialize.tag = 0 : i32}
    // CHECK-NEXT: tt.return
    tt.return
  }

  // CHECK-LABEL: @double_buffered
  tt.func @double_buffered(%a: !ttg.memdesc<128x32xf16, #nv, #smem>, %b: !ttg.memdesc<32x32xf16, #nv, #smem>, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %true = arith.constant true
    %false = arith.constant false
    // CHECK: ttng.tmem_alloc : () -> !ttg.memdesc<2x128x32xf32, #tmem, #ttng.tensor_memory, mutable>
    %zero = arith.constant dense<0.0> : tensor<128x32xf32, #bl>
    %acc, %tok = ttng.tmem_alloc : () -> (!ttg.memdesc<128x32xf32, #tm, #ttng.tensor_memory, mutable>, !ttg.async.token)
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%t0 = %tok) -> (!ttg.async.token) : i32 {
      %r2:2 = scf.for %j = %c0 to %n step %c1 iter_args(%use = %false, %t = %t0) -> (i1, !ttg.async.token) : i32 {
        %m = ttng.tc_gen5_mma %a, %b, %acc[%t], %use, %true {ttg.partition = array<i32: 1>} : !ttg.memdesc<128x32xf16, #nv, #smem>, !ttg.memdesc<32x32xf16, #nv, #smem>, !ttg.memdesc<128x32xf32, #tm, #ttng.tensor_memory, mutable>
        scf.yield {ttg.partition = array<i32: 1>} %true, %m : i1, !ttg.async.token
      } {ttg.partition = array<i32: 1>, ttg.partition.outputs = [array<i32: 1>, array<i32: 1>]}
      %v, %lt = ttng.tmem_load %acc[%r2#1] {ttg.partition = array<i32: 0>} : !ttg.memdesc<128x32xf32, #tm, #ttng.tensor_memory, mutable> -> tensor<128x32xf32, #bl>
      "use"(%v) {ttg.partition = array<i32: 0>} : (tensor<128x32xf32, #bl>) -> ()
      scf.yield {ttg.partition = array<i32: 0, 1>} %lt : !ttg.async.token
    } {tt.warp_specialize, ttg.partition = array<i32: 0, 1>, ttg.partition.outputs = [array<i32: 1>], ttg.partition.stages = [0 : i32, 0 : i32], ttg.warp_specialize.tag = 0 : i32}
    tt.return
  }

  // CHECK-LABEL: @alloc_with_source
  tt.func @alloc_with_source(%a: !ttg.memdesc<128x32xf16, #nv, #smem>, %b: !ttg.memdesc<32x32xf16, #nv, #smem>, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %true = arith.constant true
    %zero = arith.constant dense<0.0> : tensor<128x32xf32, #bl>
    // CHECK: [[AREF:%.*]] = nvws.aref.create
    // CHECK: [[S:%.*]], [[T:%.*]] = nvws.aref.put.enter [[AREF]] :
    // CHECK-NEXT: [[B:%.*]] = nvws.aref.buffer [[AREF]], [[T]] :
    // CHECK-NEXT: [[TRUE:%.*]] = arith.constant true
    // CHECK-NEXT: ttng.tmem_store %cst, [[B]], [[TRUE]] :
    %acc, %tok = ttng.tmem_alloc %zero : (tensor<128x32xf32, #bl>) -> (!ttg.memdesc<128x32xf32, #tm, #ttng.tensor_memory, mutable>, !ttg.async.token)
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%t = %tok) -> (!ttg.async.token) : i32 {
      %m = ttng.tc_gen5_mma %a, %b, %acc[%t], %true, %true {ttg.partition = array<i32: 1>} : !ttg.memdesc<128x32xf16, #nv, #smem>, !ttg.memdesc<32x32xf16, #nv, #smem>, !ttg.memdesc<128x32xf32, #tm, #ttng.tensor_memory, mutable>
      %v, %lt = ttng.tmem_load %acc[%m] {ttg.partition = array<i32: 0>} : !ttg.memdesc<128x32xf32, #tm, #ttng.tensor_memory, mutable> -> tensor<128x32xf32, #bl>
      "use"(%v) {ttg.partition = array<i32: 0>} : (tensor<128x32xf32, #bl>) -> ()
      scf.yield {ttg.partition = array<i32: 0, 1>} %lt : !ttg.async.token
    } {tt.warp_specialize, ttg.partition = array<i32: 0, 1>, ttg.partition.outputs = [array<i32: 1>], ttg.partition.stages = [0 : i32, 0 : i32], ttg.warp_specialize.tag = 0 : i32}
    tt.return
  }

  // CHECK-LABEL: @one_owner
  tt.func @one_owner(%a: !ttg.memdesc<128x32xf16, #nv, #smem>, %b: !ttg.memdesc<32x32xf16, #nv, #smem>, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %true = arith.constant true
    // CHECK-NOT: nvws.aref
    %acc, %tok = ttng.tmem_alloc : () -> (!ttg.memdesc<128x32xf32, #tm, #ttng.tensor_memory, mutable>, !ttg.async.token)
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%t = %tok) -> (!ttg.async.token) : i32 {
      %m = ttng.tc_gen5_mma %a, %b, %acc[%t], %true, %true {ttg.partition = array<i32: 1>} : !ttg.memdesc<128x32xf16, #nv, #smem>, !ttg.memdesc<32x32xf16, #nv, #smem>, !ttg.memdesc<128x32xf32, #tm, #ttng.tensor_memory, mutable>
      scf.yield {ttg.partition = array<i32: 1>} %m : !ttg.async.token
    } {tt.warp_specialize, ttg.partition = array<i32: 1>, ttg.partition.outputs = [array<i32: 1>], ttg.partition.stages = [0 : i32, 0 : i32], ttg.warp_specialize.tag = 0 : i32}
    // CHECK: tt.return
    tt.return
  }
}
