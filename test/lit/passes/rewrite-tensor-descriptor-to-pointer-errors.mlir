// RUN: not tt-opt %s -split-input-file -triton-rewrite-tensor-descriptor-to-pointer 2>&1 | FileCheck %s

// A descriptor used by an op the rewrite does not know (Triton's conversion fails there too), and an access whose
// indices do not match the descriptor's rank, are located errors.
// CHECK: rewrite-tensor-descriptor-to-pointer-errors.mlir:[[# @LINE + 3]]:3: error: 'ttng.reinterpret_tensor_descriptor' with a tensor descriptor operand or result cannot be rewritten to pointers by triton-rewrite-tensor-descriptor-to-pointer
// CHECK-NOT: Traceback
tt.func public @reinterpret(%raw: !tt.ptr<i8>) {
  %d = ttng.reinterpret_tensor_descriptor %raw : !tt.ptr<i8> to !tt.tensordesc<tensor<16xf32>>
  tt.return
}

// -----

// CHECK: rewrite-tensor-descriptor-to-pointer-errors.mlir:[[# @LINE + 2]]:3: error: 'tt.descriptor_load' op has 1 indices for a rank-2 descriptor, which triton-rewrite-tensor-descriptor-to-pointer cannot rewrite
tt.func public @indices(%d: !tt.tensordesc<tensor<16x16xf32>>, %i: i32) -> tensor<16x16xf32> {
  %0 = tt.descriptor_load %d[%i] : !tt.tensordesc<tensor<16x16xf32>> -> tensor<16x16xf32>
  tt.return %0 : tensor<16x16xf32>
}
