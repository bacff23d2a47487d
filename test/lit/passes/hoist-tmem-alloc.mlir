// RUN: tt-opt %s -split-input-file -allow-unregistered-dialect -tritongpu-hoist-tmem-alloc | FileCheck %s
// RUN: tt-opt %s -split-input-file -allow-unregistered-dialect -tritongpu-hoist-tmem-alloc=hoist-out-of-if=true | FileCheck %s --check-prefix=IF

#acc = #ttg.blocked<{sizePerThread = [1, 64], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [1, 0]}>
#sa = #ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = false, elementBitWidth = 16}>
#sb = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
#tm = #ttng.tensor_memory_encoding<blockM = 128, blockN = 64, colStride = 1>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:100", "ttg.threads-per-warp" = 32 : i32} {
  // The accumulator's allocation leaves the loop; the loop carries its token and the value stays in tensor
  // memory: stored once before the loop, loaded once after it.
  // CHECK-LABEL: tt.func @carried_in_tmem
  // CHECK: %[[BUF:.*]], %[[T0:.*]] = ttng.tmem_alloc : () ->
  // CHECK: %[[T1:.*]] = ttng.tmem_store %arg2, %[[BUF]][%[[T0]]], %true
  // CHECK: %[[R:.*]] = scf.for {{.*}} iter_args(%[[T:.*]] = %[[T1]]) -> (!ttg.async.token)
  // CHECK-NEXT: %[[M:.*]] = ttng.tc_gen5_mma %arg0, %arg1, %[[BUF]][%[[T]]], %true, %true
  // CHECK-NEXT: scf.yield %[[M]] : !ttg.async.token
  // CHECK: %[[V:.*]], %{{.*}} = ttng.tmem_load %[[BUF]][%[[R]]]
  // CHECK: tt.return %[[V]]
  tt.func @carried_in_tmem(%a: !ttg.memdesc<128x32xf16, #sa, #smem>, %b: !ttg.memdesc<32x64xf16, #sb, #smem>, %init: tensor<128x64xf32, #acc>, %n: i32) -> tensor<128x64xf32, #acc> {
    %true = arith.constant true
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%x = %init) -> (tensor<128x64xf32, #acc>)  : i32 {
      %buf, %t = ttng.tmem_alloc %x : (tensor<128x64xf32, #acc>) -> (!ttg.memdesc<128x64xf32, #tm, #ttng.tensor_memory, mutable>, !ttg.async.token)
      %m = ttng.tc_gen5_mma %a, %b, %buf[%t], %true, %true : !ttg.memdesc<128x32xf16, #sa, #smem>, !ttg.memdesc<32x64xf16, #sb, #smem>, !ttg.memdesc<128x64xf32, #tm, #ttng.tensor_memory, mutable>
      %v, %lt = ttng.tmem_load %buf[%m] : !ttg.memdesc<128x64xf32, #tm, #ttng.tensor_memory, mutable> -> tensor<128x64xf32, #acc>
      scf.yield %v : tensor<128x64xf32, #acc>
    }
    tt.return %r : tensor<128x64xf32, #acc>
  }

  // The value is scaled before the next MMA: the load moves to the top of the body (the scaled value is stored
  // back there), and the loop yields the MMA's token.
  // CHECK-LABEL: tt.func @scaled_before_mma
  // CHECK: %[[BUF:.*]], %[[T0:.*]] = ttng.tmem_alloc : () ->
  // CHECK: %[[T1:.*]] = ttng.tmem_store %arg2, %[[BUF]][%[[T0]]], %true
  // CHECK: scf.for {{.*}} iter_args(%[[T:.*]] = %[[T1]])
  // CHECK-NEXT: %[[V:.*]], %[[LT:.*]] = ttng.tmem_load %[[BUF]][%[[T]]]
  // CHECK-NEXT: %[[H:.*]] = arith.mulf %[[V]], %arg3
  // CHECK-NEXT: %[[ST:.*]] = ttng.tmem_store %[[H]], %[[BUF]][%[[LT]]], %true
  // CHECK-NEXT: %[[M:.*]] = ttng.tc_gen5_mma %arg0, %arg1, %[[BUF]][%[[ST]]]
  // CHECK-NEXT: scf.yield %[[M]]
  tt.func @scaled_before_mma(%a: !ttg.memdesc<128x32xf16, #sa, #smem>, %b: !ttg.memdesc<32x64xf16, #sb, #smem>, %init: tensor<128x64xf32, #acc>, %half: tensor<128x64xf32, #acc>, %n: i32) -> tensor<128x64xf32, #acc> {
    %true = arith.constant true
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%x = %init) -> (tensor<128x64xf32, #acc>)  : i32 {
      %h = arith.mulf %x, %half : tensor<128x64xf32, #acc>
      %buf, %t = ttng.tmem_alloc %h : (tensor<128x64xf32, #acc>) -> (!ttg.memdesc<128x64xf32, #tm, #ttng.tensor_memory, mutable>, !ttg.async.token)
      %m = ttng.tc_gen5_mma %a, %b, %buf[%t], %true, %true : !ttg.memdesc<128x32xf16, #sa, #smem>, !ttg.memdesc<32x64xf16, #sb, #smem>, !ttg.memdesc<128x64xf32, #tm, #ttng.tensor_memory, mutable>
      %v, %lt = ttng.tmem_load %buf[%m] : !ttg.memdesc<128x64xf32, #tm, #ttng.tensor_memory, mutable> -> tensor<128x64xf32, #acc>
      scf.yield %v : tensor<128x64xf32, #acc>
    }
    tt.return %r : tensor<128x64xf32, #acc>
  }

  // A select between the loaded value and another one: only the other one is stored, under the negated
  // condition (the load is the true side).
  // CHECK-LABEL: tt.func @reset_by_select
  // CHECK: scf.for {{.*}} iter_args(%[[T:.*]] = %{{.*}})
  // CHECK-NEXT: %[[M:.*]] = ttng.tc_gen5_mma %arg0, %arg1, %{{.*}}[%[[T]]]
  // CHECK-NEXT: %[[C:.*]] = "keep"() : () -> i1
  // CHECK-NEXT: %[[N:.*]] = arith.xori %[[C]], %true
  // CHECK-NEXT: %[[ST:.*]] = ttng.tmem_store %arg3, %{{.*}}[%[[M]]], %[[N]]
  // CHECK-NEXT: scf.yield %[[ST]]
  tt.func @reset_by_select(%a: !ttg.memdesc<128x32xf16, #sa, #smem>, %b: !ttg.memdesc<32x64xf16, #sb, #smem>, %init: tensor<128x64xf32, #acc>, %other: tensor<128x64xf32, #acc>, %n: i32) -> tensor<128x64xf32, #acc> {
    %true = arith.constant true
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%x = %init) -> (tensor<128x64xf32, #acc>)  : i32 {
      %buf, %t = ttng.tmem_alloc %x : (tensor<128x64xf32, #acc>) -> (!ttg.memdesc<128x64xf32, #tm, #ttng.tensor_memory, mutable>, !ttg.async.token)
      %m = ttng.tc_gen5_mma %a, %b, %buf[%t], %true, %true : !ttg.memdesc<128x32xf16, #sa, #smem>, !ttg.memdesc<32x64xf16, #sb, #smem>, !ttg.memdesc<128x64xf32, #tm, #ttng.tensor_memory, mutable>
      %v, %lt = ttng.tmem_load %buf[%m] : !ttg.memdesc<128x64xf32, #tm, #ttng.tensor_memory, mutable> -> tensor<128x64xf32, #acc>
      %c = "keep"() : () -> i1
      %s = arith.select %c, %v, %other : tensor<128x64xf32, #acc>
      scf.yield %s : tensor<128x64xf32, #acc>
    }
    tt.return %r : tensor<128x64xf32, #acc>
  }

  // A load whose only user is inside an scf.if sinks into it; the if then yields the memory's token, which the
  // loop carries. (The stored value is not a loop argument: the store stays at the top of the body.)
  // CHECK-LABEL: tt.func @sink_into_if
  // CHECK: scf.for {{.*}} iter_args(%[[T:.*]] = %{{.*}})
  // CHECK-NEXT: %[[S:.*]] = ttng.tmem_store %arg2, %{{.*}}[%[[T]]], %true
  // CHECK-NEXT: %[[M:.*]] = ttng.tc_gen5_mma %arg0, %arg1, %{{.*}}[%[[S]]]
  // CHECK-NEXT: %[[I:.*]] = scf.if %arg3 -> (!ttg.async.token) {
  // CHECK-NEXT: "before"() : () -> ()
  // CHECK-NEXT: %[[V:.*]], %[[LT:.*]] = ttng.tmem_load %{{.*}}[%[[M]]]
  // CHECK-NEXT: "use"(%[[V]])
  // CHECK-NEXT: scf.yield %[[LT]] : !ttg.async.token
  // CHECK-NEXT: } else {
  // CHECK-NEXT: scf.yield %[[M]] : !ttg.async.token
  // CHECK-NEXT: }
  // CHECK-NEXT: scf.yield %[[I]] : !ttg.async.token
  tt.func @sink_into_if(%a: !ttg.memdesc<128x32xf16, #sa, #smem>, %b: !ttg.memdesc<32x64xf16, #sb, #smem>, %init: tensor<128x64xf32, #acc>, %c: i1, %n: i32) {
    %true = arith.constant true
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    scf.for %i = %c0 to %n step %c1  : i32 {
      %buf, %t = ttng.tmem_alloc %init : (tensor<128x64xf32, #acc>) -> (!ttg.memdesc<128x64xf32, #tm, #ttng.tensor_memory, mutable>, !ttg.async.token)
      %m = ttng.tc_gen5_mma %a, %b, %buf[%t], %true, %true : !ttg.memdesc<128x32xf16, #sa, #smem>, !ttg.memdesc<32x64xf16, #sb, #smem>, !ttg.memdesc<128x64xf32, #tm, #ttng.tensor_memory, mutable>
      %v, %lt = ttng.tmem_load %buf[%m] : !ttg.memdesc<128x64xf32, #tm, #ttng.tensor_memory, mutable> -> tensor<128x64xf32, #acc>
      scf.if %c {
        "before"() : () -> ()
        "use"(%v) : (tensor<128x64xf32, #acc>) -> ()
      }
    }
    tt.return
  }

  // Two loads in a row feeding the yield stay in order (a load does not sink past loads only).
  // CHECK-LABEL: tt.func @loads_in_a_row
  // CHECK: scf.for
  // CHECK-NEXT: ttng.tmem_load %arg0[%arg1]
  // CHECK-NEXT: ttng.tmem_load %arg0[%arg1]
  // CHECK-NEXT: scf.yield
  tt.func @loads_in_a_row(%buf: !ttg.memdesc<128x64xf32, #tm, #ttng.tensor_memory, mutable>, %t: !ttg.async.token, %init: tensor<128x64xf32, #acc>, %n: i32) -> (tensor<128x64xf32, #acc>, tensor<128x64xf32, #acc>) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%x = %init, %y = %init) -> (tensor<128x64xf32, #acc>, tensor<128x64xf32, #acc>)  : i32 {
      %v, %t1 = ttng.tmem_load %buf[%t] : !ttg.memdesc<128x64xf32, #tm, #ttng.tensor_memory, mutable> -> tensor<128x64xf32, #acc>
      %w, %t2 = ttng.tmem_load %buf[%t] : !ttg.memdesc<128x64xf32, #tm, #ttng.tensor_memory, mutable> -> tensor<128x64xf32, #acc>
      scf.yield %w, %v : tensor<128x64xf32, #acc>, tensor<128x64xf32, #acc>
    }
    tt.return %r#0, %r#1 : tensor<128x64xf32, #acc>, tensor<128x64xf32, #acc>
  }
}

