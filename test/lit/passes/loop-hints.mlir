// RUN: tt-opt %s -split-input-file -verify-diagnostics -make-ttgir='target=cuda:90 num-warps=4' | FileCheck %s
// RUN: cd %S/../../.. && tt-frontend kernels/loop_hints.py -k row_sum_kernel -s "*fp32:16,*fp32:16,*fp32:16,i32,192,i32,i32,64,32,2" -o %t.src.ttir
// RUN: FileCheck %s --check-prefix=SRC < %t.src.ttir
// RUN: tt-opt %t.src.ttir -make-ttir -o %t.ttir
// RUN: FileCheck %s --check-prefix=TTIR < %t.ttir
// RUN: env MLIR_ENABLE_DIAGNOSTICS=remarks tt-opt %t.ttir -make-ttgir='target=cuda:90 num-warps=4' -o %t.ttgir 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: FileCheck %s --check-prefix=TTGIR < %t.ttgir
// RUN: cd %S/../../.. && tt-run %t.ttgir --spec kernels/loop_hints.json --interpret --check | FileCheck %s --check-prefix=INTERP
// RUN: cd %S/../../.. && tt-frontend kernels/loop_hints.py -k hinted_matmul_kernel -s "*fp16:16,*fp16:16,*fp16:16,i32,i32,i32:16,i32:16,i32:16,i32:16,64,64,32,4" \
// RUN:   | tt-opt -make-ttir | tt-opt -make-ttgir='target=cuda:80 num-warps=4 num-stages=3' | FileCheck %s --check-prefix=STAGES

// The loop hints of kernels/loop_hints.py through the stages. The frontend puts tl.range's hints on the
// scf.for as Triton does (tl.static_range leaves no loop):
// SRC: scf.for
// SRC: scf.for
// SRC: } {tt.loop_unroll_factor = 2 : i32}
// SRC: } {tt.disallow_acc_multi_buffer, tt.num_stages = 1 : i32, tt.warp_specialize}
// SRC: } {tt.flatten}
// SRC-NOT: scf.for
// make-ttir unrolls the K loop (192 / 32 = 6 iterations: 3 of step 64, no epilogue) and drops its factor:
// TTIR: scf.for %{{.*}} = %c0_i32 to %c192_i32 step %c64_i32
// TTIR-NOT: loop_unroll_factor
// TTIR: } {tt.disallow_acc_multi_buffer, tt.num_stages = 1 : i32, tt.warp_specialize}
// make-ttgir leaves the warp_specialize nest unspecialized and turns pipelining off in the function:
// REMARK: ttir:{{[0-9]+}}:{{[0-9]+}}: remark: loop not warp-specialized
// TTGIR: } {tt.num_stages = 0 : i32}
// TTGIR: } {tt.disallow_acc_multi_buffer, tt.num_stages = 0 : i32, tt.warp_specialize}
// TTGIR: } {tt.flatten, tt.num_stages = 0 : i32}
// INTERP: out: ok
// tl.range(num_stages=4) on the matmul's K loop wins over make-ttgir's num-stages=3: three cp.async stages
// (for a; b's columns wrap modulo N, too narrow for cp.async, as in Triton's own sm80 TTGIR).
// STAGES: ttg.local_alloc : () -> !ttg.memdesc<3x64x32xf16
// STAGES-NOT: ttg.local_alloc : () -> !ttg.memdesc<{{[0-9]+}}x32x64xf16
// STAGES: } {tt.num_stages = 4 : i32}

// tt.flatten on a loop nest: tritongpu-fuse-nested-loops makes it one loop (tt.flatten is not kept on it), in the
// else branch of a check that the inner loop runs at all.
// CHECK-LABEL: tt.func public @flatten_nest
// CHECK: scf.if
// CHECK: } else {
// CHECK: scf.for {{.*}} iter_args(
// CHECK-NOT: scf.for
// CHECK-NOT: tt.flatten
// CHECK: tt.return
module {
  tt.func public @flatten_nest(%p: !tt.ptr<i32>, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    scf.for %i = %c0 to %n step %c1 : i32 {
      scf.for %j = %c0 to %n step %c1 : i32 {
        %v = arith.addi %i, %j : i32
        tt.store %p, %v : !tt.ptr<i32>
      }
    } {tt.flatten}
    tt.return
  }
}

// -----

// A nest fuse-nested-loops cannot fuse (the inner bound is the outer induction variable): kept, with a remark.
// CHECK-LABEL: tt.func public @flatten_variant_nest
// CHECK: } {tt.flatten}
module {
  tt.func public @flatten_variant_nest(%p: !tt.ptr<i32>, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    // expected-remark @below {{loop nest not flattened despite tt.flatten: tritongpu-fuse-nested-loops fuses one inner loop whose bounds do not depend on the outer loop}}
    scf.for %i = %c0 to %n step %c1 : i32 {
      scf.for %j = %c0 to %i step %c1 : i32 {
        %v = arith.addi %i, %j : i32
        tt.store %p, %v : !tt.ptr<i32>
      }
    } {tt.flatten}
    tt.return
  }
}
