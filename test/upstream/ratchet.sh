#!/usr/bin/env bash
# The upstream ratchet: run Triton's own lit tests (../shared/upstream-lit, beside the checkout) through tt-opt
# and fail when the core score is below the one recorded in test/upstream/score (it only goes up: raise it in
# the change that makes more RUN lines pass). Usage, with the venv active: bash test/upstream/ratchet.sh [-j N]
set -uo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
suite="${TTC_UPSTREAM_LIT:-$here/../../../shared/upstream-lit}"
jobs=2; [ "${1:-}" = "-j" ] && jobs="$2"
recorded="$(grep -o '^[0-9]*' "$here/score")"
if [ ! -x "$suite/run.sh" ]; then
  echo "upstream ratchet: no Triton lit suite at $suite (set TTC_UPSTREAM_LIT); recorded core score: $recorded" >&2
  [ "${CI:-}" = "true" ] && exit 1 || exit 0
fi
out="$(mktemp -d)"
line="$("$suite/run.sh" -j "$jobs" -o "$out/results.tsv" 2>"$out/stderr" | tail -n 1)"
score="$(echo "$line" | sed -n 's|^core: \([0-9]*\)/\([0-9]*\) RUN lines pass$|\1|p')"
if [ -z "$score" ]; then
  echo "upstream ratchet: the suite did not report a score (see $out/stderr)" >&2; tail -n 5 "$out/stderr" >&2; exit 1
fi
echo "upstream ratchet: $line (recorded: $recorded; every RUN line in $out/results.tsv, summary in $out/RESULTS.md)"
if [ "$score" -lt "$recorded" ]; then
  echo "upstream ratchet: FAILED: the core score fell from $recorded to $score" >&2
  grep -P '\tFAIL\t' "$out/results.tsv" | grep -v '^TritonGPU/amd\|^Conversion/amd' | cut -f1-5 | cut -c1-200 >&2
  exit 1
fi
[ "$score" -gt "$recorded" ] && echo "upstream ratchet: the score rose: record it with  echo $score > test/upstream/score"
exit 0
