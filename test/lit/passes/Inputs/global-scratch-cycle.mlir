// Two functions that call each other (../global-scratch-memory-allocation.mlir).
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @kernel() {
    tt.call @a() : () -> ()
    tt.return
  }
  tt.func private @a() {
    tt.call @b() : () -> ()
    tt.return
  }
  tt.func private @b() {
    tt.call @a() : () -> ()
    tt.return
  }
}
