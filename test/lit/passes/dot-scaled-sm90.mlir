// The block-scaled matmuls of kernels/dot_scaled.py through -make-ttgir on sm90 (their whole output equals
// Triton 3.6's: test_make_ttgir.py's DOT_TEXT); one check group per decision that makes it so.
// RUN: tt-opt %S/../../fixtures/triton/dot_scaled.nodebug.ttir -make-ttgir='target=cuda:90 num-warps=4 num-stages=3' | FileCheck %s --check-prefix=FP8
// RUN: tt-opt %S/../../fixtures/triton/dot_scaled_mxfp4_matmul.nodebug.ttir -make-ttgir='target=cuda:90 num-warps=4 num-stages=3' | FileCheck %s --check-prefix=FP4

// e4m3 a, upcast in wgmma's register operand layout (kWidth 2): its buffer swizzles by Triton 3.6's formula
// (perPhase: 1024 bits over the 64-byte K row; maxPhase: the 8-row stride over perPhase), and its copies are
// clipped to that vector by tritongpu-coalesce-async-copy (rebuilt without `contiguity`), b's (unswizzled) not.
// FP8-DAG: #[[A8:.*]] = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
// FP8-DAG: #[[SA:.*]] = #ttg.swizzled_shared<{vec = 8, perPhase = 2, maxPhase = 4, order = [1, 0]}>
// FP8: ttg.async_copy_global_to_local %{{.*}}, %{{.*}} mask %{{.*}} : tensor<64x64x!tt.ptr<i8>, #[[A8]]> -> <64x64xi8, #[[SA]], #smem, mutable>
// FP8-NEXT: ttg.async_commit_group
// FP8-NEXT: ttg.memdesc_index
// FP8-NEXT: ttg.async_copy_global_to_local {{.*}} {contiguity = 16 : i32}

// b's scales are transposed before they are spread (DecomposeScaledBlocked): the 64 x 2 load is converted to a
// #ttg.linear layout that tt.trans turns into the slice the broadcast needs (trans infers linear layouts for
// slices), and the spread moves the 32 next to K with tt.trans [0, 2, 1].
// FP8: %[[SBL:.*]] = ttg.convert_layout %{{.*}} : tensor<64x2xi8, #blocked1> -> tensor<64x2xi8, #linear1>
// FP8-NEXT: tt.trans %[[SBL]] {order = array<i32: 1, 0>} : tensor<64x2xi8, #linear1> -> tensor<2x64xi8, #ttg.slice<{dim = 2, parent = #blocked}>>
// FP8: tt.trans %{{.*}} {order = array<i32: 0, 2, 1>} : tensor<2x64x32xbf16, #blocked> -> tensor<2x32x64xbf16, #blocked5>

// The loop's counters: the group with 3 buffers (b, read by wgmma) before the one with 2 (a): Triton puts each
// group's at the body's start.
// FP4: scf.for
// FP4-NEXT: arith.subi
// FP4-NEXT: arith.cmpi slt
// FP4-NEXT: arith.addi %{{.*}}, %c1_i32
// FP4-NEXT: arith.cmpi sge, %{{.*}}, %c3_i32
// FP4: arith.addi %{{.*}}, %c1_i32
// FP4-NEXT: arith.cmpi sge, %{{.*}}, %c2_i32

// e2m1 a: the conversion to wgmma's operand layout is hoisted through ttg.fp4_to_fp to its load (kWidth 2 of
// bf16 from kWidth 1 of the packed bytes).
// FP4: ttg.local_load %{{.*}} -> tensor<64x32xi8, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>>
// FP4: ttg.fp4_to_fp %{{.*}} {axis = 1 : i32} : tensor<64x32xi8, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>> -> tensor<64x64xbf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>

// The register-operand wgmma stays in flight: split along K into 4 of K = 16 (a reshaped to 64x2x2x16,
// transposed, split twice; b sliced), each followed by a wait leaving the other 3 in flight, no wait after the
// last (it is one of them); the others accumulate with use-C true.
// FP4: tt.reshape %{{.*}} : tensor<64x64xbf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>> -> tensor<64x2x2x16xbf16, #linear1>
// FP4-NEXT: tt.trans %{{.*}} {order = array<i32: 0, 3, 2, 1>}
// FP4-NEXT: tt.split
// FP4-NEXT: tt.split
// FP4-NEXT: tt.split
// FP4: ttg.memdesc_subslice %{{.*}}[0, 0]
// FP4: ttng.warp_group_dot %{{.*}}, %{{.*}}, %{{.*}} {isAsync = true}
// FP4-NEXT: ttng.warp_group_dot_wait {{.*}} {pendings = 3 : i32}
// FP4-NEXT: ttng.warp_group_dot %{{.*}}, %{{.*}}, %{{.*}}, %true {isAsync = true}
// FP4-NEXT: ttng.warp_group_dot_wait {{.*}} {pendings = 3 : i32}
// FP4-NEXT: ttng.warp_group_dot
// FP4-NEXT: ttng.warp_group_dot_wait {{.*}} {pendings = 3 : i32}
// FP4-NEXT: ttng.warp_group_dot
// FP4-NEXT: ttng.warp_group_dot_wait {{.*}} {pendings = 3 : i32}
// FP4-NEXT: tt.addptr
// FP4: scf.yield
// FP4-NEXT: }
// FP4-NEXT: ttng.warp_group_dot_wait %{{.*}} {pendings = 0 : i32}
