// RUN: tt-opt %s -split-input-file -verify-diagnostics

// Invalid IR: every chunk must produce exactly the diagnostics its expected-*
// comments name, on the lines they name; the valid chunks must produce none.
// The rules and messages are Triton 3.6's (its ops' traits, verifiers and type
// inference); a verifier stops at the first problem of a function.

// tt.splat

tt.func @splat_element_type(%arg0: i32) {
  %0 = tt.splat %arg0 : i32 -> tensor<128xi64> // expected-error {{'tt.splat' op requires the same element type for all operands and results}}
  tt.return
}

// -----

// tt.broadcast

tt.func @broadcast_rank(%arg0: tensor<128xi32>) {
  // expected-error @below {{rank of source must be same as rank of result}}
  %0 = tt.broadcast %arg0 : tensor<128xi32> -> tensor<128x32xi32>
  tt.return
}

// -----

tt.func @broadcast_non_unit_dim(%arg0: tensor<2x32xi32>) {
  %0 = tt.broadcast %arg0 : tensor<2x32xi32> -> tensor<128x32xi32>
  // expected-error @above {{Different dimensions at index 0 between source and result.  Broadcast requires the source dimension to be 1.}}
  tt.return
}

// -----

tt.func @broadcast_element_type(%arg0: tensor<1x32xi32>) {
  // expected-error @+1 {{'tt.broadcast' op requires the same element type for all operands and results}}
  %0 = tt.broadcast %arg0 : tensor<1x32xi32> -> tensor<8x32xi64>
  tt.return
}

// -----

// tt.expand_dims: the result type is inferred from the operand's

tt.func @expand_dims_axis(%arg0: tensor<64xi32>) {
  // expected-error @+2 {{'tt.expand_dims' op axis 2 is out of range for a rank-1 operand}}
  // expected-error @+1 {{'tt.expand_dims' op failed to infer returned types}}
  %0 = tt.expand_dims %arg0 {axis = 2 : i32} : tensor<64xi32> -> tensor<64x1xi32>
  tt.return
}

// -----

tt.func @expand_dims_shape(%arg0: tensor<64xi32>) {
  // expected-error @+2 {{'tt.expand_dims' op inferred type(s) 'tensor<1x64xi32>' are incompatible with return type(s) of operation 'tensor<64x1xi32>'}}
  // expected-error @+1 {{'tt.expand_dims' op failed to infer returned types}}
  %0 = tt.expand_dims %arg0 {axis = 0 : i32} : tensor<64xi32> -> tensor<64x1xi32>
  tt.return
}

// -----

tt.func @expand_dims_element_type(%arg0: tensor<64xi32>) {
  // expected-error @+1 {{'tt.expand_dims' op requires the same element type for all operands and results}}
  %0 = tt.expand_dims %arg0 {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi64>
  tt.return
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#blocked2 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [1, 4], order = [1, 0]}>
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @expand_dims_not_slice(%arg0: tensor<128xi32, #blocked>) {
    // expected-error @+3 {{ExpandDimsOp operand encoding must be SliceEncodingAttr}}
    // expected-error @+2 {{failed to infer layout for ExpandDimsOp}}
    // expected-error @+1 {{'tt.expand_dims' op failed to infer returned types}}
    %0 = tt.expand_dims %arg0 {axis = 0 : i32} : tensor<128xi32, #blocked> -> tensor<1x128xi32, #blocked2>
    tt.return
  }
}

// -----

#blocked2 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [1, 4], order = [1, 0]}>
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @expand_dims_slice_dim(%arg0: tensor<128xi32, #ttg.slice<{dim = 1, parent = #blocked2}>>) {
    // expected-error @+3 {{Incompatible slice dimension for ExpandDimsOp operand}}
    // expected-error @+2 {{failed to infer layout for ExpandDimsOp}}
    // expected-error @+1 {{'tt.expand_dims' op failed to infer returned types}}
    %0 = tt.expand_dims %arg0 {axis = 0 : i32} : tensor<128xi32, #ttg.slice<{dim = 1, parent = #blocked2}>> -> tensor<1x128xi32, #blocked2>
    tt.return
  }
}

// -----

// tt.trans

tt.func @trans_order_size(%arg0: tensor<16x32xf32>) {
  // expected-error @+1 {{order must have the same size as the rank of the operand and result}}
  %0 = tt.trans %arg0 {order = array<i32: 0>} : tensor<16x32xf32> -> tensor<16x32xf32>
  tt.return
}

// -----

tt.func @trans_order(%arg0: tensor<16x32xf32>) {
  // expected-error @+1 {{order must be a permutation of [0, ..., rank - 1]}}
  %0 = tt.trans %arg0 {order = array<i32: 0, 0>} : tensor<16x32xf32> -> tensor<16x16xf32>
  tt.return
}

// -----

tt.func @trans_shape(%arg0: tensor<16x32xf32>) {
  // expected-error @+1 {{result shape must match the permutation of the source shape}}
  %0 = tt.trans %arg0 {order = array<i32: 1, 0>} : tensor<16x32xf32> -> tensor<16x32xf32>
  tt.return
}

// -----

tt.func @trans_element_type(%arg0: tensor<16x32xf32>) {
  // expected-error @+1 {{'tt.trans' op requires the same element type for all operands and results}}
  %0 = tt.trans %arg0 {order = array<i32: 1, 0>} : tensor<16x32xf32> -> tensor<32x16xf16>
  tt.return
}

// -----

