// Expectations that are not met (test/lit/ir/verify-diagnostics.mlir checks the reports).

tt.func @severity(%arg0: tensor<128xi32>) {
  // The error is expected as a warning: a near miss.
  // expected-warning @+1 {{rank of source}}
  %0 = tt.broadcast %arg0 : tensor<128xi32> -> tensor<128x32xi32>
  tt.return
}

// -----

tt.func @other_line(%arg0: tensor<128xi32>) {
  // expected-error @+2 {{rank of result}}
  %0 = tt.broadcast %arg0 : tensor<128xi32> -> tensor<128x32xi32>
  tt.return
}

// -----

tt.func @no_match(%arg0: i32) -> i32 {
  // expected-error-re @+1 {{(@{{[0-9]+}})}}
  tt.return
}
