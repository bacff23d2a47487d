// RUN: tt-opt %s -split-input-file --tritongpu-allocate-warp-groups | FileCheck %s

// With no warp_specialize the kernel's warps are all it has.
// CHECK: module attributes {"ttg.num-warps" = 8 : i32, "ttg.total-num-warps" = 8 : i32}
module attributes {"ttg.num-warps" = 8 : i32} {
}

// -----

// Partitions of 2 + 1 warps are padded to one warp group with a 1-warp
// partition that does nothing (taking the captures as arguments); start IDs
// follow the kernel's 4 warps, the largest partition first, ties in order.
// CHECK: module attributes {"ttg.num-warps" = 4 : i32, "ttg.total-num-warps" = 8 : i32}
// CHECK: ttg.warp_specialize(%arg0) attributes {warpGroupStartIds = array<i32: 4, 6, 7>}
// CHECK: partition0(%arg1: i32) num_warps(2) {
// CHECK: partition1(%arg1: i32) num_warps(1) {
// CHECK: partition2(%arg1: i32) num_warps(1) {
// CHECK-NEXT: ttg.warp_return
// CHECK-NEXT: } : (i32) -> ()
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @pad(%x: i32) {
    ttg.warp_specialize(%x)
    default {
      ttg.warp_yield
    }
    partition0(%a: i32) num_warps(2) {
      ttg.warp_return
    }
    partition1(%a: i32) num_warps(1) {
      ttg.warp_return
    } : (i32) -> ()
    tt.return
  }
}

// -----

// Every warp_specialize gets as many extra warp groups as the largest one
// (here two, from the second op's 5 warps): the first is padded with 4 warps,
// the second with 2 + 1.
// CHECK: "ttg.total-num-warps" = 12 : i32
// CHECK: ttg.warp_specialize() attributes {warpGroupStartIds = array<i32: 4, 8>}
// CHECK: partition1() num_warps(4)
// CHECK: ttg.warp_specialize() attributes {warpGroupStartIds = array<i32: 4, 10, 8, 11>}
// CHECK: partition1() num_warps(1)
// CHECK: partition2() num_warps(2)
// CHECK: partition3() num_warps(1)
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @two() {
    ttg.warp_specialize()
    default {
      ttg.warp_yield
    }
    partition0() num_warps(4) {
      ttg.warp_return
    } : () -> ()
    ttg.warp_specialize()
    default {
      ttg.warp_yield
    }
    partition0() num_warps(4) {
      ttg.warp_return
    }
    partition1() num_warps(1) {
      ttg.warp_return
    } : () -> ()
    tt.return
  }
}

// -----

// Requested registers: the warp group gets its largest request rounded up to
// 8 (40), and the default warps the rest of 64K registers over 8 warps
// (maxnreg 256): 256 + (256 - 40) = 472 -> 472, rounded down to 8.
// Padding partitions ask for 16.
// CHECK: module attributes {ttg.maxnreg = 256 : i32
// CHECK: actualRegisters = array<i32: 472, 40, 40>, requestedRegisters = array<i32: 33, 16>
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @registers() {
    ttg.warp_specialize() attributes {requestedRegisters = array<i32: 33>}
    default {
      ttg.warp_yield
    }
    partition0() num_warps(2) {
      ttg.warp_return
    } : () -> ()
    tt.return
  }
}

// -----

// A partition that prints needs at least 32 registers; a user's ttg.maxnreg
// is the budget. 4 default warps: 64 + (64 - 32) = 96.
// CHECK: module attributes {ttg.maxnreg = 64 : i32
// CHECK: actualRegisters = array<i32: 96, 32>
module attributes {"ttg.num-warps" = 4 : i32, ttg.maxnreg = 64 : i32} {
  tt.func @prints(%x: i32) {
    ttg.warp_specialize(%x) attributes {requestedRegisters = array<i32: 24>}
    default {
      ttg.warp_yield
    }
    partition0(%a: i32) num_warps(4) {
      tt.print ": " {hex = false, isSigned = array<i32: 1>} : %a : i32
      ttg.warp_return
    } : (i32) -> ()
    tt.return
  }
}

// -----

// Too few registers left for the default warps (below 24): nothing is set.
// CHECK: module attributes {ttg.maxnreg = 32 : i32
// CHECK-NOT: actualRegisters
module attributes {"ttg.num-warps" = 4 : i32, ttg.maxnreg = 32 : i32} {
  tt.func @starved() {
    ttg.warp_specialize() attributes {requestedRegisters = array<i32: 200>}
    default {
      ttg.warp_yield
    }
    partition0() num_warps(4) {
      ttg.warp_return
    } : () -> ()
    tt.return
  }
}
