// RUN: tt-opt %s -split-input-file -tritongpu-assign-latencies=num-stages=3 -tritongpu-schedule-loops -tritongpu-pipeline=num-stages=3 -canonicalize | FileCheck %s
// RUN: tt-opt %s -split-input-file -tritongpu-assign-latencies=num-stages=4 -tritongpu-schedule-loops -tritongpu-pipeline=num-stages=4 -canonicalize | FileCheck %s --check-prefix=S4
// RUN: tt-opt %s -split-input-file -tritongpu-assign-latencies=num-stages=1 -tritongpu-schedule-loops -tritongpu-pipeline=num-stages=1 | FileCheck %s --check-prefix=S1
// RUN: cd %S/../../.. && tt-frontend kernels/matmul.py -k matmul_kernel -s "*fp16:16,*fp16:16,*fp16:16,i32:16,i32:16,i32:16,i32:16,i32:1,i32:16,i32:1,i32:16,i32:1,64,64,32,8" \
// RUN:   | tt-opt -make-ttir -o %t.ttir
// RUN: tt-opt %t.ttir -make-ttgir='target=cuda:80 num-warps=4 num-stages=1' -o %t.ttgir
// RUN: tt-opt %t.ttgir -tritongpu-assign-latencies=num-stages=3 -tritongpu-schedule-loops -tritongpu-pipeline=num-stages=3 -o %t.s3.ttgir
// RUN: cd %S/../../.. && tt-run %t.s3.ttgir --spec kernels/matmul.json --interpret --check | FileCheck %s --check-prefix=INTERP
// RUN: tt-opt %t.ttgir -tritongpu-assign-latencies=num-stages=5 -tritongpu-schedule-loops -tritongpu-pipeline=num-stages=5 -canonicalize -o %t.s5.ttgir
// RUN: cd %S/../../.. && tt-run %t.s5.ttgir --spec kernels/matmul.json --interpret --check | FileCheck %s --check-prefix=INTERP
// RUN: tt-opt %t.ttir -convert-triton-to-tritongpu='target=cuda:90 num-warps=4 threads-per-warp=32 num-ctas=1' -tritongpu-coalesce \
// RUN:   -tritongpu-remove-layout-conversions -tritongpu-accelerate-matmul -tritongpu-remove-layout-conversions -tritongpu-optimize-dot-operands \
// RUN:   -canonicalize -loop-invariant-code-motion \
// RUN:   -tritongpu-assign-latencies=num-stages=3 -tritongpu-schedule-loops -tritongpu-pipeline=num-stages=3 -canonicalize -o %t.sm90.ttgir
// RUN: FileCheck %s --check-prefix=SM90 < %t.sm90.ttgir
// RUN: cd %S/../../.. && tt-run %t.sm90.ttgir --spec kernels/matmul.json --interpret --check | FileCheck %s --check-prefix=INTERP
// RUN: cd %S/../../.. && tt-frontend kernels/attention.py -k attn_fwd_kernel -s "*fp16:16,*fp16:16,*fp16:16,*fp16:16,fp32,i32,i32:16,i32:1,i32:16,i32:1,i32:16,i32:1,i32:16,i32:1,64,128,64" \
// RUN:   | tt-opt -make-ttir -o %t.attn.ttir
// RUN: tt-opt %t.attn.ttir -make-ttgir='target=cuda:80 num-warps=4 num-stages=1' \
// RUN:   | tt-opt -tritongpu-assign-latencies=num-stages=3 -tritongpu-schedule-loops -tritongpu-pipeline=num-stages=3 -canonicalize -o %t.attn80.ttgir
// RUN: cd %S/../../.. && tt-run %t.attn80.ttgir --spec kernels/attention.json --interpret --check | FileCheck %s --check-prefix=ATTN
// RUN: tt-opt %t.attn.ttir -convert-triton-to-tritongpu='target=cuda:90 num-warps=4 threads-per-warp=32 num-ctas=1' -tritongpu-coalesce \
// RUN:   -tritongpu-remove-layout-conversions -tritongpu-accelerate-matmul -tritongpu-remove-layout-conversions -tritongpu-optimize-dot-operands \
// RUN:   -canonicalize -loop-invariant-code-motion \
// RUN:   -tritongpu-assign-latencies=num-stages=3 -tritongpu-schedule-loops -tritongpu-pipeline=num-stages=3 -canonicalize -o %t.attn90.ttgir
// RUN: cd %S/../../.. && tt-run %t.attn90.ttgir --spec kernels/attention.json --interpret --check | FileCheck %s --check-prefix=ATTN
// RUN: tt-opt %S/../../fixtures/triton/matmul_acc_i8_sm80.nodebug.ttir -make-ttgir='target=cuda:80 num-warps=4 num-stages=1' \
// RUN:   | tt-opt -tritongpu-assign-latencies=num-stages=3 -tritongpu-schedule-loops -tritongpu-pipeline=num-stages=3 \
// RUN:     -tritongpu-coalesce-async-copy -o %t.i8.ttgir
// RUN: FileCheck %s --check-prefix=I8 < %t.i8.ttgir
// RUN: cd %S/../../.. && tt-run %t.i8.ttgir --spec kernels/matmul_acc.json --interpret --check | FileCheck %s --check-prefix=I8-INTERP

// The pass chain as Triton runs it: tritongpu-assign-latencies gives the loads that feed dots a latency,
// tritongpu-schedule-loops stages the loop by it (loads stage 0, pointer increments stage 1, the dot stage 2),
// tritongpu-pipeline turns the loads into cp.async copies into multi-buffers and expands the schedule into a
// prologue and a kernel loop.

// The matmul kernel (kernels/matmul.json: K = 96, three iterations of BLOCK_K = 32, the last one masked) runs in
// the interpreter pipelined with 3 stages (straight out of the pipeliner), with 5 (canonicalized; four stages
// ahead: the prologue's fourth copies are masked off entirely), and for sm90 (wgmma reading the buffers, one in
// flight; its input is make-ttgir's IR before the pipeliner, since make-ttgir with num-stages=1 already made the
// wgmma asynchronous, with a wait right after it).
// INTERP: c: ok
// The attention kernel (two dots, K and V loads pipelined) too, for sm80 and sm90.
// ATTN: out: ok
// SM90: ttg.local_alloc : () -> !ttg.memdesc<3x64x32xf16
// SM90-NEXT: ttg.local_alloc : () -> !ttg.memdesc<3x32x64xf16
// SM90: scf.for
// SM90: ttg.async_wait %{{[^ ]+}}, %{{[^ ]+}} {num = 2 : i32}
// SM90: ttng.warp_group_dot {{.*}}isAsync = true}
// SM90-NEXT: ttng.warp_group_dot_wait {{.*}} {pendings = 1 : i32}
// SM90: ttng.warp_group_dot_wait {{.*}} {pendings = 0 : i32}
// SM90-NEXT: ttg.async_wait {num = 0 : i32}

// i8 operands (kWidth 4): A's buffer (K innermost) keeps 16 bytes together, B's (N innermost) 8; B's loads
// hold 16 contiguous bytes per thread, so tritongpu-coalesce-async-copy gives its copies a layout clipped to 8,
// their pointers, mask and other converted to it right before each copy, in the prologue and in the loop.
// I8-DAG: #[[B16:.*]] = #ttg.blocked<{sizePerThread = [1, 16], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
// I8-DAG: #[[B8:.*]] = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
// I8-DAG: #[[SHA:.*]] = #ttg.swizzled_shared<{vec = 16, perPhase = 4, maxPhase = 2, order = [1, 0]}>
// I8-DAG: #[[SHB:.*]] = #ttg.swizzled_shared<{vec = 8, perPhase = 2, maxPhase = 8, order = [1, 0]}>
// I8: ttg.async_copy_global_to_local {{.*}} -> <64x32xi8, #[[SHA]], #smem, mutable>
// I8: %[[P:.*]] = ttg.convert_layout %{{.*}} : tensor<32x64x!tt.ptr<i8>, #[[B16]]> -> tensor<32x64x!tt.ptr<i8>, #[[B8]]>
// I8-NEXT: %[[M:.*]] = ttg.convert_layout %{{.*}} : tensor<32x64xi1, #[[B16]]> -> tensor<32x64xi1, #[[B8]]>
// I8-NEXT: %[[O:.*]] = ttg.convert_layout %{{.*}} : tensor<32x64xi8, #[[B16]]> -> tensor<32x64xi8, #[[B8]]>
// I8-NEXT: ttg.async_copy_global_to_local %[[P]], %{{.*}} mask %[[M]] other %[[O]] {{.*}}: tensor<32x64x!tt.ptr<i8>, #[[B8]]> -> <32x64xi8, #[[SHB]], #smem, mutable>
// I8: scf.for
// I8: ttg.async_copy_global_to_local {{.*}} : tensor<64x32x!tt.ptr<i8>, #{{.*}}> -> <64x32xi8, #[[SHA]], #smem, mutable>
// I8: ttg.convert_layout %{{.*}} : tensor<32x64x!tt.ptr<i8>, #[[B16]]> -> tensor<32x64x!tt.ptr<i8>, #[[B8]]>
// I8-NEXT: ttg.convert_layout
// I8-NEXT: ttg.convert_layout
// I8-NEXT: ttg.async_copy_global_to_local {{.*}} : tensor<32x64x!tt.ptr<i8>, #[[B8]]> -> <32x64xi8, #[[SHB]], #smem, mutable>
// I8: scf.yield
// I8-INTERP: c: ok

// num-stages=1: no latencies, no schedule, nothing pipelined, except the loop that asks for 4 stages itself.
// S1-LABEL: tt.func public @mm
// S1: scf.for
// S1-NEXT: tt.load %{{[^ ]+}} :
// S1-NEXT: tt.load %{{[^ ]+}} :
// S1-NOT: {{tt.latency|loop.stage|tt.scheduled_max_stage|ttg.async_copy_global_to_local|ttg.local_alloc :}}

// Two loads feeding an MMA v2 dot: each gets a buffer of num-stages - 1 = 2 swizzled slots (32x32 f16: 64-byte
// rows, perPhase 2, maxPhase 4). The prologue copies iterations 0 and 1 (predicated on n > 0 and n > 1; the
// pointers of iteration 1 come from iteration 0's stage-1 increment). The kernel loop carries the insert index
// (from -1: 1 after the prologue's two slots) and the extract index (-1), advanced modulo 2 at their stages, and
// each load's last two commit-group tokens; it waits for iteration k's copies (leaving the 2 groups of iteration
// k + 1 in flight), reads the slot with local_load straight into the dot operand layouts (the conversions
// folded in), and copies iteration k + 2 into the slot it inserts at, predicated on k < n - 2.
// CHECK: #[[SH:.*]] = #ttg.swizzled_shared<{vec = 8, perPhase = 2, maxPhase = 4, order = [1, 0]}>
// CHECK-LABEL: tt.func public @mm
// CHECK: %[[A:.*]] = ttg.local_alloc : () -> !ttg.memdesc<2x32x32xf16, #[[SH]], #smem, mutable>
// CHECK-NEXT: %[[B:.*]] = ttg.local_alloc : () -> !ttg.memdesc<2x32x32xf16, #[[SH]], #smem, mutable>
// CHECK-NEXT: %[[P0:.*]] = arith.cmpi sgt, %arg2, %c0_i32 : i32
// CHECK-NEXT: %[[A0:.*]] = ttg.memdesc_index %[[A]][%c0_i32]
// CHECK-NEXT: %[[MA0:.*]] = tt.splat %[[P0]] : i1 -> tensor<32x32xi1, #blocked>
// CHECK-NEXT: %[[CA0:.*]] = ttg.async_copy_global_to_local %[[PA0:[^ ]+]], %[[A0]] mask %[[MA0]] {contiguity = 8 : i32}
// CHECK-NEXT: %[[TA0:.*]] = ttg.async_commit_group tokens %[[CA0]]
// CHECK-NEXT: %[[B0:.*]] = ttg.memdesc_index %[[B]][%c0_i32]
// CHECK-NEXT: %[[MB0:.*]] = tt.splat %[[P0]]
// CHECK-NEXT: %[[CB0:.*]] = ttg.async_copy_global_to_local %[[PB0:[^ ]+]], %[[B0]] mask %[[MB0]]
// CHECK-NEXT: %[[TB0:.*]] = ttg.async_commit_group tokens %[[CB0]]
// CHECK-NEXT: %[[P1:.*]] = arith.cmpi sgt, %arg2, %c1_i32 : i32
// CHECK-NEXT: %[[PA1:.*]] = tt.addptr %[[PA0]], %cst_1
// CHECK-NEXT: %[[PB1:.*]] = tt.addptr %[[PB0]], %cst_1
// CHECK-NEXT: %[[A1:.*]] = ttg.memdesc_index %[[A]][%c1_i32]
// CHECK-NEXT: %[[MA1:.*]] = tt.splat %[[P1]]
// CHECK-NEXT: %[[CA1:.*]] = ttg.async_copy_global_to_local %[[PA1]], %[[A1]] mask %[[MA1]]
// CHECK-NEXT: %[[TA1:.*]] = ttg.async_commit_group tokens %[[CA1]]
// CHECK-NEXT: %[[B1:.*]] = ttg.memdesc_index %[[B]][%c1_i32]
// CHECK-NEXT: %[[MB1:.*]] = tt.splat %[[P1]]
// CHECK-NEXT: %[[CB1:.*]] = ttg.async_copy_global_to_local %[[PB1]], %[[B1]] mask %[[MB1]]
// CHECK-NEXT: %[[TB1:.*]] = ttg.async_commit_group tokens %[[CB1]]
// CHECK-NEXT: %[[R:.*]]:9 = scf.for %[[K:[^ ]+]] = %c0_i32 to %arg2 step %c1_i32 iter_args(%[[ACC:[^ ]+]] = %cst, %[[AP:[^ ]+]] = %[[PA1]], %[[BP:[^ ]+]] = %[[PB1]], %[[INS:[^ ]+]] = %c1_i32, %[[EXT:[^ ]+]] = %c-1_i32, %[[WA:[^ ]+]] = %[[TA0]], %[[WA1:[^ ]+]] = %[[TA1]], %[[WB:[^ ]+]] = %[[TB0]], %[[WB1:[^ ]+]] = %[[TB1]])
// CHECK-NEXT: %[[LAST:.*]] = arith.subi %arg2, %c2_i32 : i32
// CHECK-NEXT: %[[V:.*]] = arith.cmpi slt, %[[K]], %[[LAST]] : i32
// CHECK-NEXT: %[[E1:.*]] = arith.addi %[[EXT]], %c1_i32 : i32
// CHECK-NEXT: %[[EW:.*]] = arith.cmpi sge, %[[E1]], %c2_i32 : i32
// CHECK-NEXT: %[[E:.*]] = arith.select %[[EW]], %c0_i32, %[[E1]] : i32
// CHECK-NEXT: %[[W:.*]] = ttg.async_wait %[[WA]], %[[WB]] {num = 2 : i32}
// CHECK-NEXT: %[[AV:.*]] = ttg.memdesc_index %[[A]][%[[E]]]
// CHECK-NEXT: %[[X:.*]] = ttg.local_load %[[AV]] token %[[W]] : {{.*}} -> tensor<32x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
// CHECK-NEXT: %[[BV:.*]] = ttg.memdesc_index %[[B]][%[[E]]]
// CHECK-NEXT: %[[Y:.*]] = ttg.local_load %[[BV]] token %[[W]] : {{.*}} -> tensor<32x32xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>
// CHECK-NEXT: %[[D:.*]] = tt.dot %[[X]], %[[Y]], %[[ACC]]
// CHECK-NEXT: %[[AP2:.*]] = tt.addptr %[[AP]], %cst_1
// CHECK-NEXT: %[[BP2:.*]] = tt.addptr %[[BP]], %cst_1
// CHECK-NEXT: %[[I1:.*]] = arith.addi %[[INS]], %c1_i32 : i32
// CHECK-NEXT: %[[IW:.*]] = arith.cmpi sge, %[[I1]], %c2_i32 : i32
// CHECK-NEXT: %[[I:.*]] = arith.select %[[IW]], %c0_i32, %[[I1]] : i32
// CHECK-NEXT: %[[AS:.*]] = ttg.memdesc_index %[[A]][%[[I]]]
// CHECK-NEXT: %[[MA:.*]] = tt.splat %[[V]] : i1 -> tensor<32x32xi1, #blocked>
// CHECK-NEXT: %[[CA:.*]] = ttg.async_copy_global_to_local %[[AP2]], %[[AS]] mask %[[MA]]
// CHECK-NEXT: %[[TA:.*]] = ttg.async_commit_group tokens %[[CA]]
// CHECK-NEXT: %[[BS:.*]] = ttg.memdesc_index %[[B]][%[[I]]]
// CHECK-NEXT: %[[MB:.*]] = tt.splat %[[V]]
// CHECK-NEXT: %[[CB:.*]] = ttg.async_copy_global_to_local %[[BP2]], %[[BS]] mask %[[MB]]
// CHECK-NEXT: %[[TB:.*]] = ttg.async_commit_group tokens %[[CB]]
// CHECK-NEXT: scf.yield %[[D]], %[[AP2]], %[[BP2]], %[[I]], %[[E]], %[[WA1]], %[[TA]], %[[WB1]], %[[TB]] :
// CHECK-NEXT: }
// CHECK-NEXT: ttg.async_wait {num = 0 : i32}
// CHECK-NEXT: ttg.local_dealloc %[[B]]
// CHECK-NEXT: ttg.local_dealloc %[[A]]
// CHECK-NEXT: tt.return %[[R]]#0

