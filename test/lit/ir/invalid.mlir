// RUN: tt-opt %s -split-input-file -verify-diagnostics

// Invalid IR: every chunk must produce exactly the diagnostics its expected-*
// comments name, on the lines they name; the valid chunks must produce none.

// tt.splat

tt.func @splat_tensor_operand(%arg0: tensor<128xi32>) {
  // expected-error @+1 {{'tt.splat' op operand must be a scalar}}
  %0 = tt.splat %arg0 : tensor<128xi32> -> tensor<128xi32>
  tt.return
}

// -----

tt.func @splat_element_type(%arg0: i32) {
  %0 = tt.splat %arg0 : i32 -> tensor<128xi64> // expected-error {{'tt.splat' op result element type must match the operand type}}
  tt.return
}

// -----

// tt.broadcast

tt.func @broadcast_rank(%arg0: tensor<128xi32>) {
  // expected-error @below {{'tt.broadcast' op requires the same rank for operand and result}}
  %0 = tt.broadcast %arg0 : tensor<128xi32> -> tensor<128x32xi32>
  tt.return
}

// -----

tt.func @broadcast_non_unit_dim(%arg0: tensor<2x32xi32>) {
  %0 = tt.broadcast %arg0 : tensor<2x32xi32> -> tensor<128x32xi32>
  // expected-error @above {{'tt.broadcast' op cannot broadcast 2x32 to 128x32}}
  tt.return
}

// -----

// tt.expand_dims

tt.func @expand_dims_axis(%arg0: tensor<64xi32>) {
  // expected-error @+1 {{'tt.expand_dims' op axis 2 out of range for rank 1}}
  %0 = tt.expand_dims %arg0 {axis = 2 : i32} : tensor<64xi32> -> tensor<64x1xi32>
  tt.return
}

// -----

