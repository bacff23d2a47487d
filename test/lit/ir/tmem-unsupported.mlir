// RUN: not tt-translate %s --target=llvmir 2>&1 | FileCheck %s
// RUN: echo '{"kernel": "k", "signature": "*fp32:16", "num_warps": 4, "grid": [1, 1, 1], "args": [{"name": "p", "type": "*fp32", "shape": [8192], "init": "zeros"}]}' > %t.json
// RUN: not tt-run %s --interpret --spec %t.json 2>&1 | FileCheck %s --check-prefix=INTERP

// Blackwell's tensor memory and tcgen05 ops are IR only: the LLVM lowering refuses them at the first one, before
// lowering anything else, and so does the interpreter, each with the op's location.

// CHECK: tmem-unsupported.mlir:[[# @LINE + 9]]:5: error: 'ttng.tmem_alloc' is not supported yet by the LLVM lowering
// INTERP: tmem-unsupported.mlir:[[# @LINE + 8]]:5: error: the interpreter does not support 'ttng.tmem_alloc'
#blocked = #ttg.blocked<{sizePerThread = [1, 64], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [0, 1]}>
#tmem = #ttng.tensor_memory_encoding<blockM = 128, blockN = 64, colStride = 1>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:100", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @k(%p: !tt.ptr<f32> {tt.divisibility = 16 : i32}) {
    %true = arith.constant true
    %ptrs = tt.splat %p : !tt.ptr<f32> -> tensor<128x64x!tt.ptr<f32>, #blocked>
    %x = tt.load %ptrs : tensor<128x64x!tt.ptr<f32>, #blocked>
    %a, %t = ttng.tmem_alloc : () -> (!ttg.memdesc<128x64xf32, #tmem, #ttng.tensor_memory, mutable>, !ttg.async.token)
    %t1 = ttng.tmem_store %x, %a[%t], %true : tensor<128x64xf32, #blocked> -> !ttg.memdesc<128x64xf32, #tmem, #ttng.tensor_memory, mutable>
    %v, %t2 = ttng.tmem_load %a[%t1] : !ttg.memdesc<128x64xf32, #tmem, #ttng.tensor_memory, mutable> -> tensor<128x64xf32, #blocked>
    tt.store %ptrs, %v : tensor<128x64x!tt.ptr<f32>, #blocked>
    tt.return
  }
}