// Four stages: three slots each, a prologue of three iterations (n > 0, n > 1, n > 2), the insert index from 2,
// three tokens per load carried; the wait is for iteration k's groups and leaves the next two iterations' four
// in flight, the copies run three iterations ahead (k < n - 3).
// S4-LABEL: tt.func public @mm
// S4-COUNT-2: ttg.local_alloc : () -> !ttg.memdesc<3x32x32xf16
// S4: arith.cmpi sgt, %arg2, %c0_i32
// S4: arith.cmpi sgt, %arg2, %c1_i32
// S4: arith.cmpi sgt, %arg2, %c2_i32
// S4: scf.for %[[K:[^ ]+]] = {{.*}}, %[[INS:[^ ]+]] = %c2_i32, %[[EXT:[^ ]+]] = %c-1_i32, %[[A0:[^ ]+]] = %{{[0-9]+}}, %[[A1:[^ ]+]] = %{{[0-9]+}}, %[[A2:[^ ]+]] = %{{[0-9]+}}, %[[B0:[^ ]+]] = %{{[0-9]+}}, %[[B1:[^ ]+]] = %{{[0-9]+}}, %[[B2:[^ ]+]] = %{{[0-9]+}})
// S4-NEXT: %[[LAST:.*]] = arith.subi %arg2, %c3_i32 : i32
// S4-NEXT: arith.cmpi slt, %[[K]], %[[LAST]] : i32
// S4-NEXT: %[[E1:.*]] = arith.addi %[[EXT]], %c1_i32 : i32
// S4-NEXT: arith.cmpi sge, %[[E1]], %c3_i32 : i32
// S4-NEXT: arith.select
// S4-NEXT: ttg.async_wait %[[A0]], %[[B0]] {num = 4 : i32}
// S4: arith.addi %[[INS]], %c1_i32 : i32
// S4-NEXT: arith.cmpi sge, %{{.*}}, %c3_i32 : i32
// S4: %[[TA:.*]] = ttg.async_commit_group
// S4: %[[TB:.*]] = ttg.async_commit_group
// S4-NEXT: scf.yield {{.*}}, %[[A1]], %[[A2]], %[[TA]], %[[B1]], %[[B2]], %[[TB]] :
#bl = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @mm(%pa: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %pb: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %n: i32) -> tensor<32x32xf32, #mma> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %zero = arith.constant dense<0.000000e+00> : tensor<32x32xf32, #mma>
    %c32 = arith.constant dense<32> : tensor<32x1xi32, #bl>
    %step = arith.constant dense<1024> : tensor<32x32xi32, #bl>
    %r = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 1, parent = #bl}>>
    %c = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 0, parent = #bl}>>
    %r2 = tt.expand_dims %r {axis = 1 : i32} : tensor<32xi32, #ttg.slice<{dim = 1, parent = #bl}>> -> tensor<32x1xi32, #bl>
    %rs = arith.muli %r2, %c32 : tensor<32x1xi32, #bl>
    %rb = tt.broadcast %rs : tensor<32x1xi32, #bl> -> tensor<32x32xi32, #bl>
    %c2 = tt.expand_dims %c {axis = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 0, parent = #bl}>> -> tensor<1x32xi32, #bl>
    %cb = tt.broadcast %c2 : tensor<1x32xi32, #bl> -> tensor<32x32xi32, #bl>
    %off = arith.addi %rb, %cb : tensor<32x32xi32, #bl>
    %as = tt.splat %pa : !tt.ptr<f16> -> tensor<32x32x!tt.ptr<f16>, #bl>
    %a = tt.addptr %as, %off : tensor<32x32x!tt.ptr<f16>, #bl>, tensor<32x32xi32, #bl>
    %bs = tt.splat %pb : !tt.ptr<f16> -> tensor<32x32x!tt.ptr<f16>, #bl>
    %b = tt.addptr %bs, %off : tensor<32x32x!tt.ptr<f16>, #bl>, tensor<32x32xi32, #bl>
    %res:3 = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %zero, %ap = %a, %bp = %b) -> (tensor<32x32xf32, #mma>, tensor<32x32x!tt.ptr<f16>, #bl>, tensor<32x32x!tt.ptr<f16>, #bl>)  : i32 {
      %x = tt.load %ap : tensor<32x32x!tt.ptr<f16>, #bl>
      %y = tt.load %bp : tensor<32x32x!tt.ptr<f16>, #bl>
      %xd = ttg.convert_layout %x : tensor<32x32xf16, #bl> -> tensor<32x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
      %yd = ttg.convert_layout %y : tensor<32x32xf16, #bl> -> tensor<32x32xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>
      %d = tt.dot %xd, %yd, %acc, inputPrecision = tf32 : tensor<32x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>> * tensor<32x32xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>> -> tensor<32x32xf32, #mma>
      %ap2 = tt.addptr %ap, %step : tensor<32x32x!tt.ptr<f16>, #bl>, tensor<32x32xi32, #bl>
      %bp2 = tt.addptr %bp, %step : tensor<32x32x!tt.ptr<f16>, #bl>, tensor<32x32xi32, #bl>
      scf.yield %d, %ap2, %bp2 : tensor<32x32xf32, #mma>, tensor<32x32x!tt.ptr<f16>, #bl>, tensor<32x32x!tt.ptr<f16>, #bl>
    }
    tt.return %res#0 : tensor<32x32xf32, #mma>
  }
}

// -----

// The loop's own tt.num_stages = 1 (what triton-loop-unroll leaves) wins over the option: no latency, no
// schedule, the loads stay.
// CHECK-LABEL: tt.func public @num_stages_attr
// CHECK-NOT: ttg.local_alloc
// CHECK: scf.for
// CHECK-NEXT: tt.load %{{[^ ]+}} :
// CHECK-NEXT: tt.load %{{[^ ]+}} :
// CHECK-NOT: loop.stage
// CHECK: } {tt.num_stages = 1 : i32}
#bl = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @num_stages_attr(%pa: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %pb: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %n: i32) -> tensor<32x32xf32, #mma> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %zero = arith.constant dense<0.000000e+00> : tensor<32x32xf32, #mma>
    %c32 = arith.constant dense<32> : tensor<32x1xi32, #bl>
    %step = arith.constant dense<1024> : tensor<32x32xi32, #bl>
    %r = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 1, parent = #bl}>>
    %c = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 0, parent = #bl}>>
    %r2 = tt.expand_dims %r {axis = 1 : i32} : tensor<32xi32, #ttg.slice<{dim = 1, parent = #bl}>> -> tensor<32x1xi32, #bl>
    %rs = arith.muli %r2, %c32 : tensor<32x1xi32, #bl>
    %rb = tt.broadcast %rs : tensor<32x1xi32, #bl> -> tensor<32x32xi32, #bl>
    %c2 = tt.expand_dims %c {axis = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 0, parent = #bl}>> -> tensor<1x32xi32, #bl>
    %cb = tt.broadcast %c2 : tensor<1x32xi32, #bl> -> tensor<32x32xi32, #bl>
    %off = arith.addi %rb, %cb : tensor<32x32xi32, #bl>
    %as = tt.splat %pa : !tt.ptr<f16> -> tensor<32x32x!tt.ptr<f16>, #bl>
    %a = tt.addptr %as, %off : tensor<32x32x!tt.ptr<f16>, #bl>, tensor<32x32xi32, #bl>
    %bs = tt.splat %pb : !tt.ptr<f16> -> tensor<32x32x!tt.ptr<f16>, #bl>
    %b = tt.addptr %bs, %off : tensor<32x32x!tt.ptr<f16>, #bl>, tensor<32x32xi32, #bl>
    %res:3 = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %zero, %ap = %a, %bp = %b) -> (tensor<32x32xf32, #mma>, tensor<32x32x!tt.ptr<f16>, #bl>, tensor<32x32x!tt.ptr<f16>, #bl>)  : i32 {
      %x = tt.load %ap : tensor<32x32x!tt.ptr<f16>, #bl>
      %y = tt.load %bp : tensor<32x32x!tt.ptr<f16>, #bl>
      %xd = ttg.convert_layout %x : tensor<32x32xf16, #bl> -> tensor<32x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
      %yd = ttg.convert_layout %y : tensor<32x32xf16, #bl> -> tensor<32x32xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>
      %d = tt.dot %xd, %yd, %acc, inputPrecision = tf32 : tensor<32x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>> * tensor<32x32xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>> -> tensor<32x32xf32, #mma>
      %ap2 = tt.addptr %ap, %step : tensor<32x32x!tt.ptr<f16>, #bl>, tensor<32x32xi32, #bl>
      %bp2 = tt.addptr %bp, %step : tensor<32x32x!tt.ptr<f16>, #bl>, tensor<32x32xi32, #bl>
      scf.yield %d, %ap2, %bp2 : tensor<32x32xf32, #mma>, tensor<32x32x!tt.ptr<f16>, #bl>, tensor<32x32x!tt.ptr<f16>, #bl>
    } {tt.num_stages = 1 : i32}
    tt.return %res#0 : tensor<32x32xf32, #mma>
  }
}

// -----

// The loop's own tt.num_stages = 4 wins over the option's 3, in both passes: three slots, three prologue
// iterations, a wait that leaves four groups in flight; the attribute stays on the pipelined loop.
// CHECK-LABEL: tt.func public @num_stages_attr_4
// S1-LABEL: tt.func public @num_stages_attr_4
// S1: ttg.local_alloc : () -> !ttg.memdesc<3x32x32xf16
// S1: ttg.async_wait %{{.*}}, %{{.*}} {num = 4 : i32}
// CHECK-COUNT-2: ttg.local_alloc : () -> !ttg.memdesc<3x32x32xf16
// CHECK: arith.cmpi sgt, %arg2, %c2_i32
// CHECK: scf.for
// CHECK: arith.subi %arg2, %c3_i32
// CHECK: ttg.async_wait %{{.*}}, %{{.*}} {num = 4 : i32}
// CHECK: } {tt.num_stages = 4 : i32}
#bl = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @num_stages_attr_4(%pa: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %pb: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %n: i32) -> tensor<32x32xf32, #mma> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %zero = arith.constant dense<0.000000e+00> : tensor<32x32xf32, #mma>
    %c32 = arith.constant dense<32> : tensor<32x1xi32, #bl>
    %step = arith.constant dense<1024> : tensor<32x32xi32, #bl>
    %r = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 1, parent = #bl}>>
    %c = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 0, parent = #bl}>>
    %r2 = tt.expand_dims %r {axis = 1 : i32} : tensor<32xi32, #ttg.slice<{dim = 1, parent = #bl}>> -> tensor<32x1xi32, #bl>
    %rs = arith.muli %r2, %c32 : tensor<32x1xi32, #bl>
    %rb = tt.broadcast %rs : tensor<32x1xi32, #bl> -> tensor<32x32xi32, #bl>
    %c2 = tt.expand_dims %c {axis = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 0, parent = #bl}>> -> tensor<1x32xi32, #bl>
    %cb = tt.broadcast %c2 : tensor<1x32xi32, #bl> -> tensor<32x32xi32, #bl>
    %off = arith.addi %rb, %cb : tensor<32x32xi32, #bl>
    %as = tt.splat %pa : !tt.ptr<f16> -> tensor<32x32x!tt.ptr<f16>, #bl>
    %a = tt.addptr %as, %off : tensor<32x32x!tt.ptr<f16>, #bl>, tensor<32x32xi32, #bl>
    %bs = tt.splat %pb : !tt.ptr<f16> -> tensor<32x32x!tt.ptr<f16>, #bl>
    %b = tt.addptr %bs, %off : tensor<32x32x!tt.ptr<f16>, #bl>, tensor<32x32xi32, #bl>
    %res:3 = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %zero, %ap = %a, %bp = %b) -> (tensor<32x32xf32, #mma>, tensor<32x32x!tt.ptr<f16>, #bl>, tensor<32x32x!tt.ptr<f16>, #bl>)  : i32 {
      %x = tt.load %ap : tensor<32x32x!tt.ptr<f16>, #bl>
      %y = tt.load %bp : tensor<32x32x!tt.ptr<f16>, #bl>
      %xd = ttg.convert_layout %x : tensor<32x32xf16, #bl> -> tensor<32x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
      %yd = ttg.convert_layout %y : tensor<32x32xf16, #bl> -> tensor<32x32xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>
      %d = tt.dot %xd, %yd, %acc, inputPrecision = tf32 : tensor<32x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>> * tensor<32x32xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>> -> tensor<32x32xf32, #mma>
      %ap2 = tt.addptr %ap, %step : tensor<32x32x!tt.ptr<f16>, #bl>, tensor<32x32xi32, #bl>
      %bp2 = tt.addptr %bp, %step : tensor<32x32x!tt.ptr<f16>, #bl>, tensor<32x32xi32, #bl>
      scf.yield %d, %ap2, %bp2 : tensor<32x32xf32, #mma>, tensor<32x32x!tt.ptr<f16>, #bl>, tensor<32x32x!tt.ptr<f16>, #bl>
    } {tt.num_stages = 4 : i32}
    tt.return %res#0 : tensor<32x32xf32, #mma>
  }
}

