// RUN: env MLIR_ENABLE_DUMP=1 tt-opt %s -cse -cse 2>&1 | FileCheck %s --check-prefix=DUMP
// RUN: env MLIR_ENABLE_DUMP=true tt-opt %s -cse 2>&1 | FileCheck %s --check-prefix=ONE
// RUN: env MLIR_ENABLE_DUMP=kernel tt-opt %s -cse 2>&1 | FileCheck %s --check-prefix=ONE
// RUN: env MLIR_ENABLE_DUMP=other_kernel tt-opt %s -cse 2>&1 | FileCheck %s --check-prefix=NONE
// RUN: env MLIR_ENABLE_DUMP=0 tt-opt %s -cse 2>&1 | FileCheck %s --check-prefix=NONE
// RUN: env MLIR_ENABLE_DUMP=false tt-opt %s -cse 2>&1 | FileCheck %s --check-prefix=NONE
// RUN: rm -f %t
// RUN: env MLIR_ENABLE_DUMP=1 MLIR_DUMP_PATH=%t tt-opt %s -cse -cse 2>&1 | FileCheck %s --check-prefix=NONE
// RUN: FileCheck %s --check-prefix=FILE2 --input-file %t
// RUN: env MLIR_ENABLE_DUMP=1 MLIR_DUMP_PATH=%t tt-opt %s -cse 2>&1 | FileCheck %s --check-prefix=NONE
// RUN: FileCheck %s --check-prefix=FILE1 --input-file %t

// Triton's MLIR_ENABLE_DUMP: the IR before every pass, at module scope, with
// locations and NameLoc names (%offs), followed by two empty lines; nothing
// after the passes (they succeed). 1/true/on enable it, 0/false/off do not,
// and any other value is a kernel name: only a module holding that function
// is dumped. MLIR_DUMP_PATH sends the dumps to a file, which each run starts
// afresh. The final IR on stdout is printed as usual.

// DUMP:      // -----// IR Dump Before CSE (cse) ('builtin.module' operation) //----- //
// DUMP-NEXT: #loc = loc("/tmp/kernel.py":10:0)
// DUMP-NEXT: module {
// DUMP-NEXT:   tt.func public @kernel(%arg0: i32 loc("/tmp/kernel.py":10:0)) -> i32 {
// DUMP-NEXT:     %offs = arith.addi %arg0, %arg0 : i32 loc(#loc{{[0-9]+}})
// DUMP-NEXT:     %0 = arith.addi %arg0, %arg0 : i32 loc(#loc{{[0-9]+}})
// DUMP-NEXT:     %1 = arith.muli %offs, %0 : i32 loc(#loc{{[0-9]+}})
// DUMP-NEXT:     tt.return %1 : i32 loc(#loc{{[0-9]+}})
// DUMP-NEXT:   } loc(#loc)
// DUMP-NEXT: } loc(#loc)
// DUMP-NEXT: #loc{{[0-9]+}} = loc(
// DUMP-NEXT: #loc{{[0-9]+}} = loc(
// DUMP-NEXT: #loc{{[0-9]+}} = loc(
// DUMP-NEXT: #loc{{[0-9]+}} = loc(
// DUMP-EMPTY:
// DUMP-EMPTY:
// DUMP-NEXT: // -----// IR Dump Before CSE (cse) ('builtin.module' operation) //----- //
// DUMP:        tt.func public @kernel(%arg0: i32 loc("/tmp/kernel.py":10:0)) -> i32 {
// DUMP-NEXT:     %offs = arith.addi %arg0, %arg0 : i32 loc(#loc{{[0-9]+}})
// DUMP-NEXT:     %0 = arith.muli %offs, %offs : i32 loc(#loc{{[0-9]+}})
// DUMP-NEXT:     tt.return %0 : i32 loc(#loc{{[0-9]+}})
// DUMP-NEXT:   } loc(#loc)
// DUMP-NEXT: } loc(#loc)
// DUMP-NEXT: #loc{{[0-9]+}} = loc(
// DUMP-NEXT: #loc{{[0-9]+}} = loc(
// DUMP-NEXT: #loc{{[0-9]+}} = loc(
// DUMP-NEXT: #loc{{[0-9]+}} = loc(
// DUMP-EMPTY:
// DUMP-EMPTY:
// DUMP-NEXT: module {
// DUMP-NEXT:   tt.func public @kernel(%arg0: i32) -> i32 {
// DUMP-NEXT:     %0 = arith.addi %arg0, %arg0 : i32
// DUMP-NEXT:     %1 = arith.muli %0, %0 : i32
// DUMP-NOT:  IR Dump

// ONE-COUNT-1: IR Dump Before CSE (cse)
// ONE-NOT:     IR Dump
// ONE:         module {

// NONE-NOT: IR Dump
// NONE:     module {
// NONE-NOT: IR Dump

// FILE2-COUNT-2: // -----// IR Dump Before CSE (cse) ('builtin.module' operation) //----- //
// FILE2-NOT:     IR Dump

// FILE1-COUNT-1: // -----// IR Dump Before CSE (cse) ('builtin.module' operation) //----- //
// FILE1-NOT:     IR Dump

#loc = loc("/tmp/kernel.py":10:0)
module {
  tt.func public @kernel(%arg0: i32 loc("/tmp/kernel.py":10:0)) -> i32 {
    %0 = arith.addi %arg0, %arg0 : i32 loc(#loc4)
    %1 = arith.addi %arg0, %arg0 : i32 loc(#loc1)
    %2 = arith.muli %0, %1 : i32 loc(#loc2)
    tt.return %2 : i32 loc(#loc3)
  } loc(#loc)
} loc(#loc)
#loc1 = loc("/tmp/kernel.py":11:8)
#loc2 = loc("/tmp/kernel.py":12:8)
#loc3 = loc("/tmp/kernel.py":13:4)
#loc4 = loc("offs"(#loc1))
