// RUN: not tt-opt %s 2>&1 | FileCheck %s --strict-whitespace --check-prefix=SYNTAX
// RUN: echo '  %0 = tt.bogus : i32' | not tt-opt 2>&1 | FileCheck %s --strict-whitespace --check-prefix=UNKNOWN
// RUN: echo 'tt.bogus' | not tt-opt 2>&1 | FileCheck %s --strict-whitespace --check-prefix=UNKNOWN-EOL
// RUN: not tt-opt %s -bogus 2>&1 | FileCheck %s --check-prefix=FLAG
// RUN: not tt-opt %s --bogus 2>&1 | FileCheck %s --check-prefix=FLAG2
// RUN: not tt-opt %s --pass-pipeline='builtin.module(bogus)' 2>&1 | FileCheck %s --check-prefix=PIPELINE
// RUN: not tt-opt %s --pass-pipeline='builtin.module(cse{no-such-option=1})' 2>&1 | FileCheck %s --check-prefix=OPTION
// RUN: not tt-opt %s --pass-pipeline='builtin.module(canonicalize{max-iterations=abc})' 2>&1 | FileCheck %s --check-prefix=OPTION-TYPE
// RUN: not tt-opt %s -canonicalize='max-iterations=abc' 2>&1 | FileCheck %s --check-prefix=OPTION-TYPE
// RUN: not tt-opt %t.missing.mlir 2>&1 | FileCheck %s --check-prefix=MISSING
// RUN: rm -f %t
// RUN: not tt-opt %s -o %t 2>&1 | FileCheck %s --strict-whitespace --check-prefix=SYNTAX
// RUN: not test -e %t
// RUN: echo 'tt.func @k() { tt.return }' | tt-opt -o %t
// RUN: FileCheck %s --check-prefix=WRITTEN --input-file %t

// Failures print MLIR's diagnostics (file:line:col, the source line and a
// caret under the column) or a one-line tool error, exit with 1, never show a
// Python traceback, and never leave a partial -o file behind. A parse error is
// reported where the parser stopped: an unknown op at its name, including
// when the name ends the line.

// SYNTAX-NOT:  Traceback
// SYNTAX:      {{^}}{{.*}}errors.mlir:[[# @LINE + 5]]:26: error: {{.*}}':'
// SYNTAX-NEXT: {{^}}  %0 = arith.addi %a, %a i32{{$}}
// SYNTAX-NEXT: {{^}}                         ^{{$}}
// SYNTAX-NOT:  Traceback
tt.func @kernel(%a: i32) -> i32 {
  %0 = arith.addi %a, %a i32
  tt.return %0 : i32
}

// UNKNOWN:      {{^}}<stdin>:1:8: error: custom op 'tt.bogus' is unknown{{$}}
// UNKNOWN-NEXT: {{^}}  %0 = tt.bogus : i32{{$}}
// UNKNOWN-NEXT: {{^}}       ^{{$}}

// UNKNOWN-EOL:      {{^}}<stdin>:1:1: error: custom op 'tt.bogus' is unknown{{$}}
// UNKNOWN-EOL-NEXT: {{^}}tt.bogus{{$}}
// UNKNOWN-EOL-NEXT: {{^}}^{{$}}

// FLAG-NOT: Traceback
// FLAG:     {{[Uu]}}nknown command line argument '-bogus'
// FLAG-NOT: Traceback
// FLAG2:    {{[Uu]}}nknown command line argument '--bogus'

// PIPELINE-NOT: Traceback
// PIPELINE:     'bogus' does not refer to a registered pass
// PIPELINE-NOT: Traceback

// OPTION-NOT: Traceback
// OPTION:     option{{.*}}no-such-option
// OPTION-NOT: Traceback

// OPTION-TYPE-NOT: Traceback
// OPTION-TYPE-NOT: internal error
// OPTION-TYPE:     max-iterations{{.*}}'abc'
// OPTION-TYPE-NOT: Traceback

// MISSING-NOT: Traceback
// MISSING:     cannot open input file '{{.*}}.missing.mlir': No such file or directory
// MISSING-NOT: Traceback

// WRITTEN:      tt.func @k() {
// WRITTEN-NEXT:   tt.return