// -----

// A load that is also stored is pipelined too, as Triton does: not all its users are dot operands, so its buffer
// is unswizzled; its slot is read twice (into the dot operand layout and into the load's own, for the store),
// and the store's pointer, which stage 1 advances, reaches stage 2 through an iteration argument of its own.
// CHECK-DAG: #[[SW:.*]] = #ttg.swizzled_shared<{vec = 8, perPhase = 2, maxPhase = 4, order = [1, 0]}>
// CHECK-DAG: #[[PLAIN:.*]] = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
// CHECK-LABEL: tt.func public @stored
// S1-LABEL: tt.func public @stored
// S1-NOT: {{tt.latency|loop.stage|tt.scheduled_max_stage|ttg.async_copy_global_to_local|ttg.local_alloc :}}
// CHECK: %[[A:.*]] = ttg.local_alloc : () -> !ttg.memdesc<2x32x32xf16, #[[SW]], #smem, mutable>
// CHECK-NEXT: %[[B:.*]] = ttg.local_alloc : () -> !ttg.memdesc<2x32x32xf16, #[[PLAIN]], #smem, mutable>
// CHECK: ttg.async_copy_global_to_local %[[PB0:[^ ]+]], %{{.*}} -> <32x32xf16, #[[PLAIN]], #smem, mutable>
// CHECK: scf.for {{.*}} iter_args(%{{[^ ]+}} = %cst, %{{[^ ]+}} = %{{[^ ]+}}, %[[BP:[^ ]+]] = %{{[^ ]+}}, {{.*}}, %[[SP:[^ ]+]] = %[[PB0]])
// CHECK: %[[W:.*]] = ttg.async_wait
// CHECK: %[[BV:.*]] = ttg.memdesc_index %[[B]]
// CHECK-NEXT: %[[Y:.*]] = ttg.local_load %[[BV]] token %[[W]] : {{.*}} -> tensor<32x32xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>
// CHECK-NEXT: %[[S:.*]] = ttg.local_load %[[BV]] token %[[W]] : {{.*}} -> tensor<32x32xf16, #blocked>
// CHECK-NEXT: tt.store %[[SP]], %[[S]]
// CHECK-NEXT: tt.dot %{{.*}}, %[[Y]],
// CHECK: scf.yield {{.*}}, %[[BP]] :
#bl = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @stored(%pa: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %pb: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %n: i32) -> tensor<32x32xf32, #mma> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %zero = arith.constant dense<0.000000e+00> : tensor<32x32xf32, #mma>
    %c32 = arith.constant dense<32> : tensor<32x1xi32, #bl>
    %step = arith.constant dense<1024> : tensor<32x32xi32, #bl>
    %r = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 1, parent = #bl}>>
    %c = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 0, parent = #bl}>>
    %r2 = tt.expand_dims %r {axis = 1 : i32} : tensor<32xi32, #ttg.slice<{dim = 1, parent = #bl}>> -> tensor<32x1xi32, #bl>
    %rs = arith.muli %r2, %c32 : tensor<32x1xi32, #bl>
    %rb = tt.broadcast %rs : tensor<32x1xi32, #bl> -> tensor<32x32xi32, #bl>
    %c2 = tt.expand_dims %c {axis = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 0, parent = #bl}>> -> tensor<1x32xi32, #bl>
    %cb = tt.broadcast %c2 : tensor<1x32xi32, #bl> -> tensor<32x32xi32, #bl>
    %off = arith.addi %rb, %cb : tensor<32x32xi32, #bl>
    %as = tt.splat %pa : !tt.ptr<f16> -> tensor<32x32x!tt.ptr<f16>, #bl>
    %a = tt.addptr %as, %off : tensor<32x32x!tt.ptr<f16>, #bl>, tensor<32x32xi32, #bl>
    %bs = tt.splat %pb : !tt.ptr<f16> -> tensor<32x32x!tt.ptr<f16>, #bl>
    %b = tt.addptr %bs, %off : tensor<32x32x!tt.ptr<f16>, #bl>, tensor<32x32xi32, #bl>
    %res:3 = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %zero, %ap = %a, %bp = %b) -> (tensor<32x32xf32, #mma>, tensor<32x32x!tt.ptr<f16>, #bl>, tensor<32x32x!tt.ptr<f16>, #bl>)  : i32 {
      %x = tt.load %ap : tensor<32x32x!tt.ptr<f16>, #bl>
      %y = tt.load %bp : tensor<32x32x!tt.ptr<f16>, #bl>
      %xd = ttg.convert_layout %x : tensor<32x32xf16, #bl> -> tensor<32x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
      %yd = ttg.convert_layout %y : tensor<32x32xf16, #bl> -> tensor<32x32xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>
      tt.store %bp, %y : tensor<32x32x!tt.ptr<f16>, #bl>
      %d = tt.dot %xd, %yd, %acc, inputPrecision = tf32 : tensor<32x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>> * tensor<32x32xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>> -> tensor<32x32xf32, #mma>
      %ap2 = tt.addptr %ap, %step : tensor<32x32x!tt.ptr<f16>, #bl>, tensor<32x32xi32, #bl>
      %bp2 = tt.addptr %bp, %step : tensor<32x32x!tt.ptr<f16>, #bl>, tensor<32x32xi32, #bl>
      scf.yield %d, %ap2, %bp2 : tensor<32x32xf32, #mma>, tensor<32x32x!tt.ptr<f16>, #bl>, tensor<32x32x!tt.ptr<f16>, #bl>
    }
    tt.return %res#0 : tensor<32x32xf32, #mma>
  }
}

// -----

// The pointers are used after the loop: the loop yields stage 1's increments only while they are for an
// iteration in range (k < n - 1), and the prologue's only when n > 0, so its results are the pointers after the
// last iteration, as without pipelining (the expander's results whose producer is not in the last stage).
// CHECK-LABEL: tt.func public @used_after
// CHECK: %[[P0:.*]] = arith.cmpi sgt, %arg2, %c0_i32
// CHECK: %[[A1:.*]] = tt.addptr %[[A0:[^ ]+]], %cst_1
// CHECK-NEXT: %[[A1S:.*]] = arith.select %[[P0]], %[[A1]], %[[A0]]
// CHECK: %[[R:.*]]:9 = scf.for %[[K:[^ ]+]] = {{.*}} iter_args(%{{[^ ]+}} = %cst, %[[AP:[^ ]+]] = %[[A1S]], %[[BP:[^ ]+]] = %{{[^ ]+}},
// CHECK-NEXT: arith.subi %arg2, %c2_i32
// CHECK-NEXT: arith.cmpi slt, %[[K]]
// CHECK-NEXT: %[[L1:.*]] = arith.subi %arg2, %c1_i32 : i32
// CHECK-NEXT: %[[V1:.*]] = arith.cmpi slt, %[[K]], %[[L1]] : i32
// CHECK: %[[AP2:.*]] = tt.addptr %[[AP]], %cst_1
// CHECK-NEXT: %[[BP2:.*]] = tt.addptr %[[BP]], %cst_1
// CHECK: %[[AY:.*]] = arith.select %[[V1]], %[[AP2]], %[[AP]]
// CHECK-NEXT: %[[BY:.*]] = arith.select %[[V1]], %[[BP2]], %[[BP]]
// CHECK-NEXT: scf.yield %{{[^ ]+}}, %[[AY]], %[[BY]],
// CHECK: %[[LAST:.*]] = tt.load %[[R]]#1
// CHECK-NEXT: tt.store %[[R]]#2, %[[LAST]]
#bl = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @used_after(%pa: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %pb: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %n: i32) -> tensor<32x32xf32, #mma> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %zero = arith.constant dense<0.000000e+00> : tensor<32x32xf32, #mma>
    %c32 = arith.constant dense<32> : tensor<32x1xi32, #bl>
    %step = arith.constant dense<1024> : tensor<32x32xi32, #bl>
    %r = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 1, parent = #bl}>>
    %c = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 0, parent = #bl}>>
    %r2 = tt.expand_dims %r {axis = 1 : i32} : tensor<32xi32, #ttg.slice<{dim = 1, parent = #bl}>> -> tensor<32x1xi32, #bl>
    %rs = arith.muli %r2, %c32 : tensor<32x1xi32, #bl>
    %rb = tt.broadcast %rs : tensor<32x1xi32, #bl> -> tensor<32x32xi32, #bl>
    %c2 = tt.expand_dims %c {axis = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 0, parent = #bl}>> -> tensor<1x32xi32, #bl>
    %cb = tt.broadcast %c2 : tensor<1x32xi32, #bl> -> tensor<32x32xi32, #bl>
    %off = arith.addi %rb, %cb : tensor<32x32xi32, #bl>
    %as = tt.splat %pa : !tt.ptr<f16> -> tensor<32x32x!tt.ptr<f16>, #bl>
    %a = tt.addptr %as, %off : tensor<32x32x!tt.ptr<f16>, #bl>, tensor<32x32xi32, #bl>
    %bs = tt.splat %pb : !tt.ptr<f16> -> tensor<32x32x!tt.ptr<f16>, #bl>
    %b = tt.addptr %bs, %off : tensor<32x32x!tt.ptr<f16>, #bl>, tensor<32x32xi32, #bl>
    %res:3 = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %zero, %ap = %a, %bp = %b) -> (tensor<32x32xf32, #mma>, tensor<32x32x!tt.ptr<f16>, #bl>, tensor<32x32x!tt.ptr<f16>, #bl>)  : i32 {
      %x = tt.load %ap : tensor<32x32x!tt.ptr<f16>, #bl>
      %y = tt.load %bp : tensor<32x32x!tt.ptr<f16>, #bl>
      %xd = ttg.convert_layout %x : tensor<32x32xf16, #bl> -> tensor<32x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
      %yd = ttg.convert_layout %y : tensor<32x32xf16, #bl> -> tensor<32x32xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>
      %d = tt.dot %xd, %yd, %acc, inputPrecision = tf32 : tensor<32x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>> * tensor<32x32xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>> -> tensor<32x32xf32, #mma>
      %ap2 = tt.addptr %ap, %step : tensor<32x32x!tt.ptr<f16>, #bl>, tensor<32x32xi32, #bl>
      %bp2 = tt.addptr %bp, %step : tensor<32x32x!tt.ptr<f16>, #bl>, tensor<32x32xi32, #bl>
      scf.yield %d, %ap2, %bp2 : tensor<32x32xf32, #mma>, tensor<32x32x!tt.ptr<f16>, #bl>, tensor<32x32x!tt.ptr<f16>, #bl>
    }
    %last = tt.load %res#1 : tensor<32x32x!tt.ptr<f16>, #bl>
    tt.store %res#2, %last : tensor<32x32x!tt.ptr<f16>, #bl>
    tt.return %res#0 : tensor<32x32xf32, #mma>
  }
}

// -----

// The pass does not look at the target, as Triton's does not (make-ttgir runs it on sm80 and sm90 only): a loop
// of an sm75 module is pipelined like any other.
// CHECK-LABEL: tt.func public @sm75
// CHECK: ttg.local_alloc
// CHECK: ttg.async_copy_global_to_local
// CHECK: scf.for
// CHECK: ttg.async_wait
// CHECK: tt.dot
// CHECK-NOT: loop.stage
#bl = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:75", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @sm75(%pa: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %pb: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %n: i32) -> tensor<32x32xf32, #mma> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %zero = arith.constant dense<0.000000e+00> : tensor<32x32xf32, #mma>
    %c32 = arith.constant dense<32> : tensor<32x1xi32, #bl>
    %step = arith.constant dense<1024> : tensor<32x32xi32, #bl>
    %r = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 1, parent = #bl}>>
    %c = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 0, parent = #bl}>>
    %r2 = tt.expand_dims %r {axis = 1 : i32} : tensor<32xi32, #ttg.slice<{dim = 1, parent = #bl}>> -> tensor<32x1xi32, #bl>
    %rs = arith.muli %r2, %c32 : tensor<32x1xi32, #bl>
    %rb = tt.broadcast %rs : tensor<32x1xi32, #bl> -> tensor<32x32xi32, #bl>
    %c2 = tt.expand_dims %c {axis = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 0, parent = #bl}>> -> tensor<1x32xi32, #bl>
    %cb = tt.broadcast %c2 : tensor<1x32xi32, #bl> -> tensor<32x32xi32, #bl>
    %off = arith.addi %rb, %cb : tensor<32x32xi32, #bl>
    %as = tt.splat %pa : !tt.ptr<f16> -> tensor<32x32x!tt.ptr<f16>, #bl>
    %a = tt.addptr %as, %off : tensor<32x32x!tt.ptr<f16>, #bl>, tensor<32x32xi32, #bl>
    %bs = tt.splat %pb : !tt.ptr<f16> -> tensor<32x32x!tt.ptr<f16>, #bl>
    %b = tt.addptr %bs, %off : tensor<32x32x!tt.ptr<f16>, #bl>, tensor<32x32xi32, #bl>
    %res:3 = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %zero, %ap = %a, %bp = %b) -> (tensor<32x32xf32, #mma>, tensor<32x32x!tt.ptr<f16>, #bl>, tensor<32x32x!tt.ptr<f16>, #bl>)  : i32 {
      %x = tt.load %ap : tensor<32x32x!tt.ptr<f16>, #bl>
      %y = tt.load %bp : tensor<32x32x!tt.ptr<f16>, #bl>
      %xd = ttg.convert_layout %x : tensor<32x32xf16, #bl> -> tensor<32x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
      %yd = ttg.convert_layout %y : tensor<32x32xf16, #bl> -> tensor<32x32xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>
      %d = tt.dot %xd, %yd, %acc, inputPrecision = tf32 : tensor<32x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>> * tensor<32x32xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>> -> tensor<32x32xf32, #mma>
      %ap2 = tt.addptr %ap, %step : tensor<32x32x!tt.ptr<f16>, #bl>, tensor<32x32xi32, #bl>
      %bp2 = tt.addptr %bp, %step : tensor<32x32x!tt.ptr<f16>, #bl>, tensor<32x32xi32, #bl>
      scf.yield %d, %ap2, %bp2 : tensor<32x32xf32, #mma>, tensor<32x32x!tt.ptr<f16>, #bl>, tensor<32x32x!tt.ptr<f16>, #bl>
    }
    tt.return %res#0 : tensor<32x32xf32, #mma>
  }
}

