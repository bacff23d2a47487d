// RUN: tt-opt %s -split-input-file -allow-unregistered-dialect -nvws-hoist-tmem-store | filecheck %s

// nvws-hoist-tmem-store: the zeroing store folds into the alloc, which leaves the loop nest with its token
// threaded through it; an MMA loop whose trip count follows the outer loop stays (the alloc then goes to
// partition 1) unless an assume on its bound proves it runs (a bound that is the induction variable itself
// does not count as depending on it, as in Triton); allocs outside warp-specialized loops are left alone.

#bl = #ttg.blocked<{sizePerThread = [1, 32], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [0, 1]}>
#nv = #ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
#tm = #ttng.tensor_memory_encoding<blockM = 128, blockN = 32, colStride = 1>
module attributes {"ttg.num-warps" = 4 : i32, ttg.target = "cuda:100"} {
  // CHECK-LABEL: @hoisted
  tt.func @hoisted(%a: !ttg.memdesc<128x32xf16, #nv, #smem>, %b: !ttg.memdesc<32x32xf16, #nv, #smem>, %n: i32, %k: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %true = arith.constant true
    %false = arith.constant false
    %zero = arith.constant dense<0.0> : tensor<128x32xf32, #bl>
    // CHECK: [[ACC:%.*]], [[TOK:%.*]] = ttng.tmem_alloc %cst : (tensor<128x32xf32, #blocked>)
    // CHECK-NEXT: [[R:%.*]] = scf.for {{.*}} iter_args([[OT:%.*]] = [[TOK]]) -> (!ttg.async.token)
    scf.for %i = %c0 to %n step %c1 : i32 {
      // CHECK-NOT: ttng.tmem_store
      // CHECK: [[M:%.*]]:2 = scf.for {{.*}} iter_args({{.*}} = %false, [[IT:%.*]] = [[OT]])
      %acc, %tok = ttng.tmem_alloc {ttg.partition = array<i32: 0, 1>} : () -> (!ttg.memdesc<128x32xf32, #tm, #ttng.tensor_memory, mutable>, !ttg.async.token)
      %st = ttng.tmem_store %zero, %acc[%tok], %true {ttg.partition = array<i32: 0>} : tensor<128x32xf32, #bl> -> !ttg.memdesc<128x32xf32, #tm, #ttng.tensor_memory, mutable>
      %r:2 = scf.for %j = %c0 to %k step %c1 iter_args(%use = %false, %t = %st) -> (i1, !ttg.async.token) : i32 {
        // CHECK: ttng.tc_gen5_mma {{.*}}[[ACC]][[[IT]]]
        %m = ttng.tc_gen5_mma %a, %b, %acc[%t], %use, %true {ttg.partition = array<i32: 1>} : !ttg.memdesc<128x32xf16, #nv, #smem>, !ttg.memdesc<32x32xf16, #nv, #smem>, !ttg.memdesc<128x32xf32, #tm, #ttng.tensor_memory, mutable>
        scf.yield {ttg.partition = array<i32: 1>} %true, %m : i1, !ttg.async.token
      } {ttg.partition = array<i32: 1>, ttg.partition.outputs = [array<i32: 1>, array<i32: 1>]}
      // CHECK: [[V:%.*]], [[LT:%.*]] = ttng.tmem_load [[ACC]][[[M]]#1]
      %v, %lt = ttng.tmem_load %acc[%r#1] {ttg.partition = array<i32: 0>} : !ttg.memdesc<128x32xf32, #tm, #ttng.tensor_memory, mutable> -> tensor<128x32xf32, #bl>
      "use"(%v) {ttg.partition = array<i32: 0>} : (tensor<128x32xf32, #bl>) -> ()
      // CHECK: scf.yield {ttg.partition = array<i32: 0, 1>} [[LT]] : !ttg.async.token
      // CHECK-NEXT: } {tt.warp_specialize, ttg.partition = array<i32: 0, 1>, ttg.partition.outputs = [array<i32: 1>]
    } {tt.warp_specialize, ttg.partition = array<i32: 0, 1>, ttg.partition.stages = [0 : i32, 0 : i32], ttg.warp_specialize.tag = 0 : i32}
    tt.return
  }

  // CHECK-LABEL: @trip_count_follows_outer_loop
  tt.func @trip_count_follows_outer_loop(%a: !ttg.memdesc<128x32xf16, #nv, #smem>, %b: !ttg.memdesc<32x32xf16, #nv, #smem>, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %true = arith.constant true
    %false = arith.constant false
    %zero = arith.constant dense<0.0> : tensor<128x32xf32, #bl>
    // CHECK: scf.for
    scf.for %i = %c0 to %n step %c1 : i32 {
      // CHECK-NEXT: ttng.tmem_alloc %cst {ttg.partition = array<i32: 1>}
      %acc, %tok = ttng.tmem_alloc {ttg.partition = array<i32: 0, 1>} : () -> (!ttg.memdesc<128x32xf32, #tm, #ttng.tensor_memory, mutable>, !ttg.async.token)
      %st = ttng.tmem_store %zero, %acc[%tok], %true {ttg.partition = array<i32: 0>} : tensor<128x32xf32, #bl> -> !ttg.memdesc<128x32xf32, #tm, #ttng.tensor_memory, mutable>
      %ub = arith.addi %i, %c1 : i32
      %r:2 = scf.for %j = %c0 to %ub step %c1 iter_args(%use = %false, %t = %st) -> (i1, !ttg.async.token) : i32 {
        %m = ttng.tc_gen5_mma %a, %b, %acc[%t], %use, %true {ttg.partition = array<i32: 1>} : !ttg.memdesc<128x32xf16, #nv, #smem>, !ttg.memdesc<32x32xf16, #nv, #smem>, !ttg.memdesc<128x32xf32, #tm, #ttng.tensor_memory, mutable>
        scf.yield {ttg.partition = array<i32: 1>} %true, %m : i1, !ttg.async.token
      } {ttg.partition = array<i32: 1>, ttg.partition.outputs = [array<i32: 1>, array<i32: 1>]}
      %v, %lt = ttng.tmem_load %acc[%r#1] {ttg.partition = array<i32: 0>} : !ttg.memdesc<128x32xf32, #tm, #ttng.tensor_memory, mutable> -> tensor<128x32xf32, #bl>
      "use"(%v) {ttg.partition = array<i32: 0>} : (tensor<128x32xf32, #bl>) -> ()
    } {tt.warp_specialize, ttg.partition = array<i32: 0, 1>, ttg.partition.stages = [0 : i32, 0 : i32], ttg.warp_specialize.tag = 0 : i32}
    tt.return
  }

  // CHECK-LABEL: @assumed_to_run
  tt.func @assumed_to_run(%a: !ttg.memdesc<128x32xf16, #nv, #smem>, %b: !ttg.memdesc<32x32xf16, #nv, #smem>, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %true = arith.constant true
    %false = arith.constant false
    %zero = arith.constant dense<0.0> : tensor<128x32xf32, #bl>
    // CHECK: ttng.tmem_alloc %cst : (tensor
    // CHECK-NEXT: scf.for
    scf.for %i = %c1 to %n step %c1 : i32 {
      %ub = arith.addi %i, %c1 : i32
      %pos = arith.cmpi sgt, %ub, %c0 : i32
      llvm.intr.assume %pos : i1
      %acc, %tok = ttng.tmem_alloc {ttg.partition = array<i32: 0, 1>} : () -> (!ttg.memdesc<128x32xf32, #tm, #ttng.tensor_memory, mutable>, !ttg.async.token)
      %st = ttng.tmem_store %zero, %acc[%tok], %true {ttg.partition = array<i32: 0>} : tensor<128x32xf32, #bl> -> !ttg.memdesc<128x32xf32, #tm, #ttng.tensor_memory, mutable>
      %r:2 = scf.for %j = %c0 to %ub step %c1 iter_args(%use = %false, %t = %st) -> (i1, !ttg.async.token) : i32 {
        %m = ttng.tc_gen5_mma %a, %b, %acc[%t], %use, %true {ttg.partition = array<i32: 1>} : !ttg.memdesc<128x32xf16, #nv, #smem>, !ttg.memdesc<32x32xf16, #nv, #smem>, !ttg.memdesc<128x32xf32, #tm, #ttng.tensor_memory, mutable>
        scf.yield {ttg.partition = array<i32: 1>} %true, %m : i1, !ttg.async.token
      } {ttg.partition = array<i32: 1>, ttg.partition.outputs = [array<i32: 1>, array<i32: 1>]}
      %v, %lt = ttng.tmem_load %acc[%r#1] {ttg.partition = array<i32: 0>} : !ttg.memdesc<128x32xf32, #tm, #ttng.tensor_memory, mutable> -> tensor<128x32xf32, #bl>
      "use"(%v) {ttg.partition = array<i32: 0>} : (tensor<128x32xf32, #bl>) -> ()
    } {tt.warp_specialize, ttg.partition = array<i32: 0, 1>, ttg.partition.stages = [0 : i32, 0 : i32], ttg.warp_specialize.tag = 0 : i32}
    tt.return
  }

  // CHECK-LABEL: @not_warp_specialized
  tt.func @not_warp_specialized(%n: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %true = arith.constant true
    %zero = arith.constant dense<0.0> : tensor<128x32xf32, #bl>
    scf.for %i = %c0 to %n step %c1 : i32 {
      // CHECK: ttng.tmem_alloc : ()
      // CHECK-NEXT: ttng.tmem_store
      %acc, %tok = ttng.tmem_alloc : () -> (!ttg.memdesc<128x32xf32, #tm, #ttng.tensor_memory, mutable>, !ttg.async.token)
      %st = ttng.tmem_store %zero, %acc[%tok], %true : tensor<128x32xf32, #bl> -> !ttg.memdesc<128x32xf32, #tm, #ttng.tensor_memory, mutable>
      "keep"(%st) : (!ttg.async.token) -> ()
    }
    tt.return
  }
}
