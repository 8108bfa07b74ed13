#!/usr/bin/env bash
# Runs one of scheduler-svc's JMH benchmarks (docs/benchmarks.md): builds the test classes, copies them aside (so a
# build started meanwhile cannot pull them away mid-run), then runs JMH with one fork, 3 warm-up and 5 measured
# iterations.
# Usage: scheduler-svc/bench/jmh.sh HEAP BENCHMARK_CLASS [extra JMH args, e.g. -wi 3 -i 5]
set -euo pipefail
heap=$1 benchmark=$2
shift 2
cd "$(dirname "$0")/../.."
. bin/lib/java.sh
gantry_find_java || exit 1
JAVA=$GANTRY_JAVA
. bin/lib/bench.sh
gantry_bench_build scheduler-svc
BENCH=$(mktemp -d)
trap 'rm -rf "$BENCH"' EXIT
cp -r scheduler-svc/target/classes "$BENCH/classes" && cp -r scheduler-svc/target/test-classes "$BENCH/test-classes"
CP="$BENCH/test-classes:$BENCH/classes:$(cat scheduler-svc/target/bench-cp.txt)"
gantry_jmh_args -f 1 -wi 3 -i 5 -w 1s -r 2s -- "$@"
"$JAVA" -Xms"$heap" -Xmx"$heap" -cp "$CP" org.openjdk.jmh.Main "dev.gantry.scheduler.bench.$benchmark" "${GANTRY_JMH_ARGS[@]}"
