// RUN: tt-opt %s -split-input-file -verify-diagnostics
// RUN: not tt-opt %s -split-input-file 2>&1 | FileCheck %s --strict-whitespace

// Tensor-core layouts are checked when they are parsed (Triton's attribute verifiers, and what mma.sync /
// wgmma admit), at the offending field, and against the ops' types when the module is verified.

// CHECK:      {{^}}{{.*}}invalid-mma-layouts.mlir:[[# @LINE + 4]]:83: error: #ttg.nvidia_mma: MMA v3 (wgmma) needs instrShape = [16, N, K] with N a multiple of 8 from 8 to 256 and K 8, 16 or 32 (32-, 16-, 8-bit operands), got [16, 12, 16]{{$}}
// CHECK-NEXT: {{^}}#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 12, 16]}>{{$}}
// CHECK-NEXT: {{^}}                                                                                  ^{{$}}
// expected-error @below {{#ttg.nvidia_mma: MMA v3 (wgmma) needs instrShape = [16, N, K] with N a multiple of 8 from 8 to 256 and K 8, 16 or 32 (32-, 16-, 8-bit operands), got [16, 12, 16]}}
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 12, 16]}>

// -----

// expected-error @below {{#ttg.nvidia_mma: MMA v3 (wgmma) needs instrShape = [16, N, K] with N a multiple of 8 from 8 to 256 and K 8, 16 or 32 (32-, 16-, 8-bit operands), got [16, 512, 16]}}
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 512, 16]}>

// -----

// expected-error @below {{#ttg.nvidia_mma: MMA v3 (wgmma) needs instrShape = [16, N, K] with N a multiple of 8 from 8 to 256 and K 8, 16 or 32 (32-, 16-, 8-bit operands), got [16, 64, 64]}}
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 64]}>

// -----

// expected-error @below {{#ttg.nvidia_mma: MMA v3 (wgmma) needs a rank-2 warpsPerCTA with whole warp groups (a multiple of 4 warps) along M, got [2, 2]}}
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 64, 16]}>

// -----

// expected-error @below {{#ttg.nvidia_mma: MMA v2 (mma.sync m16n8) needs instrShape = [16, 8], got [16, 16]}}
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 16]}>

// -----

// expected-error @below {{#ttg.nvidia_mma: MMA v2 (mma.sync m16n8) needs instrShape = [1, 16, 8], got [16, 8]}}
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [4, 1, 1], instrShape = [16, 8]}>

// -----

// expected-error @below {{#ttg.nvidia_mma: versionMajor must be 1 (mma.sync m8n8k4), 2 (mma.sync m16n8) or 3 (wgmma), got 4}}
#mma = #ttg.nvidia_mma<{versionMajor = 4, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 8]}>

// -----

// expected-error @below {{#ttg.nvidia_mma: warpsPerCTA must be 2 or 3 powers of two, got [3, 1]}}
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [3, 1], instrShape = [16, 8]}>

// -----

// expected-error @below {{#ttg.nvidia_mma needs 'instrShape'}}
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [4, 1]}>

// -----

// expected-error @below {{#ttg.nvmma_shared: swizzlingByteWidth must be 0, 32, 64, or 128, got 96}}
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 96, transposed = false, elementBitWidth = 16}>

// -----

// expected-error @below {{#ttg.nvmma_shared: elementBitWidth must be non-zero}}
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 0}>

// -----

// expected-error @below {{#ttg.nvmma_shared: elementBitWidth must be 8, 16, 32 or 64, got 12}}
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 12}>

// -----

// expected-error @below {{#ttg.nvmma_shared: transposed must be true or false, got 1}}
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = 1, elementBitWidth = 16}>

// -----

#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
// expected-error @below {{#ttg.dot_op: ttg.dot_op kWidth parameter is mandatory for Ampere or Hopper MMA parent}}
#a = #ttg.dot_op<{opIdx = 0, parent = #mma}>

// -----

#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
// expected-error @below {{#ttg.dot_op: ttg.dot_op opIdx parameter must be 0 for Hopper MMA parent, since Hopper WGMMA only allows first operand to be in registers}}
#b = #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
// expected-error @below {{#ttg.dot_op: ttg.dot_op kWidth parameter is not supported when the parent is a blocked layout}}
#a = #ttg.dot_op<{opIdx = 0, parent = #blocked, kWidth = 2}>

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
// expected-error @below {{#ttg.dot_op: ttg.dot_op opIdx parameter can be 0 or 1, got: 2}}
#a = #ttg.dot_op<{opIdx = 2, parent = #blocked}>

// -----

// The MMA layout's warps against the module's.
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
module attributes {"ttg.num-warps" = 8 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @warps() {
    // expected-error @below {{'arith.constant' op result has an invalid layout: Layout has a total of 4 warps per CTA, but the context requires 8 warps per CTA.}}
    %0 = arith.constant dense<0.0> : tensor<32x32xf32, #mma>
    tt.return
  }
}

// -----

// wgmma's instruction K against the operands' element type, and the buffers' element width.
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 8}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, ttg.target = "cuda:90"} {
  tt.func @wgmma_k(%a: !ttg.memdesc<64x64xi8, #shared, #smem>, %b: !ttg.memdesc<64x64xi8, #shared, #smem>, %c: tensor<64x64xi32, #mma>) {
    // expected-error @below {{'ttng.warp_group_dot' op the #ttg.nvidia_mma instrShape K = 16 does not match 8-bit operands (wgmma takes K = 32 of them)}}
    %d = ttng.warp_group_dot %a, %b, %c : !ttg.memdesc<64x64xi8, #shared, #smem> * !ttg.memdesc<64x64xi8, #shared, #smem> -> tensor<64x64xi32, #mma>
    tt.return
  }
}

// -----

#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 32}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, ttg.target = "cuda:90"} {
  tt.func @wgmma_elements(%a: !ttg.memdesc<64x64xf16, #shared, #smem>, %b: !ttg.memdesc<64x64xf16, #shared, #smem>, %c: tensor<64x64xf32, #mma>) {
    // expected-error @below {{'ttng.warp_group_dot' op #ttg.nvmma_shared elementBitWidth = 32 does not match the 16-bit elements of its buffer}}
    %d = ttng.warp_group_dot %a, %b, %c : !ttg.memdesc<64x64xf16, #shared, #smem> * !ttg.memdesc<64x64xf16, #shared, #smem> -> tensor<64x64xf32, #mma>
    tt.return
  }
}

// -----

#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, ttg.target = "cuda:90"} {
  tt.func @wgmma_m(%a: !ttg.memdesc<32x64xf16, #shared, #smem>, %b: !ttg.memdesc<64x64xf16, #shared, #smem>, %c: tensor<32x64xf32, #mma>) {
    // expected-error @below {{'ttng.warp_group_dot' op WGMMA result M dimension must be divisible by 64}}
    %d = ttng.warp_group_dot %a, %b, %c : !ttg.memdesc<32x64xf16, #shared, #smem> * !ttg.memdesc<64x64xf16, #shared, #smem> -> tensor<32x64xf32, #mma>
    tt.return
  }
}
