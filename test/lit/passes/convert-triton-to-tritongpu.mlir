// RUN: tt-opt %s -split-input-file -convert-triton-to-tritongpu='target=cuda:90 num-warps=4 threads-per-warp=32 num-ctas=1' | FileCheck %s
// RUN: env TRITON_REPRODUCER_PATH=%t.repro not tt-opt %s -split-input-file -convert-triton-to-tritongpu='target=cuda:90 num-warps=8' 2>&1 | FileCheck %s --check-prefix=W8
// RUN: not tt-opt %s -convert-triton-to-tritongpu 2>&1 | FileCheck %s --check-prefix=NO-TARGET
// RUN: not tt-opt %s -convert-triton-to-tritongpu='target=sm90' 2>&1 | FileCheck %s --check-prefix=BAD-TARGET
// RUN: not tt-opt %s -convert-triton-to-tritongpu='target=cuda:90 num-ctas=2' 2>&1 | FileCheck %s --check-prefix=CTAS
// NO-TARGET: error: pass 'convert-triton-to-tritongpu': 'convert-triton-to-tritongpu' requires 'target' option to be set
// BAD-TARGET: error: pass 'convert-triton-to-tritongpu': invalid target 'sm90'
// CTAS: error: pass 'convert-triton-to-tritongpu': option 'num-ctas' must be 1

// Every tensor gets the default blocked layout of its shape (one element per thread, lanes then warps).
// CHECK: #[[B:.*]] = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK: module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32}
// CHECK-LABEL: tt.func public @elementwise_1d
// CHECK: tt.make_range {{.*}} : tensor<1024xi32, #[[B]]>
// CHECK: arith.cmpi slt, {{.*}} : tensor<1024xi32, #[[B]]>
// CHECK: tt.load {{.*}} : tensor<1024x!tt.ptr<f32>, #[[B]]>
// CHECK: arith.addf {{.*}} : tensor<1024xf32, #[[B]]>
// CHECK-NOT: ttg.convert_layout
// W8: #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [8], order = [0]}>
// W8: "ttg.num-warps" = 8 : i32
module {
  tt.func public @elementwise_1d(%p: !tt.ptr<f32>, %n: i32) {
    %r = tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32>
    %s = tt.splat %n : i32 -> tensor<1024xi32>
    %m = arith.cmpi slt, %r, %s : tensor<1024xi32>
    %ps = tt.splat %p : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>>
    %a = tt.addptr %ps, %r : tensor<1024x!tt.ptr<f32>>, tensor<1024xi32>
    %x = tt.load %a, %m : tensor<1024x!tt.ptr<f32>>
    %y = arith.addf %x, %x : tensor<1024xf32>
    tt.store %a, %y, %m : tensor<1024x!tt.ptr<f32>>
    tt.return
  }
}

// -----

