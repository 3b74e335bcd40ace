#!/usr/bin/env bash
# TwoPhase with N resource managers (default 8) in SPIN and in kubecheck, side by side on this
# machine: SPIN's exhaustive safety search (`spin -a`, `gcc -O2 -DNOREDUCE -DSAFETY`), kubecheck's
# breadth-first search of the plain TwoPhase model (generic search: objects, string keys, xxh64),
# and of the state-vector TwoPhase (checker/vectorSearch.ts: typed-array states, Zobrist
# fingerprints), one thread each, each in its own process. Needs the Debian packages spin and
# gcc. Prints the three times and both speed ratios (SPIN time / kubecheck time); fails when the
# state counts differ.
set -euo pipefail
n="${1:-8}"
here="$(cd "$(dirname "$0")" && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
(cd "$work" && spin -DN="$n" -a "$here/twophase.pml" >/dev/null && gcc -O2 -DNOREDUCE -DNOCLAIM -DSAFETY -o pan pan.c)
spin_out="$(cd "$work" && ./pan -m10000000)"
spin_states="$(grep -Eo '[0-9]+ states, stored' <<<"$spin_out" | grep -Eo '^[0-9]+')"
spin_seconds="$(grep -Eo 'elapsed time [0-9.e+-]+' <<<"$spin_out" | grep -Eo '[0-9.e+-]+$')"
plain="$(cd "$here/../.." && npm run -s bench -- --json "twophase-$n-plain")"
vector="$(cd "$here/../.." && npm run -s bench -- --json "twophase-$n-vector")"
node -e '
const [spinStates, spinSeconds, plain, vector, n] = [Number(process.argv[1]), Number(process.argv[2]), JSON.parse(process.argv[3]), JSON.parse(process.argv[4]), process.argv[5]];
const fmt = (x) => x.toLocaleString("en-US");
console.log(`TwoPhase N=${n}: SPIN ${fmt(spinStates)} states in ${spinSeconds}s`);
for (const [label, kc] of [["kubecheck plain ", plain], ["kubecheck vector", vector]]) {
  console.log(`  ${label} ${fmt(kc.distinct)} states in ${kc.seconds}s (${fmt(kc.distinctPerSecond)} states/s, peak RSS ${kc.peakRssMB} MB): ${(spinSeconds / kc.seconds).toFixed(2)}x SPIN`);
}
if (plain.distinct !== spinStates || vector.distinct !== spinStates) { console.error("state counts differ"); process.exit(1); }
' "$spin_states" "$spin_seconds" "$plain" "$vector" "$n"
