// RUN: tt-opt %s -split-input-file -allow-unregistered-dialect -nvws-insert-aref -verify-diagnostics

// nvws-insert-aref does not pass a tt.load's value between partitions (cp.async producers), as Triton 3.6.

#bl = #ttg.blocked<{sizePerThread = [1, 32], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [0, 1]}>
module attributes {"ttg.num-warps" = 4 : i32, ttg.target = "cuda:100"} {
  tt.func @load_to_other_partition(%n: i32, %p: tensor<128x32x!tt.ptr<f32>, #bl>) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    scf.for %i = %c0 to %n step %c1 : i32 {
      // expected-error @below {{cpasync not supported yet}}
      %x = tt.load %p {ttg.partition = array<i32: 0>} : tensor<128x32x!tt.ptr<f32>, #bl>
      "use"(%x) {ttg.partition = array<i32: 1>} : (tensor<128x32xf32, #bl>) -> ()
    } {tt.warp_specialize, ttg.partition = array<i32: 0, 1>, ttg.partition.stages = [0 : i32, 0 : i32], ttg.warp_specialize.tag = 0 : i32}
    tt.return
  }
}
