// RUN: tt-opt %s -split-input-file -canonicalize | FileCheck %s
// RUN: tt-opt %s -split-input-file -cse | FileCheck %s --check-prefix=CSE

// What -canonicalize does to tensor-memory IR, as Triton's patterns and effects (and MLIR's dead-code rule) make
// it: an unused tmem_alloc goes (an immutable one has no effects; a mutable one, or one already given its TMEM
// columns, only allocates and fills what it returns); one that is stored to stays; a memdesc_reinterpret to its
// own type folds away; a tmem_store of a convert_layout stores the convert's source when that layout can go to
// TMEM as it is.

#r = #ttg.blocked<{sizePerThread = [1, 64], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [0, 1]}>
#tm = #ttng.tensor_memory_encoding<blockM = 128, blockN = 64, colStride = 1>
module attributes {"ttg.num-warps" = 4 : i32} {
// CHECK-LABEL: @dead_allocs
// CHECK-NEXT: %[[M:.*]] = ttng.tmem_alloc : () -> !ttg.memdesc<128x64xf32, #tmem, #ttng.tensor_memory, mutable>
// CHECK-NEXT: ttng.tmem_store %arg0, %[[M]], %arg1
// CHECK-NEXT: tt.return
tt.func @dead_allocs(%t: tensor<128x64xf32, #r>, %p: i1) {
  %0 = ttng.tmem_alloc %t : (tensor<128x64xf32, #r>) -> !ttg.memdesc<128x64xf32, #tm, #ttng.tensor_memory>
  %1 = ttng.tmem_alloc : () -> !ttg.memdesc<128x64xf32, #tm, #ttng.tensor_memory, mutable>
  %2 = ttng.tmem_alloc %t {tensor_memory_col_offset = 0 : i32} : (tensor<128x64xf32, #r>) -> !ttg.memdesc<128x64xf32, #tm, #ttng.tensor_memory>
  %3 = ttng.tmem_alloc : () -> !ttg.memdesc<128x64xf32, #tm, #ttng.tensor_memory, mutable>
  ttng.tmem_store %t, %3, %p : tensor<128x64xf32, #r> -> !ttg.memdesc<128x64xf32, #tm, #ttng.tensor_memory, mutable>
  tt.return
}
}

// -----

// Two immutable allocations of one value are one value (CSE); mutable ones stay apart.
#r = #ttg.blocked<{sizePerThread = [1, 64], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [0, 1]}>
#tm = #ttng.tensor_memory_encoding<blockM = 128, blockN = 64, colStride = 1>
module attributes {"ttg.num-warps" = 4 : i32} {
// CSE-LABEL: @same_value
// CSE: %[[A:.*]] = ttng.tmem_alloc %arg0
// CSE-NOT: ttng.tmem_alloc %arg0
// CSE: %[[X:.*]] = ttng.tmem_alloc : ()
// CSE: %[[Y:.*]] = ttng.tmem_alloc : ()
// CSE: ttng.tmem_store %arg0, %[[X]], %arg1
// CSE: ttng.tmem_store %arg0, %[[Y]], %arg1
// CSE: tt.return %[[A]], %[[A]]
tt.func @same_value(%t: tensor<128x64xf32, #r>, %p: i1) -> (!ttg.memdesc<128x64xf32, #tm, #ttng.tensor_memory>, !ttg.memdesc<128x64xf32, #tm, #ttng.tensor_memory>) {
  %0 = ttng.tmem_alloc %t : (tensor<128x64xf32, #r>) -> !ttg.memdesc<128x64xf32, #tm, #ttng.tensor_memory>
  %1 = ttng.tmem_alloc %t : (tensor<128x64xf32, #r>) -> !ttg.memdesc<128x64xf32, #tm, #ttng.tensor_memory>
  %2 = ttng.tmem_alloc : () -> !ttg.memdesc<128x64xf32, #tm, #ttng.tensor_memory, mutable>
  %3 = ttng.tmem_alloc : () -> !ttg.memdesc<128x64xf32, #tm, #ttng.tensor_memory, mutable>
  ttng.tmem_store %t, %2, %p : tensor<128x64xf32, #r> -> !ttg.memdesc<128x64xf32, #tm, #ttng.tensor_memory, mutable>
  ttng.tmem_store %t, %3, %p : tensor<128x64xf32, #r> -> !ttg.memdesc<128x64xf32, #tm, #ttng.tensor_memory, mutable>
  tt.return %0, %1 : !ttg.memdesc<128x64xf32, #tm, #ttng.tensor_memory>, !ttg.memdesc<128x64xf32, #tm, #ttng.tensor_memory>
}
}

// -----

#tm = #ttng.tensor_memory_encoding<blockM = 128, blockN = 64, colStride = 1>
module attributes {"ttg.num-warps" = 4 : i32} {
// CHECK-LABEL: @reinterpret
// CHECK-NEXT: %[[V:.*]] = ttg.memdesc_reinterpret %arg0 : {{.*}} -> !ttg.memdesc<128x128xf16, #tmem, #ttng.tensor_memory>
// CHECK-NEXT: tt.return %arg0, %[[V]]
tt.func @reinterpret(%m: !ttg.memdesc<128x64xf32, #tm, #ttng.tensor_memory>) -> (!ttg.memdesc<128x64xf32, #tm, #ttng.tensor_memory>, !ttg.memdesc<128x128xf16, #tm, #ttng.tensor_memory>) {
  %0 = ttg.memdesc_reinterpret %m : !ttg.memdesc<128x64xf32, #tm, #ttng.tensor_memory> -> !ttg.memdesc<128x64xf32, #tm, #ttng.tensor_memory>
  %1 = ttg.memdesc_reinterpret %m : !ttg.memdesc<128x64xf32, #tm, #ttng.tensor_memory> -> !ttg.memdesc<128x128xf16, #tm, #ttng.tensor_memory>
  %2 = ttg.memdesc_reinterpret %m : !ttg.memdesc<128x64xf32, #tm, #ttng.tensor_memory> -> !ttg.memdesc<128x128xf16, #tm, #ttng.tensor_memory>
  tt.return %0, %1 : !ttg.memdesc<128x64xf32, #tm, #ttng.tensor_memory>, !ttg.memdesc<128x128xf16, #tm, #ttng.tensor_memory>
}
}

// -----

// #same is #r written with the other order (one row a thread either way); #rows puts lanes across columns, which
// tcgen05.st cannot take.
#r = #ttg.blocked<{sizePerThread = [1, 64], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [0, 1]}>
#same = #ttg.blocked<{sizePerThread = [1, 64], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [1, 0]}>
#rows = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#tm = #ttng.tensor_memory_encoding<blockM = 128, blockN = 64, colStride = 1>
module attributes {"ttg.num-warps" = 4 : i32} {
// CHECK-LABEL: @store_of_convert
// CHECK-NEXT: ttng.tmem_store %arg1, %arg0, %arg3 :
// CHECK-NEXT: %[[C:.*]] = ttg.convert_layout %arg2
// CHECK-NEXT: ttng.tmem_store %[[C]], %arg0, %arg3 :
tt.func @store_of_convert(%m: !ttg.memdesc<128x64xf32, #tm, #ttng.tensor_memory, mutable>, %t: tensor<128x64xf32, #same>, %u: tensor<128x64xf32, #rows>, %p: i1) {
  %0 = ttg.convert_layout %t : tensor<128x64xf32, #same> -> tensor<128x64xf32, #r>
  ttng.tmem_store %0, %m, %p : tensor<128x64xf32, #r> -> !ttg.memdesc<128x64xf32, #tm, #ttng.tensor_memory, mutable>
  %1 = ttg.convert_layout %u : tensor<128x64xf32, #rows> -> tensor<128x64xf32, #r>
  ttng.tmem_store %1, %m, %p : tensor<128x64xf32, #r> -> !ttg.memdesc<128x64xf32, #tm, #ttng.tensor_memory, mutable>
  tt.return
}
}
