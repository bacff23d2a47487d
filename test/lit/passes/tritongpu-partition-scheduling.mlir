// RUN: tt-opt %s -split-input-file -allow-unregistered-dialect -tritongpu-partition-scheduling | FileCheck %s

#acc = #ttg.blocked<{sizePerThread = [1, 64], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [0, 1]}>
#ld = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [1, 0]}>
#row = #ttg.slice<{dim = 1, parent = #acc}>
#nv = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#nvT = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 16}>
#sw = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
#tm = #ttng.tensor_memory_encoding<blockM = 128, blockN = 64, colStride = 1>

module attributes {"ttg.num-warps" = 4 : i32, ttg.target = "cuda:100"} {

// A loop with neither a descriptor load nor an MMA v5 op is not specialized:
// no attribute is added. It still counts for the tags of the loops after it.
// CHECK-LABEL: @no_loads_or_mmas
// CHECK-NOT: ttg.partition
// CHECK: } {tt.warp_specialize}
tt.func @no_loads_or_mmas(%n: i32, %x: tensor<128x64xf32, #acc>) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  scf.for %i = %c0 to %n step %c1 : i32 {
    %e = math.exp2 %x : tensor<128x64xf32, #acc>
    "use"(%e) : (tensor<128x64xf32, #acc>) -> ()
  } {tt.warp_specialize}
  tt.return
}

// The descriptor load and its local_alloc in the descriptor's layout go to the
// load partition (#2), the MMA to #1, the users of the load (the other alloc)
// and of the MMA to the default partition #0. The loop gets the union, its
// carried token the partition of its producer's user, a tag and the stages.
// CHECK-LABEL: @load_mma_user
// CHECK: tt.descriptor_load {{.*}}{ttg.partition = array<i32: 2>}
// CHECK-NEXT: ttg.local_alloc {{.*}}{ttg.partition = array<i32: 2>} {{.*}}#shared,
// CHECK-NEXT: ttg.local_alloc {{.*}}{ttg.partition = array<i32: 0>} {{.*}}#shared1,
// CHECK-NEXT: ttng.tc_gen5_mma {{.*}}{ttg.partition = array<i32: 1>}
// CHECK-NEXT: ttng.tmem_load {{.*}}{ttg.partition = array<i32: 0>}
// CHECK-NEXT: "use"({{.*}}) {ttg.partition = array<i32: 0>}
// CHECK-NEXT: scf.yield {ttg.partition = array<i32: 0, 1, 2>}
// CHECK-NEXT: } {tt.warp_specialize, ttg.partition = array<i32: 0, 1, 2>, ttg.partition.outputs = [array<i32: 1>], ttg.partition.stages = [0 : i32, 1 : i32, 0 : i32], ttg.warp_specialize.tag = 1 : i32}
tt.func @load_mma_user(%n: i32, %a: !ttg.memdesc<128x64xf16, #nv, #smem>, %d: !tt.tensordesc<tensor<64x64xf16, #nv>>,
                       %acc: !ttg.memdesc<128x64xf32, #tm, #ttng.tensor_memory, mutable>, %tok0: !ttg.async.token) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %true = arith.constant true
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%tok = %tok0) -> (!ttg.async.token) : i32 {
    %b = tt.descriptor_load %d[%i, %c0] : !tt.tensordesc<tensor<64x64xf16, #nv>> -> tensor<64x64xf16, #ld>
    %bs = ttg.local_alloc %b : (tensor<64x64xf16, #ld>) -> !ttg.memdesc<64x64xf16, #nv, #smem>
    %bo = ttg.local_alloc %b : (tensor<64x64xf16, #ld>) -> !ttg.memdesc<64x64xf16, #sw, #smem>
    %t = ttng.tc_gen5_mma %a, %bs, %acc[%tok], %true, %true : !ttg.memdesc<128x64xf16, #nv, #smem>, !ttg.memdesc<64x64xf16, #nv, #smem>, !ttg.memdesc<128x64xf32, #tm, #ttng.tensor_memory, mutable>
    %v, %t2 = ttng.tmem_load %acc[%t] : !ttg.memdesc<128x64xf32, #tm, #ttng.tensor_memory, mutable> -> tensor<128x64xf32, #acc>
    "use"(%v, %bo) : (tensor<128x64xf32, #acc>, !ttg.memdesc<64x64xf16, #sw, #smem>) -> ()
    scf.yield %t2 : !ttg.async.token
  } {tt.warp_specialize}
  tt.return
}

// A memdesc view feeding the MMA joins the MMA partition; since another
// partition also uses it, that partition keeps a copy of it.
// CHECK-LABEL: @shared_view
// CHECK: [[B:%.*]] = ttg.local_alloc {{.*}}partition = array<i32: 2>
// CHECK-NEXT: [[T_MMA:%.*]] = ttg.memdesc_trans [[B]] {{.*}}partition = array<i32: 1>
// CHECK-NEXT: [[T_USE:%.*]] = ttg.memdesc_trans [[B]] {{.*}}partition = array<i32: 0>
// CHECK-NEXT: ttng.tc_gen5_mma %arg1, [[T_MMA]], {{.*}}partition = array<i32: 1>
// CHECK-NEXT: ttg.local_load [[T_USE]] {{.*}}partition = array<i32: 0>
tt.func @shared_view(%n: i32, %a: !ttg.memdesc<128x64xf16, #nv, #smem>, %d: !tt.tensordesc<tensor<64x64xf16, #nv>>,
                     %acc: !ttg.memdesc<128x64xf32, #tm, #ttng.tensor_memory, mutable>, %tok: !ttg.async.token) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %true = arith.constant true
  scf.for %i = %c0 to %n step %c1 : i32 {
    %b = tt.descriptor_load %d[%i, %c0] : !tt.tensordesc<tensor<64x64xf16, #nv>> -> tensor<64x64xf16, #ld>
    %bs = ttg.local_alloc %b : (tensor<64x64xf16, #ld>) -> !ttg.memdesc<64x64xf16, #nv, #smem>
    %bt = ttg.memdesc_trans %bs {order = array<i32: 1, 0>} : !ttg.memdesc<64x64xf16, #nv, #smem> -> !ttg.memdesc<64x64xf16, #nvT, #smem>
    %t = ttng.tc_gen5_mma %a, %bt, %acc[%tok], %true, %true : !ttg.memdesc<128x64xf16, #nv, #smem>, !ttg.memdesc<64x64xf16, #nvT, #smem>, !ttg.memdesc<128x64xf32, #tm, #ttng.tensor_memory, mutable>
    %x = ttg.local_load %bt : !ttg.memdesc<64x64xf16, #nvT, #smem> -> tensor<64x64xf16, #ld>
    "use"(%x) : (tensor<64x64xf16, #ld>) -> ()
  } {tt.warp_specialize}
  tt.return
}

}

// -----

#acc = #ttg.blocked<{sizePerThread = [1, 64], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [0, 1]}>
#row = #ttg.slice<{dim = 1, parent = #acc}>
#nv = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
#tm = #ttng.tensor_memory_encoding<blockM = 128, blockN = 64, colStride = 1>
module attributes {"ttg.num-warps" = 4 : i32, ttg.target = "cuda:100"} {

// The tmem_store that resets the (hoisted) accumulator with a value made
// outside the loop, with no read-modify-write of it, goes with the MMA.
// CHECK-LABEL: @acc_init_store
// CHECK: ttng.tmem_store {{.*}}{ttg.partition = array<i32: 1>}
// CHECK-NEXT: ttng.tc_gen5_mma {{.*}}{ttg.partition = array<i32: 1>}
// CHECK-NEXT: ttng.tmem_load {{.*}}{ttg.partition = array<i32: 0>}
tt.func @acc_init_store(%n: i32, %a: !ttg.memdesc<128x64xf16, #nv, #smem>, %b: !ttg.memdesc<64x64xf16, #nv, #smem>,
                        %zero: tensor<128x64xf32, #acc>) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %true = arith.constant true
  %acc, %tok0 = ttng.tmem_alloc : () -> (!ttg.memdesc<128x64xf32, #tm, #ttng.tensor_memory, mutable>, !ttg.async.token)
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%tok = %tok0) -> (!ttg.async.token) : i32 {
    %s = ttng.tmem_store %zero, %acc[%tok], %true : tensor<128x64xf32, #acc> -> !ttg.memdesc<128x64xf32, #tm, #ttng.tensor_memory, mutable>
    %t = ttng.tc_gen5_mma %a, %b, %acc[%s], %true, %true : !ttg.memdesc<128x64xf16, #nv, #smem>, !ttg.memdesc<64x64xf16, #nv, #smem>, !ttg.memdesc<128x64xf32, #tm, #ttng.tensor_memory, mutable>
    %v, %t2 = ttng.tmem_load %acc[%t] : !ttg.memdesc<128x64xf32, #tm, #ttng.tensor_memory, mutable> -> tensor<128x64xf32, #acc>
    "use"(%v) : (tensor<128x64xf32, #acc>) -> ()
    scf.yield %t2 : !ttg.async.token
  } {tt.warp_specialize}
  tt.return
}

// An exp2 of more than 256 elements goes to the default partition with what
// feeds it; one of 128 elements does not. With two MMAs the users of the first
// go to #0 and those of the second to a new partition #3 (stage 1); the small
// exp2 then takes the partition of its user.
// CHECK-LABEL: @exp_and_two_mmas
// CHECK: ttng.tmem_load {{.*}}{ttg.partition = array<i32: 0>}
// CHECK-NEXT: "scale"({{.*}}) {ttg.partition = array<i32: 0>}
// CHECK-NEXT: math.exp2 {{.*}}{ttg.partition = array<i32: 0>} : tensor<128x64xf32
// CHECK-NEXT: math.exp2 {{.*}}{ttg.partition = array<i32: 3>} : tensor<128xf32
// CHECK-NEXT: ttng.tc_gen5_mma {{.*}}{ttg.partition = array<i32: 1>}
// CHECK-NEXT: ttng.tmem_load {{.*}}{ttg.partition = array<i32: 3>}
// CHECK-NEXT: "use"({{.*}}) {ttg.partition = array<i32: 3>}
// CHECK: ttg.partition.stages = [0 : i32, 1 : i32, 0 : i32, 1 : i32], ttg.warp_specialize.tag = 1 : i32
tt.func @exp_and_two_mmas(%n: i32, %a: !ttg.memdesc<128x64xf16, #nv, #smem>, %b: !ttg.memdesc<64x64xf16, #nv, #smem>,
                          %acc: !ttg.memdesc<128x64xf32, #tm, #ttng.tensor_memory, mutable>, %acc2: !ttg.memdesc<128x64xf32, #tm, #ttng.tensor_memory, mutable>,
                          %tok: !ttg.async.token, %x: tensor<128xf32, #row>, %y: tensor<128x64xf32, #acc>) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %true = arith.constant true
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%m = %x) -> (tensor<128xf32, #row>) : i32 {
    %t = ttng.tc_gen5_mma %a, %b, %acc[%tok], %true, %true : !ttg.memdesc<128x64xf16, #nv, #smem>, !ttg.memdesc<64x64xf16, #nv, #smem>, !ttg.memdesc<128x64xf32, #tm, #ttng.tensor_memory, mutable>
    %v, %t1 = ttng.tmem_load %acc[%t] : !ttg.memdesc<128x64xf32, #tm, #ttng.tensor_memory, mutable> -> tensor<128x64xf32, #acc>
    %big = "scale"(%v, %y) : (tensor<128x64xf32, #acc>, tensor<128x64xf32, #acc>) -> tensor<128x64xf32, #acc>
    %e = math.exp2 %big : tensor<128x64xf32, #acc>
    %small = math.exp2 %m : tensor<128xf32, #row>
    %t2 = ttng.tc_gen5_mma %a, %b, %acc2[%tok], %true, %true : !ttg.memdesc<128x64xf16, #nv, #smem>, !ttg.memdesc<64x64xf16, #nv, #smem>, !ttg.memdesc<128x64xf32, #tm, #ttng.tensor_memory, mutable>
    %w, %t3 = ttng.tmem_load %acc2[%t2] : !ttg.memdesc<128x64xf32, #tm, #ttng.tensor_memory, mutable> -> tensor<128x64xf32, #acc>
    "use"(%e, %w, %small) : (tensor<128x64xf32, #acc>, tensor<128x64xf32, #acc>, tensor<128xf32, #row>) -> ()
    scf.yield %small : tensor<128xf32, #row>
  } {tt.warp_specialize}
  tt.return
}


// The row max, its difference with the carried value and the small exp2 are
// left between the default partition (which feeds them) and #3 (which uses
// the exp2). The chain #3 needs is copied into #3; the cluster, including the
// addf that only feeds the next iteration, stays in #0.
// CHECK-LABEL: @critical_path
// CHECK: [[V:%.*]], %{{.*}} = ttng.tmem_load {{.*}}partition = array<i32: 0>
// CHECK: [[RM3:%.*]] = "row_max"([[V]]) {ttg.partition = array<i32: 3>}
// CHECK-NEXT: [[RM0:%.*]] = "row_max"([[V]]) {ttg.partition = array<i32: 0>}
// CHECK-NEXT: [[D3:%.*]] = arith.subf %arg8, [[RM3]] {ttg.partition = array<i32: 3>}
// CHECK-NEXT: [[D0:%.*]] = arith.subf %arg8, [[RM0]] {ttg.partition = array<i32: 0>}
// CHECK-NEXT: [[E3:%.*]] = math.exp2 [[D3]] {ttg.partition = array<i32: 3>}
// CHECK-NEXT: math.exp2 [[D0]] {ttg.partition = array<i32: 0>}
// CHECK-NEXT: [[G:%.*]] = arith.addf [[D0]], [[D0]] {ttg.partition = array<i32: 0>}
// CHECK: "use"(%{{.*}}, [[E3]]) {ttg.partition = array<i32: 3>}
// CHECK-NEXT: scf.yield {ttg.partition = array<i32: 0, 1, 3>} [[RM0]], [[G]]
tt.func @critical_path(%n: i32, %a: !ttg.memdesc<128x64xf16, #nv, #smem>, %b: !ttg.memdesc<64x64xf16, #nv, #smem>,
                       %acc: !ttg.memdesc<128x64xf32, #tm, #ttng.tensor_memory, mutable>, %acc2: !ttg.memdesc<128x64xf32, #tm, #ttng.tensor_memory, mutable>,
                       %tok: !ttg.async.token, %x: tensor<128xf32, #row>) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %true = arith.constant true
  %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%m = %x, %k = %x) -> (tensor<128xf32, #row>, tensor<128xf32, #row>) : i32 {
    %t = ttng.tc_gen5_mma %a, %b, %acc[%tok], %true, %true : !ttg.memdesc<128x64xf16, #nv, #smem>, !ttg.memdesc<64x64xf16, #nv, #smem>, !ttg.memdesc<128x64xf32, #tm, #ttng.tensor_memory, mutable>
    %v, %t1 = ttng.tmem_load %acc[%t] : !ttg.memdesc<128x64xf32, #tm, #ttng.tensor_memory, mutable> -> tensor<128x64xf32, #acc>
    %big = math.exp2 %v : tensor<128x64xf32, #acc>
    %rm = "row_max"(%v) : (tensor<128x64xf32, #acc>) -> tensor<128xf32, #row>
    %d = arith.subf %m, %rm : tensor<128xf32, #row>
    %e = math.exp2 %d : tensor<128xf32, #row>
    %g = arith.addf %d, %d : tensor<128xf32, #row>
    %t2 = ttng.tc_gen5_mma %a, %b, %acc2[%tok], %true, %true : !ttg.memdesc<128x64xf16, #nv, #smem>, !ttg.memdesc<64x64xf16, #nv, #smem>, !ttg.memdesc<128x64xf32, #tm, #ttng.tensor_memory, mutable>
    %w, %t3 = ttng.tmem_load %acc2[%t2] : !ttg.memdesc<128x64xf32, #tm, #ttng.tensor_memory, mutable> -> tensor<128x64xf32, #acc>
    "use"(%w, %e) : (tensor<128x64xf32, #acc>, tensor<128xf32, #row>) -> ()
    scf.yield %rm, %g : tensor<128xf32, #row>, tensor<128xf32, #row>
  } {tt.warp_specialize}
  tt.return
}

// A loop that already has partitions keeps them (its tag is renumbered); a
// broadcast one partition makes for another is copied into the user's.
// CHECK-LABEL: @broadcast_copied
// CHECK: [[X:%.*]] = "make"() {ttg.partition = array<i32: 0>}
// CHECK-NEXT: [[Y1:%.*]] = tt.broadcast [[X]] {ttg.partition = array<i32: 1>}
// CHECK-NEXT: [[Y0:%.*]] = tt.broadcast [[X]] {ttg.partition = array<i32: 0>}
// CHECK-NEXT: "use"([[Y0]]) {ttg.partition = array<i32: 0>}
// CHECK-NEXT: "use"([[Y1]]) {ttg.partition = array<i32: 1>}
// CHECK-NEXT: } {tt.warp_specialize, ttg.partition = array<i32: 0, 1>, ttg.partition.stages = [0 : i32, 0 : i32], ttg.warp_specialize.tag = 3 : i32}
tt.func @broadcast_copied(%n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  scf.for %i = %c0 to %n step %c1 : i32 {
    %x = "make"() {ttg.partition = array<i32: 0>} : () -> tensor<128x1xf32, #acc>
    %y = tt.broadcast %x {ttg.partition = array<i32: 0>} : tensor<128x1xf32, #acc> -> tensor<128x64xf32, #acc>
    "use"(%y) {ttg.partition = array<i32: 0>} : (tensor<128x64xf32, #acc>) -> ()
    "use"(%y) {ttg.partition = array<i32: 1>} : (tensor<128x64xf32, #acc>) -> ()
  } {tt.warp_specialize, ttg.partition.stages = [0 : i32, 0 : i32], ttg.warp_specialize.tag = 7 : i32}
  tt.return
}

// Ops in an scf.if take the if's partitions; the if gets the union of its
// branches and, per result, the partitions of the branch defining it; its
// yields get the if's partitions. The condition takes its users'; an op
// without results takes its operands' partitions, or else the loop's.
// CHECK-LABEL: @if_outputs
// CHECK: arith.cmpi {{.*}}{ttg.partition = array<i32: 0>}
// CHECK-NEXT: scf.if
// CHECK-NEXT: ttng.tmem_load {{.*}}{ttg.partition = array<i32: 0>}
// CHECK-NEXT: scf.yield {ttg.partition = array<i32: 0>}
// CHECK-NEXT: } else {
// CHECK-NEXT: "zeros"() {ttg.partition = array<i32: 0>}
// CHECK-NEXT: scf.yield {ttg.partition = array<i32: 0>}
// CHECK-NEXT: } {ttg.partition = array<i32: 0>, ttg.partition.outputs = [array<i32: 0>]}
// CHECK-NEXT: "use"({{.*}}) {ttg.partition = array<i32: 0>}
// CHECK-NEXT: "log"(%arg5) {ttg.partition = array<i32: 0, 1>}
// CHECK-NEXT: "check"({{.*}}) {ttg.partition = array<i32: 0>}
tt.func @if_outputs(%n: i32, %a: !ttg.memdesc<128x64xf16, #nv, #smem>, %b: !ttg.memdesc<64x64xf16, #nv, #smem>,
                    %acc: !ttg.memdesc<128x64xf32, #tm, #ttng.tensor_memory, mutable>, %tok: !ttg.async.token) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %true = arith.constant true
  scf.for %i = %c0 to %n step %c1 : i32 {
    %t = ttng.tc_gen5_mma %a, %b, %acc[%tok], %true, %true : !ttg.memdesc<128x64xf16, #nv, #smem>, !ttg.memdesc<64x64xf16, #nv, #smem>, !ttg.memdesc<128x64xf32, #tm, #ttng.tensor_memory, mutable>
    %c = arith.cmpi eq, %i, %c0 : i32
    %r = scf.if %c -> (tensor<128x64xf32, #acc>) {
      %v, %t1 = ttng.tmem_load %acc[%t] : !ttg.memdesc<128x64xf32, #tm, #ttng.tensor_memory, mutable> -> tensor<128x64xf32, #acc>
      scf.yield %v : tensor<128x64xf32, #acc>
    } else {
      %z = "zeros"() : () -> tensor<128x64xf32, #acc>
      scf.yield %z : tensor<128x64xf32, #acc>
    }
    "use"(%r) : (tensor<128x64xf32, #acc>) -> ()
    "log"(%i) : (i32) -> ()
    "check"(%c) : (i1) -> ()
  } {tt.warp_specialize}
  tt.return
}
}