// -----

// A mask of the induction variable shared by the pipelined loads (stage 0: computed with them, for iteration
// k + 2, and ANDed with the predicate) and a load that is not pipelined (it only feeds a store, in the last
// stage): that load takes the mask of its own iteration, carried over two iterations in two iteration arguments.
// CHECK-LABEL: tt.func public @shared_mask
// CHECK: %[[M0:.*]] = arith.cmpi sgt, %{{.*}}, %cst_0 : tensor<32x32xi32, #blocked>
// CHECK: %[[M1:.*]] = arith.cmpi sgt, %{{.*}}, %cst : tensor<32x32xi32, #blocked>
// CHECK: scf.for %[[K:[^ ]+]] = {{.*}}, %[[MK:[^ ]+]] = %[[M0]], %[[MK1:[^ ]+]] = %[[M1]]) ->
// CHECK: %[[Z:.*]] = tt.load %arg3, %[[MK]] :
// CHECK-NEXT: tt.store %arg3, %[[Z]]
// CHECK: %[[K2:.*]] = arith.addi %[[K]], %c2_i32 : i32
// CHECK-NEXT: %[[KS:.*]] = tt.splat %[[K2]]
// CHECK-NEXT: %[[NS:.*]] = tt.splat %arg2
// CHECK-NEXT: %[[M:.*]] = arith.cmpi slt, %[[KS]], %[[NS]]
// CHECK: arith.andi %{{.*}}, %[[M]]
// CHECK-NEXT: ttg.async_copy_global_to_local
// CHECK: arith.andi %{{.*}}, %[[M]]
// CHECK-NEXT: ttg.async_copy_global_to_local
// CHECK: scf.yield {{.*}}, %[[MK1]], %[[M]] :
#bl = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @shared_mask(%pa: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %pb: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %n: i32, %cp: tensor<32x32x!tt.ptr<f16>, #bl>) -> tensor<32x32xf32, #mma> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %zero = arith.constant dense<0.000000e+00> : tensor<32x32xf32, #mma>
    %c32 = arith.constant dense<32> : tensor<32x1xi32, #bl>
    %step = arith.constant dense<1024> : tensor<32x32xi32, #bl>
    %r = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 1, parent = #bl}>>
    %c = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 0, parent = #bl}>>
    %r2 = tt.expand_dims %r {axis = 1 : i32} : tensor<32xi32, #ttg.slice<{dim = 1, parent = #bl}>> -> tensor<32x1xi32, #bl>
    %rs = arith.muli %r2, %c32 : tensor<32x1xi32, #bl>
    %rb = tt.broadcast %rs : tensor<32x1xi32, #bl> -> tensor<32x32xi32, #bl>
    %c2 = tt.expand_dims %c {axis = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 0, parent = #bl}>> -> tensor<1x32xi32, #bl>
    %cb = tt.broadcast %c2 : tensor<1x32xi32, #bl> -> tensor<32x32xi32, #bl>
    %off = arith.addi %rb, %cb : tensor<32x32xi32, #bl>
    %as = tt.splat %pa : !tt.ptr<f16> -> tensor<32x32x!tt.ptr<f16>, #bl>
    %a = tt.addptr %as, %off : tensor<32x32x!tt.ptr<f16>, #bl>, tensor<32x32xi32, #bl>
    %bs = tt.splat %pb : !tt.ptr<f16> -> tensor<32x32x!tt.ptr<f16>, #bl>
    %b = tt.addptr %bs, %off : tensor<32x32x!tt.ptr<f16>, #bl>, tensor<32x32xi32, #bl>
    %res:3 = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %zero, %ap = %a, %bp = %b) -> (tensor<32x32xf32, #mma>, tensor<32x32x!tt.ptr<f16>, #bl>, tensor<32x32x!tt.ptr<f16>, #bl>)  : i32 {
      %ks = tt.splat %k : i32 -> tensor<32x32xi32, #bl>
      %ns = tt.splat %n : i32 -> tensor<32x32xi32, #bl>
      %m = arith.cmpi slt, %ks, %ns : tensor<32x32xi32, #bl>
      %x = tt.load %ap, %m : tensor<32x32x!tt.ptr<f16>, #bl>
      %y = tt.load %bp, %m : tensor<32x32x!tt.ptr<f16>, #bl>
      %z = tt.load %cp, %m : tensor<32x32x!tt.ptr<f16>, #bl>
      tt.store %cp, %z : tensor<32x32x!tt.ptr<f16>, #bl>
      %xd = ttg.convert_layout %x : tensor<32x32xf16, #bl> -> tensor<32x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
      %yd = ttg.convert_layout %y : tensor<32x32xf16, #bl> -> tensor<32x32xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>
      %d = tt.dot %xd, %yd, %acc, inputPrecision = tf32 : tensor<32x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>> * tensor<32x32xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>> -> tensor<32x32xf32, #mma>
      %ap2 = tt.addptr %ap, %step : tensor<32x32x!tt.ptr<f16>, #bl>, tensor<32x32xi32, #bl>
      %bp2 = tt.addptr %bp, %step : tensor<32x32x!tt.ptr<f16>, #bl>, tensor<32x32xi32, #bl>
      scf.yield %d, %ap2, %bp2 : tensor<32x32xf32, #mma>, tensor<32x32x!tt.ptr<f16>, #bl>, tensor<32x32x!tt.ptr<f16>, #bl>
    }
    tt.return %res#0 : tensor<32x32xf32, #mma>
  }
}



// -----

// A conversion to a dot operand inside an scf.if (in the dot's stage): the load is pipelined like the others;
// each branch's conversion folds into a local_load of the slot, put at the original local_load as Triton's
// canonicalization does, and the if becomes a select of the two.
// CHECK-LABEL: tt.func public @nested_convert
// CHECK: scf.for %[[K:[^ ]+]] =
// CHECK: %[[W:.*]] = ttg.async_wait
// CHECK-NEXT: %[[AV:.*]] = ttg.memdesc_index
// CHECK-NEXT: %[[X1:.*]] = ttg.local_load %[[AV]] token %[[W]] : {{.*}} -> tensor<32x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
// CHECK-NEXT: %[[X2:.*]] = ttg.local_load %[[AV]] token %[[W]] : {{.*}} -> tensor<32x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
// CHECK: %[[C:.*]] = arith.cmpi sgt, %[[K]], %c0_i32
// CHECK-NEXT: %[[X:.*]] = arith.select %[[C]], %[[X1]], %[[X2]]
// CHECK-NEXT: tt.dot %[[X]],
#bl = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @nested_convert(%pa: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %pb: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %n: i32) -> tensor<32x32xf32, #mma> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %zero = arith.constant dense<0.000000e+00> : tensor<32x32xf32, #mma>
    %c32 = arith.constant dense<32> : tensor<32x1xi32, #bl>
    %step = arith.constant dense<1024> : tensor<32x32xi32, #bl>
    %r = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 1, parent = #bl}>>
    %c = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 0, parent = #bl}>>
    %r2 = tt.expand_dims %r {axis = 1 : i32} : tensor<32xi32, #ttg.slice<{dim = 1, parent = #bl}>> -> tensor<32x1xi32, #bl>
    %rs = arith.muli %r2, %c32 : tensor<32x1xi32, #bl>
    %rb = tt.broadcast %rs : tensor<32x1xi32, #bl> -> tensor<32x32xi32, #bl>
    %c2 = tt.expand_dims %c {axis = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 0, parent = #bl}>> -> tensor<1x32xi32, #bl>
    %cb = tt.broadcast %c2 : tensor<1x32xi32, #bl> -> tensor<32x32xi32, #bl>
    %off = arith.addi %rb, %cb : tensor<32x32xi32, #bl>
    %as = tt.splat %pa : !tt.ptr<f16> -> tensor<32x32x!tt.ptr<f16>, #bl>
    %a = tt.addptr %as, %off : tensor<32x32x!tt.ptr<f16>, #bl>, tensor<32x32xi32, #bl>
    %bs = tt.splat %pb : !tt.ptr<f16> -> tensor<32x32x!tt.ptr<f16>, #bl>
    %b = tt.addptr %bs, %off : tensor<32x32x!tt.ptr<f16>, #bl>, tensor<32x32xi32, #bl>
    %res:3 = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %zero, %ap = %a, %bp = %b) -> (tensor<32x32xf32, #mma>, tensor<32x32x!tt.ptr<f16>, #bl>, tensor<32x32x!tt.ptr<f16>, #bl>)  : i32 {
      %x = tt.load %ap : tensor<32x32x!tt.ptr<f16>, #bl>
      %y = tt.load %bp : tensor<32x32x!tt.ptr<f16>, #bl>
      %cond = arith.cmpi sgt, %k, %c0 : i32
      %xd = scf.if %cond -> (tensor<32x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>) {
        %t = ttg.convert_layout %x : tensor<32x32xf16, #bl> -> tensor<32x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
        scf.yield %t : tensor<32x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
      } else {
        %t = ttg.convert_layout %x : tensor<32x32xf16, #bl> -> tensor<32x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
        scf.yield %t : tensor<32x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
      }
      %yd = ttg.convert_layout %y : tensor<32x32xf16, #bl> -> tensor<32x32xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>
      %d = tt.dot %xd, %yd, %acc, inputPrecision = tf32 : tensor<32x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>> * tensor<32x32xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>> -> tensor<32x32xf32, #mma>
      %ap2 = tt.addptr %ap, %step : tensor<32x32x!tt.ptr<f16>, #bl>, tensor<32x32xi32, #bl>
      %bp2 = tt.addptr %bp, %step : tensor<32x32x!tt.ptr<f16>, #bl>, tensor<32x32xi32, #bl>
      scf.yield %d, %ap2, %bp2 : tensor<32x32xf32, #mma>, tensor<32x32x!tt.ptr<f16>, #bl>, tensor<32x32x!tt.ptr<f16>, #bl>
    }
    tt.return %res#0 : tensor<32x32xf32, #mma>
  }
}

// -----

// sm90: a wgmma whose shared operands come from a multi-buffer and whose result only feeds the next iteration
// stays in flight: isAsync, one `warp_group_dot_wait {pendings = 1}` after it (threading the result and the
// operands it reads), the yield takes the waited result, and a `pendings = 0` wait follows the loop.
// CHECK-LABEL: tt.func public @wgmma_in_flight
// CHECK: %[[R:.*]] = scf.for {{.*}} iter_args(%[[ACC:.*]] = %arg0)
// CHECK: %[[A:.*]] = ttg.memdesc_index
// CHECK: %[[D:.*]] = ttng.warp_group_dot %[[A]], %[[A]], %[[ACC]] {isAsync = true}
// CHECK-NEXT: %[[W:.*]]:2 = ttng.warp_group_dot_wait %[[D]], %[[A]] {pendings = 1 : i32}
// CHECK-NEXT: scf.yield %[[W]]#0
// CHECK: %[[F:.*]] = ttng.warp_group_dot_wait %[[R]] {pendings = 0 : i32}
// CHECK-NEXT: tt.return %[[F]]
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#s = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @wgmma_in_flight(%c: tensor<64x64xf32, #mma>, %n: i32, %buf: !ttg.memdesc<3x64x64xf16, #s, #smem, mutable>) -> tensor<64x64xf32, #mma> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %c) -> (tensor<64x64xf32, #mma>) : i32 {
      %a = ttg.memdesc_index %buf[%i] : !ttg.memdesc<3x64x64xf16, #s, #smem, mutable> -> !ttg.memdesc<64x64xf16, #s, #smem, mutable>
      %d = ttng.warp_group_dot %a, %a, %acc : !ttg.memdesc<64x64xf16, #s, #smem, mutable> * !ttg.memdesc<64x64xf16, #s, #smem, mutable> -> tensor<64x64xf32, #mma>
      scf.yield %d : tensor<64x64xf32, #mma>
    }
    tt.return %r : tensor<64x64xf32, #mma>
  }
}

// -----

// sm90, num-stages 1 (or loads that are not pipelined): operands stored from registers in the loop cannot stay
// in flight, so each wgmma is async with a `pendings = 0` wait right after it (Triton's matmul_64x64x32_s1).
// S1-LABEL: tt.func public @wgmma_wait_now
// S1: %[[D:.*]] = ttng.warp_group_dot %[[A:.*]], %[[A]], %{{.*}} {isAsync = true}
// S1-NEXT: %[[W:.*]]:2 = ttng.warp_group_dot_wait %[[D]], %[[A]] {pendings = 0 : i32}
// S1-NEXT: scf.yield %[[W]]#0
// S1-NOT: ttng.warp_group_dot_wait
// S1: tt.return
// S1-NOT: {{tt.latency|loop.stage|tt.scheduled_max_stage|ttg.async_copy_global_to_local|ttg.local_alloc :}}
#bl = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#s = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @wgmma_wait_now(%c: tensor<64x64xf32, #mma>, %n: i32, %x: tensor<64x64xf16, #bl>) -> tensor<64x64xf32, #mma> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %c) -> (tensor<64x64xf32, #mma>) : i32 {
      %a = ttg.local_alloc %x : (tensor<64x64xf16, #bl>) -> !ttg.memdesc<64x64xf16, #s, #smem>
      %d = ttng.warp_group_dot %a, %a, %acc : !ttg.memdesc<64x64xf16, #s, #smem> * !ttg.memdesc<64x64xf16, #s, #smem> -> tensor<64x64xf32, #mma>
      scf.yield %d : tensor<64x64xf32, #mma>
    }
    tt.return %r : tensor<64x64xf32, #mma>
  }
}

// -----

