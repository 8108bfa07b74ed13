#!/usr/bin/env bash
# docs/benchmarks.md, "The main pass": JMH MainPassBenchmark, the controller's half of a main pass (eligibility,
# limits, queue order) over 10,000 pending jobs.
# Usage: scheduler-svc/bench/main-pass.sh [extra JMH args, e.g. -wi 3 -i 5]
exec "$(dirname "$0")/jmh.sh" 2g MainPassBenchmark "$@"