// The layout of a transpose is the operand's, permuted (here it should be #blocked1's transpose).
#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @trans_layout(%arg0: tensor<32x64xf32, #blocked>) {
    // expected-error @+2 {{'tt.trans' op inferred type(s) 'tensor<64x32xf32, #ttg.blocked<{sizePerThread = [4, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>>' are incompatible with return type(s) of operation 'tensor<64x32xf32, #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>>'}}
    // expected-error @+1 {{'tt.trans' op failed to infer returned types}}
    %0 = tt.trans %arg0 {order = array<i32: 1, 0>} : tensor<32x64xf32, #blocked> -> tensor<64x32xf32, #blocked>
    tt.return
  }
}

// -----

// tt.reshape

tt.func @reshape_num_elements(%arg0: tensor<32x128xf16>) {
  // expected-error @+1 {{number of src and dst elements of reshape must be the same}}
  %0 = tt.reshape %arg0 : tensor<32x128xf16> -> tensor<64x32xf16>
  tt.return
}

// -----

tt.func @reshape_element_type(%arg0: tensor<32x128xf16>) {
  // expected-error @+1 {{'tt.reshape' op requires the same element type for all operands and results}}
  %0 = tt.reshape %arg0 : tensor<32x128xf16> -> tensor<4096xf32>
  tt.return
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @reshape_encodings(%arg0: tensor<32x128xf16, #blocked>) {
    // expected-error @+1 {{Op requires that either (a) src and dst both have encodings, or (b) neither does.}}
    %0 = tt.reshape %arg0 : tensor<32x128xf16, #blocked> -> tensor<4096xf16>
    tt.return
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @reshape_layout(%arg0: tensor<32x128xf16, #blocked>) {
    // expected-error-re @+1 {{Expected result encoding #ttg.linear<{{.*}}> but was #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>}}
    %0 = tt.reshape %arg0 : tensor<32x128xf16, #blocked> -> tensor<4096xf16, #blocked1>
    tt.return
  }
}

// -----

// tt.join / tt.split

tt.func @join_result_shape(%arg0: tensor<32xf32>, %arg1: tensor<32xf32>) {
  // expected-error @+1 {{'tt.join' op result shape must be (32, 2), but got 64}}
  %0 = tt.join %arg0, %arg1 : tensor<32xf32> -> tensor<64xf32>
  tt.return
}

// -----

tt.func @join_element_type(%arg0: tensor<32xf32>, %arg1: tensor<32xf32>) {
  // expected-error @+1 {{'tt.join' op result element type must match the input element type}}
  %0 = tt.join %arg0, %arg1 : tensor<32xf32> -> tensor<32x2xf16>
  tt.return
}

// -----

// The custom form gives both operands the type written once, so a second
// operand of another type conflicts with its definition, as in MLIR.
// expected-note @+1 {{prior use here}}
tt.func @join_operand_types(%arg0: tensor<32xf32>, %arg1: tensor<32xf16>) {
  // expected-error @+1 {{use of value '%arg1' expects different type than prior uses: 'tensor<32xf32>' vs 'tensor<32xf16>'}}
  %0 = tt.join %arg0, %arg1 : tensor<32xf32> -> tensor<32x2xf32>
  tt.return
}

// -----

tt.func @join_operand_types_generic(%arg0: tensor<32xf32>, %arg1: tensor<32xf16>) {
  // expected-error @+1 {{'tt.join' op requires all operands to have the same type}}
  %0 = "tt.join"(%arg0, %arg1) : (tensor<32xf32>, tensor<32xf16>) -> tensor<32x2xf32>
  tt.return
}

// -----

// Operands and results of these ops are parsed as tensors, as in MLIR.
tt.func @join_scalar(%arg0: f32) {
  // expected-error @+1 {{invalid kind of type specified: expected builtin.tensor, but found 'f32'}}
  %0 = tt.join %arg0, %arg0 : f32 -> tensor<2xf32>
  tt.return
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @join_encoding(%arg0: tensor<128xf32, #blocked>) {
    // expected-error @+1 {{'tt.join' op result encoding must be specified}}
    %0 = tt.join %arg0, %arg0 : tensor<128xf32, #blocked> -> tensor<128x2xf32>
    tt.return
  }
}

// -----

// The joined dimension must be held by each thread, innermost (the layout split of the result is the operand's).
#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [2, 2], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @join_layout(%arg0: tensor<128xf32, #blocked>) {
    // expected-error @+1 {{'tt.join' op incompatible join layout}}
    %0 = tt.join %arg0, %arg0 : tensor<128xf32, #blocked> -> tensor<128x2xf32, #blocked1>
    tt.return
  }
}

// -----

tt.func @split_last_dim(%arg0: tensor<32x4xf32>) {
  // expected-error @+2 {{last dimension of input tensor must be 2}}
  // expected-error @+1 {{'tt.split' op failed to infer returned types}}
  %0, %1 = tt.split %arg0 : tensor<32x4xf32> -> tensor<32xf32>
  tt.return
}

// -----

tt.func @split_element_type(%arg0: tensor<32x2xf32>) {
  // expected-error @+2 {{'tt.split' op inferred type(s) 'tensor<32xf32>', 'tensor<32xf32>' are incompatible with return type(s) of operation 'tensor<32xf16>', 'tensor<32xf16>'}}
  // expected-error @+1 {{'tt.split' op failed to infer returned types}}
  %0, %1 = tt.split %arg0 : tensor<32x2xf32> -> tensor<32xf16>
  tt.return
}

