#!/usr/bin/env bash
# TwoPhase with N resource managers (default 8) in SPIN and in kubecheck, side by side on this
# machine: SPIN's exhaustive safety search (`spin -a`, `gcc -O2 -DNOREDUCE -DSAFETY`) and
# kubecheck's breadth-first search of the plain TwoPhase model, one thread each. Needs the Debian
# packages spin and gcc. Prints both times and their ratio.
set -euo pipefail
n="${1:-8}"
here="$(cd "$(dirname "$0")" && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
(cd "$work" && spin -DN="$n" -a "$here/twophase.pml" >/dev/null && gcc -O2 -DNOREDUCE -DNOCLAIM -DSAFETY -o pan pan.c)
spin_out="$(cd "$work" && ./pan -m10000000)"
spin_states="$(grep -Eo '[0-9]+ states, stored' <<<"$spin_out" | grep -Eo '^[0-9]+')"
spin_seconds="$(grep -Eo 'elapsed time [0-9.e+-]+' <<<"$spin_out" | grep -Eo '[0-9.e+-]+$')"
kc="$(cd "$here/../.." && npm run -s bench -- --json "twophase-$n-plain")"
node -e '
const [spinStates, spinSeconds, kc] = [Number(process.argv[1]), Number(process.argv[2]), JSON.parse(process.argv[3])];
console.log(`TwoPhase N=${process.argv[4]}: SPIN ${spinStates.toLocaleString("en-US")} states in ${spinSeconds}s; kubecheck ${kc.distinct.toLocaleString("en-US")} states in ${kc.seconds}s; kubecheck/SPIN speed ${(spinSeconds / kc.seconds).toFixed(2)}x`);
if (spinStates !== kc.distinct) { console.error("state counts differ"); process.exit(1); }
' "$spin_states" "$spin_seconds" "$kc" "$n"
