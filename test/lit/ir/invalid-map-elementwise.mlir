// RUN: tt-opt %s -split-input-file -verify-diagnostics

// tt.map_elementwise checks, with Triton's words: operands and results of one shape and layout, at least one
// operand, a power-of-two pack, `pack` region arguments per operand of its element type, returns of `pack`
// elements per result, no op that writes memory in the region. tt.unsplat needs a one-element tensor.

tt.func @shapes(%a: tensor<64xi32>) {
  // expected-error @+1 {{'tt.map_elementwise' op requires the same shape for all operands and results}}
  %0 = "tt.map_elementwise"(%a) <{pack = 1 : i32}> ({
  ^bb0(%x: i32):
    tt.map_elementwise.return %x : i32
  }) : (tensor<64xi32>) -> tensor<32xi32>
  tt.return
}

// -----

#a = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#b = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-warps" = 4 : i32} {
tt.func @layouts(%a: tensor<256xi32, #a>) {
  // expected-error @+1 {{'tt.map_elementwise' op requires the same encoding for all operands and results}}
  %0 = "tt.map_elementwise"(%a) <{pack = 1 : i32}> ({
  ^bb0(%x: i32):
    tt.map_elementwise.return %x : i32
  }) : (tensor<256xi32, #a>) -> tensor<256xi32, #b>
  tt.return
}
}

// -----

tt.func @no_operand() {
  // expected-error @+1 {{'tt.map_elementwise' op MapElementwiseOp must have at least 1 operand}}
  %0 = "tt.map_elementwise"() <{pack = 1 : i32}> ({
  ^bb0:
    %c = arith.constant 0 : i32
    tt.map_elementwise.return %c : i32
  }) : () -> tensor<64xi32>
  tt.return
}

// -----

tt.func @pack(%a: tensor<64xi32>) {
  // expected-error @+1 {{'tt.map_elementwise' op Pack must be a power of 2}}
  %0 = "tt.map_elementwise"(%a) <{pack = 3 : i32}> ({
  ^bb0(%x: i32, %y: i32, %z: i32):
    tt.map_elementwise.return %x, %y, %z : i32, i32, i32
  }) : (tensor<64xi32>) -> tensor<64xi32>
  tt.return
}

// -----

tt.func @arg_count(%a: tensor<64xi32>) {
  // expected-error @+1 {{'tt.map_elementwise' op region has wrong number of arguments}}
  %0 = "tt.map_elementwise"(%a) <{pack = 2 : i32}> ({
  ^bb0(%x: i32):
    tt.map_elementwise.return %x, %x : i32, i32
  }) : (tensor<64xi32>) -> tensor<64xi32>
  tt.return
}

// -----

tt.func @arg_type(%a: tensor<64xi32>) {
  // expected-error @+1 {{argument types did not match}}
  %0 = "tt.map_elementwise"(%a) <{pack = 1 : i32}> ({
  ^bb0(%x: f32):
    tt.map_elementwise.return %x : f32
  }) : (tensor<64xi32>) -> tensor<64xf32>
  tt.return
}

// -----

tt.func @returns(%a: tensor<64xi32>) {
  %0 = "tt.map_elementwise"(%a) <{pack = 2 : i32}> ({
  ^bb0(%x: i32, %y: i32):
    // expected-error @+1 {{region return does not match map_elementwise result}}
    tt.map_elementwise.return %x : i32
  }) : (tensor<64xi32>) -> tensor<64xi32>
  tt.return
}

// -----

tt.func @atomic_inside(%p: tensor<64x!tt.ptr<i32>>, %a: tensor<64xi32>) {
  %0 = "tt.map_elementwise"(%p, %a) <{pack = 1 : i32}> ({
  ^bb0(%q: !tt.ptr<i32>, %x: i32):
    // expected-error @+1 {{'tt.atomic_rmw' op Stores are not supported inside map_elementwise}}
    %o = tt.atomic_rmw add, relaxed, gpu, %q, %x : (!tt.ptr<i32>, i32) -> i32
    tt.map_elementwise.return %o : i32
  }) : (tensor<64x!tt.ptr<i32>>, tensor<64xi32>) -> tensor<64xi32>
  tt.return
}

// -----

tt.func @unsplat_many(%a: tensor<2x1xf32>) {
  // expected-error @+1 {{source tensor must have exactly one element}}
  %0 = tt.unsplat %a : tensor<2x1xf32>
  tt.return
}

// -----

tt.func @unsplat_type(%a: tensor<1xf32>) {
  // expected-error @+1 {{'tt.unsplat' op inferred type(s) 'f32' are incompatible with return type(s) of operation 'i32'}}
  %0 = "tt.unsplat"(%a) : (tensor<1xf32>) -> i32
  tt.return
}