// -----

// tt.addptr

tt.func @addptr_float_offset(%arg0: !tt.ptr<f32>, %arg1: f32) {
  // expected-error @+1 {{'tt.addptr' op operand #1 must be integer or ranked tensor of integer values, but got 'f32'}}
  %0 = tt.addptr %arg0, %arg1 : !tt.ptr<f32>, f32
  tt.return
}

// -----

tt.func @addptr_shape(%arg0: tensor<128x!tt.ptr<f32>>, %arg1: tensor<64xi32>) {
  // expected-error @+1 {{'tt.addptr' op requires the same shape for all operands and results}}
  %0 = tt.addptr %arg0, %arg1 : tensor<128x!tt.ptr<f32>>, tensor<64xi32>
  tt.return
}

// -----

// tt.load / tt.store (generic form: the custom form infers these types)

tt.func @load_result_type(%arg0: tensor<128x!tt.ptr<f32>>) {
  // expected-error @+1 {{'tt.load' op failed to verify that result matches ptr type}}
  %0 = "tt.load"(%arg0) <{operandSegmentSizes = array<i32: 1, 0, 0>}> : (tensor<128x!tt.ptr<f32>>) -> tensor<128xf16>
  tt.return
}

// -----

tt.func @load_mask_type(%arg0: tensor<128x!tt.ptr<f32>>, %arg1: tensor<128xi32>) {
  // expected-error @+1 {{'tt.load' op failed to verify that mask type matches ptr type}}
  %0 = "tt.load"(%arg0, %arg1) <{operandSegmentSizes = array<i32: 1, 1, 0>}> : (tensor<128x!tt.ptr<f32>>, tensor<128xi32>) -> tensor<128xf32>
  tt.return
}

// -----

tt.func @load_other_type(%arg0: tensor<128x!tt.ptr<f32>>, %arg1: tensor<128xi1>, %arg2: tensor<128xf16>) {
  // expected-error @+1 {{'tt.load' op failed to verify that other matches ptr type}}
  %0 = "tt.load"(%arg0, %arg1, %arg2) <{operandSegmentSizes = array<i32: 1, 1, 1>}> : (tensor<128x!tt.ptr<f32>>, tensor<128xi1>, tensor<128xf16>) -> tensor<128xf32>
  tt.return
}

// -----

// In the custom form the mask's type is implied by the pointer's, so an i32
// mask conflicts with the argument's declared type.
// expected-note @+1 {{prior use here}}
tt.func @load_mask_custom_form(%arg0: tensor<128x!tt.ptr<f32>>, %arg1: tensor<128xi32>) {
  // expected-error @+1 {{use of value '%arg1' expects different type than prior uses: 'tensor<128xi1>' vs 'tensor<128xi32>'}}
  %0 = tt.load %arg0, %arg1 : tensor<128x!tt.ptr<f32>>
  tt.return
}

// -----

tt.func @store_value_type(%arg0: tensor<128x!tt.ptr<f32>>, %arg1: tensor<128xf16>) {
  // expected-error @+1 {{'tt.store' op failed to verify that value type matches ptr type}}
  "tt.store"(%arg0, %arg1) : (tensor<128x!tt.ptr<f32>>, tensor<128xf16>) -> ()
  tt.return
}

// -----

tt.func @store_mask_type(%arg0: tensor<128x!tt.ptr<f32>>, %arg1: tensor<128xf32>, %arg2: tensor<64xi1>) {
  // expected-error @+1 {{'tt.store' op failed to verify that mask type matches ptr type}}
  "tt.store"(%arg0, %arg1, %arg2) : (tensor<128x!tt.ptr<f32>>, tensor<128xf32>, tensor<64xi1>) -> ()
  tt.return
}

// -----

// tt.atomic_rmw / tt.atomic_cas: the pointer is a (global) pointer to the value's type

tt.func @atomic_rmw_types(%arg0: !tt.ptr<f32>, %arg1: i32) {
  // expected-error @+1 {{'tt.atomic_rmw' op failed to verify that ptr type matches value type}}
  %0 = tt.atomic_rmw add, relaxed, gpu, %arg0, %arg1 : (!tt.ptr<f32>, i32) -> i32
  tt.return
}

// -----

tt.func @atomic_rmw_mask(%arg0: tensor<64x!tt.ptr<i32>>, %arg1: tensor<64xi32>, %arg2: tensor<32xi1>) {
  // expected-error @+1 {{'tt.atomic_rmw' op failed to verify that mask type matches value type}}
  %0 = tt.atomic_rmw add, relaxed, gpu, %arg0, %arg1, %arg2 : (tensor<64x!tt.ptr<i32>>, tensor<64xi32>, tensor<32xi1>) -> tensor<64xi32>
  tt.return
}

// -----

tt.func @atomic_cas_cmp(%arg0: !tt.ptr<i64>, %arg1: i32, %arg2: i64) {
  // expected-error @+1 {{'tt.atomic_cas' op failed to verify that ptr type matches cmp type}}
  %0 = tt.atomic_cas acq_rel, gpu, %arg0, %arg1, %arg2 : (!tt.ptr<i64>, i32, i64) -> i64
  tt.return
}

// -----

tt.func @atomic_cas_value(%arg0: !tt.ptr<i64>, %arg1: i64, %arg2: i32) {
  // expected-error @+1 {{'tt.atomic_cas' op failed to verify that ptr type matches value type}}
  %0 = tt.atomic_cas acq_rel, gpu, %arg0, %arg1, %arg2 : (!tt.ptr<i64>, i64, i32) -> i64
  tt.return
}

