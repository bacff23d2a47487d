// RUN: tt-opt %s -split-input-file -verify-diagnostics

// Triton's verifier of ttg.warp_specialize, ttg.warp_yield and the partitions, one rule per case.

tt.func @holder_missing() {
  // expected-error @below {{'ttg.warp_specialize' op expected to find only a `ttg.warp_specialize.partitions` op inside its second region}}
  "ttg.warp_specialize"() ({
    "ttg.warp_yield"() : () -> ()
  }, {
    "ttg.warp_yield"() : () -> ()
  }) {partitionNumWarps = array<i32>} : () -> ()
  tt.return
}

// -----

tt.func @warp_counts_without_partitions() {
  // expected-error @below {{'ttg.warp_specialize' op has 0 partitions but `partitionNumWarps` has 2 elements}}
  "ttg.warp_specialize"() ({
    "ttg.warp_yield"() : () -> ()
  }, {
    "ttg.warp_specialize.partitions"() : () -> ()
  }) {partitionNumWarps = array<i32: 4, 4>} : () -> ()
  tt.return
}

// -----

tt.func @six_warps() {
  // expected-error @below {{'ttg.warp_specialize' op partition #1 number of warps (6) must be a power of 2}}
  ttg.warp_specialize()
  default {
    ttg.warp_yield
  }
  partition0() num_warps(4) {
    ttg.warp_return
  }
  partition1() num_warps(6) {
    ttg.warp_return
  } : () -> ()
  tt.return
}

// -----

tt.func @too_few_arguments(%a: i32, %b: i32) {
  // expected-error @below {{'ttg.warp_specialize' op partition region #0 has 1 arguments but expected 2}}
  ttg.warp_specialize(%a, %b)
  default {
    ttg.warp_yield
  }
  partition0(%x: i32) num_warps(1) {
    ttg.warp_return
  } : (i32, i32) -> ()
  tt.return
}

// -----

tt.func @argument_type(%a: f16) {
  // expected-error @below {{'ttg.warp_specialize' op partition region #0 argument #0 has type 'f32' but corresponding capture has type 'f16'}}
  ttg.warp_specialize(%a)
  default {
    ttg.warp_yield
  }
  partition0(%x: f32) num_warps(1) {
    ttg.warp_return
  } : (f16) -> ()
  tt.return
}

// -----

tt.func @start_ids() {
  // expected-error @below {{'ttg.warp_specialize' op has 2 warp group start IDs but expected 1}}
  ttg.warp_specialize() attributes {warpGroupStartIds = array<i32: 4, 8>}
  default {
    ttg.warp_yield
  }
  partition0() num_warps(4) {
    ttg.warp_return
  } : () -> ()
  tt.return
}

// -----

tt.func @nested() {
  ttg.warp_specialize()
  default {
    // expected-error @below {{'ttg.warp_specialize' op cannot be nested inside another `ttg.warp_specialize` op}}
    ttg.warp_specialize()
    default {
      ttg.warp_yield
    } : () -> ()
    ttg.warp_yield
  } : () -> ()
  tt.return
}

// -----

module attributes {"ttg.num-warps" = 2 : i32} {
  tt.func @two_warp_kernel() {
    // expected-error @below {{warp-specialized kernels requires num_warps to be a multiple of 4}}
    ttg.warp_specialize()
    default {
      ttg.warp_yield
    } : () -> ()
    tt.return
  }
}

// -----

tt.func @yields_too_much(%v: i32) {
  %r = ttg.warp_specialize()
  default {
    // expected-error @below {{'ttg.warp_yield' op has 2 operands but parent op expected 1}}
    ttg.warp_yield %v, %v : i32, i32
  } : () -> i32
  tt.return
}

// -----

tt.func @yield_type(%v: i32) {
  %r = ttg.warp_specialize()
  default {
    // expected-error @below {{'ttg.warp_yield' op operand #0 has type 'i32' but parent op expected 'f32'}}
    ttg.warp_yield %v : i32
  } : () -> f32
  tt.return
}

// -----

// A partition is isolated from above: it reaches outer values only through its arguments.
tt.func @outer_value(%v: i32) {
  ttg.warp_specialize()
  default {
    ttg.warp_yield
  }
  // expected-error @below {{'arith.addi' op using value defined outside the region}}
  partition0() num_warps(1) {
    %s = arith.addi %v, %v : i32
    ttg.warp_return
  } : () -> ()
  tt.return
}

// -----

tt.func @empty_partition() {
  ttg.warp_specialize()
  default {
    ttg.warp_yield
  }
  // expected-error @below {{'ttg.warp_specialize.partitions' op region #0 ('partitionRegions') failed to verify constraint: region with at least 1 blocks}}
  partition0() num_warps(1) {
  } : () -> ()
  tt.return
}

// -----

tt.func @return_outside() {
  // expected-error @below {{'ttg.warp_return' op expects parent op 'ttg.warp_specialize.partitions'}}
  ttg.warp_return
}

// -----

#eight = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [8], order = [0]}>
module attributes {"ttg.num-warps" = 8 : i32} {
  tt.func @partition_layout() {
    ttg.warp_specialize()
    default {
      ttg.warp_yield
    }
    partition0() num_warps(4) {
      // expected-error @below {{Layout has 8 warps per CTA, but the context requires 4 warps per CTA}}
      %y = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #eight>
      ttg.warp_return
    } : () -> ()
    tt.return
  }
}
