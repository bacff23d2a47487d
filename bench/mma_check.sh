#!/usr/bin/env bash
# Tensor-core (MMA v2, mma.sync m16n8k8/k16/k32) and shared-memory exchange check on a GPU machine with this repository
# installed (pip install -e .): every kernel in kernels/ (those calling tl.dot and the others), plus variants that
# exercise other MMA layouts (warpsPerCTA [4, 2] with 8 warps, [4, 1] and [1, 4] tiles, bf16) and the other mma.sync
# forms (kernels/matmul_acc.py: i8, tf32, f16 accumulators, fp8), compiled end to end
# like kernels/run.sh (Python -> TTIR -> TTGIR for cuda:90 -> LLVM IR -> PTX -> CUBIN) and run with `tt-run
# X.cubin --spec X.json --check` (plus the benchmark's 64x64 transpose tile); then `python3 bench/gpu_bench.py
# --only matmul,transpose` against Triton.
#
#     bash bench/mma_check.sh            # on the GPU
#     bash bench/mma_check.sh --interpret  # no GPU: the same TTGIR through tt-run's NumPy interpreter
#
# Every stage is kept in $TTC_OUT (default: a new temporary directory), per kernel: .ttgir (look for #mma),
# .ll, .ptx (count of mma.sync printed), .cubin. Exits non-zero if any check failed.
set -uo pipefail
cd "$(dirname "$0")/.."
mode=gpu
[ "${1:-}" = "--interpret" ] && mode=interpret
out=${TTC_OUT:-$(mktemp -d)}
mkdir -p "$out"
failed=()

# variants: name source-kernel "constexpr overrides" num_warps dtype
python3 - "$out" <<'EOF'
import json, sys
from pathlib import Path
out = Path(sys.argv[1])

def variant(name, base, block, warps, dtype="fp16", grid=None):
    spec = json.loads(Path(f"kernels/{base}.json").read_text())
    sig = spec["signature"].split(",")
    n = len(block)
    sig[-n:] = [str(b) for b in block]
    if dtype != "fp16":
        sig = [s.replace("*fp16", f"*{dtype}") if i < 2 else s for i, s in enumerate(sig)]
        for a in spec["args"][:2]:
            a["type"] = f"*{dtype}"
    spec["signature"] = ",".join(sig)
    spec["num_warps"] = warps
    if grid:
        spec["grid"] = grid
    (out / f"{name}.json").write_text(json.dumps(spec, indent=2))
    (out / f"{name}.base").write_text(base)

# matmul.py's constexprs: BLOCK_SIZE_M, BLOCK_SIZE_N, BLOCK_SIZE_K, GROUP_SIZE_M
variant("matmul_128x128x64_w8", "matmul", [128, 128, 64, 8], 8, grid=["cdiv(M, 128) * cdiv(N, 128)", 1, 1])
variant("matmul_128x32x32_w4", "matmul", [128, 32, 32, 8], 4, grid=["cdiv(M, 128) * cdiv(N, 32)", 1, 1])
variant("matmul_16x128x16_w4", "matmul", [16, 128, 16, 8], 4, grid=["cdiv(M, 16) * cdiv(N, 128)", 1, 1])
variant("matmul_bf16", "matmul", [64, 64, 32, 8], 4, dtype="bf16")
# the benchmark's transpose (64x64 tiles, 4 warps, sizes and strides divisible by 16: the same TTGIR layouts as
# gpu_bench's): column-walk stores and 128-bit loads through a swizzled exchange buffer
spec = json.loads(Path("kernels/transpose.json").read_text())
spec["signature"] = "*fp32:16,*fp32:16,i32:16,i32:16,i32:16,i32:1,i32:16,i32:1,64,64"
M, N = 128, 192
spec["grid"] = ["cdiv(M, 64)", "cdiv(N, 64)", 1]
spec["args"][0]["shape"], spec["args"][1]["shape"] = [M, N], [N, M]
for a in spec["args"][2:]:
    a["value"] = {"M": M, "N": N, "stride_xm": N, "stride_xn": 1, "stride_ym": M, "stride_yn": 1}[a["name"]]
(out / "transpose_64x64.json").write_text(json.dumps(spec, indent=2))
(out / "transpose_64x64.base").write_text("transpose")
EOF

run_one() {  # name kernel-source spec
  local k=$1 src=$2 spec=$3
  field() { python3 -c "import json,sys; print(json.load(open(sys.argv[1])).get(sys.argv[2], sys.argv[3]))" "$spec" "$1" "$2"; }
  echo "== $k"
  if ! { tt-frontend "kernels/$src.py" --kernel "$(field kernel '')" --signature "$(field signature '')" -o "$out/$k.ttir" &&
         tt-opt "$out/$k.ttir" -make-ttir -o "$out/$k.ttir" &&
         tt-opt "$out/$k.ttir" -make-ttgir="target=cuda:90 num-warps=$(field num_warps 4)" -o "$out/$k.ttgir"; }; then
    failed+=("$k (compile to TTGIR)"); return
  fi
  grep '^#mma' "$out/$k.ttgir" || echo "   (no #mma layout: the dot stays on FMA)"
  if [ "$mode" = interpret ]; then
    tt-run "$out/$k.ttgir" --spec "$spec" --interpret --check || failed+=("$k (interpreter)")
    return
  fi
  if ! { tt-translate "$out/$k.ttgir" --target=llvmir -o "$out/$k.ll" &&
         tt-translate "$out/$k.ll" --target=ptx -o "$out/$k.ptx" &&
         tt-as "$out/$k.ptx" -o "$out/$k.cubin"; }; then
    failed+=("$k (compile to CUBIN)"); return
  fi
  echo "   $(grep -c 'mma.sync.aligned' "$out/$k.ptx") mma.sync ($(grep -om1 'mma.sync.aligned[.a-z0-9]*' "$out/$k.ptx")) in the PTX; shared accesses:" \
       $(grep -oE '(ld|st)\.shared[.a-z0-9]*|ldmatrix[.a-z0-9]*' "$out/$k.ptx" | sort | uniq -c | awk '{printf "%s x%s ", $2, $1}')
  tt-run "$out/$k.cubin" --spec "$spec" --check || failed+=("$k (GPU check)")
}

# every kernel: the layout exchanges through shared memory (vectorized, swizzled: convert.py, exchange_plan.py)
# are used by transposes, reductions' conversions and histograms as well as by the dots' operands
for py in kernels/*.py; do
  k=$(basename "$py" .py)
  [ -f "kernels/$k.json" ] && run_one "$k" "$k" "kernels/$k.json"
done
for spec in "$out"/*.json; do
  k=$(basename "$spec" .json)
  [ -f "$out/$k.base" ] && run_one "$k" "$(cat "$out/$k.base")" "$spec"
done
# the other mma.sync forms (kernels/matmul_acc.py; kernels/matmul_acc.json itself is i8 -> i32): tf32, f16
# accumulators, fp8 e4m3 / e5m2
for spec in test/lit/tt-translate/Inputs/matmul_acc_*.json; do
  run_one "$(basename "$spec" .json)" matmul_acc "$spec"
done

if [ "$mode" = gpu ]; then
  echo "== bench: matmul and transpose against Triton"
  python3 bench/gpu_bench.py --only matmul,transpose --json "$out/bench.json" || failed+=("gpu_bench matmul,transpose")
fi
echo "stages in $out"
if [ ${#failed[@]} -gt 0 ]; then
  printf 'FAILED: %s\n' "${failed[@]}"
  exit 1
fi
echo "all MMA checks passed"