// sm90, attention's two chained wgmmas: the first one's result is used in the loop (wait 0 right after it), the
// second (A in registers) stays in flight and no other wait is added in the loop (the wait 0 retires it too).
// Its accumulator, read by nothing but the dot, is not threaded through that wait (attention_bwd's dK/dV, as
// Triton); rescaled before the dot (@wgmma_chain_rescaled, attention's forward), it is, and the rescale reads the
// wait's result.
// CHECK-LABEL: tt.func public @wgmma_chain
// CHECK: scf.for {{.*}} iter_args(%[[ACC:.*]] = %arg0)
// CHECK: %[[S:.*]] = ttng.warp_group_dot {{.*}} {isAsync = true}
// CHECK-NEXT: %[[W:.*]]:2 = ttng.warp_group_dot_wait %[[S]], %arg2 {pendings = 0 : i32}
// CHECK-NEXT: %[[P:.*]] = arith.truncf %[[W]]#0
// CHECK: %[[O:.*]] = ttng.warp_group_dot {{.*}}, %[[ACC]] {isAsync = true}
// CHECK-NEXT: scf.yield %[[O]]
// CHECK: ttng.warp_group_dot_wait %{{.*}} {pendings = 0 : i32}
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#s = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @wgmma_chain(%c: tensor<64x64xf32, #mma>, %n: i32, %q: !ttg.memdesc<64x64xf16, #s, #smem>) -> tensor<64x64xf32, #mma> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %c) -> (tensor<64x64xf32, #mma>) : i32 {
      %s = ttng.warp_group_dot %q, %q, %c : !ttg.memdesc<64x64xf16, #s, #smem> * !ttg.memdesc<64x64xf16, #s, #smem> -> tensor<64x64xf32, #mma>
      %p = arith.truncf %s : tensor<64x64xf32, #mma> to tensor<64x64xf16, #mma>
      %pa = ttg.convert_layout %p : tensor<64x64xf16, #mma> -> tensor<64x64xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
      %o = ttng.warp_group_dot %pa, %q, %acc : tensor<64x64xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>> * !ttg.memdesc<64x64xf16, #s, #smem> -> tensor<64x64xf32, #mma>
      scf.yield %o : tensor<64x64xf32, #mma>
    }
    tt.return %r : tensor<64x64xf32, #mma>
  }
}

// -----

// CHECK-LABEL: tt.func public @wgmma_chain_rescaled
// CHECK: scf.for {{.*}} iter_args(%[[ACC:.*]] = %arg0)
// CHECK: %[[S:.*]] = ttng.warp_group_dot {{.*}} {isAsync = true}
// CHECK-NEXT: %[[W:.*]]:3 = ttng.warp_group_dot_wait %[[S]], %arg2, %[[ACC]] {pendings = 0 : i32}
// CHECK: arith.mulf %[[W]]#2
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#s = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @wgmma_chain_rescaled(%c: tensor<64x64xf32, #mma>, %n: i32, %q: !ttg.memdesc<64x64xf16, #s, #smem>) -> tensor<64x64xf32, #mma> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %half = arith.constant dense<5.000000e-01> : tensor<64x64xf32, #mma>
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %c) -> (tensor<64x64xf32, #mma>) : i32 {
      %s = ttng.warp_group_dot %q, %q, %c : !ttg.memdesc<64x64xf16, #s, #smem> * !ttg.memdesc<64x64xf16, #s, #smem> -> tensor<64x64xf32, #mma>
      %p = arith.truncf %s : tensor<64x64xf32, #mma> to tensor<64x64xf16, #mma>
      %pa = ttg.convert_layout %p : tensor<64x64xf16, #mma> -> tensor<64x64xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
      %scaled = arith.mulf %acc, %half : tensor<64x64xf32, #mma>
      %o = ttng.warp_group_dot %pa, %q, %scaled : tensor<64x64xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>> * !ttg.memdesc<64x64xf16, #s, #smem> -> tensor<64x64xf32, #mma>
      scf.yield %o : tensor<64x64xf32, #mma>
    }
    tt.return %r : tensor<64x64xf32, #mma>
  }
}

// -----

// sm90: loads stored for wgmma (`ttg.local_alloc` into #ttg.nvmma_shared) get num-stages = 3 slots of that layout
// (one more than the copies run ahead: the wgmma of the previous iteration may still read one); the dot reads
// the extracted slot directly, B through a memdesc_trans that becomes mutable too, and stays in flight
// (`pendings = 1`); the copies for iteration k + 2 go to the insert slot, (idx + 1) mod 3.
// CHECK-LABEL: tt.func public @wgmma_loads
// CHECK: %[[BA:.*]] = ttg.local_alloc : () -> !ttg.memdesc<3x64x64xf16, #shared, #smem, mutable>
// CHECK-NEXT: %[[BB:.*]] = ttg.local_alloc : () -> !ttg.memdesc<3x64x64xf16, #shared, #smem, mutable>
// CHECK-COUNT-4: ttg.async_copy_global_to_local
// CHECK: scf.for {{.*}} iter_args(%[[ACC:[^ ]+]] = %cst{{[^ ]*}}, {{.*}}, %[[INS:[^ ]+]] = %c1_i32, %[[EXT:[^ ]+]] = %c-1_i32, %[[TA:[^ ]+]] = %{{[0-9]+}}, %{{[^ ]+}} = %{{[0-9]+}}, %[[TB:[^ ]+]] = %{{[0-9]+}}, %{{[^ ]+}} = %{{[0-9]+}})
// CHECK-NEXT: arith.subi %arg2, %c2_i32
// CHECK-NEXT: arith.cmpi slt
// CHECK-NEXT: %[[E1:.*]] = arith.addi %[[EXT]], %c1_i32
// CHECK-NEXT: %[[EW:.*]] = arith.cmpi sge, %[[E1]], %c3_i32
// CHECK-NEXT: %[[E:.*]] = arith.select %[[EW]], %c0_i32, %[[E1]]
// CHECK-NEXT: ttg.async_wait %[[TA]], %[[TB]] {num = 2 : i32}
// CHECK-NEXT: %[[VA:.*]] = ttg.memdesc_index %[[BA]][%[[E]]]
// CHECK-NEXT: %[[VB:.*]] = ttg.memdesc_index %[[BB]][%[[E]]]
// CHECK-NEXT: %[[T:.*]] = ttg.memdesc_trans %[[VB]] {order = array<i32: 1, 0>} : !ttg.memdesc<64x64xf16, #shared, #smem, mutable> -> !ttg.memdesc<64x64xf16, #shared1, #smem, mutable>
// CHECK-NEXT: %[[D:.*]] = ttng.warp_group_dot %[[VA]], %[[T]], %[[ACC]] {isAsync = true}
// CHECK-NEXT: %[[DW:.*]]:3 = ttng.warp_group_dot_wait %[[D]], %[[VA]], %[[T]] {pendings = 1 : i32}
// CHECK: %[[I1:.*]] = arith.addi %[[INS]], %c1_i32
// CHECK-NEXT: %[[IW:.*]] = arith.cmpi sge, %[[I1]], %c3_i32
// CHECK-NEXT: %[[I:.*]] = arith.select %[[IW]], %c0_i32, %[[I1]]
// CHECK-NEXT: ttg.memdesc_index %[[BA]][%[[I]]]
// CHECK: ttg.memdesc_index %[[BB]][%[[I]]]
// CHECK: scf.yield %[[DW]]#0,
// CHECK-NEXT: }
// CHECK-NEXT: ttng.warp_group_dot_wait %{{.*}} {pendings = 0 : i32}
// CHECK-NEXT: ttg.async_wait {num = 0 : i32}
// CHECK-NEXT: ttg.local_dealloc %[[BB]]
// CHECK-NEXT: ttg.local_dealloc %[[BA]]
#bl = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#s = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#st = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @wgmma_loads(%pa: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %pb: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %n: i32) -> tensor<64x64xf32, #mma> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %acc0 = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #mma>
    %step = arith.constant dense<64> : tensor<64x64xi32, #bl>
    %r0 = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #bl}>>
    %c0e = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #bl}>>
    %rows = tt.expand_dims %r0 {axis = 1 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #bl}>> -> tensor<64x1xi32, #bl>
    %c64 = arith.constant dense<64> : tensor<64x1xi32, #bl>
    %rs = arith.muli %rows, %c64 : tensor<64x1xi32, #bl>
    %cols = tt.expand_dims %c0e {axis = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #bl}>> -> tensor<1x64xi32, #bl>
    %rb = tt.broadcast %rs : tensor<64x1xi32, #bl> -> tensor<64x64xi32, #bl>
    %cb = tt.broadcast %cols : tensor<1x64xi32, #bl> -> tensor<64x64xi32, #bl>
    %off = arith.addi %rb, %cb : tensor<64x64xi32, #bl>
    %sa = tt.splat %pa : !tt.ptr<f16> -> tensor<64x64x!tt.ptr<f16>, #bl>
    %sb = tt.splat %pb : !tt.ptr<f16> -> tensor<64x64x!tt.ptr<f16>, #bl>
    %a0 = tt.addptr %sa, %off : tensor<64x64x!tt.ptr<f16>, #bl>, tensor<64x64xi32, #bl>
    %b0 = tt.addptr %sb, %off : tensor<64x64x!tt.ptr<f16>, #bl>, tensor<64x64xi32, #bl>
    %res:3 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %acc0, %ap = %a0, %bp = %b0) -> (tensor<64x64xf32, #mma>, tensor<64x64x!tt.ptr<f16>, #bl>, tensor<64x64x!tt.ptr<f16>, #bl>) : i32 {
      %x = tt.load %ap : tensor<64x64x!tt.ptr<f16>, #bl>
      %y = tt.load %bp : tensor<64x64x!tt.ptr<f16>, #bl>
      %xs = ttg.local_alloc %x : (tensor<64x64xf16, #bl>) -> !ttg.memdesc<64x64xf16, #s, #smem>
      %ys = ttg.local_alloc %y : (tensor<64x64xf16, #bl>) -> !ttg.memdesc<64x64xf16, #s, #smem>
      %yt = ttg.memdesc_trans %ys {order = array<i32: 1, 0>} : !ttg.memdesc<64x64xf16, #s, #smem> -> !ttg.memdesc<64x64xf16, #st, #smem>
      %d = ttng.warp_group_dot %xs, %yt, %acc : !ttg.memdesc<64x64xf16, #s, #smem> * !ttg.memdesc<64x64xf16, #st, #smem> -> tensor<64x64xf32, #mma>
      %ap2 = tt.addptr %ap, %step : tensor<64x64x!tt.ptr<f16>, #bl>, tensor<64x64xi32, #bl>
      %bp2 = tt.addptr %bp, %step : tensor<64x64x!tt.ptr<f16>, #bl>, tensor<64x64xi32, #bl>
      scf.yield %d, %ap2, %bp2 : tensor<64x64xf32, #mma>, tensor<64x64x!tt.ptr<f16>, #bl>, tensor<64x64x!tt.ptr<f16>, #bl>
    }
    tt.return %res#0 : tensor<64x64xf32, #mma>
  }
}

// -----

// A trip count known to exceed the stages (0 to 8): the prologue's predicates fold to true, so its copies take an
// all-true mask (Triton 3.6's text), and the kernel loop's predicate folds to k < 8 - 2.
// CHECK-LABEL: tt.func public @const_bounds
// CHECK: %[[T:.*]] = arith.constant dense<true> : tensor<32x32xi1
// CHECK-NOT: arith.cmpi
// CHECK-COUNT-4: ttg.async_copy_global_to_local %{{[^ ]+}}, %{{[^ ]+}} mask %[[T]] {contiguity = 8 : i32}
// CHECK: scf.for %[[K:[^ ]+]] = %c0_i32 to %c8_i32 step %c1_i32
// CHECK-NEXT: %[[V:.*]] = arith.cmpi slt, %[[K]], %c6_i32 : i32
// CHECK: tt.splat %[[V]]
// CHECK-NEXT: ttg.async_copy_global_to_local
#bl = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @const_bounds(%pa: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %pb: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %n: i32) -> tensor<32x32xf32, #mma> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c8 = arith.constant 8 : i32
    %zero = arith.constant dense<0.000000e+00> : tensor<32x32xf32, #mma>
    %c32 = arith.constant dense<32> : tensor<32x1xi32, #bl>
    %step = arith.constant dense<1024> : tensor<32x32xi32, #bl>
    %r = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 1, parent = #bl}>>
    %c = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 0, parent = #bl}>>
    %r2 = tt.expand_dims %r {axis = 1 : i32} : tensor<32xi32, #ttg.slice<{dim = 1, parent = #bl}>> -> tensor<32x1xi32, #bl>
    %rs = arith.muli %r2, %c32 : tensor<32x1xi32, #bl>
    %rb = tt.broadcast %rs : tensor<32x1xi32, #bl> -> tensor<32x32xi32, #bl>
    %c2 = tt.expand_dims %c {axis = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 0, parent = #bl}>> -> tensor<1x32xi32, #bl>
    %cb = tt.broadcast %c2 : tensor<1x32xi32, #bl> -> tensor<32x32xi32, #bl>
    %off = arith.addi %rb, %cb : tensor<32x32xi32, #bl>
    %as = tt.splat %pa : !tt.ptr<f16> -> tensor<32x32x!tt.ptr<f16>, #bl>
    %a = tt.addptr %as, %off : tensor<32x32x!tt.ptr<f16>, #bl>, tensor<32x32xi32, #bl>
    %bs = tt.splat %pb : !tt.ptr<f16> -> tensor<32x32x!tt.ptr<f16>, #bl>
    %b = tt.addptr %bs, %off : tensor<32x32x!tt.ptr<f16>, #bl>, tensor<32x32xi32, #bl>
    %res:3 = scf.for %k = %c0 to %c8 step %c1 iter_args(%acc = %zero, %ap = %a, %bp = %b) -> (tensor<32x32xf32, #mma>, tensor<32x32x!tt.ptr<f16>, #bl>, tensor<32x32x!tt.ptr<f16>, #bl>)  : i32 {
      %x = tt.load %ap : tensor<32x32x!tt.ptr<f16>, #bl>
      %y = tt.load %bp : tensor<32x32x!tt.ptr<f16>, #bl>
      %xd = ttg.convert_layout %x : tensor<32x32xf16, #bl> -> tensor<32x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
      %yd = ttg.convert_layout %y : tensor<32x32xf16, #bl> -> tensor<32x32xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>
      %d = tt.dot %xd, %yd, %acc, inputPrecision = tf32 : tensor<32x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>> * tensor<32x32xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>> -> tensor<32x32xf32, #mma>
      %ap2 = tt.addptr %ap, %step : tensor<32x32x!tt.ptr<f16>, #bl>, tensor<32x32xi32, #bl>
      %bp2 = tt.addptr %bp, %step : tensor<32x32x!tt.ptr<f16>, #bl>, tensor<32x32xi32, #bl>
      scf.yield %d, %ap2, %bp2 : tensor<32x32xf32, #mma>, tensor<32x32x!tt.ptr<f16>, #bl>, tensor<32x32x!tt.ptr<f16>, #bl>
    }
    tt.return %res#0 : tensor<32x32xf32, #mma>
  }
}

// -----

