// RUN: tt-opt %s -split-input-file -make-ttir | FileCheck %s

// The helper is inlined (its dead block with it) and removed, the splat constant folds, the unused add goes,
// constants are hoisted.
// CHECK-LABEL: tt.func public @scale_kernel
// CHECK-NEXT: %[[TWO:.*]] = arith.constant dense<2.000000e+00> : tensor<256xf32>
// CHECK-NEXT: %[[C256:.*]] = arith.constant 256 : i32
// CHECK-NEXT: %[[PID:.*]] = tt.get_program_id x : i32
// CHECK: %[[PTRS:.*]] = tt.addptr
// CHECK-NEXT: %[[X:.*]] = tt.load %[[PTRS]], %[[MASK:.*]] : tensor<256x!tt.ptr<f32>>
// CHECK-NEXT: %[[Y:.*]] = arith.mulf %[[X]], %[[TWO]] : tensor<256xf32>
// CHECK-NEXT: tt.store %[[PTRS]], %[[Y]], %[[MASK]] : tensor<256x!tt.ptr<f32>>
// CHECK-NEXT: tt.return
// CHECK-NEXT: }
// CHECK-NOT: tt.func
module {
  tt.func private @scale(%x: tensor<256xf32>) -> tensor<256xf32> attributes {noinline = false} {
    %c = arith.constant 2.000000e+00 : f32
    %s = tt.splat %c : f32 -> tensor<256xf32>
    %y = arith.mulf %x, %s : tensor<256xf32>
    tt.return %y : tensor<256xf32>
  ^bb1:  // no predecessors
    %p = ub.poison : tensor<256xf32>
    tt.return %p : tensor<256xf32>
  }
  tt.func public @scale_kernel(%arg0: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg1: i32) attributes {noinline = false} {
    %pid = tt.get_program_id x : i32
    %c256 = arith.constant 256 : i32
    %start = arith.muli %pid, %c256 : i32
    %r = tt.make_range {end = 256 : i32, start = 0 : i32} : tensor<256xi32>
    %s = tt.splat %start : i32 -> tensor<256xi32>
    %offs = arith.addi %s, %r : tensor<256xi32>
    %n = tt.splat %arg1 : i32 -> tensor<256xi32>
    %mask = arith.cmpi slt, %offs, %n : tensor<256xi32>
    %base = tt.splat %arg0 : !tt.ptr<f32> -> tensor<256x!tt.ptr<f32>>
    %ptrs = tt.addptr %base, %offs : tensor<256x!tt.ptr<f32>>, tensor<256xi32>
    %x = tt.load %ptrs, %mask : tensor<256x!tt.ptr<f32>>
    %y = tt.call @scale(%x) : (tensor<256xf32>) -> tensor<256xf32>
    %unused = arith.addf %y, %y : tensor<256xf32>
    tt.store %ptrs, %y, %mask : tensor<256x!tt.ptr<f32>>
    tt.return
  }
}

// -----

// Block pointers become pointer tensors; canonicalize folds the zero offsets and unit strides, combine merges
// the two addptrs into one on the sum of the offsets, CSE shares that sum between the load and the store.
// CHECK-LABEL: tt.func public @block_ptr_load
// CHECK-DAG: %[[PAD:.*]] = arith.constant dense<0.000000e+00> : tensor<32x64xf16>
// CHECK-DAG: %[[ZERO:.*]] = arith.constant dense<0> : tensor<32x1xi64>
// CHECK-DAG: %[[STRIDE:.*]] = arith.constant dense<64> : tensor<32x1xi64>
// CHECK: %[[ROWS:.*]] = tt.expand_dims %{{.*}} {axis = 1 : i32} : tensor<32xi64> -> tensor<32x1xi64>
// CHECK-NEXT: %[[ROWOFF:.*]] = arith.muli %[[ROWS]], %[[STRIDE]] : tensor<32x1xi64>
// CHECK: %[[OFFS:.*]] = arith.addi %{{.*}}, %{{.*}} : tensor<32x64xi64>
// CHECK-NEXT: %[[P:.*]] = tt.addptr %{{.*}}, %[[OFFS]] : tensor<32x64x!tt.ptr<f16>>, tensor<32x64xi64>
// CHECK-NEXT: arith.cmpi sge, %[[ROWS]], %[[ZERO]] : tensor<32x1xi64>
// CHECK: %[[MASK:.*]] = tt.broadcast %{{.*}} : tensor<32x1xi1> -> tensor<32x64xi1>
// CHECK-NEXT: %[[V:.*]] = tt.load %[[P]], %[[MASK]], %[[PAD]] : tensor<32x64x!tt.ptr<f16>>
// CHECK-NEXT: %[[OUT:.*]] = tt.splat %arg2 : !tt.ptr<f16> -> tensor<32x64x!tt.ptr<f16>>
// CHECK-NEXT: %[[Q:.*]] = tt.addptr %[[OUT]], %[[OFFS]] : tensor<32x64x!tt.ptr<f16>>, tensor<32x64xi64>
// CHECK-NEXT: tt.store %[[Q]], %[[V]] : tensor<32x64x!tt.ptr<f16>>
// CHECK-NOT: tt.make_tensor_ptr
module {
  tt.func public @block_ptr_load(%arg0: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %arg1: i32, %arg2: !tt.ptr<f16>) attributes {noinline = false} {
    %c0_i32 = arith.constant 0 : i32
    %c1_i64 = arith.constant 1 : i64
    %c64_i64 = arith.constant 64 : i64
    %0 = arith.extsi %arg1 : i32 to i64
    %1 = tt.make_tensor_ptr %arg0, [%0, %c64_i64], [%c64_i64, %c1_i64], [%c0_i32, %c0_i32] {order = array<i32: 1, 0>} : <tensor<32x64xf16>>
    %2 = tt.load %1 {boundaryCheck = array<i32: 0>, padding = 1 : i32} : !tt.ptr<tensor<32x64xf16>>
    %3 = tt.make_tensor_ptr %arg2, [%0, %c64_i64], [%c64_i64, %c1_i64], [%c0_i32, %c0_i32] {order = array<i32: 1, 0>} : <tensor<32x64xf16>>
    tt.store %3, %2 : !tt.ptr<tensor<32x64xf16>>
    tt.return
  }
}

