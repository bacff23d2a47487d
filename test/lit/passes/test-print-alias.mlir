// RUN: tt-opt %s -split-input-file -test-print-alias -verify-diagnostics -o /dev/null

// A local_alloc is its own buffer; views (memdesc_index, memdesc_trans) view their source's. Values that
// are not memory descriptors get no remark.
#sh = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#sht = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0, 1]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32} {
  tt.func @views() {
    %c0 = arith.constant 0 : i32
    // expected-remark @below {{%0 -> %0}}
    %buf = ttg.local_alloc : () -> !ttg.memdesc<2x8x16xf16, #sh, #smem, mutable>
    // expected-remark @below {{%1 -> %0}}
    %one = ttg.memdesc_index %buf[%c0] : !ttg.memdesc<2x8x16xf16, #sh, #smem, mutable> -> !ttg.memdesc<8x16xf16, #sh, #smem, mutable>
    // expected-remark @below {{%2 -> %0}}
    %t = ttg.memdesc_trans %one {order = array<i32: 1, 0>} : !ttg.memdesc<8x16xf16, #sh, #smem, mutable> -> !ttg.memdesc<16x8xf16, #sht, #smem, mutable>
    tt.return
  }
}

// -----

// An scf.if result may view the buffer of either branch; a loop's region argument starts from its initial
// value (the remark names the buffers of that value) and its result may view whatever any iteration yields.
#sh = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32} {
  tt.func @merges(%c: i1, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    // expected-remark @below {{%0 -> %0}}
    %a = ttg.local_alloc : () -> !ttg.memdesc<16xf32, #sh, #smem, mutable>
    // expected-remark @below {{%1 -> %1}}
    %b = ttg.local_alloc : () -> !ttg.memdesc<16xf32, #sh, #smem, mutable>
    // expected-remark @below {{%2 -> %0,%1}}
    %e = scf.if %c -> (!ttg.memdesc<16xf32, #sh, #smem, mutable>) {
      scf.yield %a : !ttg.memdesc<16xf32, #sh, #smem, mutable>
    } else {
      scf.yield %b : !ttg.memdesc<16xf32, #sh, #smem, mutable>
    }
    // expected-remark @below {{%arg3 -> %0}}
    // expected-remark @below {{%3 -> %0,%1}}
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%m = %a) -> (!ttg.memdesc<16xf32, #sh, #smem, mutable>) : i32 {
      scf.yield %b : !ttg.memdesc<16xf32, #sh, #smem, mutable>
    }
    tt.return
  }
}

// -----

// A block argument may view what every branch to its block passes; the remark is at each branch of the block.
#sh = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32} {
  tt.func @blocks(%c: i1) {
    // expected-remark @below {{%0 -> %0}}
    %a = ttg.local_alloc : () -> !ttg.memdesc<16xf32, #sh, #smem, mutable>
    // expected-remark @below {{%1 -> %1}}
    %b = ttg.local_alloc : () -> !ttg.memdesc<16xf32, #sh, #smem, mutable>
    cf.cond_br %c, ^bb1(%a : !ttg.memdesc<16xf32, #sh, #smem, mutable>), ^bb1(%b : !ttg.memdesc<16xf32, #sh, #smem, mutable>)
  ^bb1(%x: !ttg.memdesc<16xf32, #sh, #smem, mutable>):
    // expected-remark @below {{%2 -> %0,%1}}
    cf.br ^bb2
  ^bb2:
    tt.return
  }
}