// Bounds 3 to n step 2: prologue iterations 0 and 1 are k = 3 and 5 (predicated on n > 3 and n > 5), and the
// kernel loop's copies run for k + 2 * 2 (predicated on k < n - 4).
// CHECK-LABEL: tt.func public @strided
// CHECK: arith.cmpi sgt, %arg2, %c3_i32 : i32
// CHECK: arith.cmpi sgt, %arg2, %c5_i32 : i32
// CHECK: scf.for %[[K:[^ ]+]] = %c3_i32 to %arg2 step %c2_i32
// CHECK-NEXT: %[[L:.*]] = arith.subi %arg2, %c4_i32 : i32
// CHECK-NEXT: arith.cmpi slt, %[[K]], %[[L]] : i32
#bl = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @strided(%pa: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %pb: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %n: i32) -> tensor<32x32xf32, #mma> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c2i = arith.constant 2 : i32
    %c3i = arith.constant 3 : i32
    %zero = arith.constant dense<0.000000e+00> : tensor<32x32xf32, #mma>
    %c32 = arith.constant dense<32> : tensor<32x1xi32, #bl>
    %step = arith.constant dense<1024> : tensor<32x32xi32, #bl>
    %r = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 1, parent = #bl}>>
    %c = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 0, parent = #bl}>>
    %r2 = tt.expand_dims %r {axis = 1 : i32} : tensor<32xi32, #ttg.slice<{dim = 1, parent = #bl}>> -> tensor<32x1xi32, #bl>
    %rs = arith.muli %r2, %c32 : tensor<32x1xi32, #bl>
    %rb = tt.broadcast %rs : tensor<32x1xi32, #bl> -> tensor<32x32xi32, #bl>
    %c2 = tt.expand_dims %c {axis = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 0, parent = #bl}>> -> tensor<1x32xi32, #bl>
    %cb = tt.broadcast %c2 : tensor<1x32xi32, #bl> -> tensor<32x32xi32, #bl>
    %off = arith.addi %rb, %cb : tensor<32x32xi32, #bl>
    %as = tt.splat %pa : !tt.ptr<f16> -> tensor<32x32x!tt.ptr<f16>, #bl>
    %a = tt.addptr %as, %off : tensor<32x32x!tt.ptr<f16>, #bl>, tensor<32x32xi32, #bl>
    %bs = tt.splat %pb : !tt.ptr<f16> -> tensor<32x32x!tt.ptr<f16>, #bl>
    %b = tt.addptr %bs, %off : tensor<32x32x!tt.ptr<f16>, #bl>, tensor<32x32xi32, #bl>
    %res:3 = scf.for %k = %c3i to %n step %c2i iter_args(%acc = %zero, %ap = %a, %bp = %b) -> (tensor<32x32xf32, #mma>, tensor<32x32x!tt.ptr<f16>, #bl>, tensor<32x32x!tt.ptr<f16>, #bl>)  : i32 {
      %x = tt.load %ap : tensor<32x32x!tt.ptr<f16>, #bl>
      %y = tt.load %bp : tensor<32x32x!tt.ptr<f16>, #bl>
      %xd = ttg.convert_layout %x : tensor<32x32xf16, #bl> -> tensor<32x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
      %yd = ttg.convert_layout %y : tensor<32x32xf16, #bl> -> tensor<32x32xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>
      %d = tt.dot %xd, %yd, %acc, inputPrecision = tf32 : tensor<32x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>> * tensor<32x32xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>> -> tensor<32x32xf32, #mma>
      %ap2 = tt.addptr %ap, %step : tensor<32x32x!tt.ptr<f16>, #bl>, tensor<32x32xi32, #bl>
      %bp2 = tt.addptr %bp, %step : tensor<32x32x!tt.ptr<f16>, #bl>, tensor<32x32xi32, #bl>
      scf.yield %d, %ap2, %bp2 : tensor<32x32xf32, #mma>, tensor<32x32x!tt.ptr<f16>, #bl>, tensor<32x32x!tt.ptr<f16>, #bl>
    }
    tt.return %res#0 : tensor<32x32xf32, #mma>
  }
}

// -----

// An indirect load in a loop of 5 stages (its own tt.num_stages): latency 2 each, so the index load is at stage 0,
// the loads it feeds at stage 2, the dot at stage 4, and the prologue reads indices itself: part 2 waits for
// iteration 0's indices (leaving iteration 1's group in flight), then commits the copies of A, B and the next
// indices; part 3 has its own wait for iteration 1's indices. A wait is merged only with the waits before the
// next commit group (Triton's combineRedundantWaitOps): hoisted above the commits, part 3's wait would leave
// iteration 1's indices in flight while they are read.
// CHECK-LABEL: tt.func public @indirect_5_stages
// S1-LABEL: tt.func public @indirect_5_stages
// S1: ttg.async_wait %{{[^ ]+}} {num = 3 : i32}
// CHECK: %[[I0:.*]] = ttg.async_commit_group
// CHECK: %[[I1:.*]] = ttg.async_commit_group
// CHECK: %[[W0:.*]] = ttg.async_wait %[[I0]] {num = 1 : i32}
// CHECK-NEXT: %[[V0:.*]] = ttg.memdesc_index
// CHECK-NEXT: ttg.local_load %[[V0]] token %[[W0]] : {{.*}} -> tensor<32x1xi32, #blocked>
// CHECK-COUNT-3: ttg.async_commit_group
// CHECK: %[[W1:.*]] = ttg.async_wait %[[I1]] {num = 3 : i32}
// CHECK-NEXT: %[[V1:.*]] = ttg.memdesc_index
// CHECK-NEXT: ttg.local_load %[[V1]] token %[[W1]] : {{.*}} -> tensor<32x1xi32, #blocked>
// CHECK-COUNT-3: ttg.async_commit_group
// CHECK-NEXT: scf.for
// CHECK: %[[W:.*]] = ttg.async_wait %{{[^ ]+}}, %{{[^ ]+}}, %{{[^ ]+}} {num = 3 : i32}
// CHECK: ttg.local_load %{{.*}} token %[[W]] : {{.*}} -> tensor<32x1xi32, #blocked>
// CHECK: } {tt.num_stages = 5 : i32}
#bl = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
#a = #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>
#b = #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @indirect_5_stages(%pa: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %pb: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %pi: !tt.ptr<i32> {tt.divisibility = 16 : i32}, %n: i32) -> tensor<32x32xf32, #mma> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %zero = arith.constant dense<0.000000e+00> : tensor<32x32xf32, #mma>
    %c32 = arith.constant dense<32> : tensor<32x1xi32, #bl>
    %step = arith.constant dense<32> : tensor<32x32xi32, #bl>
    %r = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 1, parent = #bl}>>
    %c = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 0, parent = #bl}>>
    %r2 = tt.expand_dims %r {axis = 1 : i32} : tensor<32xi32, #ttg.slice<{dim = 1, parent = #bl}>> -> tensor<32x1xi32, #bl>
    %rs = arith.muli %r2, %c32 : tensor<32x1xi32, #bl>
    %rb = tt.broadcast %rs : tensor<32x1xi32, #bl> -> tensor<32x32xi32, #bl>
    %c2 = tt.expand_dims %c {axis = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 0, parent = #bl}>> -> tensor<1x32xi32, #bl>
    %cb = tt.broadcast %c2 : tensor<1x32xi32, #bl> -> tensor<32x32xi32, #bl>
    %off = arith.addi %rb, %cb : tensor<32x32xi32, #bl>
    %is = tt.splat %pi : !tt.ptr<i32> -> tensor<32x1x!tt.ptr<i32>, #bl>
    %i0 = tt.addptr %is, %r2 : tensor<32x1x!tt.ptr<i32>, #bl>, tensor<32x1xi32, #bl>
    %as = tt.splat %pa : !tt.ptr<f16> -> tensor<32x32x!tt.ptr<f16>, #bl>
    %bs = tt.splat %pb : !tt.ptr<f16> -> tensor<32x32x!tt.ptr<f16>, #bl>
    %b0 = tt.addptr %bs, %off : tensor<32x32x!tt.ptr<f16>, #bl>, tensor<32x32xi32, #bl>
    %res:3 = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %zero, %ip = %i0, %bp = %b0) -> (tensor<32x32xf32, #mma>, tensor<32x1x!tt.ptr<i32>, #bl>, tensor<32x32x!tt.ptr<f16>, #bl>) : i32 {
      %idx = tt.load %ip : tensor<32x1x!tt.ptr<i32>, #bl>
      %ro = arith.muli %idx, %c32 : tensor<32x1xi32, #bl>
      %rob = tt.broadcast %ro : tensor<32x1xi32, #bl> -> tensor<32x32xi32, #bl>
      %aoff = arith.addi %rob, %cb : tensor<32x32xi32, #bl>
      %ptrs = tt.addptr %as, %aoff : tensor<32x32x!tt.ptr<f16>, #bl>, tensor<32x32xi32, #bl>
      %x = tt.load %ptrs : tensor<32x32x!tt.ptr<f16>, #bl>
      %y = tt.load %bp : tensor<32x32x!tt.ptr<f16>, #bl>
      %xd = ttg.convert_layout %x : tensor<32x32xf16, #bl> -> tensor<32x32xf16, #a>
      %yd = ttg.convert_layout %y : tensor<32x32xf16, #bl> -> tensor<32x32xf16, #b>
      %d = tt.dot %xd, %yd, %acc : tensor<32x32xf16, #a> * tensor<32x32xf16, #b> -> tensor<32x32xf32, #mma>
      %ip2 = tt.addptr %ip, %c32 : tensor<32x1x!tt.ptr<i32>, #bl>, tensor<32x1xi32, #bl>
      %bp2 = tt.addptr %bp, %step : tensor<32x32x!tt.ptr<f16>, #bl>, tensor<32x32xi32, #bl>
      scf.yield %d, %ip2, %bp2 : tensor<32x32xf32, #mma>, tensor<32x1x!tt.ptr<i32>, #bl>, tensor<32x32x!tt.ptr<f16>, #bl>
    } {tt.num_stages = 5 : i32}
    tt.return %res#0 : tensor<32x32xf32, #mma>
  }
}

// -----

// A masked load whose `other` is not zero (1.0): cp.async only zero-fills, so the slot's value goes through a
// select on the mask of its own iteration (carried over two iterations) with `other`, as Triton does; the
// conversion to the dot operand stays on the select.
// CHECK-LABEL: tt.func public @other_one
// CHECK: %[[ONE:.*]] = arith.constant dense<1.000000e+00> : tensor<32x32xf16, #blocked>
// CHECK: scf.for {{.*}}, %[[M:[^ ]+]] = %{{[0-9]+}}, %[[M1:[^ ]+]] = %{{[0-9]+}}, %{{[^ ]+}} = %{{[0-9]+}}, %{{[^ ]+}} = %{{[0-9]+}}) ->
// CHECK: %[[W:.*]] = ttg.async_wait
// CHECK-NEXT: %[[V:.*]] = ttg.memdesc_index
// CHECK-NEXT: %[[L:.*]] = ttg.local_load %[[V]] token %[[W]] : {{.*}} -> tensor<32x32xf16, #blocked>
// CHECK-NEXT: %[[S:.*]] = arith.select %[[M]], %[[L]], %[[ONE]] : tensor<32x32xi1, #blocked>, tensor<32x32xf16, #blocked>
// CHECK: ttg.convert_layout %[[S]]
// CHECK: %[[MK:.*]] = tt.broadcast
// CHECK: ttg.async_copy_global_to_local {{.*}} other %[[ONE]]
// CHECK: scf.yield {{.*}}, %[[M1]], %[[MK]], %{{[^ ]+}}, %{{[^ ]+}} :
#bl = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
#a = #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>
#b = #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @other_one(%pa: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %pb: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %n: i32, %K: i32 {tt.divisibility = 16 : i32}) -> tensor<32x32xf32, #mma> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c32i = arith.constant 32 : i32
    %zero = arith.constant dense<0.000000e+00> : tensor<32x32xf32, #mma>
    %zf = arith.constant dense<1.000000e+00> : tensor<32x32xf16, #bl>
    %c32 = arith.constant dense<32> : tensor<32x1xi32, #bl>
    %step = arith.constant dense<32> : tensor<32x32xi32, #bl>
    %r = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 1, parent = #bl}>>
    %c = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 0, parent = #bl}>>
    %r2 = tt.expand_dims %r {axis = 1 : i32} : tensor<32xi32, #ttg.slice<{dim = 1, parent = #bl}>> -> tensor<32x1xi32, #bl>
    %rs = arith.muli %r2, %c32 : tensor<32x1xi32, #bl>
    %rb = tt.broadcast %rs : tensor<32x1xi32, #bl> -> tensor<32x32xi32, #bl>
    %c2 = tt.expand_dims %c {axis = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 0, parent = #bl}>> -> tensor<1x32xi32, #bl>
    %cb = tt.broadcast %c2 : tensor<1x32xi32, #bl> -> tensor<32x32xi32, #bl>
    %off = arith.addi %rb, %cb : tensor<32x32xi32, #bl>
    %as = tt.splat %pa : !tt.ptr<f16> -> tensor<32x32x!tt.ptr<f16>, #bl>
    %a0 = tt.addptr %as, %off : tensor<32x32x!tt.ptr<f16>, #bl>, tensor<32x32xi32, #bl>
    %bs = tt.splat %pb : !tt.ptr<f16> -> tensor<32x32x!tt.ptr<f16>, #bl>
    %b0 = tt.addptr %bs, %off : tensor<32x32x!tt.ptr<f16>, #bl>, tensor<32x32xi32, #bl>
    %res:4 = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %zero, %ap = %a0, %bp = %b0, %cnt = %c0) -> (tensor<32x32xf32, #mma>, tensor<32x32x!tt.ptr<f16>, #bl>, tensor<32x32x!tt.ptr<f16>, #bl>, i32) : i32 {
      %kk = arith.muli %k, %c32i : i32
      %rem = arith.subi %K, %kk : i32
      %rems = tt.splat %rem : i32 -> tensor<1x32xi32, #bl>
      %m = arith.cmpi slt, %c2, %rems : tensor<1x32xi32, #bl>
      %mb = tt.broadcast %m : tensor<1x32xi1, #bl> -> tensor<32x32xi1, #bl>
      %x = tt.load %ap, %mb, %zf : tensor<32x32x!tt.ptr<f16>, #bl>
      %y = tt.load %bp : tensor<32x32x!tt.ptr<f16>, #bl>
      %xd = ttg.convert_layout %x : tensor<32x32xf16, #bl> -> tensor<32x32xf16, #a>
      %yd = ttg.convert_layout %y : tensor<32x32xf16, #bl> -> tensor<32x32xf16, #b>
      %d = tt.dot %xd, %yd, %acc : tensor<32x32xf16, #a> * tensor<32x32xf16, #b> -> tensor<32x32xf32, #mma>
      %ap2 = tt.addptr %ap, %step : tensor<32x32x!tt.ptr<f16>, #bl>, tensor<32x32xi32, #bl>
      %bp2 = tt.addptr %bp, %step : tensor<32x32x!tt.ptr<f16>, #bl>, tensor<32x32xi32, #bl>
      %cnt2 = arith.addi %cnt, %c1 : i32
      scf.yield %d, %ap2, %bp2, %cnt2 : tensor<32x32xf32, #mma>, tensor<32x32x!tt.ptr<f16>, #bl>, tensor<32x32x!tt.ptr<f16>, #bl>, i32
    }
    tt.return %res#0 : tensor<32x32xf32, #mma>
  }
}