tt.func @expand_dims_element_type(%arg0: tensor<64xi32>) {
  // expected-error @+1 {{'tt.expand_dims' op requires the same element type for all operands and results}}
  %0 = tt.expand_dims %arg0 {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi64>
  tt.return
}

// -----

// tt.trans

tt.func @trans_order(%arg0: tensor<16x32xf32>) {
  // expected-error @+1 {{'tt.trans' op order must be a permutation of the dimensions}}
  %0 = tt.trans %arg0 {order = array<i32: 0, 0>} : tensor<16x32xf32> -> tensor<16x16xf32>
  tt.return
}

// -----

tt.func @trans_shape(%arg0: tensor<16x32xf32>) {
  // expected-error @+1 {{'tt.trans' op result shape must be the permuted operand shape}}
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

// tt.reshape

tt.func @reshape_num_elements(%arg0: tensor<32x128xf16>) {
  // expected-error @+1 {{'tt.reshape' op number of src and dst elements of reshape must be the same}}
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

// tt.join / tt.split

tt.func @join_result_shape(%arg0: tensor<32xf32>, %arg1: tensor<32xf32>) {
  // expected-error @+1 {{'tt.join' op result shape must be the operand shape with a trailing 2}}
  %0 = tt.join %arg0, %arg1 : tensor<32xf32> -> tensor<64xf32>
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

tt.func @split_last_dim(%arg0: tensor<32x4xf32>) {
  // expected-error @+1 {{'tt.split' op operand's last dimension must be 2}}
  %0, %1 = tt.split %arg0 : tensor<32x4xf32> -> tensor<32xf32>
  tt.return
}

// -----

tt.func @split_element_type(%arg0: tensor<32x2xf32>) {
  // expected-error @+1 {{'tt.split' op requires the same element type for all operands and results}}
  %0, %1 = tt.split %arg0 : tensor<32x2xf32> -> tensor<32xf16>
  tt.return
}

// -----

// tt.addptr

tt.func @addptr_float_offset(%arg0: !tt.ptr<f32>, %arg1: f32) {
  // expected-error @+1 {{'tt.addptr' op operand #1 must be an integer or a tensor of integers}}
  %0 = tt.addptr %arg0, %arg1 : !tt.ptr<f32>, f32
  tt.return
}

// -----

tt.func @addptr_shape(%arg0: tensor<128x!tt.ptr<f32>>, %arg1: tensor<64xi32>) {
  // expected-error @+1 {{'tt.addptr' op requires the same shape for all operands}}
  %0 = tt.addptr %arg0, %arg1 : tensor<128x!tt.ptr<f32>>, tensor<64xi32>
  tt.return
}

// -----

// tt.load / tt.store (generic form: the custom form infers these types)

tt.func @load_mask_type(%arg0: tensor<128x!tt.ptr<f32>>, %arg1: tensor<128xi32>) {
  // expected-error @+1 {{'tt.load' op mask type must be tensor<128xi1>}}
  %0 = "tt.load"(%arg0, %arg1) <{operandSegmentSizes = array<i32: 1, 1, 0>}> : (tensor<128x!tt.ptr<f32>>, tensor<128xi32>) -> tensor<128xf32>
  tt.return
}

// -----

tt.func @load_other_type(%arg0: tensor<128x!tt.ptr<f32>>, %arg1: tensor<128xi1>, %arg2: tensor<128xf16>) {
  // expected-error @+1 {{'tt.load' op other must have the result type}}
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
  // expected-error @+1 {{'tt.store' op value type must match the pointee type of the pointer operand}}
  "tt.store"(%arg0, %arg1) : (tensor<128x!tt.ptr<f32>>, tensor<128xf16>) -> ()
  tt.return
}

// -----

// tt.dot

tt.func @dot_k_mismatch(%a: tensor<16x32xf16>, %b: tensor<16x16xf16>, %c: tensor<16x16xf32>) {
  // expected-error @+1 {{'tt.dot' op the K dimension of a (32) and b (16) must match}}
  %0 = tt.dot %a, %b, %c : tensor<16x32xf16> * tensor<16x16xf16> -> tensor<16x16xf32>
  tt.return
}

// -----

tt.func @dot_acc_shape(%a: tensor<16x32xf16>, %b: tensor<32x64xf16>, %c: tensor<16x16xf32>) {
  // expected-error @+1 {{'tt.dot' op accumulator shape must be 16x64}}
  %0 = tt.dot %a, %b, %c : tensor<16x32xf16> * tensor<32x64xf16> -> tensor<16x16xf32>
  tt.return
}

// -----

// tt.make_range

tt.func @make_range_size() {
  // expected-error @+1 {{'tt.make_range' op number of elements in returned tensor, 64, must match size of range, 128}}
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

tt.func @make_range_element_type() {
  // expected-error @+1 {{'tt.make_range' op result must be a 1D tensor of i32}}
  %0 = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi64>
  tt.return
}

// -----

// tt.reduce

tt.func @reduce_axis(%arg0: tensor<4x128xf32>) {
  // expected-error @+1 {{'tt.reduce' op axis 2 out of range for rank 2}}
  %0 = "tt.reduce"(%arg0) <{axis = 2 : i32}> ({
  ^bb0(%lhs: f32, %rhs: f32):
    %1 = arith.addf %lhs, %rhs : f32
    tt.reduce.return %1 : f32
  }) : (tensor<4x128xf32>) -> tensor<4xf32>
  tt.return
}

// -----

tt.func @reduce_result_shape(%arg0: tensor<4x128xf32>) {
  // expected-error @+1 {{'tt.reduce' op result type must be the operand type without the reduced axis}}
  %0 = "tt.reduce"(%arg0) <{axis = 0 : i32}> ({
  ^bb0(%lhs: f32, %rhs: f32):
    %1 = arith.addf %lhs, %rhs : f32
    tt.reduce.return %1 : f32
  }) : (tensor<4x128xf32>) -> tensor<4xf32>
  tt.return
}

// -----

// tt.bitcast / tt.fp_to_fp

tt.func @bitcast_width(%arg0: tensor<128xf32>) {
  // expected-error @+1 {{'tt.bitcast' op operand and result element types must have the same bit width}}
  %0 = tt.bitcast %arg0 : tensor<128xf32> -> tensor<128xi16>
  tt.return
}

// -----

tt.func @bitcast_pointer_to_int(%arg0: !tt.ptr<f32>) {
  // expected-error @+1 {{'tt.bitcast' op cannot bitcast between pointer and non-pointer types}}
  %0 = tt.bitcast %arg0 : !tt.ptr<f32> -> i64
  tt.return
}

// -----

tt.func @fp_to_fp_integer(%arg0: tensor<128xi32>) {
  // expected-error @+1 {{'tt.fp_to_fp' op operand and result must be floating point}}
  %0 = tt.fp_to_fp %arg0 : tensor<128xi32> -> tensor<128xf16>
  tt.return
}

// -----

tt.func @fp_to_fp_shape(%arg0: tensor<128xf32>) {
  // expected-error @+1 {{'tt.fp_to_fp' op operand and result must have the same shape}}
  %0 = tt.fp_to_fp %arg0 : tensor<128xf32> -> tensor<64xf16>
  tt.return
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

// tt.return

tt.func @return_missing_value(%arg0: i32) -> i32 {
  // expected-error @+1 {{'tt.return' op has 0 operands, but enclosing function returns 1}}
  tt.return
}

// -----

tt.func @return_type(%arg0: i32) -> i32 {
  %0 = arith.extsi %arg0 : i32 to i64
  // expected-error @+1 {{'tt.return' op operand types do not match the function's result types}}
  tt.return %0 : i64
}

// -----

// ttg

#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @convert_layout_shape(%arg0: tensor<128xf32, #blocked>) {
    // expected-error @+1 {{'ttg.convert_layout' op operand and result must differ only in layout}}
    %0 = ttg.convert_layout %arg0 : tensor<128xf32, #blocked> -> tensor<256xf32, #blocked>
    tt.return
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @local_alloc_shape(%arg0: tensor<32x32xf16, #blocked>) {
    // expected-error @+1 {{'ttg.local_alloc' op source shape must match the memdesc shape}}
    %0 = ttg.local_alloc %arg0 : (tensor<32x32xf16, #blocked>) -> !ttg.memdesc<64x32xf16, #shared, #smem>
    tt.return
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @local_alloc_element_type(%arg0: tensor<32x32xf16, #blocked>) {
    // expected-error @+1 {{'ttg.local_alloc' op source element type must match the memdesc element type}}
    %0 = ttg.local_alloc %arg0 : (tensor<32x32xf16, #blocked>) -> !ttg.memdesc<32x32xf32, #shared, #smem>
    tt.return
  }
}

// -----

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @local_alloc_immutable_without_source() {
    // expected-error @+1 {{'ttg.local_alloc' op cannot allocate immutable memory without a source}}
    %0 = ttg.local_alloc : () -> !ttg.memdesc<32x32xf16, #shared, #smem>
    tt.return
  }
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

tt.func public @shapes(%arg0: tensor<f32>, %arg1: tensor<f32>, %arg2: tensor<16x32x64xf32>, %arg3: !tt.ptr<f32>) {
  %0 = tt.join %arg0, %arg1 : tensor<f32> -> tensor<2xf32>
  %1, %2 = tt.split %0 : tensor<2xf32> -> tensor<f32>
  %3 = tt.trans %arg2 {order = array<i32: 1, 0, 2>} : tensor<16x32x64xf32> -> tensor<32x16x64xf32>
  %4 = tt.reshape %arg2 : tensor<16x32x64xf32> -> tensor<512x64xf32>
  %5 = tt.expand_dims %4 {axis = 1 : i32} : tensor<512x64xf32> -> tensor<512x1x64xf32>
  %6 = tt.broadcast %5 : tensor<512x1x64xf32> -> tensor<512x8x64xf32>
  %7 = tt.bitcast %arg3 : !tt.ptr<f32> -> !tt.ptr<i32>
  tt.return
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @shared_memory(%arg0: tensor<32x32xf16, #blocked>) {
    %0 = ttg.local_alloc %arg0 : (tensor<32x32xf16, #blocked>) -> !ttg.memdesc<32x32xf16, #shared, #smem>
    %1 = ttg.local_load %0 : !ttg.memdesc<32x32xf16, #shared, #smem> -> tensor<32x32xf16, #blocked>
    %2 = ttg.local_alloc : () -> !ttg.memdesc<2x32x32xf16, #shared, #smem, mutable>
    ttg.local_dealloc %2 : !ttg.memdesc<2x32x32xf16, #shared, #smem, mutable>
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

// Blocked layouts must fit the tensor and the module's warps and threads (TritonGPU's layout verifier).
#rank2 = #ttg.blocked<{sizePerThread = [4, 2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#warps3 = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [3], order = [0]}>
#threads16 = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [16], warpsPerCTA = [4], order = [0]}>
#order = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 1]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @layouts() {
    // expected-error @below {{Layout has rank 2, but the tensor it's attached to has rank 1.}}
    %0 = tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32, #rank2>
    // expected-error @below {{Layout has a total of 3 warps per CTA, but the context requires 4 warps per CTA.}}
    %1 = tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32, #warps3>
    // expected-error @below {{Layout has a total of 16 threads per warp, but the context requires 32 threads per warp.}}
    %2 = tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32, #threads16>
    // expected-error @below {{Layout's order [1, 1] is not a permutation of the dimensions 0..1.}}
    %3 = arith.constant dense<0> : tensor<16x16xi32, #order>
    tt.return
  }
}

// -----

// A function's own ttg.num-warps is the context of its layouts.
#warps4 = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @function_scope() attributes {"ttg.num-warps" = 8 : i32} {
    // expected-error @below {{Layout has a total of 4 warps per CTA, but the context requires 8 warps per CTA.}}
    %0 = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #warps4>
    tt.return
  }
}

// -----

// tt.atomic_cas

tt.func @atomic_cas_types(%arg0: !tt.ptr<i64>, %arg1: i32) {
  // expected-error @+1 {{'tt.atomic_cas' op compare value, new value and result types must match the pointee type}}
  %0 = tt.atomic_cas acq_rel, gpu, %arg0, %arg1, %arg1 : (!tt.ptr<i64>, i32, i32) -> i32
  tt.return
}

// -----

tt.func @atomic_cas_bad_sem(%arg0: !tt.ptr<i32>, %arg1: i32) {
  // expected-error @+1 {{Expected one of 'acq_rel', 'acquire', 'relaxed', 'release' for 'sem'}}
  %0 = tt.atomic_cas seq_cst, gpu, %arg0, %arg1, %arg1 : (!tt.ptr<i32>, i32, i32) -> i32
  tt.return
}

// -----

// tt.mulhiui

tt.func @mulhiui_float(%arg0: f32) {
  // expected-error @+1 {{'tt.mulhiui' op operand #0 must be an integer or a tensor of integers}}
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
