// Input of tritongpu-optimize-partition-warps.mlir (its second RUN line): a partition to lay out again in a
// module without ttg.target.
// Laying a partition out again needs the module's target.
// CHECK: optimize-partition-warps-no-target.mlir:{{[0-9]+}}:1: error: module missing target specification
#n4 = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @no_target(%arg0: i32) {
    ttg.warp_specialize(%arg0)
    default {
      ttg.warp_yield
    }
    partition0(%a: i32) num_warps(4) {
      %s = tt.splat %a : i32 -> tensor<128xi32, #n4>
      ttg.warp_return
    } : (i32) -> ()
    tt.return
  }
}