// -----

// An op that cannot be predicated (inline asm with side effects) in an early stage (it computes A's offset): the
// loop is not expanded; its loads stay lowered, each copy waited for in its own iteration (`num = 0`), the
// insert and extract indices both from -1, so each iteration reads the slot it just filled.
// CHECK-LABEL: tt.func public @impure_asm
// CHECK-NOT: ttg.async_copy_global_to_local
// CHECK: scf.for {{.*}} iter_args({{.*}}, %[[INS:[^ ]+]] = %c-1_i32, %[[EXT:[^ ]+]] = %c-1_i32) ->
// CHECK-NEXT: %[[I1:.*]] = arith.addi %[[INS]], %c1_i32
// CHECK: %[[E1:.*]] = arith.addi %[[EXT]], %c1_i32
// CHECK: tt.elementwise_inline_asm
// CHECK: %[[C:.*]] = ttg.async_copy_global_to_local
// CHECK-NEXT: %[[T:.*]] = ttg.async_commit_group tokens %[[C]]
// CHECK-NEXT: %[[W:.*]] = ttg.async_wait %[[T]] {num = 0 : i32}
// CHECK-NEXT: ttg.memdesc_index
// CHECK-NEXT: ttg.local_load %{{.*}} token %[[W]]
// CHECK-NOT: loop.stage
// CHECK: ttg.async_wait {num = 0 : i32}
#bl = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @impure_asm(%pa: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %pb: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %n: i32) -> tensor<32x32xf32, #mma> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %zoff = arith.constant dense<0> : tensor<32x32xi32, #bl>
    %c1024 = arith.constant 1024 : i32
    %zero = arith.constant dense<0.000000e+00> : tensor<32x32xf32, #mma>
    %c32 = arith.constant dense<32> : tensor<32x1xi32, #bl>
    %step = arith.constant dense<1024> : tensor<32x32xi32, #bl>
    %r = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 1, parent = #bl}>>
    %c = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 0, parent = #bl}>>
    %r2 = tt.expand_dims %r {axis = 1 : i32} : tensor<32xi32, #ttg.slice<{dim = 1, parent = #bl}>> -> tensor<32x1xi32, #bl>
    %rs = arith.muli %r2, %c32 : tensor<32x1xi32, #bl>
    %rb = tt.broadcast %rs : tensor<32x1xi32, #bl> -> tensor<32x32xi32, #bl>
    %c2 = tt.expand_dims %c {axis = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 0, parent = #bl}>> -> tensor<1x32xi32, #bl>
    %cb = tt.broadcast %c2 : tensor<1x32xi32, #bl> -> tensor<32x32xi32, #bl>
    %off = arith.addi %rb, %cb : tensor<32x32xi32, #bl>
    %as = tt.splat %pa : !tt.ptr<f16> -> tensor<32x32x!tt.ptr<f16>, #bl>
    %a = tt.addptr %as, %off : tensor<32x32x!tt.ptr<f16>, #bl>, tensor<32x32xi32, #bl>
    %bs = tt.splat %pb : !tt.ptr<f16> -> tensor<32x32x!tt.ptr<f16>, #bl>
    %b = tt.addptr %bs, %off : tensor<32x32x!tt.ptr<f16>, #bl>, tensor<32x32xi32, #bl>
    %res:3 = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %zero, %ap = %a, %bp = %b) -> (tensor<32x32xf32, #mma>, tensor<32x32x!tt.ptr<f16>, #bl>, tensor<32x32x!tt.ptr<f16>, #bl>)  : i32 {
      %o = tt.elementwise_inline_asm "mov.b32 $0, $1;" {constraints = "=r,r", packed_element = 1 : i32, pure = false} %k : i32 -> i32
      %o32 = arith.muli %o, %c1024 : i32
      %os = tt.splat %o32 : i32 -> tensor<32x32xi32, #bl>
      %xp = tt.addptr %ap, %os : tensor<32x32x!tt.ptr<f16>, #bl>, tensor<32x32xi32, #bl>
      %x = tt.load %xp : tensor<32x32x!tt.ptr<f16>, #bl>
      %y = tt.load %bp : tensor<32x32x!tt.ptr<f16>, #bl>
      %xd = ttg.convert_layout %x : tensor<32x32xf16, #bl> -> tensor<32x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
      %yd = ttg.convert_layout %y : tensor<32x32xf16, #bl> -> tensor<32x32xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>
      %d = tt.dot %xd, %yd, %acc, inputPrecision = tf32 : tensor<32x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>> * tensor<32x32xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>> -> tensor<32x32xf32, #mma>
      %ap2 = tt.addptr %ap, %zoff : tensor<32x32x!tt.ptr<f16>, #bl>, tensor<32x32xi32, #bl>
      %bp2 = tt.addptr %bp, %step : tensor<32x32x!tt.ptr<f16>, #bl>, tensor<32x32xi32, #bl>
      scf.yield %d, %ap2, %bp2 : tensor<32x32xf32, #mma>, tensor<32x32x!tt.ptr<f16>, #bl>, tensor<32x32x!tt.ptr<f16>, #bl>
    }
    tt.return %res#0 : tensor<32x32xf32, #mma>
  }
}

// -----

// A's pointer increment depends on B's loaded values (through two reductions), so it is in the last stage while
// A's load, at stage 0, reads it loop-carried: the schedule runs a load before its operand is computed (Triton's
// verifySchedule rejects it). The loop is left unexpanded, each copy waited for in its own iteration.
// CHECK-LABEL: tt.func public @late_increment
// CHECK-NOT: ttg.async_copy_global_to_local
// CHECK: scf.for
// CHECK: %[[CA:.*]] = ttg.async_copy_global_to_local
// CHECK-NEXT: %[[TA:.*]] = ttg.async_commit_group tokens %[[CA]]
// CHECK-NEXT: ttg.async_wait %[[TA]] {num = 0 : i32}
// CHECK: %[[CB:.*]] = ttg.async_copy_global_to_local
// CHECK-NEXT: %[[TB:.*]] = ttg.async_commit_group tokens %[[CB]]
// CHECK-NEXT: ttg.async_wait %[[TB]] {num = 0 : i32}
// CHECK-NOT: loop.stage
// CHECK: scf.yield
#bl = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @late_increment(%pa: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %pb: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %n: i32) -> tensor<32x32xf32, #mma> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c1024 = arith.constant 1024 : i32
    %zero = arith.constant dense<0.000000e+00> : tensor<32x32xf32, #mma>
    %c32 = arith.constant dense<32> : tensor<32x1xi32, #bl>
    %step = arith.constant dense<1024> : tensor<32x32xi32, #bl>
    %r = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 1, parent = #bl}>>
    %c = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 0, parent = #bl}>>
    %r2 = tt.expand_dims %r {axis = 1 : i32} : tensor<32xi32, #ttg.slice<{dim = 1, parent = #bl}>> -> tensor<32x1xi32, #bl>
    %rs = arith.muli %r2, %c32 : tensor<32x1xi32, #bl>
    %rb = tt.broadcast %rs : tensor<32x1xi32, #bl> -> tensor<32x32xi32, #bl>
    %c2 = tt.expand_dims %c {axis = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 0, parent = #bl}>> -> tensor<1x32xi32, #bl>
    %cb = tt.broadcast %c2 : tensor<1x32xi32, #bl> -> tensor<32x32xi32, #bl>
    %off = arith.addi %rb, %cb : tensor<32x32xi32, #bl>
    %as = tt.splat %pa : !tt.ptr<f16> -> tensor<32x32x!tt.ptr<f16>, #bl>
    %a = tt.addptr %as, %off : tensor<32x32x!tt.ptr<f16>, #bl>, tensor<32x32xi32, #bl>
    %bs = tt.splat %pb : !tt.ptr<f16> -> tensor<32x32x!tt.ptr<f16>, #bl>
    %b = tt.addptr %bs, %off : tensor<32x32x!tt.ptr<f16>, #bl>, tensor<32x32xi32, #bl>
    %res:3 = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %zero, %ap = %a, %bp = %b) -> (tensor<32x32xf32, #mma>, tensor<32x32x!tt.ptr<f16>, #bl>, tensor<32x32x!tt.ptr<f16>, #bl>)  : i32 {
      %x = tt.load %ap : tensor<32x32x!tt.ptr<f16>, #bl>
      %y = tt.load %bp : tensor<32x32x!tt.ptr<f16>, #bl>
      %xd = ttg.convert_layout %x : tensor<32x32xf16, #bl> -> tensor<32x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
      %yd = ttg.convert_layout %y : tensor<32x32xf16, #bl> -> tensor<32x32xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>
      %d = tt.dot %xd, %yd, %acc, inputPrecision = tf32 : tensor<32x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>> * tensor<32x32xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>> -> tensor<32x32xf32, #mma>
      %yi = arith.fptosi %y : tensor<32x32xf16, #bl> to tensor<32x32xi32, #bl>
      %rows = "tt.reduce"(%yi) <{axis = 1 : i32}> ({
      ^bb0(%u: i32, %v: i32):
        %m = arith.maxsi %u, %v : i32
        tt.reduce.return %m : i32
      }) : (tensor<32x32xi32, #bl>) -> tensor<32xi32, #ttg.slice<{dim = 1, parent = #bl}>>
      %top = "tt.reduce"(%rows) <{axis = 0 : i32}> ({
      ^bb0(%u: i32, %v: i32):
        %m = arith.maxsi %u, %v : i32
        tt.reduce.return %m : i32
      }) : (tensor<32xi32, #ttg.slice<{dim = 1, parent = #bl}>>) -> i32
      %low = arith.minsi %top, %c0 : i32
      %one = arith.addi %low, %c1 : i32
      %inc = arith.muli %one, %c1024 : i32
      %incs = tt.splat %inc : i32 -> tensor<32x32xi32, #bl>
      %ap2 = tt.addptr %ap, %incs : tensor<32x32x!tt.ptr<f16>, #bl>, tensor<32x32xi32, #bl>
      %bp2 = tt.addptr %bp, %step : tensor<32x32x!tt.ptr<f16>, #bl>, tensor<32x32xi32, #bl>
      scf.yield %d, %ap2, %bp2 : tensor<32x32xf32, #mma>, tensor<32x32x!tt.ptr<f16>, #bl>, tensor<32x32x!tt.ptr<f16>, #bl>
    }
    tt.return %res#0 : tensor<32x32xf32, #mma>
  }
}

// -----

// sm90: a wgmma whose result is used only under an scf.if (the epilogue of a fused persistent loop) besides the
// yield still stays in flight (Triton's rule 2): a `pendings = 1` wait after it, and a `pendings = 0` wait at the
// start of the branch that uses it, threading the result; the branch-yielded reset became a select.
// CHECK-LABEL: tt.func public @wgmma_used_under_if
// CHECK: %[[R:.*]] = scf.for
// CHECK: %[[A:.*]] = ttg.memdesc_index
// CHECK-NEXT: %[[D:.*]] = ttng.warp_group_dot %[[A]], %[[A]], %{{.*}} {isAsync = true}
// CHECK-NEXT: %[[W:.*]]:2 = ttng.warp_group_dot_wait %[[D]], %[[A]] {pendings = 1 : i32}
// CHECK-NEXT: %[[LAST:.*]] = arith.cmpi eq
// CHECK-NEXT: %[[NEXT:.*]] = arith.select %[[LAST]], %cst, %[[W]]#0
// CHECK-NEXT: scf.if %[[LAST]] {
// CHECK-NEXT: %[[W0:.*]]:2 = ttng.warp_group_dot_wait %[[W]]#0, %[[A]] {pendings = 0 : i32}
// CHECK-NEXT: tt.store %arg3, %[[W0]]#0
// CHECK: scf.yield %[[NEXT]]
// CHECK: ttng.warp_group_dot_wait %[[R]] {pendings = 0 : i32}
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#s = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @wgmma_used_under_if(%c: tensor<64x64xf32, #mma>, %n: i32, %buf: !ttg.memdesc<3x64x64xf16, #s, #smem, mutable>, %p: tensor<64x64x!tt.ptr<f32>, #mma>) -> tensor<64x64xf32, #mma> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c4 = arith.constant 4 : i32
    %z = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %c) -> (tensor<64x64xf32, #mma>) : i32 {
      %a = ttg.memdesc_index %buf[%i] : !ttg.memdesc<3x64x64xf16, #s, #smem, mutable> -> !ttg.memdesc<64x64xf16, #s, #smem, mutable>
      %d = ttng.warp_group_dot %a, %a, %acc : !ttg.memdesc<64x64xf16, #s, #smem, mutable> * !ttg.memdesc<64x64xf16, #s, #smem, mutable> -> tensor<64x64xf32, #mma>
      %last = arith.cmpi eq, %i, %c4 : i32
      %next = scf.if %last -> (tensor<64x64xf32, #mma>) {
        %k = arith.addi %i, %c1 : i32
        tt.store %p, %d : tensor<64x64x!tt.ptr<f32>, #mma>
        scf.yield %z : tensor<64x64xf32, #mma>
      } else {
        scf.yield %d : tensor<64x64xf32, #mma>
      }
      scf.yield %next : tensor<64x64xf32, #mma>
    }
    tt.return %r : tensor<64x64xf32, #mma>
  }
}

// -----

// Descriptor stores in a loop: one shared buffer per shape and element type, each store waits for the previous
// TMA store, then stores, fences and copies; after the loop a wait and, as in Triton, one deallocation per store.
// CHECK-LABEL: tt.func public @two_stores
// CHECK: %[[BUF:.*]] = ttg.local_alloc : () -> !ttg.memdesc<64x32xf16
// CHECK: scf.for
// CHECK-NEXT: ttng.async_tma_store_wait {pendings = 0 : i32}
// CHECK-NEXT: ttg.local_store %arg1, %[[BUF]]
// CHECK-NEXT: ttng.fence_async_shared
// CHECK-NEXT: ttng.async_tma_copy_local_to_global %arg0[%arg4, %c0_i32] %[[BUF]]
// CHECK-NEXT: ttng.async_tma_store_wait {pendings = 0 : i32}
// CHECK-NEXT: ttg.local_store %arg2, %[[BUF]]
// CHECK: ttng.async_tma_copy_local_to_global %arg0[%arg4, %c32_i32] %[[BUF]]
// CHECK: ttng.async_tma_store_wait {pendings = 0 : i32}
// CHECK-NEXT: ttg.local_dealloc %[[BUF]]
// CHECK-NEXT: ttg.local_dealloc %[[BUF]]
// CHECK-NEXT: tt.return
#bl = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#s = #ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = false, elementBitWidth = 16}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @two_stores(%desc: !tt.tensordesc<tensor<64x32xf16, #s>>, %x: tensor<64x32xf16, #bl>, %y: tensor<64x32xf16, #bl>, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c32 = arith.constant 32 : i32
    scf.for %i = %c0 to %n step %c1 : i32 {
      tt.descriptor_store %desc[%i, %c0], %x : !tt.tensordesc<tensor<64x32xf16, #s>>, tensor<64x32xf16, #bl>
      tt.descriptor_store %desc[%i, %c32], %y : !tt.tensordesc<tensor<64x32xf16, #s>>, tensor<64x32xf16, #bl>
    }
    tt.return
  }
}

