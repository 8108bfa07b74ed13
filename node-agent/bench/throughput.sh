#!/usr/bin/env bash
# Trivial jobs (`true`) submitted, launched and completed across 4 local agents (docs/benchmarks.md, "node-agent").
# Starts a local cluster with a wide config (4 nodes x 64 cores), runs ClusterThroughputBench with N jobs, prints
# the rate and each service's CPU time, and brings the cluster down again.
#   node-agent/bench/throughput.sh [JOBS]        (default 5000, after WARMUP=3000 unmeasured: the JIT compilers are still
#                                                 busy after fewer, and the aim is a sustained rate; RUN_DIR=/tmp/gantry-throughput;
#                                                 GANTRY=path/to/bin/gantry to run other jars;
#                                                 PROFILE=DIR: a JFR recording of each service into DIR)
set -euo pipefail
here=$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")" && pwd)
home=$(cd "$here/../.." && pwd)
jobs=${1:-5000}
run=${RUN_DIR:-/tmp/gantry-throughput}
gantry=${GANTRY:-$home/bin/gantry}
jars=$(cd "$(dirname "$gantry")/.." && pwd)   # the tree whose jars and driver run
cd "$home"
"$gantry" down --run-dir "$run" >/dev/null 2>&1 || true
rm -rf "$run"
trap '"$gantry" down --run-dir "$run" >/dev/null 2>&1 || true' EXIT
driver=node-agent/target/test-classes/dev/gantry/agent/bench/ClusterThroughputBench.class
[ "$jars/$driver" -nt "$home/node-agent/src/test/java/dev/gantry/agent/bench/ClusterThroughputBench.java" ] ||
  ./mvnw -q -B -ntp ${GANTRY_MVN_OPTS:-} -pl node-agent -am test-compile   # -am: a fresh clone has no sibling module built
"$gantry" up --run-dir "$run" --config "$here/wide.conf" >/dev/null
# CPU seconds of each service and of the embedded PostgreSQL: the process ("self"; ".name": its live threads grouped by
# name) and "children" (its reaped children and live descendants: an agent's job processes; PostgreSQL's backends)
cpu() {
  hz=$(getconf CLK_TCK)
  { services; pgrep -f -- "-D $run/state/pgdata" | sed 's/^/postgres /'; } | while read -r name pid; do
    for t in /proc/"$pid"/task/*; do
      echo "$name .$(tr ' /' '__' <"$t/comm" | tr -d '0-9\n') $(sed 's/^.*) //' "$t/stat" | awk '{print $12+$13}')"
    done
    echo "$name self $(sed 's/^.*) //' /proc/"$pid"/stat | awk '{print $12+$13}')"
    kids=$(sed 's/^.*) //' /proc/"$pid"/stat | awk '{print $14+$15}')
    for p in $(descendants "$pid"); do
      t=$(sed 's/^.*) //' "/proc/$p/stat" 2>/dev/null | awk '{print $12+$13+$14+$15}')
      kids=$((kids + ${t:-0}))
    done
    echo "$name children $kids"
  done 2>/dev/null | awk -v hz="$hz" 'NF == 3 {t[$1" "$2]+=$3} END {for (k in t) printf "%s %.2f\n", k, t[k]/hz}' | sort
}
descendants() { for c in $(cat /proc/"$1"/task/*/children 2>/dev/null); do echo "$c"; descendants "$c"; done; }
services() { grep '\.pid=' "$run/cluster.properties" | sed 's/\.pid=/ /'; }
. "$home/bin/lib/java.sh"; gantry_find_java
jcmd="$(dirname "$GANTRY_JAVA")/jcmd"
drive() {
  "$GANTRY_JAVA" --sun-misc-unsafe-memory-access=allow -Dlogback.configurationFile="$here/logback.xml" \
      -cp "$jars/node-agent/target/test-classes:$jars/node-agent/target/lib/*" \
      dev.gantry.agent.bench.ClusterThroughputBench "$(cat "$run/controller.addr")" "$1" "$run/auth.sock"
}
echo "warm-up (the services' JIT): $(drive "${WARMUP:-3000}")"
if [ -n "${PROFILE:-}" ]; then
  mkdir -p "$PROFILE"
  services | while read -r name pid; do "$jcmd" "$pid" JFR.start name=bench settings=profile >/dev/null; done
fi
cpu >"$run/cpu.before"
echo "load before: $(uptime)"
drive "$jobs"
echo "load after: $(uptime)"
cpu >"$run/cpu.after"
if [ -n "${PROFILE:-}" ]; then
  services | while read -r name pid; do "$jcmd" "$pid" JFR.dump name=bench filename="$PROFILE/$name.jfr" >/dev/null; done
  echo "JFR recordings in $PROFILE (e.g. jfr view hot-methods $PROFILE/scheduler.jfr)"
fi
echo "CPU per job (ms) by service, then its biggest parts:"
join -j1 <(sed 's/ /:/' "$run/cpu.before") <(sed 's/ /:/' "$run/cpu.after") |
  awk -v n="$jobs" '{split($1, k, ":"); d=$3-$2; if (k[2] !~ /^\./) svc[k[1]]+=d; if (d >= 0.05 * n / 1000) part[k[1]]=part[k[1]] sprintf(" %s %.2f", k[2], d*1000/n)}
    END {for (s in svc) printf "  %-10s %6.2f ms:%s\n", s, svc[s]*1000/n, part[s]}' | sort
