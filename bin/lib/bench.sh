# shellcheck shell=bash
# Shared by the modules' bench/ scripts (docs/benchmarks.md). Source it with the repository root as the current
# directory, after bin/lib/java.sh.
#
# gantry_bench_build MODULE: compiles MODULE's main and test classes together with the modules it depends on (`-am`:
# a fresh clone has none of Gantry's modules in the local Maven repository, and an old copy there would be stale), and
# writes MODULE/target/bench-cp.txt, MODULE's test class path (its sibling modules as their target/classes).
# GANTRY_MVN_OPTS adds Maven options, e.g. -o to stay offline once the local repository holds every dependency.
gantry_bench_build() {
  local module=$1
  # shellcheck disable=SC2086
  ./mvnw -q -B -ntp ${GANTRY_MVN_OPTS:-} -pl "$module" -am test-compile dependency:build-classpath \
      -Dmdep.includeScope=test -Dmdep.outputFile=target/bench-cp.txt
}

# gantry_jmh_args DEFAULTS... -- ARGS...: sets the array GANTRY_JMH_ARGS to the default options (option and value
# pairs, e.g. -wi 2 -i 3) that ARGS does not give, followed by ARGS. JMH refuses an option given twice, so a script's
# defaults must give way to the caller's (e.g. run.sh -wi 0 -i 1 for a quick check).
gantry_jmh_args() {
  local defaults=() i a
  while [ $# -gt 0 ] && [ "$1" != -- ]; do defaults+=("$1"); shift; done
  [ $# -gt 0 ] && shift
  GANTRY_JMH_ARGS=()
  for ((i = 0; i < ${#defaults[@]}; i += 2)); do
    for a in "$@"; do
      [ "$a" = "${defaults[i]}" ] && continue 2
    done
    GANTRY_JMH_ARGS+=("${defaults[i]}" "${defaults[i + 1]}")
  done
  GANTRY_JMH_ARGS+=("$@")
}