// -----

// A descriptor scatter in a loop goes the same way: its rows (16 of 32 f32) are stored to a buffer in the
// descriptor's layout allocated before the loop, after a wait for the previous TMA store, then fenced and scattered.
// CHECK-LABEL: tt.func public @scatter
// CHECK: %[[BUF:.*]] = ttg.local_alloc : () -> !ttg.memdesc<16x32xf32, #{{.*}}, #smem, mutable>
// CHECK: scf.for
// CHECK: ttng.async_tma_store_wait {pendings = 0 : i32}
// CHECK-NEXT: ttg.local_store %arg2, %[[BUF]]
// CHECK-NEXT: ttng.fence_async_shared {bCluster = false}
// CHECK-NEXT: ttng.async_tma_scatter %arg0[%arg1, %{{.*}}] %[[BUF]] : !tt.tensordesc<tensor<1x32xf32, #{{.*}}>>, tensor<16xi32, #{{.*}}>, i32, !ttg.memdesc<16x32xf32, #{{.*}}, #smem, mutable>
// CHECK: ttng.async_tma_store_wait {pendings = 0 : i32}
// CHECK-NEXT: ttg.local_dealloc %[[BUF]]
#rows = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#bl = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#s = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 32}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @scatter(%desc: !tt.tensordesc<tensor<1x32xf32, #s>>, %x: tensor<16xi32, #rows>, %v: tensor<16x32xf32, #bl>, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    scf.for %i = %c0 to %n step %c1 : i32 {
      tt.descriptor_scatter %desc[%x, %i], %v : !tt.tensordesc<tensor<1x32xf32, #s>>, tensor<16xi32, #rows>, i32, tensor<16x32xf32, #bl>
    }
    tt.return
  }
}

// -----

// A loop marked __test_keep_predicate_stage (Triton's test hook) keeps its kernel's stage predicates as
// ttg.predicate_stage ops of the new induction variable, the bound and the step, one per stage but the last
// (the one of stage 1, unused, is gone after -canonicalize).
// CHECK-LABEL: tt.func public @keep_predicate_stage
// CHECK: scf.for %[[IV:[^ ]+]] = %{{[^ ]+}} to %[[UB:[^ ]+]] step %[[STEP:[^ ]+]] iter_args
// CHECK-NEXT: %[[P0:.*]] = ttg.predicate_stage %[[IV]], %[[UB]], %[[STEP]] maxStage 2 stage 0 : i32 -> i1
// CHECK-NOT: arith.cmpi slt, %[[IV]]
// CHECK: tt.splat %[[P0]]
// CHECK: ttg.async_copy_global_to_local
// CHECK: } {__test_keep_predicate_stage, tt.num_stages = 3 : i32}
#blocked = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @keep_predicate_stage(%p: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c512 = arith.constant 512 : i32
    %r = tt.make_range {end = 512 : i32, start = 0 : i32} : tensor<512xi32, #blocked>
    %ps = tt.splat %p : !tt.ptr<f32> -> tensor<512x!tt.ptr<f32>, #blocked>
    scf.for %i = %c0 to %n step %c512 : i32 {
      %o = tt.splat %i : i32 -> tensor<512xi32, #blocked>
      %off = arith.addi %o, %r : tensor<512xi32, #blocked>
      %ptr = tt.addptr %ps, %off : tensor<512x!tt.ptr<f32>, #blocked>, tensor<512xi32, #blocked>
      %v = tt.load %ptr : tensor<512x!tt.ptr<f32>, #blocked>
      %w = arith.addf %v, %v : tensor<512xf32, #blocked>
      tt.store %ptr, %w : tensor<512x!tt.ptr<f32>, #blocked>
    } {tt.num_stages = 3 : i32, __test_keep_predicate_stage}
    tt.return
  }
}

// -----

// Triton's no-op views (a transpose, a reshape, a conversion that moves no data) between a wgmma and the yield,
// and between the loop-carried value and the next wgmma's accumulator, keep the wgmma in flight.
// CHECK-LABEL: tt.func public @wgmma_through_trans
// CHECK: %[[D:.*]] = ttng.warp_group_dot {{.*}} {isAsync = true}
// CHECK-NEXT: %[[W:.*]]:2 = ttng.warp_group_dot_wait %[[D]], %{{.*}} {pendings = 1 : i32}
// CHECK-NEXT: tt.trans %[[W]]#0
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#lin = #ttg.linear<{register = [[1, 0], [0, 8], [8, 0], [16, 0], [32, 0]], lane = [[2, 0], [4, 0], [0, 1], [0, 2], [0, 4]], warp = [[0, 16], [0, 32]], block = []}>
#s = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @wgmma_through_trans(%c: tensor<64x64xf32, #lin>, %n: i32, %buf: !ttg.memdesc<3x64x64xf16, #s, #smem, mutable>) -> tensor<64x64xf32, #lin> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %c) -> (tensor<64x64xf32, #lin>) : i32 {
      %a = ttg.memdesc_index %buf[%i] : !ttg.memdesc<3x64x64xf16, #s, #smem, mutable> -> !ttg.memdesc<64x64xf16, #s, #smem, mutable>
      %am = tt.trans %acc {order = array<i32: 1, 0>} : tensor<64x64xf32, #lin> -> tensor<64x64xf32, #mma>
      %d = ttng.warp_group_dot %a, %a, %am : !ttg.memdesc<64x64xf16, #s, #smem, mutable> * !ttg.memdesc<64x64xf16, #s, #smem, mutable> -> tensor<64x64xf32, #mma>
      %e = tt.trans %d {order = array<i32: 1, 0>} : tensor<64x64xf32, #mma> -> tensor<64x64xf32, #lin>
      scf.yield %e : tensor<64x64xf32, #lin>
    }
    tt.return %r : tensor<64x64xf32, #lin>
  }
}

// -----

// A wgmma with an integer accumulator does not stay in flight (Triton: f32 accumulators only): `pendings = 0`
// right after it.
// CHECK-LABEL: tt.func public @wgmma_i32_acc
// CHECK: %[[D:.*]] = ttng.warp_group_dot {{.*}} {isAsync = true}
// CHECK-NEXT: ttng.warp_group_dot_wait %[[D]], %{{.*}} {pendings = 0 : i32}
// CHECK-NEXT: scf.yield
#mma8 = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 32]}>
#s8 = #ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = false, elementBitWidth = 8}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @wgmma_i32_acc(%c: tensor<64x64xi32, #mma8>, %n: i32, %buf: !ttg.memdesc<3x64x64xi8, #s8, #smem, mutable>) -> tensor<64x64xi32, #mma8> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %c) -> (tensor<64x64xi32, #mma8>) : i32 {
      %a = ttg.memdesc_index %buf[%i] : !ttg.memdesc<3x64x64xi8, #s8, #smem, mutable> -> !ttg.memdesc<64x64xi8, #s8, #smem, mutable>
      %d = ttng.warp_group_dot %a, %a, %acc : !ttg.memdesc<64x64xi8, #s8, #smem, mutable> * !ttg.memdesc<64x64xi8, #s8, #smem, mutable> -> tensor<64x64xi32, #mma8>
      scf.yield %d : tensor<64x64xi32, #mma8>
    }
    tt.return %r : tensor<64x64xi32, #mma8>
  }
}

// -----

// A scalar load of 32 bits or more that feeds a dot's load (an index) is pipelined as a 1-element tensor: splat
// pointer, async copy into a 1-element buffer (one: latency (3 - 1) / 2 for two levels), local_load and
// tt.unsplat in the loop.
// CHECK-LABEL: tt.func public @scalar_index
// CHECK: ttg.local_alloc : () -> !ttg.memdesc<1x1xi64
// CHECK: scf.for
// CHECK: %[[L:.*]] = ttg.local_load {{.*}} -> tensor<1xi64
// CHECK: tt.unsplat %[[L]] : tensor<1xi64
// CHECK: ttg.async_copy_global_to_local %{{.*}} : tensor<1x!tt.ptr<i64>
// S1-LABEL: tt.func public @scalar_index
// S1-NOT: tt.unsplat
#bl = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @scalar_index(%pa: tensor<32x32x!tt.ptr<f16>, #bl> {tt.divisibility = dense<16> : tensor<2xi32>, tt.contiguity = dense<[1, 32]> : tensor<2xi32>}, %b: tensor<32x32xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>, %idx: !tt.ptr<i64>, %n: i32) -> tensor<32x32xf32, #mma> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c64 = arith.constant 64 : i32
    %zero = arith.constant dense<0.000000e+00> : tensor<32x32xf32, #mma>
    %res:2 = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %zero, %ip = %idx) -> (tensor<32x32xf32, #mma>, !tt.ptr<i64>) : i32 {
      %i = tt.load %ip : !tt.ptr<i64>
      %i32 = arith.trunci %i : i64 to i32
      %row = arith.muli %i32, %c64 : i32
      %off = tt.splat %row : i32 -> tensor<32x32xi32, #bl>
      %p = tt.addptr %pa, %off : tensor<32x32x!tt.ptr<f16>, #bl>, tensor<32x32xi32, #bl>
      %x = tt.load %p : tensor<32x32x!tt.ptr<f16>, #bl>
      %xd = ttg.convert_layout %x : tensor<32x32xf16, #bl> -> tensor<32x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
      %d = tt.dot %xd, %b, %acc : tensor<32x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>> * tensor<32x32xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>> -> tensor<32x32xf32, #mma>
      %ip2 = tt.addptr %ip, %c1 : !tt.ptr<i64>, i32
      scf.yield %d, %ip2 : tensor<32x32xf32, #mma>, !tt.ptr<i64>
    }
    tt.return %res#0 : tensor<32x32xf32, #mma>
  }
}

// -----

// The pass ends as Triton's does, with the greedy driver and no patterns: folds, dead ops gone, constants
// deduplicated at the top of the function, loops pipelined or not (here without -canonicalize).
// S1-LABEL: tt.func public @cleanup
// S1-NEXT: %[[C:.*]] = arith.constant 5 : i32
// S1-NEXT: tt.store %arg0, %[[C]]
// S1-NEXT: tt.return
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @cleanup(%p: !tt.ptr<i32>, %x: i32) {
    %c2 = arith.constant 2 : i32
    %c3 = arith.constant 3 : i32
    %dead = arith.muli %x, %c3 : i32
    %five = arith.addi %c2, %c3 : i32
    tt.store %p, %five : !tt.ptr<i32>
    tt.return
  }
}


// -----

#ld = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#acc = #ttg.blocked<{sizePerThread = [1, 64], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [1, 0]}>
#nv = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#tm = #ttng.tensor_memory_encoding<blockM = 128, blockN = 64, colStride = 1>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:100", "ttg.threads-per-warp" = 32 : i32} {
// An MMAv5 loop whose barrier wait lands in the last stage gets its last iteration peeled into an scf.if after
// the loop (Triton's custom epilogue peeling): the MMA is predicated in the prologue, runs unpredicated in the
// loop (its stage is the one before the last), and the peeled iteration keeps only the last stage's wait.
// CHECK-LABEL: tt.func @mma_peeled
// CHECK: ttng.tc_gen5_mma {{.*}}, %true, %{{[^,]*}}, %{{.*}}[%true] {is_async}
// CHECK: scf.for
// CHECK: ttng.tc_gen5_mma {{.*}}, %true, %true, %{{.*}}[%true] {is_async}
// CHECK: ttng.wait_barrier
// CHECK: scf.yield
// CHECK: scf.if
// CHECK-NEXT: ttng.wait_barrier
// CHECK-NOT: ttng.tc_gen5_mma
// CHECK: }
// CHECK: ttng.tmem_load
tt.func @mma_peeled(%pa: tensor<128x64x!tt.ptr<f16>, #ld> {tt.contiguity = dense<[1, 64]> : tensor<2xi32>, tt.divisibility = dense<16> : tensor<2xi32>},
                   %pb: tensor<64x64x!tt.ptr<f16>, #ld> {tt.contiguity = dense<[1, 64]> : tensor<2xi32>, tt.divisibility = dense<16> : tensor<2xi32>},
                   %n: i32) -> tensor<128x64xf32, #acc> {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %true = arith.constant true
  %zero = arith.constant dense<0.0> : tensor<128x64xf32, #acc>
  %acc, %t0 = ttng.tmem_alloc : () -> (!ttg.memdesc<128x64xf32, #tm, #ttng.tensor_memory, mutable>, !ttg.async.token)
  %t1 = ttng.tmem_store %zero, %acc[%t0], %true : tensor<128x64xf32, #acc> -> !ttg.memdesc<128x64xf32, #tm, #ttng.tensor_memory, mutable>
  %tl = scf.for %i = %c0 to %n step %c1 iter_args(%t = %t1) -> (!ttg.async.token) : i32 {
    %a = tt.load %pa : tensor<128x64x!tt.ptr<f16>, #ld>
    %b = tt.load %pb : tensor<64x64x!tt.ptr<f16>, #ld>
    %as = ttg.local_alloc %a : (tensor<128x64xf16, #ld>) -> !ttg.memdesc<128x64xf16, #nv, #ttg.shared_memory>
    %bs = ttg.local_alloc %b : (tensor<64x64xf16, #ld>) -> !ttg.memdesc<64x64xf16, #nv, #ttg.shared_memory>
    %m = ttng.tc_gen5_mma %as, %bs, %acc[%t], %true, %true  : !ttg.memdesc<128x64xf16, #nv, #ttg.shared_memory>, !ttg.memdesc<64x64xf16, #nv, #ttg.shared_memory>, !ttg.memdesc<128x64xf32, #tm, #ttng.tensor_memory, mutable>
    scf.yield %m : !ttg.async.token
  }
  %r, %rt = ttng.tmem_load %acc[%tl] : !ttg.memdesc<128x64xf32, #tm, #ttng.tensor_memory, mutable> -> tensor<128x64xf32, #acc>
  tt.return %r : tensor<128x64xf32, #acc>
}
}
