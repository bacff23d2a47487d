// RUN: tt-opt %s -tritongpu-coalesce | FileCheck %s

// Passes that build layouts take the warp count of the ttg.warp_specialize partition an op is in (Triton's
// lookupNumWarps), not the module's: the coalesced load of a 2-warp partition spreads over 2 warps.

// CHECK: [[COALESCED:#[a-z0-9]+]] = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [2], order = [0]}>
// CHECK: partition0(%arg1: !tt.ptr<f32>) num_warps(2) {
// CHECK: tt.load {{.*}} : tensor<256x!tt.ptr<f32>, [[COALESCED]]>
#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [2], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @partition_load(%p: !tt.ptr<f32> {tt.divisibility = 16 : i32}) {
    ttg.warp_specialize(%p)
    default {
      ttg.warp_yield
    }
    partition0(%q: !tt.ptr<f32>) num_warps(2) {
      %r = tt.make_range {end = 256 : i32, start = 0 : i32} : tensor<256xi32, #blocked>
      %s = tt.splat %q : !tt.ptr<f32> -> tensor<256x!tt.ptr<f32>, #blocked>
      %a = tt.addptr %s, %r : tensor<256x!tt.ptr<f32>, #blocked>, tensor<256xi32, #blocked>
      %v = tt.load %a : tensor<256x!tt.ptr<f32>, #blocked>
      tt.store %a, %v : tensor<256x!tt.ptr<f32>, #blocked>
      ttg.warp_return
    } : (!tt.ptr<f32>) -> ()
    tt.return
  }
}