// -----

tt.func @atomic_cas_bad_sem(%arg0: !tt.ptr<i32>, %arg1: i32) {
  // expected-error @+1 {{Expected one of 'acq_rel', 'acquire', 'relaxed', 'release' for 'sem'}}
  %0 = tt.atomic_cas seq_cst, gpu, %arg0, %arg1, %arg1 : (!tt.ptr<i32>, i32, i32) -> i32
  tt.return
}

// -----

// tt.dot: Triton's DotOpInterface checks, then its verifier

tt.func @dot_rank(%a: tensor<16xf16>, %b: tensor<16xf16>, %c: tensor<16xf32>) {
  // expected-error @+1 {{'tt.dot' op expected operands to be 2d or 3d}}
  %0 = tt.dot %a, %b, %c : tensor<16xf16> * tensor<16xf16> -> tensor<16xf32>
  tt.return
}

// -----

tt.func @dot_k_mismatch(%a: tensor<16x32xf16>, %b: tensor<16x16xf16>, %c: tensor<16x16xf32>) {
  // expected-error @+1 {{'tt.dot' op expected the last dimension of the first operand to be equal to the second-to-last dimension of the second operand}}
  %0 = tt.dot %a, %b, %c : tensor<16x32xf16> * tensor<16x16xf16> -> tensor<16x16xf32>
  tt.return
}

// -----

tt.func @dot_acc_shape(%a: tensor<16x32xf16>, %b: tensor<32x64xf16>, %c: tensor<16x16xf32>) {
  // expected-error @+1 {{'tt.dot' op expected the output shape to be the concatenation of the last dimension of the first operand and the last dimension of the second}}
  %0 = tt.dot %a, %b, %c : tensor<16x32xf16> * tensor<32x64xf16> -> tensor<16x16xf32>
  tt.return
}

// -----

tt.func @dot_bit_width(%a: tensor<16x16xf32>, %b: tensor<16x16xf16>, %c: tensor<16x16xf32>) {
  // expected-error @+1 {{element types of operands A and B must have same bit width}}
  %0 = tt.dot %a, %b, %c : tensor<16x16xf32> * tensor<16x16xf16> -> tensor<16x16xf32>
  tt.return
}

// -----

#mma = #ttg.nvidia_mma<{versionMajor = 2, warpsPerCTA = [1, 1], instrShape = [16, 8]}>
module attributes {"ttg.num-warps" = 1 : i32} {
  tt.func @dot_a_encoding(%a: tensor<16x16xf16>, %b: tensor<16x16xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>, %c: tensor<16x16xf32, #mma>) {
    // expected-error @+1 {{mismatching encoding between A and B operands}}
    %0 = tt.dot %a, %b, %c : tensor<16x16xf16> * tensor<16x16xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>> -> tensor<16x16xf32, #mma>
    tt.return
  }
}

// -----

#mma = #ttg.nvidia_mma<{versionMajor = 2, warpsPerCTA = [1, 1], instrShape = [16, 8]}>
module attributes {"ttg.num-warps" = 1 : i32} {
  tt.func @dot_c_encoding(%a: tensor<16x16xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>, %b: tensor<16x16xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>, %c: tensor<16x16xf32>) {
    // expected-error @+1 {{miss encoding of C operand}}
    %0 = tt.dot %a, %b, %c : tensor<16x16xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>> * tensor<16x16xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>> -> tensor<16x16xf32>
    tt.return
  }
}

// -----

#mma = #ttg.nvidia_mma<{versionMajor = 2, warpsPerCTA = [1, 1], instrShape = [16, 8]}>
module attributes {"ttg.num-warps" = 1 : i32} {
  tt.func @dot_k_width(%a: tensor<16x16xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 4}>>, %b: tensor<16x16xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>, %c: tensor<16x16xf32, #mma>) {
    // expected-error @+1 {{mismatching kWidth between A and B operands}}
    %0 = tt.dot %a, %b, %c : tensor<16x16xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 4}>> * tensor<16x16xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>> -> tensor<16x16xf32, #mma>
    tt.return
  }
}

// -----

// f32 operands take mma.sync only as tf32.
#mma = #ttg.nvidia_mma<{versionMajor = 2, warpsPerCTA = [1, 1], instrShape = [16, 8]}>
module attributes {"ttg.num-warps" = 1 : i32} {
  tt.func @dot_mma_version(%a: tensor<16x16xf32, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>>, %b: tensor<16x16xf32, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 1}>>, %c: tensor<16x16xf32, #mma>) {
    // expected-error @+1 {{unsupported MMA version}}
    %0 = tt.dot %a, %b, %c, inputPrecision = ieee : tensor<16x16xf32, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>> * tensor<16x16xf32, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 1}>> -> tensor<16x16xf32, #mma>
    tt.return
  }
}

// -----

// The operands' parents and the result must all be MMA layouts of one version, or none.
#mma = #ttg.nvidia_mma<{versionMajor = 2, warpsPerCTA = [1, 1], instrShape = [16, 8]}>
#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 1], order = [1, 0]}>
module attributes {"ttg.num-warps" = 1 : i32} {
  tt.func @dot_mma_parents(%a: tensor<16x16xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>>, %b: tensor<16x16xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>>, %c: tensor<16x16xf16, #mma>) {
    // expected-error @+1 {{mismatching MMA encoding}}
    %0 = tt.dot %a, %b, %c : tensor<16x16xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>> * tensor<16x16xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>> -> tensor<16x16xf16, #mma>
    tt.return
  }
}

