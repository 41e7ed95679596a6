# shellcheck shell=bash
# Finding a JDK >= 25, shared by ./tokenclock and every script under scripts/. Source it, never run it:
#
#   . "$root/scripts/lib/java.sh"
#   use_java_home scripts/NAME        # sets and exports JAVA_HOME, or prints one line and exits 1
#   use_java_home scripts/NAME 2      # ... exits 2 instead (for a script whose 1 means something else)
#   home="$(find_java_home)" || ...   # prints a JDK home, or returns 1
#
# Looks at JAVA_HOME, then java on PATH, then the JDKs under /usr/lib/jvm, /opt/java and /opt/jdk* (newest first),
# and takes the first whose java reports a feature release >= tokenclock_min_java. Defines only the functions below
# and tokenclock_min_java; needs bash, and nothing outside the repository.

tokenclock_min_java=25

# java_major JAVA: prints the feature release of the java binary given, or nothing if it does not run.
java_major() {
  local v
  v=$("$1" -XshowSettings:properties -version 2>&1 |
    awk -F'= ' '/java.specification.version =/ {print $2; exit}') || true
  [[ "$v" =~ ^1\.([0-9]+)$ ]] && v="${BASH_REMATCH[1]}"
  [[ "$v" =~ ^[0-9]+$ ]] && echo "$v"
}

# find_java_home: prints the home of the first JDK >= tokenclock_min_java found; returns 1 if there is none.
find_java_home() {
  local candidate major
  if [[ -n "${JAVA_HOME:-}" && -x "$JAVA_HOME/bin/java" ]]; then
    major=$(java_major "$JAVA_HOME/bin/java") || true
    if [[ -n "$major" && "$major" -ge $tokenclock_min_java ]]; then echo "$JAVA_HOME"; return 0; fi
  fi
  if command -v java >/dev/null 2>&1; then
    candidate=$(command -v java)
    major=$(java_major "$candidate") || true
    if [[ -n "$major" && "$major" -ge $tokenclock_min_java ]]; then
      candidate=$(readlink -f "$candidate")
      echo "$(dirname "$(dirname "$candidate")")"; return 0
    fi
  fi
  for candidate in $(ls -d /usr/lib/jvm/*/ /opt/java/*/ /opt/jdk*/ 2>/dev/null | sort -rV); do
    candidate="${candidate%/}"
    [[ -x "$candidate/bin/java" && -x "$candidate/bin/javac" ]] || continue
    major=$(java_major "$candidate/bin/java") || true
    if [[ -n "$major" && "$major" -ge $tokenclock_min_java ]]; then echo "$candidate"; return 0; fi
  done
  return 1
}

# use_java_home PROG [STATUS]: sets and exports JAVA_HOME to the JDK found; if there is none, prints one line
# prefixed with PROG and exits with STATUS (default 1).
use_java_home() {
  local prog=$1 status=${2:-1} home
  if ! home="$(find_java_home)"; then
    echo "$prog: no JDK >= $tokenclock_min_java found (checked JAVA_HOME, java on PATH, /usr/lib/jvm, /opt);" \
      "install one or set JAVA_HOME" >&2
    exit "$status"
  fi
  JAVA_HOME="$home"
  export JAVA_HOME
}
