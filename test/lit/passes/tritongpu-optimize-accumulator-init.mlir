// RUN: tt-opt %s -split-input-file -tritongpu-optimize-accumulator-init | FileCheck %s

#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#sa = #ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = false, elementBitWidth = 16}>
#sb = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32} {
  // A constant zero accumulator: the dot gets the flag false; the unused true is erased.
  // CHECK-LABEL: tt.func public @zero_constant
  // CHECK-NOT: arith.constant true
  // CHECK: %[[F:.*]] = arith.constant false
  // CHECK-NOT: arith.constant true
  // CHECK: ttng.warp_group_dot %arg0, %arg1, %cst, %[[F]] :
  tt.func public @zero_constant(%a: !ttg.memdesc<64x32xf16, #sa, #smem>, %b: !ttg.memdesc<32x64xf16, #sb, #smem>, %n: i32) -> tensor<64x64xf32, #mma> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %zero = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<64x64xf32, #mma>)  : i32 {
      %d = ttng.warp_group_dot %a, %b, %zero : !ttg.memdesc<64x32xf16, #sa, #smem> * !ttg.memdesc<32x64xf16, #sb, #smem> -> tensor<64x64xf32, #mma>
      %s = arith.addf %acc, %d : tensor<64x64xf32, #mma>
      scf.yield %s : tensor<64x64xf32, #mma>
    }
    tt.return %r : tensor<64x64xf32, #mma>
  }

  // Only the loop's init is zero: a flag argument starting false, true from the second iteration.
  // CHECK-LABEL: tt.func public @zero_init
  // CHECK-DAG: %[[T:.*]] = arith.constant true
  // CHECK-DAG: %[[F:.*]] = arith.constant false
  // CHECK: scf.for {{.*}} iter_args(%[[ACC:.*]] = %cst, %[[FLAG:.*]] = %[[F]]) -> (tensor<64x64xf32, #mma>, i1)
  // CHECK-NEXT: %[[D:.*]] = ttng.warp_group_dot %arg0, %arg1, %[[ACC]], %[[FLAG]] :
  // CHECK-NEXT: scf.yield %[[D]], %[[T]] : tensor<64x64xf32, #mma>, i1
  tt.func public @zero_init(%a: !ttg.memdesc<64x32xf16, #sa, #smem>, %b: !ttg.memdesc<32x64xf16, #sb, #smem>, %n: i32) -> tensor<64x64xf32, #mma> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %zero = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<64x64xf32, #mma>)  : i32 {
      %d = ttng.warp_group_dot %a, %b, %acc : !ttg.memdesc<64x32xf16, #sa, #smem> * !ttg.memdesc<32x64xf16, #sb, #smem> -> tensor<64x64xf32, #mma>
      scf.yield %d : tensor<64x64xf32, #mma>
    }
    tt.return %r : tensor<64x64xf32, #mma>
  }

  // A select zeroing before the dot: the flag is selected there (false where it zeroed) and the dot
  // reads the unzeroed accumulator; true is carried on.
  // CHECK-LABEL: tt.func public @select_before
  // CHECK-DAG: %[[T:.*]] = arith.constant true
  // CHECK-DAG: %[[F:.*]] = arith.constant false
  // CHECK: scf.for {{.*}} iter_args(%[[ACC:.*]] = %{{.*}}, %[[FLAG:.*]] = %[[T]])
  // CHECK-NEXT: %[[C:.*]] = arith.cmpi
  // CHECK-NEXT: %[[SEL:.*]] = arith.select %[[C]], %[[F]], %[[FLAG]] : i1
  // CHECK-NEXT: %[[D:.*]] = ttng.warp_group_dot %arg0, %arg1, %[[ACC]], %[[SEL]] :
  // CHECK-NEXT: scf.yield %[[D]], %[[T]]
  tt.func public @select_before(%a: !ttg.memdesc<64x32xf16, #sa, #smem>, %b: !ttg.memdesc<32x64xf16, #sb, #smem>, %n: i32, %k: i32, %init: tensor<64x64xf32, #mma>) -> tensor<64x64xf32, #mma> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %zero = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %init) -> (tensor<64x64xf32, #mma>)  : i32 {
      %c = arith.cmpi eq, %i, %k : i32
      %z = arith.select %c, %zero, %acc : tensor<64x64xf32, #mma>
      %d = ttng.warp_group_dot %a, %b, %z : !ttg.memdesc<64x32xf16, #sa, #smem> * !ttg.memdesc<32x64xf16, #sb, #smem> -> tensor<64x64xf32, #mma>
      scf.yield %d : tensor<64x64xf32, #mma>
    }
    tt.return %r : tensor<64x64xf32, #mma>
  }

  // A select zeroing after the dot (on its false side): the next iteration's flag is the condition itself
  // (select %c, true, false folds to %c); the accumulator flows on unzeroed.
  // CHECK-LABEL: tt.func public @select_after_false_side
  // CHECK: scf.for {{.*}} iter_args(%[[ACC:.*]] = %{{.*}}, %[[FLAG:.*]] = %true)
  // CHECK-NEXT: %[[C:.*]] = arith.cmpi
  // CHECK-NEXT: %[[D:.*]] = ttng.warp_group_dot %arg0, %arg1, %[[ACC]], %[[FLAG]] :
  // CHECK-NEXT: scf.yield %[[D]], %[[C]]
  tt.func public @select_after_false_side(%a: !ttg.memdesc<64x32xf16, #sa, #smem>, %b: !ttg.memdesc<32x64xf16, #sb, #smem>, %n: i32, %k: i32, %init: tensor<64x64xf32, #mma>) -> tensor<64x64xf32, #mma> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %zero = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %init) -> (tensor<64x64xf32, #mma>)  : i32 {
      %c = arith.cmpi ne, %i, %k : i32
      %d = ttng.warp_group_dot %a, %b, %acc : !ttg.memdesc<64x32xf16, #sa, #smem> * !ttg.memdesc<32x64xf16, #sb, #smem> -> tensor<64x64xf32, #mma>
      %z = arith.select %c, %d, %zero : tensor<64x64xf32, #mma>
      scf.yield %z : tensor<64x64xf32, #mma>
    }
    tt.return %r : tensor<64x64xf32, #mma>
  }

  // An scf.if zeroing after the dot: the flag select goes before the if, the if yields the dot's result on
  // both sides.
  // CHECK-LABEL: tt.func public @if_after
  // CHECK-DAG: %[[T:.*]] = arith.constant true
  // CHECK-DAG: %[[F:.*]] = arith.constant false
  // CHECK: scf.for {{.*}} iter_args(%[[ACC:.*]] = %cst, %[[FLAG:.*]] = %[[F]])
  // CHECK-NEXT: %[[C:.*]] = arith.cmpi
  // CHECK-NEXT: %[[D:.*]] = ttng.warp_group_dot %arg0, %arg1, %[[ACC]], %[[FLAG]] :
  // CHECK-NEXT: %[[SEL:.*]] = arith.select %[[C]], %[[F]], %[[T]] : i1
  // CHECK-NEXT: %[[IF:.*]] = scf.if %[[C]]
  // CHECK-NEXT: scf.yield %[[D]]
  // CHECK-NEXT: } else {
  // CHECK-NEXT: scf.yield %[[D]]
  // CHECK: scf.yield %[[IF]], %[[SEL]]
  tt.func public @if_after(%a: !ttg.memdesc<64x32xf16, #sa, #smem>, %b: !ttg.memdesc<32x64xf16, #sb, #smem>, %n: i32, %k: i32) -> tensor<64x64xf32, #mma> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %zero = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<64x64xf32, #mma>)  : i32 {
      %c = arith.cmpi eq, %i, %k : i32
      %d = ttng.warp_group_dot %a, %b, %acc : !ttg.memdesc<64x32xf16, #sa, #smem> * !ttg.memdesc<32x64xf16, #sb, #smem> -> tensor<64x64xf32, #mma>
      %z = scf.if %c -> (tensor<64x64xf32, #mma>) {
        scf.yield %zero : tensor<64x64xf32, #mma>
      } else {
        scf.yield %d : tensor<64x64xf32, #mma>
      }
      scf.yield %z : tensor<64x64xf32, #mma>
    }
    tt.return %r : tensor<64x64xf32, #mma>
  }

  // An if whose other side computes its value inside the if does not count as a zeroing; with a non-zero
  // init nothing changes (and the constants the pass made are erased).
  // CHECK-LABEL: tt.func public @if_computes_other
  // CHECK-NOT: arith.constant true
  // CHECK-NOT: arith.constant false
  // CHECK: ttng.warp_group_dot %arg0, %arg1, %arg{{[0-9]+}} :
  tt.func public @if_computes_other(%a: !ttg.memdesc<64x32xf16, #sa, #smem>, %b: !ttg.memdesc<32x64xf16, #sb, #smem>, %n: i32, %k: i32, %init: tensor<64x64xf32, #mma>) -> tensor<64x64xf32, #mma> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %zero = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %init) -> (tensor<64x64xf32, #mma>)  : i32 {
      %c = arith.cmpi eq, %i, %k : i32
      %d = ttng.warp_group_dot %a, %b, %acc : !ttg.memdesc<64x32xf16, #sa, #smem> * !ttg.memdesc<32x64xf16, #sb, #smem> -> tensor<64x64xf32, #mma>
      %z = scf.if %c -> (tensor<64x64xf32, #mma>) {
        scf.yield %zero : tensor<64x64xf32, #mma>
      } else {
        %e = arith.addf %d, %d : tensor<64x64xf32, #mma>
        scf.yield %e : tensor<64x64xf32, #mma>
      }
      scf.yield %z : tensor<64x64xf32, #mma>
    }
    tt.return %r : tensor<64x64xf32, #mma>
  }

  // A dot that already has a flag other than a constant true is left alone.
  // CHECK-LABEL: tt.func public @has_flag
  // CHECK: scf.for {{.*}} -> (tensor<64x64xf32, #mma>)
  // CHECK-NEXT: ttng.warp_group_dot %arg0, %arg1, %arg{{[0-9]+}}, %arg3 :
  tt.func public @has_flag(%a: !ttg.memdesc<64x32xf16, #sa, #smem>, %b: !ttg.memdesc<32x64xf16, #sb, #smem>, %n: i32, %f: i1) -> tensor<64x64xf32, #mma> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %zero = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<64x64xf32, #mma>)  : i32 {
      %d = ttng.warp_group_dot %a, %b, %acc, %f : !ttg.memdesc<64x32xf16, #sa, #smem> * !ttg.memdesc<32x64xf16, #sb, #smem> -> tensor<64x64xf32, #mma>
      scf.yield %d : tensor<64x64xf32, #mma>
    }
    tt.return %r : tensor<64x64xf32, #mma>
  }

  // A dot outside a loop keeps its zero accumulator.
  // CHECK-LABEL: tt.func public @not_in_loop
  // CHECK-NOT: arith.constant false
  // CHECK: ttng.warp_group_dot %arg0, %arg1, %cst :
  tt.func public @not_in_loop(%a: !ttg.memdesc<64x32xf16, #sa, #smem>, %b: !ttg.memdesc<32x64xf16, #sb, #smem>) -> tensor<64x64xf32, #mma> {
    %zero = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
    %d = ttng.warp_group_dot %a, %b, %zero : !ttg.memdesc<64x32xf16, #sa, #smem> * !ttg.memdesc<32x64xf16, #sb, #smem> -> tensor<64x64xf32, #mma>
    tt.return %d : tensor<64x64xf32, #mma>
  }
}