// -----

// An operand's dot_op layout must name the result's layout as its parent (checked after the op's verifier).
#mma = #ttg.nvidia_mma<{versionMajor = 2, warpsPerCTA = [1, 1], instrShape = [16, 8]}>
#mma1 = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 1, warpsPerCTA = [1, 1], instrShape = [16, 8]}>
module attributes {"ttg.num-warps" = 1 : i32} {
  tt.func @dot_parent(%a: tensor<16x16xf16, #ttg.dot_op<{opIdx = 0, parent = #mma1, kWidth = 2}>>, %b: tensor<16x16xf16, #ttg.dot_op<{opIdx = 1, parent = #mma1, kWidth = 2}>>, %c: tensor<16x16xf16, #mma>) {
    // expected-error @+2 {{Incompatible parent encoding}}
    // expected-error @+1 {{'tt.dot' op failed to infer returned types}}
    %0 = tt.dot %a, %b, %c : tensor<16x16xf16, #ttg.dot_op<{opIdx = 0, parent = #mma1, kWidth = 2}>> * tensor<16x16xf16, #ttg.dot_op<{opIdx = 1, parent = #mma1, kWidth = 2}>> -> tensor<16x16xf16, #mma>
    tt.return
  }
}

// -----

// tt.make_range

tt.func @make_range_size() {
  // expected-error @+1 {{'tt.make_range' op number of elements in returned tensor, 64, must match size of range [0, 128), which has 128 elements}}
  %0 = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<64xi32>
  tt.return
}

// -----

tt.func @make_range_empty() {
  // expected-error @+1 {{'tt.make_range' op start must be less than end}}
  %0 = tt.make_range {end = 0 : i32, start = 16 : i32} : tensor<16xi32>
  tt.return
}

// -----

tt.func @make_range_rank() {
  // expected-error @+1 {{'tt.make_range' op return type must be a 1D tensor}}
  %0 = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16x1xi32>
  tt.return
}

// -----

tt.func @make_range_element_type() {
  // expected-error @+1 {{'tt.make_range' op returned tensor must have i32 elements}}
  %0 = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi64>
  tt.return
}

// -----

tt.func @make_range_float() {
  // expected-error @+1 {{'tt.make_range' op result #0 must be ranked tensor of integer values, but got 'tensor<16xf32>'}}
  %0 = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xf32>
  tt.return
}

// -----

tt.func @make_range_scalar() {
  // expected-error @+1 {{invalid kind of type specified: expected builtin.tensor, but found 'i32'}}
  %0 = tt.make_range {end = 16 : i32, start = 0 : i32} : i32
  tt.return
}

// -----

// tt.reduce / tt.scan

tt.func @reduce_axis(%arg0: tensor<4x128xf32>) {
  // expected-error @+1 {{'tt.reduce' op axis out of bounds for operand rank 2}}
  %0 = "tt.reduce"(%arg0) <{axis = 2 : i32}> ({
  ^bb0(%lhs: f32, %rhs: f32):
    %1 = arith.addf %lhs, %rhs : f32
    tt.reduce.return %1 : f32
  }) : (tensor<4x128xf32>) -> tensor<4xf32>
  tt.return
}

// -----

tt.func @reduce_element_types(%arg0: tensor<4x128xf32>) {
  // expected-error @+1 {{'tt.reduce' op operand types and result types must agree}}
  %0 = "tt.reduce"(%arg0) <{axis = 0 : i32}> ({
  ^bb0(%lhs: f32, %rhs: f32):
    %1 = arith.addf %lhs, %rhs : f32
    tt.reduce.return %1 : f32
  }) : (tensor<4x128xf32>) -> tensor<128xf16>
  tt.return
}

// -----

tt.func @reduce_operand_shapes(%arg0: tensor<4x128xf32>, %arg1: tensor<8x128xf32>) {
  // expected-error @+1 {{'tt.reduce' op requires the same shape for all operands}}
  %0:2 = "tt.reduce"(%arg0, %arg1) <{axis = 0 : i32}> ({
  ^bb0(%a: f32, %b: f32, %c: f32, %d: f32):
    tt.reduce.return %a, %b : f32, f32
  }) : (tensor<4x128xf32>, tensor<8x128xf32>) -> (tensor<128xf32>, tensor<128xf32>)
  tt.return
}

// -----

// The result type is inferred after the combine region is verified.
tt.func @reduce_result_shape(%arg0: tensor<4x128xf32>) {
  // expected-error @+2 {{'tt.reduce' op inferred type(s) 'tensor<128xf32>' are incompatible with return type(s) of operation 'tensor<4xf32>'}}
  // expected-error @+1 {{'tt.reduce' op failed to infer returned types}}
  %0 = "tt.reduce"(%arg0) <{axis = 0 : i32}> ({
  ^bb0(%lhs: f32, %rhs: f32):
    %1 = arith.addf %lhs, %rhs : f32
    tt.reduce.return %1 : f32
  }) : (tensor<4x128xf32>) -> tensor<4xf32>
  tt.return
}

// -----

