// RUN: tt-opt %s -split-input-file -symbol-dce | FileCheck %s

// A private function nothing calls goes; the kernel and the helper it calls stay.
// CHECK-LABEL: tt.func public @kernel
// CHECK-NEXT: tt.call @used
// CHECK-LABEL: tt.func private @used
// CHECK-NOT: @unused
tt.func public @kernel(%a: i32) -> i32 {
  %0 = tt.call @used(%a) : (i32) -> i32
  tt.return %0 : i32
}
tt.func private @used(%a: i32) -> i32 {
  tt.return %a : i32
}
tt.func private @unused(%a: i32) -> i32 {
  tt.return %a : i32
}

// -----

// Liveness is transitive: a private function only called from dead private functions is dead too
// (mutually recursive ones included), while one also called from a live function stays.
// CHECK-LABEL: tt.func public @root
// CHECK-NOT: @dead_caller
// CHECK-NOT: @only_from_dead
// CHECK-NOT: @cycle_a
// CHECK-NOT: @cycle_b
// CHECK: tt.func private @shared
// CHECK-NOT: @dead_caller
// CHECK-NOT: @only_from_dead
// CHECK-NOT: @cycle_a
// CHECK-NOT: @cycle_b
tt.func public @root(%a: i32) -> i32 {
  %0 = tt.call @shared(%a) : (i32) -> i32
  tt.return %0 : i32
}
tt.func private @dead_caller(%a: i32) -> i32 {
  %0 = tt.call @only_from_dead(%a) : (i32) -> i32
  %1 = tt.call @shared(%0) : (i32) -> i32
  tt.return %1 : i32
}
tt.func private @only_from_dead(%a: i32) -> i32 {
  tt.return %a : i32
}
tt.func private @shared(%a: i32) -> i32 {
  tt.return %a : i32
}
tt.func private @cycle_a(%a: i32) -> i32 {
  %0 = tt.call @cycle_b(%a) : (i32) -> i32
  tt.return %0 : i32
}
tt.func private @cycle_b(%a: i32) -> i32 {
  %0 = tt.call @cycle_a(%a) : (i32) -> i32
  tt.return %0 : i32
}

// -----

// Public and nested symbols stay even when unused; so does a used external declaration, while an
// unused private declaration goes.
// CHECK-LABEL: tt.func public @unused_public
// CHECK-LABEL: tt.func nested @unused_nested
// CHECK-LABEL: tt.func public @caller
// CHECK-LABEL: tt.func private @ext_used(i32) -> i32
// CHECK-NOT: @ext_unused
tt.func public @unused_public(%a: i32) -> i32 {
  tt.return %a : i32
}
tt.func nested @unused_nested(%a: i32) -> i32 {
  tt.return %a : i32
}
tt.func public @caller(%a: i32) -> i32 {
  %0 = tt.call @ext_used(%a) : (i32) -> i32
  tt.return %0 : i32
}
tt.func private @ext_used(i32) -> i32
tt.func private @ext_unused(i32) -> i32

// -----

// Any symbol reference held by a live op counts, not only a call's callee: here an attribute.
// CHECK-LABEL: tt.func public @by_attribute
// CHECK-SAME: attributes {helpers = [@referenced]}
// CHECK: tt.func private @referenced
tt.func public @by_attribute(%a: i32) -> i32 attributes {helpers = [@referenced]} {
  tt.return %a : i32
}
tt.func private @referenced(%a: i32) -> i32 {
  tt.return %a : i32
}

// -----

// Nested symbol tables: a reference `@m::@f` keeps the private module @m and its @f; unused private
// symbols of live nested modules go; an unused private module goes whole, its public contents with it.
// CHECK-LABEL: tt.func public @k
// CHECK: module @m attributes {sym_visibility = "private"} {
// CHECK-NEXT: tt.func nested @f
// CHECK-NOT: @g
// CHECK: module {
// CHECK-NEXT: tt.func public @p
// CHECK-NOT: @h
// CHECK-NOT: @dead
// CHECK-NOT: @q
tt.func public @k(%a: i32) -> i32 attributes {uses = [@m::@f]} {
  tt.return %a : i32
}
module @m attributes {sym_visibility = "private"} {
  tt.func nested @f(%a: i32) -> i32 {
    tt.return %a : i32
  }
  tt.func private @g(%a: i32) -> i32 {
    tt.return %a : i32
  }
}
module {
  tt.func private @h(%a: i32) -> i32 {
    tt.return %a : i32
  }
  tt.func public @p(%a: i32) -> i32 {
    tt.return %a : i32
  }
}
module @dead attributes {sym_visibility = "private"} {
  tt.func public @q(%a: i32) -> i32 {
    tt.return %a : i32
  }
}

// -----

// Everything is used: nothing changes.
// CHECK-LABEL: tt.func public @all_used
// CHECK-NEXT: tt.call @helper_a
// CHECK-NEXT: tt.call @helper_b
// CHECK-NEXT: tt.return
// CHECK-LABEL: tt.func private @helper_a
// CHECK-LABEL: tt.func private @helper_b
tt.func public @all_used(%a: i32) -> i32 {
  %0 = tt.call @helper_a(%a) : (i32) -> i32
  %1 = tt.call @helper_b(%0) : (i32) -> i32
  tt.return %1 : i32
}
tt.func private @helper_a(%a: i32) -> i32 {
  tt.return %a : i32
}
tt.func private @helper_b(%a: i32) -> i32 {
  tt.return %a : i32
}
