// RUN: tt-opt %s --mlir-print-debuginfo | FileCheck %s
// RUN: tt-opt %s | FileCheck %s --check-prefix=NOLOC
// RUN: tt-opt %s --mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC
// RUN: tt-opt %s --mlir-print-op-generic | tt-opt | FileCheck %s --check-prefix=NOLOC
// RUN: tt-opt %s --mlir-print-op-generic --mlir-print-debuginfo | tt-opt --mlir-print-debuginfo | FileCheck %s
// RUN: tt-opt %s --mlir-use-nameloc-as-prefix | FileCheck %s --check-prefix=NAMES

// Locations: --mlir-print-debuginfo prints them as #loc aliases defined around
// the module (locations of block arguments stay inline); without it they are
// not printed at all. The generic form re-parses to the same module, with its
// locations. An op written without a location is located where it was parsed.
// --mlir-use-nameloc-as-prefix names a value after its NameLoc ("offs"); other
// values keep MLIR's default names (%arg0, %0).

// CHECK:      #loc = loc("/tmp/kernel.py":10:0)
// CHECK:      module {
// CHECK-NEXT:   tt.func public @kernel(%arg0: i32 loc("/tmp/kernel.py":10:0), %arg1: i32 loc("n"(#loc))) -> i32 {
// CHECK-NEXT:     %0 = arith.addi %arg0, %arg1 : i32 loc([[ADD:#loc[0-9]+]])
// CHECK-NEXT:     %1 = arith.muli %0, %0 : i32 loc([[MUL:#loc[0-9]+]])
// CHECK-NEXT:     tt.return %1 : i32 loc([[RET:#loc[0-9]+]])
// CHECK-NEXT:   } loc(#loc)
// CHECK-NEXT: } loc(#loc)
// CHECK-DAG:  [[ADD]] = loc("offs"([[ADDFILE:#loc[0-9]+]]))
// CHECK-DAG:  [[ADDFILE]] = loc("/tmp/kernel.py":11:8)
// CHECK-DAG:  [[MUL]] = loc("/tmp/kernel.py":12:8)
// CHECK-DAG:  [[RET]] = loc("{{.*}}debuginfo.mlir":[[# @LINE + 30]]:5)

// NOLOC:      module {
// NOLOC-NEXT:   tt.func public @kernel(%arg0: i32, %arg1: i32) -> i32 {
// NOLOC-NEXT:     %0 = arith.addi %arg0, %arg1 : i32
// NOLOC-NEXT:     %1 = arith.muli %0, %0 : i32
// NOLOC-NEXT:     tt.return %1 : i32
// NOLOC-NEXT:   }
// NOLOC-NEXT: }
// NOLOC-NOT:  loc

// GENERIC:      "builtin.module"() ({
// GENERIC-NEXT:   "tt.func"() <{function_type = (i32, i32) -> i32, sym_name = "kernel", sym_visibility = "public"}> ({
// GENERIC-NEXT:   ^bb0(%arg0: i32, %arg1: i32):
// GENERIC-NEXT:     %0 = "arith.addi"(%arg0, %arg1) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32
// GENERIC-NEXT:     %1 = "arith.muli"(%0, %0) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32
// GENERIC-NEXT:     "tt.return"(%1) : (i32) -> ()
// GENERIC-NEXT:   }) : () -> ()
// GENERIC-NEXT: }) : () -> ()

// NAMES:      tt.func public @kernel(%arg0: i32, %n: i32) -> i32 {
// NAMES-NEXT:   %offs = arith.addi %arg0, %n : i32
// NAMES-NEXT:   %0 = arith.muli %offs, %offs : i32
// NAMES-NEXT:   tt.return %0 : i32

#loc = loc("/tmp/kernel.py":10:0)
module {
  tt.func public @kernel(%x: i32 loc("/tmp/kernel.py":10:0), %y: i32 loc("n"(#loc))) -> i32 {
    %sum = arith.addi %x, %y : i32 loc(#loc3)
    %prod = arith.muli %sum, %sum : i32 loc(#loc2)
    tt.return %prod : i32
  } loc(#loc)
} loc(#loc)
#loc1 = loc("/tmp/kernel.py":11:8)
#loc2 = loc("/tmp/kernel.py":12:8)
#loc3 = loc("offs"(#loc1))
