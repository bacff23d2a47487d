// RUN: tt-opt %s -split-input-file -test-print-alignment -verify-diagnostics=only-expected -o /dev/null

// Facts start from constants (a 32-bit make_range from 0 divides by 2^30, a scalar 0 by 2^62), function
// argument hints and loop bounds, and flow through arithmetic: an addptr scales the offset's divisibility by
// the element size; a splat is constant along every dimension; a result known as a constant is constant over
// the whole tensor (x * 0 is known to be 0).
tt.func @flow(%p: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %n: i32 {tt.divisibility = 8 : i32}) {
  // expected-remark @below {{contiguity = [64], divisibility = [1073741824], constancy = [1], constant_value = <none>}}
  %r = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [4611686018427387904], constancy = [1], constant_value = 0}}
  %z = arith.constant 0 : i32
  %r0 = arith.constant dense<0> : tensor<64xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [16], constancy = [64], constant_value = <none>}}
  %s = tt.splat %p : !tt.ptr<f32> -> tensor<64x!tt.ptr<f32>>
  // expected-remark @below {{contiguity = [64], divisibility = [16], constancy = [1], constant_value = <none>}}
  %a = tt.addptr %s, %r : tensor<64x!tt.ptr<f32>>, tensor<64xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [8], constancy = [64], constant_value = <none>}}
  %m = tt.splat %n : i32 -> tensor<64xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [8], constant_value = <none>}}
  %c = arith.cmpi slt, %r, %m : tensor<64xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [4], constancy = [64], constant_value = 4}}
  %four = arith.constant dense<4> : tensor<64xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [32], constancy = [64], constant_value = <none>}}
  %m4 = arith.muli %m, %four : tensor<64xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [4611686018427387904], constancy = [64], constant_value = 0}}
  %zero = arith.muli %m, %r0 : tensor<64xi32>
  tt.return
}

// -----

// A loop's induction variable divides by the gcd of its lower bound and step; the regions of an scf.if on a
// constant condition that never run keep no facts (the pessimistic ones).
tt.func @control(%n: i32) {
  %c0 = arith.constant 0 : i32
  %c4 = arith.constant 4 : i32
  %false = arith.constant false
  scf.for %i = %c0 to %n step %c4 : i32 {
    // expected-remark @below {{contiguity = [1], divisibility = [4], constancy = [1], constant_value = <none>}}
    %j = arith.addi %i, %c0 : i32
  }
  scf.if %false {
    // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [1], constant_value = <none>}}
    %k = arith.addi %c4, %c4 : i32
  }
  tt.return
}

// -----

// The partitions of a ttg.warp_specialize start from the facts of the values they capture.
tt.func @captures(%p: !tt.ptr<f16> {tt.divisibility = 16 : i32}) {
  ttg.warp_specialize(%p)
  default {
    ttg.warp_yield
  }
  partition0(%q: !tt.ptr<f16>) num_warps(1) {
    %c8 = arith.constant 8 : i32
    // expected-remark @below {{contiguity = [1], divisibility = [16], constancy = [1], constant_value = <none>}}
    %r = tt.addptr %q, %c8 : !tt.ptr<f16>, i32
    ttg.warp_return
  } : (!tt.ptr<f16>) -> ()
  tt.return
}

// -----

// builtin.unrealized_conversion_cast passes its operand's facts on, also through a struct and back, unless the
// result is a tensor of another rank (then, as for a cast from nothing, they are pessimistic); an
// llvm.mlir.undef struct is a pessimistic scalar.
tt.func @unrealized_cast(%x: tensor<16x8xi32> {tt.divisibility = dense<[4, 8]> : tensor<2xi32>}) {
  // expected-remark @below {{contiguity = [1, 1], divisibility = [4, 8], constancy = [1, 1], constant_value = <none>}}
  %s = builtin.unrealized_conversion_cast %x : tensor<16x8xi32> to !llvm.struct<(i32, i32)>
  // expected-remark @below {{contiguity = [1, 1], divisibility = [4, 8], constancy = [1, 1], constant_value = <none>}}
  %t = builtin.unrealized_conversion_cast %s : !llvm.struct<(i32, i32)> to tensor<16x8xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [1], constant_value = <none>}}
  %flat = builtin.unrealized_conversion_cast %x : tensor<16x8xi32> to tensor<128xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [1], constant_value = <none>}}
  %none = builtin.unrealized_conversion_cast to i32
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [1], constant_value = <none>}}
  %u = llvm.mlir.undef : !llvm.struct<(i32, i32)>
  // expected-remark @below {{contiguity = [1, 1], divisibility = [1, 1], constancy = [1, 1], constant_value = <none>}}
  %v = builtin.unrealized_conversion_cast %u : !llvm.struct<(i32, i32)> to tensor<16x8xi32>
  tt.return
}
