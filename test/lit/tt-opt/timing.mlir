// RUN: tt-opt %s -cse --mlir-timing 2>&1 >/dev/null | FileCheck %s --strict-whitespace --check-prefix=TIME
// RUN: env MLIR_ENABLE_TIMING=1 tt-opt %s -cse 2>&1 >/dev/null | FileCheck %s --strict-whitespace --check-prefix=ENV
// RUN: tt-opt %s -cse --mlir-timing 2>/dev/null | FileCheck %s --check-prefix=OUT
// RUN: tt-opt %s -cse 2>&1 | FileCheck %s --check-prefix=QUIET

// MLIR's execution time report on stderr. Each entry is
// `  %8.4f (%5.1f%%)  name`; the time not spent in any listed entry is
// reported as "Rest" before the "Total". mlir-opt's --mlir-timing also times
// parsing ("Parser") and printing ("Output"); Triton's MLIR_ENABLE_TIMING
// times the pass manager only.

// TIME:      {{^}}===-------------------------------------------------------------------------==={{$}}
// TIME-NEXT: {{^}}                         ... Execution time report ...{{$}}
// TIME-NEXT: {{^}}===-------------------------------------------------------------------------==={{$}}
// TIME-NEXT: {{^}}  Total Execution Time: {{[0-9]+\.[0-9]+}} seconds{{$}}
// TIME-EMPTY:
// TIME-NEXT: {{^}}  ----Wall Time----  ----Name----{{$}}
// TIME-NEXT: {{^}}    {{[0-9]+\.[0-9]+}} ({{ *[0-9]+\.[0-9]}}%)  Parser{{$}}
// TIME:      {{^}}    {{[0-9]+\.[0-9]+}} ({{ *[0-9]+\.[0-9]}}%)  CSE{{$}}
// TIME:      {{^}}    {{[0-9]+\.[0-9]+}} ({{ *[0-9]+\.[0-9]}}%)  Output{{$}}
// TIME-NEXT: {{^}}    {{[0-9]+\.[0-9]+}} ({{ *[0-9]+\.[0-9]}}%)  Rest{{$}}
// TIME-NEXT: {{^}}    {{[0-9]+\.[0-9]+}} (100.0%)  Total{{$}}

// ENV:      {{^}}                         ... Execution time report ...{{$}}
// ENV:      {{^}}  ----Wall Time----  ----Name----{{$}}
// ENV-NEXT: {{^}}    {{[0-9]+\.[0-9]+}} ({{ *[0-9]+\.[0-9]}}%)  CSE{{$}}
// ENV:      {{^}}    {{[0-9]+\.[0-9]+}} ({{ *[0-9]+\.[0-9]}}%)  Rest{{$}}
// ENV-NEXT: {{^}}    {{[0-9]+\.[0-9]+}} (100.0%)  Total{{$}}

// The report does not disturb the output, and is absent when not asked for.
// OUT:      tt.func @kernel
// OUT-NEXT:   %0 = arith.addi %arg0, %arg0 : i32
// OUT-NEXT:   %1 = arith.muli %0, %0 : i32
// OUT-NOT:  Execution time report
// QUIET-NOT: Execution time report

tt.func @kernel(%a: i32) -> i32 {
  %0 = arith.addi %a, %a : i32
  %1 = arith.addi %a, %a : i32
  %2 = arith.muli %0, %1 : i32
  tt.return %2 : i32
}
