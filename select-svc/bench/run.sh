#!/usr/bin/env bash
# select-svc benchmarks (docs/benchmarks.md, "select-svc"). Builds select-svc's test classes, then runs:
#   JMH PlanBenchmark (batched plan: a conservative backfill pass with bf_window 1 day, and the older plan with
#   reservations and no window; main pass, will-run) on 10,000 nodes × 10,000 pending jobs,
#   JMH BackfillBenchmark (one full backfill pass, EASY and conservative: 100,000 pending jobs, 10,000 nodes, 20,000
#   running jobs, bf_window 1 day, bf_resolution 60 s),
#   ReplicaFootprint (heap of the replica at that scale), PreemptionComparison (default vs Slurm two-stage).
# Usage: select-svc/bench/run.sh [extra JMH args, e.g. -wi 3 -i 5]
set -euo pipefail
cd "$(dirname "$0")/../.."
. bin/lib/java.sh
gantry_find_java || exit 1
JAVA=$GANTRY_JAVA
. bin/lib/bench.sh
gantry_bench_build select-svc
# Run from a private copy of the classes, so a build started meanwhile cannot pull them away mid-run.
BENCH=$(mktemp -d)
trap 'rm -rf "$BENCH"' EXIT
cp -r select-svc/target/classes "$BENCH/classes" && cp -r select-svc/target/test-classes "$BENCH/test-classes"
CP="$BENCH/test-classes:$BENCH/classes:$(cat select-svc/target/bench-cp.txt)"
gantry_jmh_args -f 1 -wi 2 -i 3 -w 1s -r 1s -- "$@"
"$JAVA" -cp "$CP" org.openjdk.jmh.Main 'dev.gantry.select.bench.PlanBenchmark' "${GANTRY_JMH_ARGS[@]}"
gantry_jmh_args -f 1 -wi 2 -i 3 -w 2s -r 2s -- "$@"
"$JAVA" -cp "$CP" org.openjdk.jmh.Main 'dev.gantry.select.bench.BackfillBenchmark' "${GANTRY_JMH_ARGS[@]}"
"$JAVA" -Xms2g -Xmx2g -cp "$CP" dev.gantry.select.bench.ReplicaFootprint 10000
"$JAVA" -cp "$CP" dev.gantry.select.preempt.PreemptionComparison 10000
