#!/usr/bin/env bash
# The upstream ratchet: run Triton's own lit tests (../shared/upstream-lit, beside the checkout) through tt-opt
# and fail when the core score is below the one recorded in test/upstream/score (it only goes up: raise it in
# the change that makes more RUN lines pass). Usage, with the venv active: bash test/upstream/ratchet.sh [-j N]
#
# FileCheck: Triton's tests are written for LLVM's FileCheck, so the suite runs with it where the machine has one
# ($TTC_FILECHECK, else `FileCheck` on PATH, else the newest /usr/lib/llvm-*/bin/FileCheck), given to the runner
# as the `filecheck` it looks for. Without one it runs with the Python port (`filecheck`, which our own lit tests
# use); the port checks a CHECK-NOT up to the end of the next match instead of its start, so two core RUN lines
# whose output LLVM's FileCheck accepts fail under it. test/upstream/score records a score for each.
set -uo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
suite="${TTC_UPSTREAM_LIT:-$here/../../../shared/upstream-lit}"
jobs=2; [ "${1:-}" = "-j" ] && jobs="$2"
fc="${TTC_FILECHECK:-$(command -v FileCheck || ls -d /usr/lib/llvm-*/bin/FileCheck 2>/dev/null | sort -V | tail -n 1)}"
if [ -n "$fc" ] && [ -x "$fc" ]; then kind="llvm"; else kind="port"; fc=""; fi
recorded="$(awk -v k="$kind" '$2 == k { print $1 }' "$here/score")"
[ -n "$recorded" ] || { echo "upstream ratchet: no '$kind' score in $here/score" >&2; exit 1; }
if [ ! -x "$suite/run.sh" ]; then
  echo "upstream ratchet: no Triton lit suite at $suite (set TTC_UPSTREAM_LIT); recorded core score: $recorded" >&2
  [ "${CI:-}" = "true" ] && exit 1 || exit 0
fi
out="$(mktemp -d)"
if [ -n "$fc" ]; then mkdir -p "$out/bin" && ln -s "$fc" "$out/bin/filecheck" && export PATH="$out/bin:$PATH"; fi
echo "upstream ratchet: FileCheck: ${fc:-the Python port ($(command -v filecheck))}"
line="$("$suite/run.sh" -j "$jobs" -o "$out/results.tsv" 2>"$out/stderr" | tail -n 1)"
score="$(echo "$line" | sed -n 's|^core: \([0-9]*\)/\([0-9]*\) RUN lines pass$|\1|p')"
if [ -z "$score" ]; then
  echo "upstream ratchet: the suite did not report a score (see $out/stderr)" >&2; tail -n 5 "$out/stderr" >&2; exit 1
fi
echo "upstream ratchet: $line (recorded for $kind FileCheck: $recorded; every RUN line in $out/results.tsv, summary in $out/RESULTS.md)"
if [ "$score" -lt "$recorded" ]; then
  echo "upstream ratchet: FAILED: the core score fell from $recorded to $score" >&2
  grep -P '\tFAIL\t' "$out/results.tsv" | grep -v '^TritonGPU/amd\|^Conversion/amd' | cut -f1-5 | cut -c1-200 >&2
  exit 1
fi
[ "$score" -gt "$recorded" ] && echo "upstream ratchet: the score rose: record $score on the '$kind' line of test/upstream/score"
exit 0