// -----

// An fp8 dot into f32 with maxNumImpreciseAcc <= K needs a partial accumulator: left alone.
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 32]}>
#sa = #ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = false, elementBitWidth = 8}>
#sb = #ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = true, elementBitWidth = 8}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32} {
  // CHECK-LABEL: tt.func public @fp8_partial
  // CHECK-NOT: arith.constant false
  // CHECK: ttng.warp_group_dot %arg0, %arg1, %cst {maxNumImpreciseAcc = 64 : i32}
  tt.func public @fp8_partial(%a: !ttg.memdesc<64x64xf8E4M3FN, #sa, #smem>, %b: !ttg.memdesc<64x64xf8E4M3FN, #sb, #smem>, %n: i32) -> tensor<64x64xf32, #mma> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %zero = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<64x64xf32, #mma>)  : i32 {
      %d = ttng.warp_group_dot %a, %b, %zero {maxNumImpreciseAcc = 64 : i32} : !ttg.memdesc<64x64xf8E4M3FN, #sa, #smem> * !ttg.memdesc<64x64xf8E4M3FN, #sb, #smem> -> tensor<64x64xf32, #mma>
      %s = arith.addf %acc, %d : tensor<64x64xf32, #mma>
      scf.yield %s : tensor<64x64xf32, #mma>
    }
    tt.return %r : tensor<64x64xf32, #mma>
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 128], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#tmem = #ttng.tensor_memory_encoding<blockM = 128, blockN = 128, colStride = 1>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:100", "ttg.threads-per-warp" = 32 : i32} {
  // MMA v5: the accumulator is the value the tensor memory is allocated with; a loop init of zero gives the
  // useD flag argument, false first.
  // CHECK-LABEL: tt.func public @mmav5_zero_init
  // CHECK-DAG: %[[T:.*]] = arith.constant true
  // CHECK-DAG: %[[F:.*]] = arith.constant false
  // CHECK: scf.for {{.*}} iter_args(%[[ACC:.*]] = %cst, %[[FLAG:.*]] = %[[F]])
  // CHECK-NEXT: %[[TM:[^ ]*]], %[[TOK:[^ ]*]] = ttng.tmem_alloc %[[ACC]]
  // CHECK-NEXT: ttng.tc_gen5_mma %arg0, %arg1, %[[TM]][%[[TOK]]], %[[FLAG]], %[[T]] :
  // CHECK: scf.yield %{{.*}}, %[[T]]
  tt.func public @mmav5_zero_init(%a: !ttg.memdesc<128x128xf16, #shared, #smem, mutable>, %b: !ttg.memdesc<128x128xf16, #shared, #smem, mutable>, %n: i32) -> tensor<128x128xf32, #blocked> {
    %true = arith.constant true
    %zero = arith.constant dense<0.0> : tensor<128x128xf32, #blocked>
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<128x128xf32, #blocked>)  : i32 {
      %tm, %tok = ttng.tmem_alloc %acc : (tensor<128x128xf32, #blocked>) -> (!ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>, !ttg.async.token)
      %mtok = ttng.tc_gen5_mma %a, %b, %tm[%tok], %true, %true : !ttg.memdesc<128x128xf16, #shared, #smem, mutable>, !ttg.memdesc<128x128xf16, #shared, #smem, mutable>, !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>
      %v, %ltok = ttng.tmem_load %tm[%mtok] : !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable> -> tensor<128x128xf32, #blocked>
      scf.yield %v : tensor<128x128xf32, #blocked>
    }
    tt.return %r : tensor<128x128xf32, #blocked>
  }
  // An MMA v5 allocated with a constant zero gets useD false, and the allocation loses its initial value.
  // CHECK-LABEL: tt.func public @mmav5_zero_constant
  // CHECK-NOT: arith.constant dense
  // CHECK: %[[F:.*]] = arith.constant false
  // CHECK: %[[TM:[^ ]*]], %[[TOK:[^ ]*]] = ttng.tmem_alloc : () ->
  // CHECK-NEXT: ttng.tc_gen5_mma %arg0, %arg1, %[[TM]][%[[TOK]]], %[[F]], %true :
  tt.func public @mmav5_zero_constant(%a: !ttg.memdesc<128x128xf16, #shared, #smem, mutable>, %b: !ttg.memdesc<128x128xf16, #shared, #smem, mutable>, %n: i32, %init: tensor<128x128xf32, #blocked>) -> tensor<128x128xf32, #blocked> {
    %true = arith.constant true
    %zero = arith.constant dense<0.0> : tensor<128x128xf32, #blocked>
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %init) -> (tensor<128x128xf32, #blocked>)  : i32 {
      %tm, %tok = ttng.tmem_alloc %zero : (tensor<128x128xf32, #blocked>) -> (!ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>, !ttg.async.token)
      %mtok = ttng.tc_gen5_mma %a, %b, %tm[%tok], %true, %true : !ttg.memdesc<128x128xf16, #shared, #smem, mutable>, !ttg.memdesc<128x128xf16, #shared, #smem, mutable>, !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>
      %v, %ltok = ttng.tmem_load %tm[%mtok] : !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable> -> tensor<128x128xf32, #blocked>
      %s = arith.addf %acc, %v : tensor<128x128xf32, #blocked>
      scf.yield %s : tensor<128x128xf32, #blocked>
    }
    tt.return %r : tensor<128x128xf32, #blocked>
  }
}
