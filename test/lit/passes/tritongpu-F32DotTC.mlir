// RUN: tt-opt %s -split-input-file -tritongpu-F32DotTC | FileCheck %s
// RUN: tt-opt %s -split-input-file -tritongpu-F32DotTC=emu-tf32=1 | FileCheck %s --check-prefix=EMU

// bf16x3: each operand splits into hi and mid bf16 parts; mid*hi and hi*mid from zero, NaNs zeroed, then
// hi*hi (ieee dots), and the accumulator added last. The zero is hoisted to the top as a dense constant.
// CHECK-LABEL: tt.func public @bf16x3
// CHECK: %[[Z:.*]] = arith.constant dense<0.000000e+00> : tensor<32x32xf32>
// CHECK-NEXT: %[[AH:.*]] = arith.truncf %arg0 : tensor<32x16xf32> to tensor<32x16xbf16>
// CHECK-NEXT: %[[AHX:.*]] = arith.extf %[[AH]] : tensor<32x16xbf16> to tensor<32x16xf32>
// CHECK-NEXT: %[[AR:.*]] = arith.subf %arg0, %[[AHX]] : tensor<32x16xf32>
// CHECK-NEXT: %[[AM:.*]] = arith.truncf %[[AR]] : tensor<32x16xf32> to tensor<32x16xbf16>
// CHECK-NEXT: %[[BH:.*]] = arith.truncf %arg1
// CHECK-NEXT: %[[BHX:.*]] = arith.extf %[[BH]]
// CHECK-NEXT: %[[BR:.*]] = arith.subf %arg1, %[[BHX]]
// CHECK-NEXT: %[[BM:.*]] = arith.truncf %[[BR]]
// CHECK-NEXT: %[[D1:.*]] = tt.dot %[[AM]], %[[BH]], %[[Z]] : tensor<32x16xbf16> * tensor<16x32xbf16> -> tensor<32x32xf32>
// CHECK-NEXT: %[[D2:.*]] = tt.dot %[[AH]], %[[BM]], %[[D1]] : tensor<32x16xbf16> * tensor<16x32xbf16> -> tensor<32x32xf32>
// CHECK-NEXT: %[[NAN:.*]] = arith.cmpf uno, %[[D2]], %[[D2]] : tensor<32x32xf32>
// CHECK-NEXT: %[[SEL:.*]] = arith.select %[[NAN]], %[[Z]], %[[D2]] : tensor<32x32xi1>, tensor<32x32xf32>
// CHECK-NEXT: %[[D3:.*]] = tt.dot %[[AH]], %[[BH]], %[[SEL]] : tensor<32x16xbf16> * tensor<16x32xbf16> -> tensor<32x32xf32>
// CHECK-NEXT: %[[R:.*]] = arith.addf %[[D3]], %arg2 : tensor<32x32xf32>
// CHECK-NEXT: tt.return %[[R]]
tt.func public @bf16x3(%a: tensor<32x16xf32>, %b: tensor<16x32xf32>, %c: tensor<32x32xf32>) -> tensor<32x32xf32> {
  %d = tt.dot %a, %b, %c, inputPrecision = bf16x3 : tensor<32x16xf32> * tensor<16x32xf32> -> tensor<32x32xf32>
  tt.return %d : tensor<32x32xf32>
}

// -----

// bf16x6: a third (lo) part of each operand, and mid*mid, lo*hi, hi*lo before the bf16x3 products.
// CHECK-LABEL: tt.func public @bf16x6
// CHECK: %[[AH:.*]] = arith.truncf %arg0
// CHECK-NEXT: arith.extf %[[AH]]
// CHECK-NEXT: %[[AR:.*]] = arith.subf %arg0
// CHECK-NEXT: %[[AM:.*]] = arith.truncf %[[AR]]
// CHECK-NEXT: %[[AMX:.*]] = arith.extf %[[AM]]
// CHECK-NEXT: %[[AR2:.*]] = arith.subf %[[AR]], %[[AMX]]
// CHECK-NEXT: %[[AL:.*]] = arith.truncf %[[AR2]]
// CHECK-NEXT: %[[BH:.*]] = arith.truncf %arg1
// CHECK-NEXT: arith.extf %[[BH]]
// CHECK-NEXT: %[[BR:.*]] = arith.subf %arg1
// CHECK-NEXT: %[[BM:.*]] = arith.truncf %[[BR]]
// CHECK-NEXT: %[[BMX:.*]] = arith.extf %[[BM]]
// CHECK-NEXT: %[[BR2:.*]] = arith.subf %[[BR]], %[[BMX]]
// CHECK-NEXT: %[[BL:.*]] = arith.truncf %[[BR2]]
// CHECK-NEXT: %[[D1:.*]] = tt.dot %[[AM]], %[[BM]], %cst
// CHECK-NEXT: %[[D2:.*]] = tt.dot %[[AL]], %[[BH]], %[[D1]]
// CHECK-NEXT: %[[D3:.*]] = tt.dot %[[AH]], %[[BL]], %[[D2]]
// CHECK-NEXT: %[[D4:.*]] = tt.dot %[[AM]], %[[BH]], %[[D3]]
// CHECK-NEXT: %[[D5:.*]] = tt.dot %[[AH]], %[[BM]], %[[D4]]
// CHECK-NEXT: %[[NAN:.*]] = arith.cmpf uno, %[[D5]], %[[D5]]
// CHECK-NEXT: %[[SEL:.*]] = arith.select %[[NAN]], %cst, %[[D5]]
// CHECK-NEXT: %[[D6:.*]] = tt.dot %[[AH]], %[[BH]], %[[SEL]]
// CHECK-NEXT: arith.addf %[[D6]], %arg2
tt.func public @bf16x6(%a: tensor<32x16xf32>, %b: tensor<16x32xf32>, %c: tensor<32x32xf32>) -> tensor<32x32xf32> {
  %d = tt.dot %a, %b, %c, inputPrecision = bf16x6 : tensor<32x16xf32> * tensor<16x32xf32> -> tensor<32x32xf32>
  tt.return %d : tensor<32x32xf32>
}

