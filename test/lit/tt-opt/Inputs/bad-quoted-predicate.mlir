// A quoted predicate that is not one of the enum's keywords (../written-syntax.mlir).

tt.func @f(%a: i32) -> i1 {
  %0 = arith.cmpi "less", %a, %a : i32
  tt.return %0 : i1
}
