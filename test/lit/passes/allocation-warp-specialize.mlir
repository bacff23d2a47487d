// RUN: tt-opt %s -split-input-file -allow-unregistered-dialect -test-print-allocation -verify-diagnostics -o /dev/null

// Shared memory for warp specialization and the new shared layouts, as Triton's Allocation gives it:
// a ttg.warp_specialize passes its explicit captures through shared memory (packed: 8 bytes and 4 per dimension
// for a shared-memory descriptor, the scalars' own sizes; aligned to 8), and the function keeps a byte per
// partition warp (here 4 + 2).

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
// expected-remark @below {{captures}}
// expected-remark @below {{size = 94}}
// expected-remark @below {{scratch offset = 88, size = 6}}
tt.func @captures(%n: i32, %x: f16) {
  // expected-remark @below {{offset = 0, size = 64}}
  %buf = ttg.local_alloc : () -> !ttg.memdesc<4x8xf16, #shared, #smem, mutable>
  // expected-remark @below {{offset = 64, size = 22}}
  ttg.warp_specialize(%buf, %n, %x)
  default {
    ttg.warp_yield
  }
  partition0(%b: !ttg.memdesc<4x8xf16, #shared, #smem, mutable>, %m: i32, %y: f16) num_warps(4) {
    "use"(%b, %m, %y) : (!ttg.memdesc<4x8xf16, #shared, #smem, mutable>, i32, f16) -> ()
    ttg.warp_return
  }
  partition1(%b: !ttg.memdesc<4x8xf16, #shared, #smem, mutable>, %m: i32, %y: f16) num_warps(2) {
    ttg.warp_return
  } : (!ttg.memdesc<4x8xf16, #shared, #smem, mutable>, i32, f16) -> ()
  tt.return
}

// -----

// A padded buffer's padding counts (64 x 64 f16 with 4 elements after every 64: 4096 + 63 * 4 elements); a
// linear shared layout brings its alignment.
#padded = #ttg.padded_shared<[64:+4] {order = [1, 0], shape = [64, 64]}>
#linear = #ttg.shared_linear<{offset = [[0, 1], [0, 2], [1, 0], [2, 0]]}, alignment = 256>
#smem = #ttg.shared_memory
// expected-remark @below {{layouts}}
// expected-remark @below {{size = 8720}}
tt.func @layouts() {
  // expected-remark @below {{offset = 0, size = 8696}}
  %p = ttg.local_alloc : () -> !ttg.memdesc<64x64xf16, #padded, #smem, mutable>
  // expected-remark @below {{offset = 8704, size = 16}}
  %l = ttg.local_alloc : () -> !ttg.memdesc<4x4xi8, #linear, #smem, mutable>
  "use"(%p, %l) : (!ttg.memdesc<64x64xf16, #padded, #smem, mutable>, !ttg.memdesc<4x4xi8, #linear, #smem, mutable>) -> ()
  tt.return
}
