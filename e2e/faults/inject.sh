#!/usr/bin/env bash
# The fault-injection suite in its long form (issue 17; docs/reliability.md): under a load of submissions and running
# jobs on a local cluster, SIGKILL and SIGSTOP each service in turn (scheduler-svc, its embedded PostgreSQL,
# select-svc, gang-svc, an agent), three rounds, and check the invariants after each fault. CI runs the short form
# (each service once) as part of the e2e tests.
#
#   e2e/faults/inject.sh                          # build, run, print the report
#   GANTRY_FAULTS_ONLY=stop:scheduler,database e2e/faults/inject.sh   # only those faults
#   GANTRY_FAULTS=short e2e/faults/inject.sh      # the form CI runs
# The long form also runs LivenessE2ETest (a frozen controller and a frozen agent, one at a time, with their figures)
# and StandbyControllerE2ETest (the active controller killed, then frozen, with a standby beside it; CI runs it too).
#
# The report (markdown: each fault's recovery times and the invariants) goes to e2e/target/fault-injection/report.md,
# or $GANTRY_FAULTS_REPORT; the services' logs beside it.
set -euo pipefail
cd "$(dirname "$0")/../.."
export GANTRY_FAULTS="${GANTRY_FAULTS:-long}"
export GANTRY_FAULTS_REPORT="${GANTRY_FAULTS_REPORT:-$PWD/e2e/target/fault-injection}"
./mvnw -B -ntp -o -Pe2e -pl e2e -am verify -Dit.test="${GANTRY_FAULTS_CLASSES:-FaultInjectionE2ETest,LivenessE2ETest,StandbyControllerE2ETest}" -Dtest=none \
  -Dsurefire.failIfNoSpecifiedTests=false -Dfailsafe.failIfNoSpecifiedTests=false || status=$?
echo
cat "$GANTRY_FAULTS_REPORT/report.md" 2>/dev/null || echo "no report was written (see the Maven output above)"
exit "${status:-0}"
