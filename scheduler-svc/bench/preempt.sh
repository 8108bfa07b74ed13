#!/usr/bin/env bash
# docs/benchmarks.md, "Preemption decisions": JMH PreemptionBenchmark, candidates over 10,000 and 100,000 running
# jobs, and a 32-victim plan.
# Usage: scheduler-svc/bench/preempt.sh [extra JMH args, e.g. -wi 3 -i 5]
exec "$(dirname "$0")/jmh.sh" 1g PreemptionBenchmark "$@"
