// RUN: tt-opt %s -split-input-file -verify-diagnostics

// Triton's parsers and verifiers of #ttg.padded_shared and #ttg.shared_linear, and MemDescType's rules for
// shared layouts, with Triton's messages.

// expected-error @below {{interval values must all be power of two}}
#p = #ttg.padded_shared<[24:+4] {order = [0], shape = [64]}>

// -----

// expected-error @below {{padding values must all be power of two}}
#p = #ttg.padded_shared<[32:+6] {order = [0], shape = [64]}>

// -----

// expected-error @below {{interval values cannot have duplicates}}
#p = #ttg.padded_shared<[32:+4, 32:+8] {order = [0], shape = [64]}>

// -----

// expected-error @below {{Mismatch of shape and order ranks in padded layout}}
#p = #ttg.padded_shared<[32:+4] {order = [0], shape = [8, 8]}>

// -----

// expected-error @below {{Unexpected attribute "shape" found}}
#p = #ttg.padded_shared<[32:+4] {offset = [[1]], block = [], shape = [2]}>

// -----

// expected-error @below {{Expected basis of 'offset' not found}}
#p = #ttg.padded_shared<[32:+4] {block = []}>

// -----

// expected-error @below {{Broadcasting is not supported.}}
#p = #ttg.padded_shared<[32:+4] {offset = [[0, 1], [0, 0]], block = []}>

// -----

// expected-error @below {{Each offset basis must move in at most one dimension.}}
#p = #ttg.padded_shared<[32:+4] {offset = [[0, 1], [1, 1]], block = []}>

// -----

// expected-error @below {{Each offset basis must be 0 or a power of two.}}
#p = #ttg.padded_shared<[32:+4] {offset = [[1], [3]], block = []}>

// -----

// expected-error @below {{alignment must be specified outside of the linear layout braces}}
#l = #ttg.shared_linear<{offset = [[1]], alignment = 16}, alignment = 16>

// -----

// expected-error @below {{SharedLinearEncodingAttr must have exactly two attributes: offset and block}}
#l = #ttg.shared_linear<{offset = [[1]], lane = []}, alignment = 16>

// -----

// expected-error @below {{alignment must be a positive power of two}}
#l = #ttg.shared_linear<{offset = [[1]]}, alignment = 12>

// -----

// expected-error @below {{After removing the zero bases the layout must be bijective}}
#l = #ttg.shared_linear<{offset = [[1], [1]]}, alignment = 16>

// -----

// The memdesc's rank is the layout's, or one more (a leading buffer index).
#p = #ttg.padded_shared<[32:+4] {order = [1, 0], shape = [16, 16]}>
// expected-error @below {{rank must be equal to or one less than the shape size. Got 2 and 4}}
!t = !ttg.memdesc<2x2x16x16xf16, #p, #ttg.shared_memory>

// -----

#p = #ttg.padded_shared<[32:+4] {order = [1, 0], shape = [16, 16]}>
// expected-error @below {{Mismatch in expected shape for dimension 1. Expected: 32, got: 16}}
!t = !ttg.memdesc<2x16x32xf16, #p, #ttg.shared_memory>

// -----

#l = #ttg.shared_linear<{offset = [[0, 1], [1, 0]]}, alignment = 16>
// expected-error @below {{Mismatch in expected shape for dimension 0. Expected: 4, got: 2}}
!t = !ttg.memdesc<4x2xf16, #l, #ttg.shared_memory>

// -----

#l = #ttg.shared_linear<{offset = [[0, 1], [1, 0]]}, alignment = 16>
// expected-error @below {{memorySpace must be SharedMemorySpace for shared encoding. Got #ttng.tensor_memory}}
!t = !ttg.memdesc<2x2xf16, #l, #ttng.tensor_memory>
