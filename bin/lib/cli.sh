# shellcheck shell=bash
# Runs one of Gantry's commands (sbatch, squeue, scancel, sinfo, scontrol, sprio, sshare, srun) from cli/target/gantry-cli.jar.
# Source this file from a wrapper in bin/ that has set GANTRY_BIN to its own real directory, then call
# gantry_cli_exec NAME ARGS...
#
# Start-up is what a command line tool's speed is (docs/benchmarks.md, "CLI round trip"), so the JVM runs
# with the C1 compiler only, the serial GC, no perf-data file, and a dynamic CDS archive of the classes the
# commands use (-XX:SharedArchiveFile). The archive is built once per jar and JDK by a training run
# (dev.gantry.cli.warmup.WarmupRun, -XX:ArchiveClassesAtExit) that the first command finding none starts
# in the background; until it exists, commands run without it. It lives in cli/target/jvm-cache/
# (GANTRY_CLI_CACHE_DIR overrides), so `mvn clean` removes it and a rebuilt jar makes it stale (it is then
# rebuilt). GANTRY_CLI_ARCHIVE=off runs without any archive. On Java 25 the AOT cache (-XX:AOTCache) was
# measured no faster than this archive, for twice the size and five times the training time.

# shellcheck source=java.sh
. "${GANTRY_BIN}/lib/java.sh"

gantry_cli_exec() {
  local name=$1
  shift
  local root=${GANTRY_BIN%/}
  root=${root%/bin}
  local jar=$root/cli/target/gantry-cli.jar
  if [[ ! -f $jar ]]; then
    echo "$name: error: $jar is missing; build it first: (cd $root && ./mvnw -q package -DskipTests)" >&2
    exit 1
  fi
  gantry_find_java || exit 1

  # -Xlog:cds...=off: an archive the JVM cannot use (e.g. copied jars) is skipped without a word.
  local -a flags=(-XX:TieredStopAtLevel=1 -XX:+UseSerialGC -XX:-UsePerfData -Xlog:cds=off -Xlog:cds+dynamic=off)
  if (( GANTRY_JAVA_MAJOR >= 23 )); then
    # protobuf uses sun.misc.Unsafe; without this, Java 24+ warns about it on stderr.
    flags+=(--sun-misc-unsafe-memory-access=allow)
  fi

  if [[ ${GANTRY_CLI_ARCHIVE:-on} != off ]]; then
    local dir=${GANTRY_CLI_CACHE_DIR:-$root/cli/target/jvm-cache}
    local key=${GANTRY_JAVA_HOME//[^A-Za-z0-9._-]/_}-$GANTRY_JAVA_VERSION
    local archive=$dir/gantry-cli$key.jsa
    # usable only if newer than the jar and every jar of its class path: the JVM silently refuses an archive whose
    # class path changed, and every command would then start without it
    local fresh=0 dep
    if [[ -f $archive && $archive -nt $jar ]]; then
      fresh=1
      for dep in "$root"/cli/target/lib/*.jar; do
        if [[ $dep -nt $archive ]]; then
          fresh=0
          break
        fi
      done
    fi
    if (( fresh )); then
      flags+=("-XX:SharedArchiveFile=$archive")
    else
      _gantry_cli_train "$archive" "$jar" "${flags[@]}"
    fi
  fi
  exec "$GANTRY_JAVA" "${flags[@]}" -cp "$jar" dev.gantry.cli.Main "$name" "$@"
}

# _gantry_cli_train ARCHIVE JAR JVM-FLAGS...: builds ARCHIVE in the background, once: a lock
# directory keeps concurrent commands from building it twice (a lock older than 10 minutes is taken over),
# and the archive appears under its name only when complete.
_gantry_cli_train() {
  local archive=$1 jar=$2
  shift 2
  local lock=$archive.lock
  mkdir -p -- "${archive%/*}" 2>/dev/null || return 0
  if ! mkdir -- "$lock" 2>/dev/null; then
    if [[ -n $(find "$lock" -maxdepth 0 -mmin +10 2>/dev/null) ]]; then
      rm -rf -- "$lock"
      mkdir -- "$lock" 2>/dev/null || return 0
    else
      return 0
    fi
  fi
  local tmp=$archive.tmp.$$
  (
    trap 'rm -rf -- "$lock" "$tmp"' EXIT
    if "$GANTRY_JAVA" "$@" "-XX:ArchiveClassesAtExit=$tmp" -cp "$jar" dev.gantry.cli.warmup.WarmupRun \
        && [[ -s $tmp ]]; then
      mv -f -- "$tmp" "$archive"
    fi
  ) </dev/null >/dev/null 2>&1 &
  return 0
}
