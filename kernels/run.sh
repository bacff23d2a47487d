#!/usr/bin/env bash
# Run one example kernel end to end: Python -> TTIR -> TTGIR, then on the GPU (LLVM IR -> PTX -> CUBIN,
# launched and checked by tt-run) when there is one, else through tt-run's NumPy interpreter.
#     bash kernels/run.sh [KERNEL]   (default: vector_add; any kernels/<KERNEL>.json spec, whose kernel is in
#     kernels/<KERNEL>.py or the file its "source" names). The stages go to a temporary folder, removed at the
#     end, or to $TTC_OUT when it is set, and kept there.
set -euo pipefail
k=${1:-vector_add}
dir=$(cd "$(dirname "$0")" && pwd)
spec="$dir/$k.json"
[ -f "$spec" ] || { echo "run.sh: no spec $spec" >&2; exit 1; }
field() { python3 -c "import json,sys; print(json.load(open(sys.argv[1])).get(sys.argv[2], sys.argv[3]))" "$spec" "$1" "$2"; }
if [ -n "${TTC_OUT:-}" ]; then
  out=$TTC_OUT && mkdir -p "$out"
else
  out=$(mktemp -d) && trap 'rm -rf "$out"' EXIT
fi
tt-frontend "$dir/$(field source "$k.py")" --kernel "$(field kernel '')" --signature "$(field signature '')" -o "$out/$k.ttir"
tt-opt "$out/$k.ttir" -make-ttir -o "$out/$k.ttir"
tt-opt "$out/$k.ttir" -make-ttgir="target=cuda:90 num-warps=$(field num_warps 4)" -o "$out/$k.ttgir"
if python3 -c "from cuda.bindings import driver as d; import sys; sys.exit(d.cuInit(0)[0] != d.CUresult.CUDA_SUCCESS or d.cuDeviceGetCount()[1] == 0)" 2>/dev/null; then
  tt-translate "$out/$k.ttgir" --target=llvmir -o "$out/$k.ll"
  tt-translate "$out/$k.ll" --target=ptx -o "$out/$k.ptx"
  tt-as "$out/$k.ptx" -o "$out/$k.cubin"
  tt-run "$out/$k.cubin" --spec "$spec" --check
else
  echo "no GPU: running $k.ttgir in the interpreter" >&2
  tt-run "$out/$k.ttgir" --spec "$spec" --interpret --check
fi
if [ -n "${TTC_OUT:-}" ]; then echo "stages in $out" >&2; fi
