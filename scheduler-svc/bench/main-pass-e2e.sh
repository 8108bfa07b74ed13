#!/usr/bin/env bash
# The main pass over 10,000 pending jobs, end to end on a local cluster (docs/benchmarks.md, "The main pass"):
# starts a cluster from conf/gantry.conf, runs dev.gantry.scheduler.bench.MainPassLoad (a blocker on every node,
# then N pending jobs, then a held submission every 100 ms for the window), prints the main pass's mean and
# quantiles from gantry_scheduler_cycle_seconds{pass="main"}, and brings the cluster down.
#   scheduler-svc/bench/main-pass-e2e.sh [JOBS [SECONDS]]     (defaults 10000 and 60; RUN_DIR=/tmp/gantry-main-pass)
set -euo pipefail
here=$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")" && pwd)
home=$(cd "$here/../.." && pwd)
. "$home/bin/lib/java.sh"
gantry_find_java || exit 1
jobs=${1:-10000}
seconds=${2:-60}
run=${RUN_DIR:-/tmp/gantry-main-pass}
cd "$home"
bin/gantry down --run-dir "$run" >/dev/null 2>&1 || true
rm -rf "$run"
trap 'bin/gantry down --run-dir "$run" >/dev/null 2>&1 || true' EXIT
bin/gantry up --run-dir "$run" >/dev/null
. bin/lib/bench.sh
gantry_bench_build scheduler-svc
prop() { grep "^$1=" "$run/cluster.properties" | cut -d= -f2-; }
echo "load before: $(uptime)"
opts=()
[ "${GANTRY_JAVA_MAJOR:-0}" -ge 24 ] && opts+=(--sun-misc-unsafe-memory-access=allow)
printf '<configuration><root level="WARN"/></configuration>\n' >"$run/driver-logback.xml"
"$GANTRY_JAVA" "${opts[@]}" -Dlogback.configurationFile="$run/driver-logback.xml" -cp "scheduler-svc/target/test-classes:$(cat scheduler-svc/target/bench-cp.txt)" \
    dev.gantry.scheduler.bench.MainPassLoad --controller "127.0.0.1:$(prop scheduler.grpc)" \
    --metrics "http://127.0.0.1:$(prop scheduler.http)/prometheus" --run-dir "$run" --jobs "$jobs" --seconds "$seconds"
echo "load after: $(uptime)"
