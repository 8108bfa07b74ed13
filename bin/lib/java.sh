# shellcheck shell=bash
# Finds a Java 21 or newer for Gantry's scripts. Source this file, then call gantry_find_java.
#
# Looks, in order, at $JAVA_HOME, at `java` on the PATH, then at the JDKs under /usr/lib/jvm (newest
# first; GANTRY_JVM_DIR overrides the directory), and takes the first whose version is at least 21. A JDK's version is read from its `release`
# file (no process to start); when there is none, from the first line of `java -version`.
#
# On success sets GANTRY_JAVA (the java executable), GANTRY_JAVA_HOME, GANTRY_JAVA_VERSION (e.g.
# 25.0.3) and GANTRY_JAVA_MAJOR (e.g. 25), and returns 0. Otherwise prints
# "gantry: no Java 21 or newer found; install one or set JAVA_HOME" to stderr and returns 1.
# Start-up matters (every sbatch and squeue runs this): no subshells, at most one readlink per candidate.

GANTRY_MIN_JAVA_MAJOR=21

# _gantry_probe_java JAVA: sets _gantry_probe_home, _gantry_probe_version and _gantry_probe_major for the
# java executable JAVA; fails when it is not executable or its version cannot be told.
_gantry_probe_java() {
  local java=$1 real=$1 line version=""
  [[ -x $java && ! -d $java ]] || return 1
  if [[ -L $java ]]; then
    real=$(readlink -f -- "$java" 2>/dev/null) || real=$java
  fi
  _gantry_probe_home=${real%/bin/java}
  if [[ $_gantry_probe_home != "$real" && -r $_gantry_probe_home/release ]]; then
    while IFS= read -r line; do
      if [[ $line == JAVA_VERSION=* ]]; then
        version=${line#JAVA_VERSION=}
        version=${version//\"/}
        break
      fi
    done < "$_gantry_probe_home/release"
  fi
  if [[ -z $version ]]; then
    # e.g. openjdk version "17.0.15" 2025-04-15, java version "1.8.0_292", openjdk version "26-ea"
    line=$("$java" -version 2>&1 | head -n 1)
    [[ $line =~ \"([^\"]+)\" ]] && version=${BASH_REMATCH[1]}
  fi
  [[ -n $version ]] || return 1
  local major=$version
  [[ $major == 1.* ]] && major=${major#1.}
  major=${major%%[._+-]*}
  [[ $major =~ ^[0-9]+$ ]] || return 1
  _gantry_probe_version=$version
  _gantry_probe_major=$major
}

# _gantry_use_java JAVA: selects JAVA when it is Java 21 or newer.
# shellcheck disable=SC2034  # GANTRY_JAVA* are this file's results, read by the scripts that source it
_gantry_use_java() {
  _gantry_probe_java "$1" || return 1
  (( _gantry_probe_major >= GANTRY_MIN_JAVA_MAJOR )) || return 1
  GANTRY_JAVA=$1
  GANTRY_JAVA_HOME=$_gantry_probe_home
  GANTRY_JAVA_VERSION=$_gantry_probe_version
  GANTRY_JAVA_MAJOR=$_gantry_probe_major
}

gantry_find_java() {
  if [[ -n ${JAVA_HOME:-} ]] && _gantry_use_java "$JAVA_HOME/bin/java"; then
    return 0
  fi
  local on_path
  if on_path=$(type -P java) && _gantry_use_java "$on_path"; then
    return 0
  fi
  # The JDKs in Debian's JVM directory, newest first (links such as default-java are skipped).
  local dir best="" best_major=0
  for dir in "${GANTRY_JVM_DIR:-/usr/lib/jvm}"/*; do
    [[ -d $dir && ! -L $dir ]] || continue
    _gantry_probe_java "$dir/bin/java" || continue
    if (( _gantry_probe_major > best_major )); then
      best=$dir/bin/java
      best_major=$_gantry_probe_major
    fi
  done
  if [[ -n $best ]] && _gantry_use_java "$best"; then
    return 0
  fi
  echo "gantry: no Java ${GANTRY_MIN_JAVA_MAJOR} or newer found; install one or set JAVA_HOME" >&2
  return 1
}
