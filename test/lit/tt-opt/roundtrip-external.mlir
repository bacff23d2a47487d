// RUN: tt-opt %s | FileCheck %s
// RUN: tt-opt %s --mlir-print-op-generic | tt-opt | FileCheck %s
// RUN: tt-opt %s -canonicalize -cse | FileCheck %s --check-prefix=CANON

// tt.elementwise_inline_asm (several results, none, no operands), tt.extern_elementwise and arith.remf print as
// Triton prints them. An impure inline asm survives canonicalization although its result is unused.

// CHECK-LABEL: tt.func public @external
// CHECK: %[[W:.*]] = tt.elementwise_inline_asm "griddepcontrol.wait; // dummy $0" {constraints = "=r", packed_element = 1 : i32, pure = false} -> i32
// CHECK: %[[A:.*]]:2 = tt.elementwise_inline_asm "shl.b32 $0, $2, 3;\0A\09cvt.rn.f32.s32 $1, $3;" {constraints = "=r,=r,r,r", packed_element = 4 : i32, pure = true} %{{.*}}, %{{.*}} : tensor<128xi8>, tensor<128xi32> -> tensor<128xi8>, tensor<128xf32>
// CHECK: tt.extern_elementwise %[[A]]#1, %{{.*}} {libname = "", libpath = "", pure = true, symbol = "__nv_powf"} : (tensor<128xf32>, tensor<128xf32>) -> tensor<128xf32>
// CHECK: arith.remf %{{.*}}, %[[A]]#1 : tensor<128xf32>
// CANON-LABEL: tt.func public @external
// CANON: tt.elementwise_inline_asm "griddepcontrol.wait; // dummy $0"
// CANON-NOT: tt.elementwise_inline_asm "unused
tt.func public @external(%x: tensor<128xi8>, %y: tensor<128xi32>, %z: tensor<128xf32>) -> tensor<128xf32> {
  %w = tt.elementwise_inline_asm "griddepcontrol.wait; // dummy $0" {constraints = "=r", packed_element = 1 : i32, pure = false} -> i32
  %a:2 = tt.elementwise_inline_asm "shl.b32 $0, $2, 3;\0A\09cvt.rn.f32.s32 $1, $3;" {constraints = "=r,=r,r,r", packed_element = 4 : i32, pure = true} %x, %y : tensor<128xi8>, tensor<128xi32> -> tensor<128xi8>, tensor<128xf32>
  %u = tt.elementwise_inline_asm "unused $0, $1;" {constraints = "=r,r", packed_element = 1 : i32, pure = true} %y : tensor<128xi32> -> tensor<128xi32>
  %p = tt.extern_elementwise %a#1, %z {libname = "", libpath = "", pure = true, symbol = "__nv_powf"} : (tensor<128xf32>, tensor<128xf32>) -> tensor<128xf32>
  %r = arith.remf %p, %a#1 : tensor<128xf32>
  tt.return %r : tensor<128xf32>
}
