// RUN: tt-opt %s -cse > %t.flag
// RUN: tt-opt %s --cse > %t.flag2
// RUN: tt-opt %s --pass-pipeline='builtin.module(cse)' > %t.pipeline
// RUN: tt-opt %s -pass-pipeline='builtin.module(cse)' > %t.pipeline1
// RUN: tt-opt %s --pass-pipeline 'builtin.module(cse)' > %t.pipeline2
// RUN: tt-opt %s -p 'builtin.module(cse)' > %t.p
// RUN: tt-opt %s -p='builtin.module(cse)' > %t.p1
// RUN: diff %t.flag %t.flag2
// RUN: diff %t.flag %t.pipeline
// RUN: diff %t.flag %t.pipeline1
// RUN: diff %t.flag %t.pipeline2
// RUN: diff %t.flag %t.p
// RUN: diff %t.flag %t.p1
// RUN: FileCheck %s --input-file %t.flag
// RUN: tt-opt %s > %t.none
// RUN: not diff %t.flag %t.none
// RUN: tt-opt %s -cse -canonicalize='max-iterations=3' > %t.flags2
// RUN: tt-opt %s --pass-pipeline='builtin.module(cse,canonicalize{max-iterations=3})' > %t.pipeline3
// RUN: diff %t.flags2 %t.pipeline3

// A pass as a flag (one or two dashes) and as a textual pipeline
// (--pass-pipeline, -pass-pipeline, -p; with `=` or as the next argument) run
// the same pass: the outputs are identical, and differ from running no pass.
// Pass options are written `-pass='k=v'` as a flag and `pass{k=v}` in a
// pipeline.

// CHECK:      tt.func @kernel(%arg0: i32) -> i32 {
// CHECK-NEXT:   %0 = arith.addi %arg0, %arg0 : i32
// CHECK-NEXT:   %1 = arith.muli %0, %0 : i32
// CHECK-NEXT:   tt.return %1 : i32

tt.func @kernel(%a: i32) -> i32 {
  %0 = arith.addi %a, %a : i32
  %1 = arith.addi %a, %a : i32
  %2 = arith.muli %0, %1 : i32
  tt.return %2 : i32
}
