#!/usr/bin/env bash
# Times graceful restarts of scheduler-svc on a local cluster (docs/benchmarks.md, "Graceful controller restart"):
# four running jobs and an `sbatch --wait` open, then ROUNDS x `gantry restart scheduler`. For each round it prints
# the command's wall time, how long after it every node was IDLE/ALLOCATED/MIXED again (none UNKNOWN or DOWN), and,
# from the scheduler's log, how long the cluster had no controller (the old one's "stopping" line to the new one's
# "GRPC started"). Usage: e2e/faults/restart-bench.sh [ROUNDS]  (default 5; uses conf/gantry.conf)
set -euo pipefail
home=$(cd "$(dirname "$0")/../.." && pwd)
rounds=${1:-5}
run=$(mktemp -d /tmp/gantry-restart-bench.XXXXXX)
export GANTRY_RUN_DIR=$run
trap '"$home/bin/gantry" down --run-dir "$run" >/dev/null 2>&1 || true' EXIT
"$home/bin/gantry" up --run-dir "$run" >/dev/null
# a first start without class archives writes them at exit: restart once so the rounds start from them
"$home/bin/gantry" down --run-dir "$run" >/dev/null
"$home/bin/gantry" up --run-dir "$run" >/dev/null
cd "$run"
for _ in 1 2 3 4; do "$home/bin/sbatch" --wrap 'sleep 900' >/dev/null; done
("$home/bin/sbatch" --wait --wrap 'sleep 900' >/dev/null 2>&1 &)
sleep 3
for r in $(seq 1 "$rounds"); do
  s=$(date +%s%N)
  "$home/bin/gantry" restart scheduler --run-dir "$run" >/dev/null
  e=$(date +%s%N)
  states=""
  for _ in $(seq 1 300); do
    states=$("$home/bin/scontrol" show node 2>/dev/null | grep -o 'State=[A-Z+]*' | sort | uniq -c | tr -s ' \n' ' ')
    case "$states" in *UNKNOWN*|*DOWN*|"") sleep 0.1 ;; *) break ;; esac
  done
  n=$(date +%s%N)
  echo "round $r: restart $(( (e - s) / 1000000 )) ms; nodes back $(( (n - e) / 1000000 )) ms after it:$states"
  sleep 3
done
echo "no controller (stopping -> GRPC started), per round:"
grep -E 'scheduler-svc stopping:|GRPC started' "$run/logs/scheduler.log" | tail -n $(( 2 * rounds )) | cut -c1-12 \
  | paste - - | while read -r a b; do
      python3 -c "import sys;f=lambda t:sum(float(x)*m for x,m in zip(t.split(':'),(3600,60,1)));print(f'  {f(sys.argv[2])-f(sys.argv[1]):.2f} s')" "$a" "$b"
    done
echo "nodes set DOWN or not responding: $(grep -c 'DOWN\|not responding' "$run/logs/scheduler.log" || true)"