// expand_dims converts its operand to a slice of the operand's layout with a unit dimension inserted;
// broadcast keeps its operand's layout; trans permutes it; users expecting the default layout of the
// original type get conversions right after the definitions.
// CHECK: #[[B1D:.*]] = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK: #[[COL:.*]] = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [0, 1]}>
// CHECK: #[[COLD:.*]] = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK: #[[TR:.*]] = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [1, 4], order = [0, 1]}>
// CHECK-LABEL: tt.func public @expand_and_broadcast
// CHECK: %[[R:.*]] = tt.make_range {{.*}} : tensor<32xi32, #[[B1D]]>
// CHECK-NEXT: %[[S:.*]] = ttg.convert_layout %[[R]] : tensor<32xi32, #[[B1D]]> -> tensor<32xi32, #ttg.slice<{dim = 1, parent = #[[COL]]}>>
// CHECK-NEXT: %[[E:.*]] = tt.expand_dims %[[S]] {axis = 1 : i32} : {{.*}} -> tensor<32x1xi32, #[[COL]]>
// CHECK-NEXT: %[[D:.*]] = ttg.convert_layout %[[E]] : tensor<32x1xi32, #[[COL]]> -> tensor<32x1xi32, #[[COLD]]>
// CHECK: tt.broadcast %[[D]] : tensor<32x1xi32, #[[COLD]]> -> tensor<32x64xi32, #[[COLD]]>
// CHECK: tt.trans {{.*}} -> tensor<32x64xi32, #[[TR]]>
module {
  tt.func public @expand_and_broadcast(%p: !tt.ptr<f32>) {
    %r = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32>
    %c = tt.expand_dims %r {axis = 1 : i32} : tensor<32xi32> -> tensor<32x1xi32>
    %w = tt.expand_dims %r {axis = 0 : i32} : tensor<32xi32> -> tensor<1x32xi32>
    %cb = tt.broadcast %c : tensor<32x1xi32> -> tensor<32x64xi32>
    %wb = tt.broadcast %w : tensor<1x32xi32> -> tensor<64x32xi32>
    %t = tt.trans %wb {order = array<i32: 1, 0>} : tensor<64x32xi32> -> tensor<32x64xi32>
    %o = arith.addi %cb, %t : tensor<32x64xi32>
    %ps = tt.splat %p : !tt.ptr<f32> -> tensor<32x64x!tt.ptr<f32>>
    %a = tt.addptr %ps, %o : tensor<32x64x!tt.ptr<f32>>, tensor<32x64xi32>
    %x = tt.load %a : tensor<32x64x!tt.ptr<f32>>
    tt.store %a, %x : tensor<32x64x!tt.ptr<f32>>
    tt.return
  }
}

// -----

// A reduction's result is a slice of its operand's layout; its user gets it in the default 1-D layout.
// CHECK-LABEL: tt.func public @row_reduce
// CHECK: %[[S:.*]] = "tt.reduce"
// CHECK: }) : (tensor<64x128xf32, #[[P:.*]]>) -> tensor<64xf32, #ttg.slice<{dim = 1, parent = #[[P]]}>>
// CHECK-NEXT: %[[C:.*]] = ttg.convert_layout %[[S]] : tensor<64xf32, #ttg.slice<{dim = 1, parent = #[[P]]}>> -> tensor<64xf32, #blocked>
// CHECK-NEXT: arith.mulf %[[C]], %[[C]] : tensor<64xf32, #blocked>
module {
  tt.func public @row_reduce(%p: !tt.ptr<f32>, %q: !tt.ptr<f32>) {
    %r = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32>
    %e = tt.expand_dims %r {axis = 0 : i32} : tensor<128xi32> -> tensor<1x128xi32>
    %b = tt.broadcast %e : tensor<1x128xi32> -> tensor<64x128xi32>
    %ps = tt.splat %p : !tt.ptr<f32> -> tensor<64x128x!tt.ptr<f32>>
    %a = tt.addptr %ps, %b : tensor<64x128x!tt.ptr<f32>>, tensor<64x128xi32>
    %x = tt.load %a : tensor<64x128x!tt.ptr<f32>>
    %s = "tt.reduce"(%x) <{axis = 1 : i32}> ({
    ^bb0(%u: f32, %v: f32):
      %t = arith.addf %u, %v : f32
      tt.reduce.return %t : f32
    }) : (tensor<64x128xf32>) -> tensor<64xf32>
    %y = arith.mulf %s, %s : tensor<64xf32>
    %r2 = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
    %qs = tt.splat %q : !tt.ptr<f32> -> tensor<64x!tt.ptr<f32>>
    %qa = tt.addptr %qs, %r2 : tensor<64x!tt.ptr<f32>>, tensor<64xi32>
    tt.store %qa, %y : tensor<64x!tt.ptr<f32>>
    tt.return
  }
}

// -----

