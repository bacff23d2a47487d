// RUN: tt-opt %s -split-input-file -allow-unregistered-dialect -nvws-assign-stage-phase | filecheck %s

// nvws-assign-stage-phase: puts and gets of a two-slot aref in a loop count their own slot and phase (carried by
// the loop, wrapping at the depth), exits and buffers take their enter's slot; a scalar result of the
// warp-specialized loop used after it is computed in the default partition too.

#nv = #ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, ttg.target = "cuda:100"} {
  // CHECK-LABEL: @put_get_in_loop
  tt.func @put_get_in_loop(%n: i32) -> i32 {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %buf = ttg.local_alloc : () -> !ttg.memdesc<2x32x32xf16, #nv, #smem, mutable>
    // CHECK: [[AREF:%.*]] = nvws.aref.create
    // CHECK-NEXT: [[GS:%.*]] = arith.constant 1 : i32
    // CHECK-NEXT: [[GP:%.*]] = arith.constant 1 : i32
    // CHECK-NEXT: [[PS:%.*]] = arith.constant 1 : i32
    // CHECK-NEXT: [[PP:%.*]] = arith.constant 0 : i32
    %a = nvws.aref.create %buf : <[!ttg.memdesc<2x32x32xf16, #nv, #smem, mutable>]>
    // CHECK: [[R:%.*]]:5 = scf.for {{.*}} iter_args([[ACC:%.*]] = %c0_i32, [[S0:%.*]] = [[PS]], [[P0:%.*]] = [[PP]], [[S1:%.*]] = [[GS]], [[P1:%.*]] = [[GP]])
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %c0) -> (i32) : i32 {
      // CHECK-NEXT: [[ONE:%.*]] = arith.constant {ttg.partition = array<i32: 0>} 1 : i32
      // CHECK-NEXT: [[NEXT:%.*]] = arith.addi [[S0]], [[ONE]] {ttg.partition = array<i32: 0>}
      // CHECK-NEXT: [[TWO:%.*]] = arith.constant {ttg.partition = array<i32: 0>} 2 : i32
      // CHECK-NEXT: [[WRAP:%.*]] = arith.cmpi eq, [[NEXT]], [[TWO]] {ttg.partition = array<i32: 0>}
      // CHECK-NEXT: [[ZERO:%.*]] = arith.constant {ttg.partition = array<i32: 0>} 0 : i32
      // CHECK-NEXT: [[STAGE:%.*]] = arith.select [[WRAP]], [[ZERO]], [[NEXT]] {ttg.partition = array<i32: 0>}
      // CHECK-NEXT: [[ONE2:%.*]] = arith.constant {ttg.partition = array<i32: 0>} 1 : i32
      // CHECK-NEXT: [[FLIP:%.*]] = arith.xori [[P0]], [[ONE2]] {ttg.partition = array<i32: 0>}
      // CHECK-NEXT: [[PHASE:%.*]] = arith.select [[WRAP]], [[FLIP]], [[P0]] {ttg.partition = array<i32: 0>}
      // CHECK-NEXT: {{.*}}, [[T:%.*]] = nvws.aref.put.enter [[AREF]][[[STAGE]], [[PHASE]]] {ttg.partition = array<i32: 0>}
      %p:2 = nvws.aref.put.enter %a {ttg.partition = array<i32: 0>} : <[!ttg.memdesc<2x32x32xf16, #nv, #smem, mutable>]> -> !ttg.memdesc<32x32xf16, #nv, #smem, mutable, 2x32x32>, !ttg.async.token
      // CHECK-NEXT: nvws.aref.put.exit [[AREF]][[[STAGE]]], [[T]]
      nvws.aref.put.exit %a, %p#1 [#nvws.async_op<none>] {ttg.partition = array<i32: 0>} : <[!ttg.memdesc<2x32x32xf16, #nv, #smem, mutable>]>, !ttg.async.token
      // CHECK: arith.addi [[S1]], {{.*}} {ttg.partition = array<i32: 1>}
      // CHECK: [[GSTAGE:%.*]] = arith.select {{.*}} {ttg.partition = array<i32: 1>}
      // CHECK: [[GPHASE:%.*]] = arith.select {{.*}} {ttg.partition = array<i32: 1>}
      // CHECK-NEXT: {{.*}}, [[GT:%.*]] = nvws.aref.get.enter [[AREF]][[[GSTAGE]], [[GPHASE]]] {ttg.partition = array<i32: 1>}
      %g:2 = nvws.aref.get.enter %a {ttg.partition = array<i32: 1>} : <[!ttg.memdesc<2x32x32xf16, #nv, #smem, mutable>]> -> !ttg.memdesc<32x32xf16, #nv, #smem, 2x32x32>, !ttg.async.token
      // CHECK-NEXT: nvws.aref.buffer [[AREF]][[[GSTAGE]]], [[GT]]
      %b = nvws.aref.buffer %a, %g#1 {ttg.partition = array<i32: 1>} : <[!ttg.memdesc<2x32x32xf16, #nv, #smem, mutable>]>, !ttg.async.token -> !ttg.memdesc<32x32xf16, #nv, #smem, mutable, 2x32x32>
      // CHECK-NEXT: nvws.aref.get.exit [[AREF]][[[GSTAGE]]], [[GT]]
      nvws.aref.get.exit %a, %g#1 [#nvws.async_op<none>] {ttg.partition = array<i32: 1>} : <[!ttg.memdesc<2x32x32xf16, #nv, #smem, mutable>]>, !ttg.async.token
      // CHECK-NEXT: [[SUM:%.*]] = arith.addi [[ACC]], %c1_i32 {ttg.partition = array<i32: 0, 1>}
      %sum = arith.addi %acc, %c1 {ttg.partition = array<i32: 1>} : i32
      // CHECK-NEXT: scf.yield {ttg.partition = array<i32: 0, 1>} [[SUM]], [[STAGE]], [[PHASE]], [[GSTAGE]], [[GPHASE]]
      scf.yield {ttg.partition = array<i32: 0, 1>} %sum : i32
      // CHECK-NEXT: } {tt.warp_specialize, ttg.partition = array<i32: 0, 1>, ttg.partition.outputs = [array<i32: 0, 1>, array<i32: 0>, array<i32: 0>, array<i32: 1>, array<i32: 1>]
    } {tt.warp_specialize, ttg.partition = array<i32: 0, 1>, ttg.partition.outputs = [array<i32: 1>], ttg.partition.stages = [0 : i32, 0 : i32], ttg.warp_specialize.tag = 0 : i32}
    tt.return %r : i32
  }
}