// -----

// dot(a, b, 0) + exp(broadcast(bias)) -> dot(a, b, broadcast(exp(bias))): combine, then reorder-broadcast,
// then CSE merges the two exps.
// CHECK-LABEL: tt.func public @dot_bias
// CHECK-NEXT: %[[E:.*]] = math.exp %arg2 : tensor<1x32xf32>
// CHECK-NEXT: %[[B:.*]] = tt.broadcast %[[E]] : tensor<1x32xf32> -> tensor<32x32xf32>
// CHECK-NEXT: %[[D:.*]] = tt.dot %arg0, %arg1, %[[B]], inputPrecision = tf32 : tensor<32x32xf16> * tensor<32x32xf16> -> tensor<32x32xf32>
// CHECK-NEXT: tt.store %arg3, %[[D]] : tensor<32x32x!tt.ptr<f32>>
// CHECK-NEXT: tt.return
module {
  tt.func public @dot_bias(%a: tensor<32x32xf16>, %b: tensor<32x32xf16>, %bias: tensor<1x32xf32>, %p: tensor<32x32x!tt.ptr<f32>>) attributes {noinline = false} {
    %zero = arith.constant 0.000000e+00 : f32
    %acc = tt.splat %zero : f32 -> tensor<32x32xf32>
    %d = tt.dot %a, %b, %acc, inputPrecision = tf32 : tensor<32x32xf16> * tensor<32x32xf16> -> tensor<32x32xf32>
    %e = math.exp %bias : tensor<1x32xf32>
    %bb = tt.broadcast %bias : tensor<1x32xf32> -> tensor<32x32xf32>
    %eb = math.exp %bb : tensor<32x32xf32>
    %r = arith.addf %d, %eb : tensor<32x32xf32>
    tt.store %p, %r : tensor<32x32x!tt.ptr<f32>>
    tt.return
  }
}

// -----

// Loop unrolling comes last: its bound computations are not canonicalized.
// CHECK-LABEL: tt.func public @unrolled_last
// CHECK: arith.divui
// CHECK: arith.remsi
// CHECK: %[[UB:.*]] = arith.addi %c0_i32, %{{.*}} : i32
// CHECK: scf.for %{{.*}} = %c0_i32 to %[[UB]] step
// CHECK-COUNT-2: tt.store
// CHECK: scf.for %{{.*}} = %[[UB]] to %arg1 step %c1_i32
// CHECK-NEXT: tt.addptr
// CHECK-NEXT: tt.store
// CHECK-NEXT: } {tt.num_stages = 1 : i32}
module {
  tt.func public @unrolled_last(%p: !tt.ptr<f32>, %n: i32) attributes {noinline = false} {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %z = arith.constant 0.000000e+00 : f32
    scf.for %i = %c0 to %n step %c1  : i32 {
      %q = tt.addptr %p, %i : !tt.ptr<f32>, i32
      tt.store %q, %z : !tt.ptr<f32>
    } {tt.loop_unroll_factor = 2 : i32}
    tt.return
  }
}

// -----

// Nothing to do: unchanged.
// CHECK-LABEL: tt.func public @already_canonical
// CHECK-NEXT: %[[L:.*]] = tt.load %arg0 : tensor<128x!tt.ptr<f32>>
// CHECK-NEXT: %[[S:.*]] = arith.addf %[[L]], %arg1 : tensor<128xf32>
// CHECK-NEXT: tt.store %arg0, %[[S]] : tensor<128x!tt.ptr<f32>>
// CHECK-NEXT: tt.return
module {
  tt.func public @already_canonical(%arg0: tensor<128x!tt.ptr<f32>>, %arg1: tensor<128xf32>) attributes {noinline = false} {
    %0 = tt.load %arg0 : tensor<128x!tt.ptr<f32>>
    %1 = arith.addf %0, %arg1 : tensor<128xf32>
    tt.store %arg0, %1 : tensor<128x!tt.ptr<f32>>
    tt.return
  }
}
