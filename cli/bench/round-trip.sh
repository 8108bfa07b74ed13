#!/usr/bin/env bash
# Measures the CLI round trip: bin/sbatch and bin/squeue against a real gRPC server on loopback (the test
# FakeController, 20 jobs), with the JVM class-data archive the wrappers build (warm) and without one (cold).
# Prints hyperfine's report and a table of medians; docs/benchmarks.md ("CLI round trip") records results.
#
#   ./mvnw -q -pl cli -am package -DskipTests  # the jar, its lib/ and the test classes (-am: proto and common too)
#   cli/bench/round-trip.sh [RUNS]              # default 30 runs per case
set -euo pipefail
root=$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/../.." && pwd)
# shellcheck source=../../bin/lib/java.sh
. "$root/bin/lib/java.sh"
gantry_find_java
runs=${1:-30}
cli=$root/cli/target
if [[ ! -f $cli/gantry-cli.jar || ! -d $cli/test-classes ]]; then
  echo "round-trip: build first: (cd $root && ./mvnw -q -pl cli -am package -DskipTests)" >&2
  exit 1
fi
command -v hyperfine >/dev/null || { echo "round-trip: needs hyperfine (apt-get install -y hyperfine)" >&2; exit 1; }

work=$(mktemp -d)
server=""
cleanup() {
  if [[ -n $server ]]; then
    kill "$server" 2>/dev/null || true
  fi
  rm -rf "$work"
}
trap cleanup EXIT

"$GANTRY_JAVA" -cp "$cli/test-classes:$cli/classes:$cli/lib/*" dev.gantry.cli.testing.FakeControllerServer \
  --jobs 20 --addr-file "$work/controller.addr" >"$work/server.log" 2>&1 &
server=$!
for _ in $(seq 1 120); do [[ -s $work/controller.addr ]] && break; sleep 0.5; done
GANTRY_CONTROLLER=$(<"$work/controller.addr")
export GANTRY_CONTROLLER
export GANTRY_CLI_CACHE_DIR=$work/jvm-cache

# The first command finds no archive and starts the training run in the background; wait for the archive.
"$root/bin/squeue" >/dev/null
for _ in $(seq 1 240); do
  compgen -G "$GANTRY_CLI_CACHE_DIR/*.lock" >/dev/null || break
  sleep 0.5
done
ls "$GANTRY_CLI_CACHE_DIR"

echo "java: $GANTRY_JAVA ($GANTRY_JAVA_VERSION); $(nproc) cores; load average: $(cut -d' ' -f1-3 /proc/loadavg)"
hyperfine -N --warmup 5 --runs "$runs" --export-json "$work/results.json" \
  -n "squeue, warm" "$root/bin/squeue" \
  -n "sbatch, warm" "$root/bin/sbatch --wrap true" \
  -n "squeue, cold" "env GANTRY_CLI_ARCHIVE=off $root/bin/squeue" \
  -n "sbatch, cold" "env GANTRY_CLI_ARCHIVE=off $root/bin/sbatch --wrap true"
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
python3 - "$work/results.json" <<'PY'
import json, sys
print(f"{'case':<16} {'median':>9} {'mean':>9} {'min':>9} {'max':>9}")
for r in json.load(open(sys.argv[1]))["results"]:
    ms = lambda s: f"{s * 1000:7.1f}ms"
    print(f"{r['command']:<16} {ms(r['median'])} {ms(r['mean'])} {ms(r['min'])} {ms(r['max'])}")
PY
