// RUN: not tt-opt %S/Inputs/truncated-between-ops.ttir 2>&1 | FileCheck %s --strict-whitespace --check-prefix=OPS
// RUN: not tt-opt %S/Inputs/truncated-in-op.ttir 2>&1 | FileCheck %s --strict-whitespace --check-prefix=IN-OP
// RUN: not tt-opt %S/Inputs/stray-paren.ttir 2>&1 | FileCheck %s --strict-whitespace --check-prefix=STRAY

// A file that ends early (a truncated dump, a half-pasted kernel) is reported at the end of its last line of text,
// not on the blank line after it. Between two ops, the error names the innermost '{' left open, with a note there.

// OPS:      {{^}}{{.*}}truncated-between-ops.ttir:4:34: error: unexpected end of file: expected '}' to close the '{' at 2:52{{$}}
// OPS-NEXT: {{^}}    %c = arith.constant 2.0 : f32{{$}}
// OPS-NEXT: {{^}}                                 ^{{$}}
// OPS-NEXT: {{^}}{{.*}}truncated-between-ops.ttir:2:52: note: the '{' opened here{{$}}
// OPS-NOT:  Traceback

// Inside an op, the parser's own message says what was missing.

// IN-OP:      {{^}}{{.*}}truncated-in-op.ttir:4:29: error: unexpected end of file: ':' expected in 'arith.muli'{{$}}
// IN-OP-NEXT: {{^}}    %m = arith.muli %pid, %n{{$}}
// IN-OP-NEXT: {{^}}                            ^{{$}}

// Neither an op nor '}' where one must come, before the end.

// STRAY:      {{^}}{{.*}}stray-paren.ttir:4:3: error: expected an operation or '}'{{$}}
// STRAY-NEXT: {{^}}  ) }{{$}}
// STRAY-NEXT: {{^}}  ^{{$}}
