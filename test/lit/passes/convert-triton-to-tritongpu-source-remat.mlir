// RUN: tt-opt %s -convert-triton-to-tritongpu='target=cuda:100 num-warps=4 enable-source-remat=true' | FileCheck %s

#tm = #ttng.tensor_memory_encoding<blockM = 128, blockN = 64, colStride = 1>
// With enable-source-remat, TritonNvidiaGPU ops keep their layout-less tensors: a converted value reaches them
// through one cast back to its old type, made after its definition; a value they make reaches converted ops
// through a layout conversion.
// CHECK-LABEL: tt.func @tmem
// CHECK: %[[V:.*]] = arith.constant dense<1.000000e+00> : tensor<128x64xf32, #blocked>
// CHECK-NEXT: %[[R:.*]] = builtin.unrealized_conversion_cast %[[V]] : tensor<128x64xf32, #blocked> to tensor<128x64xf32>
// CHECK: ttng.tmem_store %[[R]], %arg0, %true : tensor<128x64xf32> ->
// CHECK-NEXT: ttng.tmem_store %[[R]], %arg0, %true : tensor<128x64xf32> ->
// CHECK-NEXT: %[[L:.*]] = ttng.tmem_load %arg0 : {{.*}} -> tensor<128x64xf32>
// CHECK-NEXT: %[[C:.*]] = ttg.convert_layout %[[L]] : tensor<128x64xf32> -> tensor<128x64xf32, #blocked>
// CHECK-NEXT: arith.negf %[[C]] : tensor<128x64xf32, #blocked>
tt.func @tmem(%m: !ttg.memdesc<128x64xf32, #tm, #ttng.tensor_memory, mutable>) -> tensor<128x64xf32> {
  %v = arith.constant dense<1.0> : tensor<128x64xf32>
  %true = arith.constant true
  ttng.tmem_store %v, %m, %true : tensor<128x64xf32> -> !ttg.memdesc<128x64xf32, #tm, #ttng.tensor_memory, mutable>
  ttng.tmem_store %v, %m, %true : tensor<128x64xf32> -> !ttg.memdesc<128x64xf32, #tm, #ttng.tensor_memory, mutable>
  %l = ttng.tmem_load %m : !ttg.memdesc<128x64xf32, #tm, #ttng.tensor_memory, mutable> -> tensor<128x64xf32>
  %n = arith.negf %l : tensor<128x64xf32>
  tt.return %n : tensor<128x64xf32>
}
