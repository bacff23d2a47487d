// RUN: tt-opt --list-passes | FileCheck %s
// RUN: tt-opt --list-passes 2>&1 | FileCheck %s --check-prefix=CLEAN
// RUN: tt-opt --help | FileCheck %s --check-prefix=HELP

// --list-passes lists the registered passes by flag name, sorted, each with
// its summary; --help lists them too.

// CHECK: canonicalize
// CHECK: cse{{.*}}Eliminate common sub-expressions

// CLEAN-NOT: error
// CLEAN-NOT: Traceback

// HELP: pass-pipeline
// HELP: cse
