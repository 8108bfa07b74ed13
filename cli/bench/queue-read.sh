#!/usr/bin/env bash
# Reading a large queue (docs/benchmarks.md, "Reading a large queue", issue 18). Starts a local cluster whose one
# partition is State=DOWN (jobs queue, none starts), fills it with JOBS pending jobs submitted one by one over gRPC
# by 8 users (SubmitLoad: sbatch's request for a small batch job, a 400-byte script, 30 environment variables) and 5
# jobs of an unprivileged Unix user, then:
#   - the controller's heap after a full GC (jcmd GC.heap_info) and its resident size;
#   - hyperfine times the real commands end to end: `squeue` (every job, one line each) and
#     `squeue -u <that user>` run as that user (the controller filters all JOBS for its 5).
#   cli/bench/queue-read.sh 100000           # the 100,000-job figures
#   cli/bench/queue-read.sh 1000000 --no-all # the 1,000,000-job figures (no whole listing: a million lines)
# Environment: RUN_DIR (default /tmp/gantry-queue-bench), HEAP (controller -Xmx, default 2g), RUNS (hyperfine runs,
# default 10), BENCH_USER (default gantrybench, created if missing), KEEP=1 leaves the cluster up.
set -euo pipefail
here=$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")" && pwd)
home=$(cd "$here/../.." && pwd)
jobs=${1:-100000}
all=1
[ "${2:-}" = "--no-all" ] && all=0
run=${RUN_DIR:-/tmp/gantry-queue-bench}
runs=${RUNS:-10}
user=${BENCH_USER:-gantrybench}
bin=$home/bin

id "$user" >/dev/null 2>&1 || useradd -m "$user"
export GANTRY_RUN_DIR=$run/cluster
"$bin/gantry" down >/dev/null 2>&1 || true
rm -rf "$run"
mkdir -p "$run"
chmod 755 "$run"
conf=$run/queue.conf
cat > "$conf" <<CONF
ClusterName=queue-bench
SelectType=select/cons_tres
SelectTypeParameters=CR_Core_Memory
# 8 load clients, each one user submitting thousands a second: the per-user request limit would refuse them
SlurmctldParameters=rl_bucket_size=1073741824,rl_refill_rate=1073741824
NodeName=DEFAULT Sockets=1 CoresPerSocket=4 ThreadsPerCore=1 RealMemory=8192
NodeName=n[1-4]
PartitionName=debug Nodes=n[1-4] Default=YES MaxTime=UNLIMITED State=DOWN
CONF
export GANTRY_SCHEDULER_JAVA_OPTS="-Xmx${HEAP:-2g}"
"$bin/gantry" up --config "$conf" --run-dir "$GANTRY_RUN_DIR" >/dev/null
[ -n "${KEEP:-}" ] || trap '"$bin/gantry" down >/dev/null 2>&1 || true' EXIT
prop() { grep -E "^$1=" "$GANTRY_RUN_DIR/cluster.properties" | cut -d= -f2; }
pid=$(prop scheduler.pid)

# the load: JOBS jobs, one submission each, acknowledged once durable; 100,000 per driver run (it builds its
# requests up front)
left=$jobs
build=${GANTRY_BENCH_NO_BUILD:-}
while [ "$left" -gt 0 ]; do
  n=$(( left < 100000 ? left : 100000 ))
  (cd "$home" && GANTRY_BENCH_NO_BUILD=$build scheduler-svc/bench/submit-load.sh \
    --target "127.0.0.1:$(prop scheduler.grpc)" --auth-run-dir "$GANTRY_RUN_DIR" --run-dir "$run/load" \
    --warmup 0 --jobs "$n" --clients 8 --in-flight 16) | grep -E '^(measured|CPU)'
  build=1
  left=$((left - n))
done
for i in 1 2 3 4 5; do
  su "$user" -s /bin/sh -c "cd /tmp && GANTRY_RUN_DIR=$GANTRY_RUN_DIR $bin/sbatch -o /dev/null --wrap true" >/dev/null
done

jcmd "$pid" GC.run >/dev/null
echo "controller heap after a full GC: $(jcmd "$pid" GC.heap_info | grep -E 'DefNew|Tenured' | sed -E 's/ *\[.*//' | tr -s ' ' | paste -sd';')"
echo "controller resident: $(grep VmRSS /proc/"$pid"/status | tr -s ' \t' ' ')"
echo "pending jobs squeue lists: $("$bin/squeue" -h -t PD -o %i | wc -l)"

cmds=()
[ "$all" = 1 ] && cmds+=("$bin/squeue >/dev/null")
cmds+=("su $user -s /bin/sh -c 'GANTRY_RUN_DIR=$GANTRY_RUN_DIR $bin/squeue -u $user' >/dev/null")
hyperfine --warmup 2 --runs "$runs" "${cmds[@]}"