tt.func @reduce_block_arguments(%arg0: tensor<4x128xf32>) {
  // expected-error @+1 {{'tt.reduce' op nested block must take 2 arguments, but given block with 1 arguments}}
  %0 = "tt.reduce"(%arg0) <{axis = 0 : i32}> ({
  ^bb0(%lhs: f32):
    tt.reduce.return %lhs : f32
  }) : (tensor<4x128xf32>) -> tensor<128xf32>
  tt.return
}

// -----

tt.func @reduce_block_argument_type(%arg0: tensor<4x128xf32>) {
  // expected-error @+1 {{'tt.reduce' op type mismatch on combine operation. Expected argument 1 to have type 'f32' but got 'f16'}}
  %0 = "tt.reduce"(%arg0) <{axis = 0 : i32}> ({
  ^bb0(%lhs: f32, %rhs: f16):
    tt.reduce.return %lhs : f32
  }) : (tensor<4x128xf32>) -> tensor<128xf32>
  tt.return
}

// -----

tt.func @reduce_return_count(%arg0: tensor<4x128xf32>) {
  // expected-error @+1 {{'tt.reduce' op expected combine operation to return 1 values but got 2}}
  %0 = "tt.reduce"(%arg0) <{axis = 0 : i32}> ({
  ^bb0(%lhs: f32, %rhs: f32):
    tt.reduce.return %lhs, %rhs : f32, f32
  }) : (tensor<4x128xf32>) -> tensor<128xf32>
  tt.return
}

// -----

tt.func @scan_shape(%arg0: tensor<4x128xf32>) {
  // expected-error @+1 {{'tt.scan' op requires the same shape for all operands and results}}
  %0 = "tt.scan"(%arg0) <{axis = 0 : i32, reverse = false}> ({
  ^bb0(%lhs: f32, %rhs: f32):
    %1 = arith.addf %lhs, %rhs : f32
    tt.scan.return %1 : f32
  }) : (tensor<4x128xf32>) -> tensor<128xf32>
  tt.return
}

// -----

tt.func @scan_element_types(%arg0: tensor<4x128xf32>) {
  // expected-error @+1 {{'tt.scan' op operand types and result types must agree}}
  %0 = "tt.scan"(%arg0) <{axis = 0 : i32, reverse = false}> ({
  ^bb0(%lhs: f32, %rhs: f32):
    %1 = arith.addf %lhs, %rhs : f32
    tt.scan.return %1 : f32
  }) : (tensor<4x128xf32>) -> tensor<4x128xf16>
  tt.return
}

// -----

// tt.bitcast / tt.fp_to_fp

tt.func @bitcast_width(%arg0: tensor<128xf32>) {
  // expected-error @+1 {{Cannot bitcast data-type of size 32 to data-type of size 16}}
  %0 = tt.bitcast %arg0 : tensor<128xf32> -> tensor<128xi16>
  tt.return
}

// -----

tt.func @bitcast_pointer_to_int(%arg0: !tt.ptr<f32>) {
  // expected-error @+1 {{Cannot bitcast pointer to non-pointer type}}
  %0 = tt.bitcast %arg0 : !tt.ptr<f32> -> i64
  tt.return
}

// -----

tt.func @bitcast_address_space(%arg0: !tt.ptr<f32>) {
  // expected-error @+1 {{Cannot bitcast pointer between different address spaces}}
  %0 = tt.bitcast %arg0 : !tt.ptr<f32> -> !tt.ptr<f32, 3>
  tt.return
}

// -----

tt.func @bitcast_shape(%arg0: tensor<128xf32>) {
  // expected-error @+1 {{'tt.bitcast' op requires the same shape for all operands and results}}
  %0 = tt.bitcast %arg0 : tensor<128xf32> -> tensor<64xi32>
  tt.return
}

// -----

tt.func @fp_to_fp_integer(%arg0: tensor<128xi32>) {
  // expected-error @+1 {{'tt.fp_to_fp' op operand #0 must be floating-point or ranked tensor of floating-point values, but got 'tensor<128xi32>'}}
  %0 = tt.fp_to_fp %arg0 : tensor<128xi32> -> tensor<128xf16>
  tt.return
}

// -----

tt.func @fp_to_fp_shape(%arg0: tensor<128xf32>) {
  // expected-error @+1 {{'tt.fp_to_fp' op requires the same shape for all operands and results}}
  %0 = tt.fp_to_fp %arg0 : tensor<128xf32> -> tensor<64xf16>
  tt.return
}

// -----

tt.func @fp_to_fp_rounding(%arg0: tensor<128xf32>) {
  // expected-error @+1 {{Rounding mode is required for FP downcast}}
  %0 = tt.fp_to_fp %arg0 : tensor<128xf32> -> tensor<128xf16>
  tt.return
}

// -----

// tt.elementwise_inline_asm

tt.func @inline_asm_packing(%arg0: tensor<128xf32>) {
  // expected-error @+1 {{number of input elements 128 must be a multiple of the op's packed_element attribute, 3}}
  %0 = tt.elementwise_inline_asm "" {constraints = "=r,r", packed_element = 3 : i32, pure = true} %arg0 : tensor<128xf32> -> tensor<128xf32>
  tt.return
}

// -----

tt.func @inline_asm_shapes(%arg0: tensor<128xf32>, %arg1: tensor<64xf32>) {
  // expected-error @+1 {{'tt.elementwise_inline_asm' op all non-scalar operands/results must have the same shape and base type}}
  %0 = tt.elementwise_inline_asm "" {constraints = "=r,r,r", packed_element = 1 : i32, pure = true} %arg0, %arg1 : tensor<128xf32>, tensor<64xf32> -> tensor<128xf32>
  tt.return
}

