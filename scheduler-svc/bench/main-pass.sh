#!/usr/bin/env bash
# scheduler-svc benchmarks (docs/benchmarks.md, "Main pass"). Builds scheduler-svc's test classes, then
# runs JMH MainPassBenchmark: the fair-share table and the priorities of 1,000,000 pending jobs.
# Usage: scheduler-svc/bench/priority.sh [extra JMH args, e.g. -wi 3 -i 5]
set -euo pipefail
cd "$(dirname "$0")/../.."
JAVA="${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}/bin/java"
./mvnw -q -o -pl scheduler-svc test-compile
./mvnw -q -o -pl scheduler-svc dependency:build-classpath -Dmdep.includeScope=test -Dmdep.outputFile="$PWD/scheduler-svc/target/bench-cp.txt" >/dev/null
# Run from a private copy of the classes, so a build started meanwhile cannot pull them away mid-run.
BENCH=$(mktemp -d)
trap 'rm -rf "$BENCH"' EXIT
cp -r scheduler-svc/target/classes "$BENCH/classes" && cp -r scheduler-svc/target/test-classes "$BENCH/test-classes"
CP="$BENCH/test-classes:$BENCH/classes:$(cat scheduler-svc/target/bench-cp.txt)"
"$JAVA" -Xms2g -Xmx2g -cp "$CP" org.openjdk.jmh.Main 'dev.gantry.scheduler.bench.MainPassBenchmark' -f 1 -wi 3 -i 5 -w 1s -r 2s "$@"
