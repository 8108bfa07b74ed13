#!/usr/bin/env bash
# CLI latency against real local clusters, this build against an older one, in alternating rounds: what a user waits
# for `squeue` and `sbatch --wrap true`, wall time from starting the bin/ wrapper to its exit.
#
#   cli/bench/auth-latency.sh OLD_HOME [ROUNDS] [RUNS]
#
# OLD_HOME: a checkout of the older build, e.g. `git worktree add --detach /tmp/gantry-old 6ed3e0a` (its bin/gantry
# builds it on first use). Each build starts its own local cluster (conf/gantry.conf) under /tmp/auth-latency/, and
# its commands run as an unprivileged user (gantry-bench, created if missing) where the tests run as root, so that
# this build's commands authenticate as users do (a local token from the node's local authenticator). Each round
# runs hyperfine (-N, 3 warm-ups, RUNS runs) on both builds' command, alternating which goes first; the medians over
# all rounds are printed with the load average. Needs hyperfine and python3.
set -euo pipefail
command -v hyperfine >/dev/null || { echo "auth-latency: needs hyperfine (apt-get install -y hyperfine)" >&2; exit 1; }
OLD=$(cd "${1:?usage: auth-latency.sh OLD_HOME [ROUNDS] [RUNS]}" && pwd)
ROUNDS=${2:-5}
RUNS=${3:-20}
NEW=$(cd "$(dirname "$0")/../.." && pwd)
OUT=/tmp/auth-latency
mkdir -p "$OUT"
chmod 755 "$OUT"

as_user=()
if [ "$(id -u)" = 0 ]; then
  id -u gantry-bench >/dev/null 2>&1 || useradd --no-create-home --shell /usr/sbin/nologin gantry-bench
  as_user=(runuser -u gantry-bench --)
fi

down() {
  (cd "$OLD" && bin/gantry down --run-dir "$OUT/old" >/dev/null 2>&1) || true
  (cd "$NEW" && bin/gantry down --run-dir "$OUT/new" >/dev/null 2>&1) || true
}
trap down EXIT
for b in old new; do
  home=$OLD; [ $b = new ] && home=$NEW
  (cd "$home" && bin/gantry up --run-dir "$OUT/$b" >"$OUT/$b-up.log" 2>&1) || { cat "$OUT/$b-up.log"; exit 1; }
  chmod 755 "$OUT/$b"
done

cmd() { # build command args...
  local home=$OLD; [ "$1" = new ] && home=$NEW
  echo "${as_user[*]} env GANTRY_RUN_DIR=$OUT/$1 HOME=/tmp $home/bin/$2 ${*:3}"
}
# the class-data archive each build's commands use (docs/benchmarks.md, "CLI round trip"): trained by the first
# command, by the invoking user, as the other users cannot write cli/target/
for home in "$OLD" "$NEW"; do
  b=old; [ "$home" = "$NEW" ] && b=new
  GANTRY_RUN_DIR=$OUT/$b "$home/bin/sinfo" >/dev/null
  for _ in $(seq 120); do
    [ -n "$(find "$home/cli/target/jvm-cache" -name '*.jsa' -newer "$home/cli/target/gantry-cli.jar" 2>/dev/null)" ] && break
    sleep 1
  done
done
# warm: the first connections
for b in old new; do
  for _ in 1 2 3; do
    $(cmd $b squeue) >/dev/null
    $(cmd $b sbatch -o /dev/null --wrap true) >/dev/null
  done
done
sleep 5

echo "# auth-latency $(date -u +%FT%TZ) old=$(git -C "$OLD" rev-parse --short HEAD) new=$(git -C "$NEW" rev-parse --short HEAD) rounds=$ROUNDS runs=$RUNS"
for r in $(seq "$ROUNDS"); do
  order=(old new); [ $((r % 2)) = 0 ] && order=(new old)
  for c in "squeue" "sbatch -o /dev/null --wrap true"; do
    name=${c%% *}
    hyperfine -N --warmup 3 --runs "$RUNS" --export-json "$OUT/r$r-$name.json" \
      -n "${order[0]} $name" "$(cmd "${order[0]}" $c)" -n "${order[1]} $name" "$(cmd "${order[1]}" $c)" >/dev/null
  done
  echo "round $r done; load $(cut -d' ' -f1-3 /proc/loadavg)"
done
python3 - "$OUT" <<'EOF'
import glob, json, statistics, sys
times = {}
for f in glob.glob(sys.argv[1] + "/r*-*.json"):
    for res in json.load(open(f))["results"]:
        times.setdefault(res["command"], []).extend(res["times"])
for name in sorted(times):
    t = sorted(times[name])
    q = lambda p: t[min(len(t) - 1, int(p * len(t)))] * 1000
    print(f"{name:8s} median {statistics.median(t) * 1000:6.1f} ms  p10 {q(0.1):6.1f}  p90 {q(0.9):6.1f}  n={len(t)}")
EOF