// -----

#acc = #ttg.blocked<{sizePerThread = [1, 64], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [1, 0]}>
#sc = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [32, 1], warpsPerCTA = [1, 4], order = [1, 0]}>
#sa = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 8}>
#sb = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 8}>
#smem = #ttg.shared_memory
#tm = #ttng.tensor_memory_encoding<blockM = 128, blockN = 64, colStride = 1>
#tms = #ttng.tensor_memory_scales_encoding<>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:100", "ttg.threads-per-warp" = 32 : i32} {
  // Scales allocated in the loop from loop-invariant values leave it with the pure one-operand ops computing
  // them; scales that depend on the induction variable stay. An accumulator not allocated in the loop stays.
  // CHECK-LABEL: tt.func @invariant_scales
  // CHECK: %[[E:.*]] = arith.trunci %arg4 : i32 to i8
  // CHECK-NEXT: %[[S:.*]] = tt.splat %[[E]]
  // CHECK-NEXT: %[[A:.*]] = ttng.tmem_alloc %[[S]]
  // CHECK-NEXT: scf.for %[[I:.*]] = 
  // CHECK-NEXT: arith.trunci %[[I]]
  // CHECK-NEXT: tt.splat
  // CHECK-NEXT: %[[B:.*]] = ttng.tmem_alloc
  // CHECK-NEXT: ttng.tc_gen5_mma_scaled %arg0, %arg1, %arg2, %[[A]], %[[B]],
  tt.func @invariant_scales(%a: !ttg.memdesc<128x128xf8E4M3FN, #sa, #smem>, %b: !ttg.memdesc<128x64xf8E4M3FN, #sb, #smem>, %d: !ttg.memdesc<128x64xf32, #tm, #ttng.tensor_memory, mutable>, %n: i32, %e: i32) {
    %true = arith.constant true
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    scf.for %i = %c0 to %n step %c1  : i32 {
      %e8 = arith.trunci %e : i32 to i8
      %es = tt.splat %e8 : i8 -> tensor<128x4xi8, #sc>
      %sa = ttng.tmem_alloc %es : (tensor<128x4xi8, #sc>) -> !ttg.memdesc<128x4xi8, #tms, #ttng.tensor_memory>
      %i8 = arith.trunci %i : i32 to i8
      %is = tt.splat %i8 : i8 -> tensor<64x4xi8, #sc>
      %sb = ttng.tmem_alloc %is : (tensor<64x4xi8, #sc>) -> !ttg.memdesc<64x4xi8, #tms, #ttng.tensor_memory>
      ttng.tc_gen5_mma_scaled %a, %b, %d, %sa, %sb, %true, %true lhs = e4m3 rhs = e4m3 : !ttg.memdesc<128x128xf8E4M3FN, #sa, #smem>, !ttg.memdesc<128x64xf8E4M3FN, #sb, #smem>, !ttg.memdesc<128x64xf32, #tm, #ttng.tensor_memory, mutable>, !ttg.memdesc<128x4xi8, #tms, #ttng.tensor_memory>, !ttg.memdesc<64x4xi8, #tms, #ttng.tensor_memory>
    }
    tt.return
  }
}

// -----

#acc = #ttg.blocked<{sizePerThread = [1, 64], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [1, 0]}>
#tm = #ttng.tensor_memory_encoding<blockM = 128, blockN = 64, colStride = 1>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:100", "ttg.threads-per-warp" = 32 : i32} {
  // Any mutable allocation with a value ends up as an allocation without one and a store.
  // CHECK-LABEL: tt.func @split_init
  // CHECK: %[[BUF:.*]], %[[T0:.*]] = ttng.tmem_alloc : () ->
  // CHECK-NEXT: %[[TRUE:.*]] = arith.constant true
  // CHECK-NEXT: %[[T1:.*]] = ttng.tmem_store %arg0, %[[BUF]][%[[T0]]], %[[TRUE]]
  // CHECK-NEXT: "use"(%[[T1]])
  // IF-LABEL: tt.func @split_init
  // IF: ttng.tmem_alloc : () ->
  // IF-NEXT: arith.constant true
  // IF-NEXT: ttng.tmem_store %arg0
  tt.func @split_init(%v: tensor<128x64xf32, #acc>) {
    %buf, %t = ttng.tmem_alloc %v : (tensor<128x64xf32, #acc>) -> (!ttg.memdesc<128x64xf32, #tm, #ttng.tensor_memory, mutable>, !ttg.async.token)
    "use"(%t) : (!ttg.async.token) -> ()
    tt.return
  }

  // With hoist-out-of-if, an allocation in the then branch whose loaded value is yielded where the else branch
  // yields the allocation's value moves before the if; the if yields tokens and the load follows it. Without
  // the option the allocation stays in the branch.
  // CHECK-LABEL: tt.func @alloc_in_if
  // CHECK: scf.if %arg0 -> (tensor<128x64xf32, #{{.*}}>)
  // CHECK-NEXT: ttng.tmem_alloc : () ->
  // IF-LABEL: tt.func @alloc_in_if
  // IF: %[[BUF:.*]], %[[T0:.*]] = ttng.tmem_alloc : () ->
  // IF: %[[T1:.*]] = ttng.tmem_store %arg1, %[[BUF]][%[[T0]]]
  // IF-NEXT: %[[I:.*]] = scf.if %arg0 -> (!ttg.async.token) {
  // IF-NEXT: %[[W:.*]] = "write"(%[[BUF]])
  // IF-NEXT: scf.yield %[[W]] : !ttg.async.token
  // IF-NEXT: } else {
  // IF-NEXT: scf.yield %[[T1]] : !ttg.async.token
  // IF-NEXT: }
  // IF-NEXT: %[[V:.*]], %{{.*}} = ttng.tmem_load %[[BUF]][%[[I]]]
  // IF-NEXT: tt.return %[[V]]
  tt.func @alloc_in_if(%c: i1, %x: tensor<128x64xf32, #acc>) -> tensor<128x64xf32, #acc> {
    %r = scf.if %c -> (tensor<128x64xf32, #acc>) {
      %buf, %t = ttng.tmem_alloc %x : (tensor<128x64xf32, #acc>) -> (!ttg.memdesc<128x64xf32, #tm, #ttng.tensor_memory, mutable>, !ttg.async.token)
      %w = "write"(%buf) : (!ttg.memdesc<128x64xf32, #tm, #ttng.tensor_memory, mutable>) -> !ttg.async.token
      %v, %lt = ttng.tmem_load %buf[%w] : !ttg.memdesc<128x64xf32, #tm, #ttng.tensor_memory, mutable> -> tensor<128x64xf32, #acc>
      scf.yield %v : tensor<128x64xf32, #acc>
    } else {
      scf.yield %x : tensor<128x64xf32, #acc>
    }
    tt.return %r : tensor<128x64xf32, #acc>
  }

  // With hoist-out-of-if, storing a value into fresh memory right after allocating it is one allocation, and
  // an allocation of what was just loaded from memory of the same type is that memory.
  // IF-LABEL: tt.func @forward_copy
  // IF-NEXT: tt.return %arg0, %arg1
  tt.func @forward_copy(%m: !ttg.memdesc<128x64xf32, #tm, #ttng.tensor_memory, mutable>, %t: !ttg.async.token) -> (!ttg.memdesc<128x64xf32, #tm, #ttng.tensor_memory, mutable>, !ttg.async.token) {
    %true = arith.constant true
    %v, %t0 = ttng.tmem_load %m[%t] : !ttg.memdesc<128x64xf32, #tm, #ttng.tensor_memory, mutable> -> tensor<128x64xf32, #acc>
    %buf, %t1 = ttng.tmem_alloc : () -> (!ttg.memdesc<128x64xf32, #tm, #ttng.tensor_memory, mutable>, !ttg.async.token)
    %t2 = ttng.tmem_store %v, %buf[%t1], %true : tensor<128x64xf32, #acc> -> !ttg.memdesc<128x64xf32, #tm, #ttng.tensor_memory, mutable>
    tt.return %buf, %t2 : !ttg.memdesc<128x64xf32, #tm, #ttng.tensor_memory, mutable>, !ttg.async.token
  }

  // The stored value is defined after the allocation: the store stays.
  // IF-LABEL: tt.func @value_after_alloc
  // IF-NEXT: %[[TRUE:.*]] = arith.constant true
  // IF-NEXT: ttng.tmem_alloc : () ->
  // IF-NEXT: "make"()
  // IF-NEXT: ttng.tmem_store
  tt.func @value_after_alloc() -> !ttg.async.token {
    %true = arith.constant true
    %buf, %t1 = ttng.tmem_alloc : () -> (!ttg.memdesc<128x64xf32, #tm, #ttng.tensor_memory, mutable>, !ttg.async.token)
    %v = "make"() : () -> tensor<128x64xf32, #acc>
    %t2 = ttng.tmem_store %v, %buf[%t1], %true : tensor<128x64xf32, #acc> -> !ttg.memdesc<128x64xf32, #tm, #ttng.tensor_memory, mutable>
    tt.return %t2 : !ttg.async.token
  }
}
