; a comment, and no LLVM IR
