#!/usr/bin/env bash
# docs/benchmarks.md, "Priority recomputation": JMH PriorityBenchmark, the fair-share table and the priorities of
# 1,000,000 pending jobs.
# Usage: scheduler-svc/bench/priority.sh [extra JMH args, e.g. -wi 3 -i 5]
exec "$(dirname "$0")/jmh.sh" 2g PriorityBenchmark "$@"