// scf.for carries the converted types through its iteration arguments and results.
// CHECK-LABEL: tt.func public @loop_carried
// CHECK: %[[Z:.*]] = arith.constant dense<0.000000e+00> : tensor<256xf32, #blocked>
// CHECK: scf.for {{.*}} iter_args(%{{.*}} = %[[Z]]) -> (tensor<256xf32, #blocked>)
// CHECK: scf.yield {{.*}} : tensor<256xf32, #blocked>
module {
  tt.func public @loop_carried(%n: i32, %q: !tt.ptr<f32>) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %z = arith.constant dense<0.000000e+00> : tensor<256xf32>
    %res = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %z) -> (tensor<256xf32>) : i32 {
      %f = arith.sitofp %i : i32 to f32
      %s = tt.splat %f : f32 -> tensor<256xf32>
      %u = arith.addf %acc, %s : tensor<256xf32>
      scf.yield %u : tensor<256xf32>
    }
    %r = tt.make_range {end = 256 : i32, start = 0 : i32} : tensor<256xi32>
    %qs = tt.splat %q : !tt.ptr<f32> -> tensor<256x!tt.ptr<f32>>
    %qa = tt.addptr %qs, %r : tensor<256x!tt.ptr<f32>>, tensor<256xi32>
    tt.store %qa, %res : tensor<256x!tt.ptr<f32>>
    tt.return
  }
}

// -----

// Not changed: tensors that already have layouts. (With num-warps=8 the module's 4-warp layouts no longer fit
// its warps: an error, as in Triton, whose verifier checks the layouts of Triton ops' operands against
// ttg.num-warps: here tt.return's.)
// W8: error: Operand 0 ({{.*}}"arith.addf"{{.*}}) has an invalid layout: #ttg.blocked<{{.*}}>.
// W8-NEXT: Layout has 4 warps per CTA, but the context requires 8 warps per CTA.
// CHECK-LABEL: tt.func public @already_converted
// CHECK-NEXT: arith.addf %arg0, %arg0 : tensor<1024xf32, #blocked>
// CHECK-NEXT: tt.return
#blocked = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @already_converted(%x: tensor<1024xf32, #blocked>) -> tensor<1024xf32, #blocked> {
    %y = arith.addf %x, %x : tensor<1024xf32, #blocked>
    tt.return %y : tensor<1024xf32, #blocked>
  }
}

// -----

// A dot gets a blocked layout with 4x4 elements per thread; its operands are converted to dot-operand layouts
// of it, its accumulator to it.
// CHECK: #[[D:.*]] = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-LABEL: tt.func public @dot
// CHECK: %[[A:.*]] = ttg.convert_layout %{{.*}} -> tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #[[D]]}>>
// CHECK-NEXT: %[[B:.*]] = ttg.convert_layout %{{.*}} -> tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #[[D]]}>>
// CHECK-NEXT: %[[C:.*]] = ttg.convert_layout %cst : tensor<64x64xf32, #blocked> -> tensor<64x64xf32, #[[D]]>
// CHECK-NEXT: tt.dot %[[A]], %[[B]], %[[C]] : {{.*}} -> tensor<64x64xf32, #[[D]]>
module {
  tt.func public @dot(%pa: !tt.ptr<f16>, %pb: !tt.ptr<f16>, %pc: !tt.ptr<f32>) {
    %c = arith.constant dense<0.000000e+00> : tensor<64x64xf32>
    %a = tt.splat %pa : !tt.ptr<f16> -> tensor<64x32x!tt.ptr<f16>>
    %b = tt.splat %pb : !tt.ptr<f16> -> tensor<32x64x!tt.ptr<f16>>
    %x = tt.load %a : tensor<64x32x!tt.ptr<f16>>
    %y = tt.load %b : tensor<32x64x!tt.ptr<f16>>
    %d = tt.dot %x, %y, %c : tensor<64x32xf16> * tensor<32x64xf16> -> tensor<64x64xf32>
    %cc = tt.splat %pc : !tt.ptr<f32> -> tensor<64x64x!tt.ptr<f32>>
    tt.store %cc, %d : tensor<64x64x!tt.ptr<f32>>
    tt.return
  }
}
