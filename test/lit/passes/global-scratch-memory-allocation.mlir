// RUN: tt-opt %s -split-input-file --tritongpu-global-scratch-memory-allocation | FileCheck %s
// RUN: not tt-opt %S/Inputs/global-scratch-cycle.mlir --tritongpu-global-scratch-memory-allocation 2>&1 | FileCheck %s --check-prefix=CYCLE

// Offsets are handed out in program order, each rounded up to the request's
// alignment; the function's size is rounded up to its largest alignment, and
// the kernel's size and alignment are copied to the module. A zero-byte
// request gets no offset.
// CHECK: module attributes {ttg.global_scratch_memory_alignment = 64 : i32, ttg.global_scratch_memory_size = 192 : i32
// CHECK-SAME: ttg.profile_scratch_memory_alignment = 1 : i32, ttg.profile_scratch_memory_size = 0 : i32
// CHECK: tt.func public @align{{.*}}attributes {ttg.global_scratch_memory_alignment = 64 : i32, ttg.global_scratch_memory_size = 192 : i32
// CHECK: ttg.global_scratch_alloc {alignment = 4 : i32, nbytes = 12 : i32, ttg.global_scratch_memory_offset = 0 : i32}
// CHECK: ttg.global_scratch_alloc {alignment = 64 : i32, nbytes = 100 : i32, ttg.global_scratch_memory_offset = 64 : i32}
// CHECK: ttg.global_scratch_alloc {alignment = 16 : i32, nbytes = 0 : i32} :
// CHECK: ttg.global_scratch_alloc {alignment = 2 : i32, nbytes = 3 : i32, ttg.global_scratch_memory_offset = 164 : i32}
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @align() {
    %0 = ttg.global_scratch_alloc {alignment = 4 : i32, nbytes = 12 : i32} : !tt.ptr<i8>
    %1 = ttg.global_scratch_alloc {alignment = 64 : i32, nbytes = 100 : i32} : !tt.ptr<i8>
    %2 = ttg.global_scratch_alloc {alignment = 16 : i32, nbytes = 0 : i32} : !tt.ptr<i8>
    %3 = ttg.global_scratch_alloc {alignment = 2 : i32, nbytes = 3 : i32} : !tt.ptr<i8>
    tt.return
  }
}

// -----

// A call takes its callee's whole scratch as one allocation, callees being
// allocated first whatever their order in the module (here two calls deep). A
// profiler's allocation (third_party_allocation) goes to the profile buffer.
// CHECK: module attributes {ttg.global_scratch_memory_alignment = 32 : i32, ttg.global_scratch_memory_size = 96 : i32
// CHECK-SAME: ttg.profile_scratch_memory_alignment = 8 : i32, ttg.profile_scratch_memory_size = 8 : i32
// CHECK: tt.func public @kernel{{.*}}ttg.global_scratch_memory_size = 96 : i32
// CHECK-NEXT: ttg.global_scratch_alloc {alignment = 1 : i32, nbytes = 1 : i32, ttg.global_scratch_memory_offset = 0 : i32}
// CHECK-NEXT: tt.call @middle() {ttg.global_scratch_memory_offset = 32 : i32, ttg.profile_scratch_memory_offset = 0 : i32}
// CHECK: tt.func private @middle(){{.*}}ttg.global_scratch_memory_alignment = 32 : i32, ttg.global_scratch_memory_size = 64 : i32, ttg.profile_scratch_memory_alignment = 8 : i32, ttg.profile_scratch_memory_size = 8 : i32
// CHECK-NEXT: tt.call @leaf() {ttg.global_scratch_memory_offset = 0 : i32}
// CHECK-NEXT: ttg.global_scratch_alloc {alignment = 8 : i32, nbytes = 8 : i32, third_party_allocation, ttg.profile_scratch_memory_offset = 0 : i32}
// CHECK: tt.func private @leaf(){{.*}}ttg.global_scratch_memory_alignment = 32 : i32, ttg.global_scratch_memory_size = 64 : i32
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @kernel() {
    %0 = ttg.global_scratch_alloc {alignment = 1 : i32, nbytes = 1 : i32} : !tt.ptr<i8>
    tt.call @middle() : () -> ()
    tt.return
  }
  tt.func private @middle() {
    tt.call @leaf() : () -> ()
    %0 = ttg.global_scratch_alloc {alignment = 8 : i32, nbytes = 8 : i32, third_party_allocation} : !tt.ptr<i8>
    tt.return
  }
  tt.func private @leaf() {
    %0 = ttg.global_scratch_alloc {alignment = 32 : i32, nbytes = 40 : i32} : !tt.ptr<i8>
    tt.return
  }
}

// CYCLE: global-scratch-cycle.mlir:12:5: error: global scratch allocation: call cycle detected
