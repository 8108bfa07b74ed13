#!/usr/bin/env bash
# End-to-end submission throughput (docs/benchmarks.md, "Submission throughput"): builds scheduler-svc, starts it
# with its embedded PostgreSQL, submits jobs over gRPC from concurrent clients, crashes it, and checks that every
# acknowledged job is in the jobs table. Options go to dev.gantry.scheduler.bench.SubmitLoad, e.g.
#   scheduler-svc/bench/submit-load.sh --jobs 10000 --clients 8 --in-flight 1
#   scheduler-svc/bench/submit-load.sh --jfr /tmp/submit.jfr          # profile the scheduler
# GANTRY_BENCH_NO_BUILD=1 skips the build; GANTRY_MVN_OPTS adds Maven options (e.g. -o offline).
set -euo pipefail
here=$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")" && pwd)
home=$(cd "$here/../.." && pwd)
. "$home/bin/lib/java.sh"
gantry_find_java || exit 1
cd "$home"
if [ -z "${GANTRY_BENCH_NO_BUILD:-}" ]; then
  # package compiles the test classes (the driver) too; -DskipTests only skips running them
  # shellcheck disable=SC2086
  ./mvnw -q -B -ntp ${GANTRY_MVN_OPTS:-} -pl scheduler-svc -am -DskipTests package
fi
opts=()
[ "${GANTRY_JAVA_MAJOR:-0}" -ge 24 ] && opts+=(--sun-misc-unsafe-memory-access=allow)
# the jar's manifest puts its lib/ on the class path
exec "$GANTRY_JAVA" "${opts[@]}" -XX:+UseSerialGC -Xmx1g \
  -cp scheduler-svc/target/test-classes:scheduler-svc/target/gantry-scheduler-svc.jar \
  dev.gantry.scheduler.bench.SubmitLoad "$@"
