// An op in a custom form whose dialect is unknown (used by ../unregistered-dialect.mlir).

tt.func @custom(%a: i32) {
  unknown.op %a : i32
  tt.return
}
