// RUN: tt-opt %s -allow-unregistered-dialect -nvws-lower-warp-group | FileCheck %s

// CHECK: #shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#bl = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-warps" = 4 : i32} {

// The first region has the module's number of warps: it becomes the default
// region, which may use values from above. The other partition gets the values
// it uses as captures (block arguments), except the constant, copied into it.
// CHECK-LABEL: @with_default
// CHECK-NEXT: [[C7:%.*]] = arith.constant 7 : i32
// CHECK-NEXT: ttg.warp_specialize(%arg0, %arg1)
// CHECK-NEXT: default {
// CHECK-NEXT: arith.addi %arg0, [[C7]] : i32
// CHECK-NEXT: "use"
// CHECK-NEXT: ttg.warp_yield
// CHECK-NEXT: }
// CHECK-NEXT: partition0(%[[N:.*]]: i32, %[[P:.*]]: !tt.ptr<i32>) num_warps(2) {
// CHECK-NEXT: [[C7P:%.*]] = arith.constant 7 : i32
// CHECK-NEXT: [[Y:%.*]] = arith.muli %[[N]], [[C7P]] : i32
// CHECK-NEXT: tt.store %[[P]], [[Y]] : !tt.ptr<i32>
// CHECK-NEXT: ttg.warp_return
// CHECK-NEXT: } : (i32, !tt.ptr<i32>) -> ()
// CHECK-NOT: nvws.warp_group
tt.func @with_default(%n: i32, %p: !tt.ptr<i32>) {
  %c7 = arith.constant 7 : i32
  nvws.warp_group
  partition0 num_warps(4) {
    %x = arith.addi %n, %c7 : i32
    "use"(%x) : (i32) -> ()
    nvws.warp_group.return
  }
  partition1 num_warps(2) {
    %y = arith.muli %n, %c7 : i32
    tt.store %p, %y : !tt.ptr<i32>
    nvws.warp_group.return
  }
  tt.return
}

// The first region has another number of warps: the default region is empty.
// A tensor made outside reaches the partitions through shared memory; a pure
// op making a tensor (the splat) is copied into the partition with what it
// uses, and the original, now unused, is erased. The scalar reached again
// through the splat is captured a second time, as in Triton.
// CHECK-LABEL: @no_default
// CHECK-NEXT: [[T:%.*]] = ttg.local_alloc %arg1 : (tensor<128xi32, #blocked>) -> !ttg.memdesc<128xi32, #shared, #smem>
// CHECK-NEXT: [[PTRS:%.*]] = ttg.local_alloc %arg2 : (tensor<128x!tt.ptr<i32>, #blocked>) -> !ttg.memdesc<128x!tt.ptr<i32>, #shared, #smem>
// CHECK-NEXT: ttg.warp_specialize(%arg0, [[T]], [[PTRS]], %arg0)
// CHECK-NEXT: default {
// CHECK-NEXT: ttg.warp_yield
// CHECK-NEXT: }
// CHECK-NEXT: partition0({{.*}}, %[[N0:.*]]: i32) num_warps(1) {
// CHECK-NEXT: "use"(%[[N0]])
// CHECK-NEXT: ttg.warp_return
// CHECK-NEXT: }
// CHECK-NEXT: partition1(%{{.*}}: i32, %[[TS:.*]]: !ttg.memdesc<128xi32, #shared, #smem>, %[[PS:.*]]: !ttg.memdesc<128x!tt.ptr<i32>, #shared, #smem>, %[[N1:.*]]: i32) num_warps(4) {
// CHECK-NEXT: [[TL:%.*]] = ttg.local_load %[[TS]]
// CHECK-NEXT: [[PL:%.*]] = ttg.local_load %[[PS]]
// CHECK-NEXT: [[S:%.*]] = tt.splat %[[N1]] : i32 -> tensor<128xi32, #blocked>
// CHECK-NEXT: [[U:%.*]] = arith.addi [[S]], [[TL]]
// CHECK-NEXT: tt.store [[PL]], [[U]]
// CHECK-NEXT: ttg.warp_return
tt.func @no_default(%n: i32, %t: tensor<128xi32, #bl>, %ptrs: tensor<128x!tt.ptr<i32>, #bl>) {
  %s = tt.splat %n : i32 -> tensor<128xi32, #bl>
  nvws.warp_group
  partition0 num_warps(1) {
    "use"(%n) : (i32) -> ()
    nvws.warp_group.return
  }
  partition1 num_warps(4) {
    %u = arith.addi %s, %t : tensor<128xi32, #bl>
    tt.store %ptrs, %u : tensor<128x!tt.ptr<i32>, #bl>
    nvws.warp_group.return
  }
  tt.return
}
}
