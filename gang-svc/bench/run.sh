#!/usr/bin/env bash
# gang-svc benchmarks (docs/benchmarks.md, "gang-svc"): JMH TimesliceBenchmark, one time slice and one event-driven
# rebuild for 10,000 jobs over 5,000 nodes, under CR_Core_Memory and CR_CPU_Memory.
# Usage: gang-svc/bench/run.sh [extra JMH args, e.g. -wi 3 -i 5]
set -euo pipefail
cd "$(dirname "$0")/../.."
. bin/lib/java.sh
gantry_find_java || exit 1
JAVA=$GANTRY_JAVA
. bin/lib/bench.sh
gantry_bench_build gang-svc
# Run from a private copy of the classes, so a build started meanwhile cannot pull them away mid-run.
BENCH=$(mktemp -d)
trap 'rm -rf "$BENCH"' EXIT
cp -r gang-svc/target/classes "$BENCH/classes" && cp -r gang-svc/target/test-classes "$BENCH/test-classes"
CP="$BENCH/test-classes:$BENCH/classes:$(cat gang-svc/target/bench-cp.txt)"
gantry_jmh_args -f 1 -wi 2 -i 3 -w 1s -r 1s -- "$@"
"$JAVA" -cp "$CP" org.openjdk.jmh.Main 'dev.gantry.gang.bench.TimesliceBenchmark' "${GANTRY_JMH_ARGS[@]}"