// -----

tt.func @inline_asm_scalar_result(%arg0: tensor<128xf32>) {
  // expected-error @+1 {{'tt.elementwise_inline_asm' op if an operand is non-scalar, then there must be at least one non-scalar result}}
  %0 = tt.elementwise_inline_asm "" {constraints = "=r,r", packed_element = 1 : i32, pure = true} %arg0 : tensor<128xf32> -> f32
  tt.return
}

// -----

// tt.return

tt.func @return_missing_value(%arg0: i32) -> i32 {
  // expected-error @+1 {{'tt.return' op has 0 operands, but enclosing function (@return_missing_value) returns 1}}
  tt.return
}

// -----

tt.func @return_type(%arg0: i32) -> i32 {
  %0 = arith.extsi %arg0 : i32 to i64
  // expected-error @+1 {{type of return operand 0 ('i64') doesn't match function result type ('i32') in function @return_type}}
  tt.return %0 : i64
}

// -----

tt.func @no_terminator(%arg0: i32) {
  // expected-error @+1 {{block with no terminator, has %0 = "arith.addi"(%arg0, %arg0)}}
  %0 = arith.addi %arg0, %arg0 : i32
}

// -----

// arith

tt.func @cmpi_operand_types(%arg0: tensor<128xi32>, %arg1: tensor<128xi64>) {
  // expected-error @+1 {{'arith.cmpi' op requires all operands to have the same type}}
  %0 = "arith.cmpi"(%arg0, %arg1) <{predicate = 2 : i64}> : (tensor<128xi32>, tensor<128xi64>) -> tensor<128xi1>
  tt.return
}

// -----

tt.func @select_condition_shape(%arg0: tensor<64xi1>, %arg1: tensor<128xi32>, %arg2: tensor<128xi32>) {
  // expected-error @+1 {{'arith.select' op condition shape must match the result shape}}
  %0 = arith.select %arg0, %arg1, %arg2 : tensor<64xi1>, tensor<128xi32>
  tt.return
}

// -----

// symbols

// expected-note @+1 {{see existing symbol definition here}}
tt.func @twice() {
  tt.return
}

// expected-error @+1 {{redefinition of symbol named 'twice'}}
tt.func @twice() {
  tt.return
}

// -----

// Each function is verified on its own: a problem in one does not hide another's.
tt.func @first(%arg0: i32) -> i32 {
  // expected-error @+1 {{'tt.return' op has 0 operands, but enclosing function (@first) returns 1}}
  tt.return
}

tt.func @second(%arg0: i32) -> i32 {
  // expected-error @+1 {{'tt.return' op has 0 operands, but enclosing function (@second) returns 1}}
  tt.return
}

// -----

// parse errors: reported where the parser stops

tt.func @unknown_op() {
  // expected-error @+1 {{custom op 'tt.bogus' is unknown}}
  %0 = tt.bogus : i32
  tt.return
}

// -----

tt.func @undefined_value(%arg0: i32) {
  // expected-error @+1 {{use of undeclared SSA value name}}
  %0 = arith.addi %arg0, %undefined : i32
  tt.return
}

// -----

// expected-error @+1 {{'>'}}
tt.func @unterminated_tensor_type(%arg0: tensor<128xi32) {
  tt.return
}

// -----

// valid chunks: no diagnostics

tt.func public @add_kernel(%x: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %y: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %n: i32) {
  %c1024_i32 = arith.constant 1024 : i32
  %cst = arith.constant dense<0.000000e+00> : tensor<1024xf32>
  %pid = tt.get_program_id x : i32
  %start = arith.muli %pid, %c1024_i32 : i32
  %range = tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32>
  %base = tt.splat %start : i32 -> tensor<1024xi32>
  %offs = arith.addi %base, %range : tensor<1024xi32>
  %bound = tt.splat %n : i32 -> tensor<1024xi32>
  %mask = arith.cmpi slt, %offs, %bound : tensor<1024xi32>
  %xs = tt.splat %x : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>>
  %xp = tt.addptr %xs, %offs : tensor<1024x!tt.ptr<f32>>, tensor<1024xi32>
  %v = tt.load %xp, %mask, %cst : tensor<1024x!tt.ptr<f32>>
  %ys = tt.splat %y : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>>
  %yp = tt.addptr %ys, %offs : tensor<1024x!tt.ptr<f32>>, tensor<1024xi32>
  tt.store %yp, %v, %mask : tensor<1024x!tt.ptr<f32>>
  tt.return
}

// -----

// tt.splat takes a 0-d tensor as well as a scalar, as in Triton.
tt.func public @shapes(%arg0: tensor<f32>, %arg1: tensor<f32>, %arg2: tensor<16x32x64xf32>, %arg3: !tt.ptr<f32>) {
  %0 = tt.join %arg0, %arg1 : tensor<f32> -> tensor<2xf32>
  %1, %2 = tt.split %0 : tensor<2xf32> -> tensor<f32>
  %3 = tt.trans %arg2 {order = array<i32: 1, 0, 2>} : tensor<16x32x64xf32> -> tensor<32x16x64xf32>
  %4 = tt.reshape %arg2 : tensor<16x32x64xf32> -> tensor<512x64xf32>
  %5 = tt.expand_dims %4 {axis = 1 : i32} : tensor<512x64xf32> -> tensor<512x1x64xf32>
  %6 = tt.broadcast %5 : tensor<512x1x64xf32> -> tensor<512x8x64xf32>
  %7 = tt.bitcast %arg3 : !tt.ptr<f32> -> !tt.ptr<i32>
  %8 = tt.splat %arg0 : tensor<f32> -> tensor<16xf32>
  %9 = tt.fp_to_fp %8 : tensor<16xf32> -> tensor<16xf64>
  tt.return
}

