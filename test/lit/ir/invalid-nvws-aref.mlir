// RUN: tt-opt %s -split-input-file -verify-diagnostics

// Triton's verifiers of the NVWS aref ops, one rule per case.

#nv = #ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
tt.func @slots_differ(%x: !ttg.memdesc<2x32x32xf16, #nv, #smem, mutable>, %y: !ttg.memdesc<3x32x32xf16, #nv, #smem, mutable>) {
  // expected-error @below {{Leading dims of sliced aref inputs don't match.}}
  %r = nvws.aref.create %x, %y : <[!ttg.memdesc<2x32x32xf16, #nv, #smem, mutable>, !ttg.memdesc<3x32x32xf16, #nv, #smem, mutable>]>
  tt.return
}

// -----

#nv = #ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
tt.func @buffer_shared(%x: !ttg.memdesc<2x32x32xf16, #nv, #smem, mutable>, %i: i32) {
  // expected-error @below {{Aref buffer is used elsewhere, Aref cannot guarantee async safety}}
  %r = nvws.aref.create %x : <[!ttg.memdesc<2x32x32xf16, #nv, #smem, mutable>]>
  %v = ttg.memdesc_index %x[%i] : !ttg.memdesc<2x32x32xf16, #nv, #smem, mutable> -> !ttg.memdesc<32x32xf16, #nv, #smem, mutable>
  tt.return
}

// -----

#nv = #ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
tt.func @enter_count(%x: !ttg.memdesc<2x32x32xf16, #nv, #smem, mutable>) {
  %r = nvws.aref.create %x : <[!ttg.memdesc<2x32x32xf16, #nv, #smem, mutable>]>
  // expected-error @below {{Aref has different number of arguments than enter}}
  %g:3 = nvws.aref.get.enter %r : <[!ttg.memdesc<2x32x32xf16, #nv, #smem, mutable>]> -> !ttg.memdesc<32x32xf16, #nv, #smem, mutable>, !ttg.memdesc<32x32xf16, #nv, #smem, mutable>, !ttg.async.token
  tt.return
}

// -----

#nv = #ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
tt.func @enter_rank(%x: !ttg.memdesc<2x32x32xf16, #nv, #smem, mutable>) {
  %r = nvws.aref.create %x : <[!ttg.memdesc<2x32x32xf16, #nv, #smem, mutable>]>
  // expected-error @below {{Ranks don't match}}
  %p:2 = nvws.aref.put.enter %r : <[!ttg.memdesc<2x32x32xf16, #nv, #smem, mutable>]> -> !ttg.memdesc<2x32x32xf16, #nv, #smem, mutable>, !ttg.async.token
  tt.return
}

// -----

#nv = #ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
tt.func @enter_dims(%x: !ttg.memdesc<2x64x32xf16, #nv, #smem, mutable>) {
  %r = nvws.aref.create %x : <[!ttg.memdesc<2x64x32xf16, #nv, #smem, mutable>]>
  // expected-error @below {{Dimensions don't match}}
  %p:2 = nvws.aref.put.enter %r : <[!ttg.memdesc<2x64x32xf16, #nv, #smem, mutable>]> -> !ttg.memdesc<32x32xf16, #nv, #smem, mutable>, !ttg.async.token
  tt.return
}

// -----

#nv = #ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
tt.func @bad_async_op(%x: !ttg.memdesc<2x32x32xf16, #nv, #smem, mutable>, %t: !ttg.async.token) {
  %r = nvws.aref.create %x : <[!ttg.memdesc<2x32x32xf16, #nv, #smem, mutable>]>
  // expected-error @below {{expected ::mlir::triton::nvws::AsyncOp to be one of: none, tma_load, tc5mma, tmem_copy, cp_async, wgmma}}
  nvws.aref.get.exit %r, %t [#nvws.async_op<tma_store>] : <[!ttg.memdesc<2x32x32xf16, #nv, #smem, mutable>]>, !ttg.async.token
  tt.return
}