// -----

// tf32x3 is split only with emu-tf32: big = cvt.rna.tf32 inline asm, small = x - big; tf32 dots keeping
// maxNumImpreciseAcc, small*big + big*small from zero, NaNs zeroed, + big*big, + the accumulator. The
// operands' layouts carry over.
// CHECK-LABEL: tt.func public @tf32x3
// CHECK-NOT: tt.elementwise_inline_asm
// CHECK: tt.dot %arg0, %arg1, %arg2, inputPrecision = tf32x3
// EMU-LABEL: tt.func public @tf32x3
// EMU: %[[Z:.*]] = arith.constant dense<0.000000e+00> : tensor<32x32xf32, #blocked>
// EMU-NEXT: %[[AB:.*]] = tt.elementwise_inline_asm "cvt.rna.tf32.f32 $0, $1;" {constraints = "=r,r", packed_element = 1 : i32, pure = true} %arg0 : tensor<32x16xf32, #ttg.dot_op<{opIdx = 0, parent = #blocked}>> -> tensor<32x16xf32, #ttg.dot_op<{opIdx = 0, parent = #blocked}>>
// EMU-NEXT: %[[AS:.*]] = arith.subf %arg0, %[[AB]]
// EMU-NEXT: %[[BB:.*]] = tt.elementwise_inline_asm "cvt.rna.tf32.f32 $0, $1;" {{.*}} %arg1
// EMU-NEXT: %[[BS:.*]] = arith.subf %arg1, %[[BB]]
// EMU-NEXT: %[[D1:.*]] = tt.dot %[[AS]], %[[BB]], %[[Z]], inputPrecision = tf32 {maxNumImpreciseAcc = 32 : i32}
// EMU-NEXT: %[[D2:.*]] = tt.dot %[[AB]], %[[BS]], %[[D1]], inputPrecision = tf32 {maxNumImpreciseAcc = 32 : i32}
// EMU-NEXT: %[[NAN:.*]] = arith.cmpf uno, %[[D2]], %[[D2]] : tensor<32x32xf32, #blocked>
// EMU-NEXT: %[[SEL:.*]] = arith.select %[[NAN]], %[[Z]], %[[D2]] : tensor<32x32xi1, #blocked>, tensor<32x32xf32, #blocked>
// EMU-NEXT: %[[D3:.*]] = tt.dot %[[AB]], %[[BB]], %[[SEL]], inputPrecision = tf32 {maxNumImpreciseAcc = 32 : i32}
// EMU-NEXT: arith.addf %[[D3]], %arg2 : tensor<32x32xf32, #blocked>
#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#dA = #ttg.dot_op<{opIdx = 0, parent = #blocked}>
#dB = #ttg.dot_op<{opIdx = 1, parent = #blocked}>
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func public @tf32x3(%a: tensor<32x16xf32, #dA>, %b: tensor<16x32xf32, #dB>, %c: tensor<32x32xf32, #blocked>) -> tensor<32x32xf32, #blocked> {
    %d = tt.dot %a, %b, %c, inputPrecision = tf32x3 {maxNumImpreciseAcc = 32 : i32} : tensor<32x16xf32, #dA> * tensor<16x32xf32, #dB> -> tensor<32x32xf32, #blocked>
    tt.return %d : tensor<32x32xf32, #blocked>
  }
}

// -----

// Dots of other precisions are left alone.
// CHECK-LABEL: tt.func public @others
// CHECK-NEXT: tt.dot %arg0, %arg1, %arg2, inputPrecision = tf32 :
// CHECK-NEXT: tt.dot %arg0, %arg1, %{{.*}} :
// CHECK-NEXT: tt.return
// EMU-LABEL: tt.func public @others
// EMU-NEXT: tt.dot %arg0, %arg1, %arg2, inputPrecision = tf32 :
// EMU-NEXT: tt.dot %arg0, %arg1, %{{.*}} :
// EMU-NEXT: tt.return
tt.func public @others(%a: tensor<32x16xf32>, %b: tensor<16x32xf32>, %c: tensor<32x32xf32>) -> tensor<32x32xf32> {
  %d = tt.dot %a, %b, %c, inputPrecision = tf32 : tensor<32x16xf32> * tensor<16x32xf32> -> tensor<32x32xf32>
  %e = tt.dot %a, %b, %d : tensor<32x16xf32> * tensor<16x32xf32> -> tensor<32x32xf32>
  tt.return %e : tensor<32x32xf32>
}