// -----

// Layouts that Triton infers for join, split, trans and expand_dims.
#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [4, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#blocked2 = #ttg.blocked<{sizePerThread = [1, 4, 2], threadsPerWarp = [4, 8, 1], warpsPerCTA = [4, 1, 1], order = [2, 1, 0]}>
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func public @inferred_layouts(%arg0: tensor<32x64xf32, #blocked>, %arg1: tensor<64xf32, #ttg.slice<{dim = 0, parent = #blocked}>>) {
    %0 = tt.trans %arg0 {order = array<i32: 1, 0>} : tensor<32x64xf32, #blocked> -> tensor<64x32xf32, #blocked1>
    %1 = tt.join %arg0, %arg0 : tensor<32x64xf32, #blocked> -> tensor<32x64x2xf32, #blocked2>
    %2, %3 = tt.split %1 : tensor<32x64x2xf32, #blocked2> -> tensor<32x64xf32, #blocked>
    %4 = tt.expand_dims %arg1 {axis = 0 : i32} : tensor<64xf32, #ttg.slice<{dim = 0, parent = #blocked}>> -> tensor<1x64xf32, #blocked>
    tt.return
  }
}

// -----

tt.func @f16_out_of_range() {
  // expected-error @+1 {{float constant out of range for type}}
  %0 = arith.constant 1.0e10 : f16
  tt.return
}

// -----

// tt.mulhiui / tt.histogram

tt.func @mulhiui_float(%arg0: f32) {
  // expected-error @+1 {{'tt.mulhiui' op operand #0 must be integer or ranked tensor of integer values, but got 'f32'}}
  %0 = tt.mulhiui %arg0, %arg0 : f32
  tt.return
}

// -----

tt.func @mulhiui_types(%arg0: i32, %arg1: i64) {
  // expected-error @+1 {{'tt.mulhiui' op requires the same type for all operands and results}}
  %0 = "tt.mulhiui"(%arg0, %arg1) : (i32, i64) -> i32
  tt.return
}

// -----

tt.func @histogram_float(%arg0: tensor<128xf32>) {
  // expected-error @+1 {{'tt.histogram' op operand #0 must be ranked tensor of integer values, but got 'tensor<128xf32>'}}
  %0 = tt.histogram %arg0 : tensor<128xf32> -> tensor<16xi32>
  tt.return
}

// -----

// tt.gather

tt.func @gather_rank(%src: tensor<32xf32>, %idx: tensor<4x8xi32>) {
  // expected-error @+1 {{'tt.gather' op indices and output shapes must match}}
  %0 = tt.gather %src[%idx] {axis = 0 : i32} : (tensor<32xf32>, tensor<4x8xi32>) -> tensor<32xf32>
  tt.return
}

// -----

tt.func @gather_ranks(%src: tensor<32xf32>, %idx: tensor<4x8xi32>) {
  // expected-error @+1 {{'tt.gather' op input and indices ranks must match}}
  %0 = tt.gather %src[%idx] {axis = 0 : i32} : (tensor<32xf32>, tensor<4x8xi32>) -> tensor<4x8xf32>
  tt.return
}

// -----

tt.func @gather_other_dim(%src: tensor<32x16xf32>, %idx: tensor<8x8xi32>) {
  // expected-error @+1 {{'tt.gather' op indices dimension 1 must match the corresponding input dimension}}
  %0 = tt.gather %src[%idx] {axis = 0 : i32} : (tensor<32x16xf32>, tensor<8x8xi32>) -> tensor<8x8xf32>
  tt.return
}

// -----

tt.func @gather_axis(%src: tensor<32x16xf32>, %idx: tensor<32x16xi32>) {
  // expected-error @+1 {{'tt.gather' op gather dimension must be less than the input rank}}
  %0 = tt.gather %src[%idx] {axis = 2 : i32} : (tensor<32x16xf32>, tensor<32x16xi32>) -> tensor<32x16xf32>
  tt.return
}

// -----

tt.func @gather_element_type(%src: tensor<32x16xf32>, %idx: tensor<32x16xi32>) {
  // expected-error @+1 {{'tt.gather' op input and output element types must match}}
  %0 = tt.gather %src[%idx] {axis = 0 : i32} : (tensor<32x16xf32>, tensor<32x16xi32>) -> tensor<32x16xf16>
  tt.return
}

// -----

// Triton's tensor-size rule (tt ops): a power-of-two number of elements, at most 2^20.
tt.func @tensor_size(%arg0: i32) {
  // expected-error @+1 {{Number of elements must be power-of-two, but %0 = "tt.splat"(%arg0) : (i32) -> tensor<96xi32> doesn't follow the rule (96) elements}}
  %0 = tt.splat %arg0 : i32 -> tensor<96xi32>
  tt.return
}

// -----

tt.func @tensor_too_large(%arg0: i32) {
  // expected-error @+1 {{Maximum allowed number of elements is 1048576, but %0 = "tt.splat"(%arg0) : (i32) -> tensor<2048x1024xi32> has more than that}}
  %0 = tt.splat %arg0 : i32 -> tensor<2048x1024xi32>
  tt.return
}
