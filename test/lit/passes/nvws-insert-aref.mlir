// RUN: tt-opt %s -split-input-file -allow-unregistered-dialect -nvws-insert-aref | filecheck %s

// nvws-insert-aref: one case per kind of produced value (a TMA load kept in shared memory, a tensor, a scalar,
// a loop-carried tensor, an alloc of a computed tensor read through a view), a value used only by its own
// partition, and a cp.async producer (an error, as in Triton).

#bl = #ttg.blocked<{sizePerThread = [1, 32], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [0, 1]}>
#ld = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#nv = #ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
#tm = #ttng.tensor_memory_encoding<blockM = 128, blockN = 32, colStride = 1>
module attributes {"ttg.num-warps" = 4 : i32, ttg.target = "cuda:100"} {
  // CHECK-LABEL: @tma_into_slot
  tt.func @tma_into_slot(%da: !tt.tensordesc<tensor<128x32xf16, #nv>>, %b: !ttg.memdesc<32x32xf16, #nv, #smem>, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %true = arith.constant true
    %acc, %tok = ttng.tmem_alloc : () -> (!ttg.memdesc<128x32xf32, #tm, #ttng.tensor_memory, mutable>, !ttg.async.token)
    // CHECK: [[BUF:%.*]] = ttg.local_alloc : () -> !ttg.memdesc<1x128x32xf16, #shared, #smem, mutable>
    // CHECK-NEXT: [[AREF:%.*]] = nvws.aref.create [[BUF]] : <[!ttg.memdesc<1x128x32xf16, #shared, #smem, mutable>]>
    // CHECK-NEXT: scf.for
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%t = %tok) -> (!ttg.async.token) : i32 {
      // CHECK: [[SLOT:%.*]], [[PT:%.*]] = nvws.aref.put.enter [[AREF]] {loop.cluster = 1 : i32, loop.stage = 0 : i32, ttg.partition = array<i32: 2>} : {{.*}} -> !ttg.memdesc<128x32xf16, #shared, #smem, mutable, 1x128x32>, !ttg.async.token
      // CHECK-NEXT: nvws.descriptor_load %arg0[%arg3, %c0_i32] 8192 [[SLOT]] {loop.cluster = 1 : i32, loop.stage = 0 : i32, ttg.partition = array<i32: 2>}
      // CHECK-NEXT: nvws.aref.put.exit [[AREF]], [[PT]] [#nvws.async_op<tma_load>] {loop.cluster = 1 : i32, loop.stage = 0 : i32, ttg.partition = array<i32: 2>}
      // CHECK-NOT: tt.descriptor_load
      // CHECK-NOT: ttg.local_alloc
      %a = tt.descriptor_load %da[%i, %c0] {loop.cluster = 1 : i32, loop.stage = 0 : i32, ttg.partition = array<i32: 2>} : !tt.tensordesc<tensor<128x32xf16, #nv>> -> tensor<128x32xf16, #ld>
      %s = ttg.local_alloc %a {loop.cluster = 0 : i32, loop.stage = 1 : i32, ttg.partition = array<i32: 2>} : (tensor<128x32xf16, #ld>) -> !ttg.memdesc<128x32xf16, #nv, #smem>
      // CHECK: [[VIEW:%.*]], [[GT:%.*]] = nvws.aref.get.enter [[AREF]] {loop.cluster = 0 : i32, loop.stage = 1 : i32, ttg.partition = array<i32: 1>} : {{.*}} -> !ttg.memdesc<128x32xf16, #shared, #smem, 1x128x32>, !ttg.async.token
      // CHECK-NEXT: [[MMA:%.*]] = ttng.tc_gen5_mma [[VIEW]], %arg1
      // CHECK-NEXT: nvws.aref.get.exit [[AREF]], [[GT]] [#nvws.async_op<tc5mma>] {loop.cluster = 0 : i32, loop.stage = 1 : i32, ttg.partition = array<i32: 1>}
      %m = ttng.tc_gen5_mma %s, %b, %acc[%t], %true, %true {loop.cluster = 0 : i32, loop.stage = 1 : i32, ttg.partition = array<i32: 1>} : !ttg.memdesc<128x32xf16, #nv, #smem>, !ttg.memdesc<32x32xf16, #nv, #smem>, !ttg.memdesc<128x32xf32, #tm, #ttng.tensor_memory, mutable>
      scf.yield {ttg.partition = array<i32: 1, 2>} %m : !ttg.async.token
    } {tt.warp_specialize, tt.scheduled_max_stage = 1 : i32, ttg.partition = array<i32: 1, 2>, ttg.partition.outputs = [array<i32: 1>], ttg.partition.stages = [0 : i32, 0 : i32, 0 : i32], ttg.warp_specialize.tag = 0 : i32}
    tt.return
  }
}

// -----

#bl = #ttg.blocked<{sizePerThread = [1, 32], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [0, 1]}>
module attributes {"ttg.num-warps" = 4 : i32, ttg.target = "cuda:100"} {
  // CHECK-LABEL: @tensor_and_scalar
  tt.func @tensor_and_scalar(%n: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    // CHECK: [[TBUF:%.*]] = ttg.local_alloc : () -> !ttg.memdesc<1x128x32xf32, #shared, #smem, mutable>
    // CHECK-NEXT: [[TAREF:%.*]] = nvws.aref.create [[TBUF]]
    // CHECK-NEXT: [[SBUF:%.*]] = ttg.local_alloc : () -> !ttg.memdesc<1x1xi32, #shared1, #smem, mutable>
    // CHECK-NEXT: [[SAREF:%.*]] = nvws.aref.create [[SBUF]]
    scf.for %i = %c0 to %n step %c1 : i32 {
      // CHECK: [[X:%.*]] = "make"() {ttg.partition = array<i32: 0>}
      // CHECK-NEXT: [[TS:%.*]], [[TT:%.*]] = nvws.aref.put.enter [[TAREF]] {ttg.partition = array<i32: 0>}
      // CHECK-NEXT: ttg.local_store [[X]], [[TS]] {ttg.partition = array<i32: 0>}
      // CHECK-NEXT: nvws.aref.put.exit [[TAREF]], [[TT]] [#nvws.async_op<none>] {ttg.partition = array<i32: 0>}
      %x = "make"() {ttg.partition = array<i32: 0>} : () -> tensor<128x32xf32, #bl>
      // CHECK: [[K:%.*]] = arith.addi %arg1, %c1_i32 {ttg.partition = array<i32: 0>}
      // CHECK-NEXT: [[SS:%.*]], [[ST:%.*]] = nvws.aref.put.enter [[SAREF]] {ttg.partition = array<i32: 0>}
      // CHECK-NEXT: [[SPLAT:%.*]] = tt.splat [[K]] {ttg.partition = array<i32: 0>} : i32 -> tensor<1xi32, #blocked1>
      // CHECK-NEXT: ttg.local_store [[SPLAT]], [[SS]] {ttg.partition = array<i32: 0>}
      // CHECK-NEXT: nvws.aref.put.exit [[SAREF]], [[ST]] [#nvws.async_op<none>]
      %k = arith.addi %i, %c1 {ttg.partition = array<i32: 0>} : i32
      // CHECK: [[TG:%.*]], [[TGT:%.*]] = nvws.aref.get.enter [[TAREF]] {ttg.partition = array<i32: 1>}
      // CHECK-NEXT: [[XL:%.*]] = ttg.local_load [[TG]] {ttg.partition = array<i32: 1>} : !ttg.memdesc<128x32xf32, #shared, #smem, 1x128x32> -> tensor<128x32xf32, #blocked>
      // CHECK-NEXT: nvws.aref.get.exit [[TAREF]], [[TGT]] [#nvws.async_op<none>] {ttg.partition = array<i32: 1>}
      // CHECK-NEXT: "use_tensor"([[XL]])
      "use_tensor"(%x) {ttg.partition = array<i32: 1>} : (tensor<128x32xf32, #bl>) -> ()
      // CHECK: [[SG:%.*]], [[SGT:%.*]] = nvws.aref.get.enter [[SAREF]] {ttg.partition = array<i32: 2>}
      // CHECK-NEXT: [[SL:%.*]] = ttg.local_load [[SG]] {ttg.partition = array<i32: 2>} : !ttg.memdesc<1xi32, #shared1, #smem, 1x1> -> tensor<1xi32, #blocked1>
      // CHECK-NEXT: nvws.aref.get.exit [[SAREF]], [[SGT]] [#nvws.async_op<none>] {ttg.partition = array<i32: 2>}
      // CHECK-NEXT: [[U:%.*]] = tt.unsplat [[SL]] {ttg.partition = array<i32: 2>}
      // CHECK-NEXT: "use_scalar"([[U]])
      "use_scalar"(%k) {ttg.partition = array<i32: 2>} : (i32) -> ()
      // CHECK: "own"
      // CHECK-NOT: nvws.aref
      %own = "own"() {ttg.partition = array<i32: 1>} : () -> i32
      "use_own"(%own) {ttg.partition = array<i32: 1>} : (i32) -> ()
    } {tt.warp_specialize, ttg.partition = array<i32: 0, 1, 2>, ttg.partition.stages = [0 : i32, 0 : i32, 0 : i32], ttg.warp_specialize.tag = 0 : i32}
    tt.return
  }
}

// -----

#bl = #ttg.blocked<{sizePerThread = [1, 32], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [0, 1]}>
module attributes {"ttg.num-warps" = 4 : i32, ttg.target = "cuda:100"} {
  // CHECK-LABEL: @carried_tensor
  tt.func @carried_tensor(%n: i32, %init: tensor<128x32xf32, #bl>) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    // CHECK: [[AREF:%.*]] = nvws.aref.create
    // CHECK: scf.for {{.*}} iter_args([[ARG:%.*]] = %arg1)
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%x = %init) -> (tensor<128x32xf32, #bl>) : i32 {
      // CHECK-NEXT: [[PS:%.*]], [[PT:%.*]] = nvws.aref.put.enter [[AREF]] {loop.cluster = 2 : i32, loop.stage = 1 : i32, ttg.partition = array<i32: 0>}
      // CHECK-NEXT: ttg.local_store [[ARG]], [[PS]]
      // CHECK-NEXT: nvws.aref.put.exit
      // CHECK-NEXT: nvws.aref.get.enter [[AREF]] {ttg.partition = array<i32: 1>}
      // CHECK-NEXT: ttg.local_load
      // CHECK-NEXT: nvws.aref.get.exit
      // CHECK-NEXT: "read"
      "read"(%x) {ttg.partition = array<i32: 1>} : (tensor<128x32xf32, #bl>) -> ()
      %y = "next"(%x) {loop.cluster = 2 : i32, loop.stage = 1 : i32, ttg.partition = array<i32: 0>} : (tensor<128x32xf32, #bl>) -> tensor<128x32xf32, #bl>
      scf.yield {ttg.partition = array<i32: 0, 1>} %y : tensor<128x32xf32, #bl>
    } {tt.warp_specialize, ttg.partition = array<i32: 0, 1>, ttg.partition.outputs = [array<i32: 0>], ttg.partition.stages = [0 : i32, 0 : i32], ttg.warp_specialize.tag = 0 : i32}
    tt.return
  }
}

// -----

#bl = #ttg.blocked<{sizePerThread = [1, 32], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [0, 1]}>
#nv = #ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = false, elementBitWidth = 16}>
#nvt = #ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = true, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, ttg.target = "cuda:100"} {
  // CHECK-LABEL: @alloc_through_view
  tt.func @alloc_through_view(%n: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    // CHECK: ttg.local_alloc : () -> !ttg.memdesc<1x64x32xf16, #shared, #smem, mutable>
    scf.for %i = %c0 to %n step %c1 : i32 {
      // CHECK: [[V:%.*]] = "compute"()
      // CHECK-NEXT: [[PS:%.*]], [[PT:%.*]] = nvws.aref.put.enter
      // CHECK-NEXT: ttg.local_store [[V]], [[PS]] {ttg.partition = array<i32: 0>}
      // CHECK-NEXT: nvws.aref.put.exit {{.*}} [#nvws.async_op<none>]
      %v = "compute"() {ttg.partition = array<i32: 0>} : () -> tensor<64x32xf16, #bl>
      %s = ttg.local_alloc %v {ttg.partition = array<i32: 0>} : (tensor<64x32xf16, #bl>) -> !ttg.memdesc<64x32xf16, #nv, #smem>
      // CHECK: [[G:%.*]], [[GT:%.*]] = nvws.aref.get.enter
      // CHECK-NEXT: [[T:%.*]] = ttg.memdesc_trans [[G]] {order = array<i32: 1, 0>, ttg.partition = array<i32: 1>} : !ttg.memdesc<64x32xf16, #shared, #smem, 1x64x32> -> !ttg.memdesc<32x64xf16, #shared1, #smem, 1x32x64>
      // CHECK-NEXT: "read"([[T]])
      // CHECK-NEXT: nvws.aref.get.exit {{.*}} [#nvws.async_op<none>] {ttg.partition = array<i32: 1>}
      %t = ttg.memdesc_trans %s {order = array<i32: 1, 0>, ttg.partition = array<i32: 1>} : !ttg.memdesc<64x32xf16, #nv, #smem> -> !ttg.memdesc<32x64xf16, #nvt, #smem>
      "read"(%t) {ttg.partition = array<i32: 1>} : (!ttg.memdesc<32x64xf16, #nvt, #smem>) -> ()
    } {tt.warp_specialize, ttg.partition = array<i32: 0, 1>, ttg.partition.stages = [0 : i32, 0 : i32], ttg.warp_specialize.tag = 0 : i32}
    tt.return
  }
}
