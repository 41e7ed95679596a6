# shellcheck shell=bash
# The JVM's ahead-of-time cache for ./tokenclock (JDK 25: JEP 483's classes loaded and linked, JEP 515's method
# profiles, made in one step by JEP 514's -XX:AOTCacheOutput): `./tokenclock aot-train` makes one from a training
# run, and every later ./tokenclock command of the same jar, JDK and jvm.flags starts from it. Why: with the training
# run's profiles the JIT compiles the harness's paths sooner, so less of its work is left for the measured window
# (docs/OVERHEAD.md, "JIT"). Source it after scripts/lib/java.sh, never run it:
#
#   aot_cache_file JAR        # prints the cache file this jar, $JAVA_HOME and jvm.flags would use (it may not exist)
#   aot_jvm_flags JAR         # prints the flags that use it, one a line, or nothing: no cache, or TOKENCLOCK_AOT=off
#
# The cache directory is $TOKENCLOCK_AOT_DIR, else $XDG_CACHE_HOME/tokenclock/aot, else ~/.cache/tokenclock/aot.
# The key is the jar's content (sha256) and modification time (the JVM refuses a cache whose jar's time or size
# differ, even for the same bytes), the JDK's runtime version ($JAVA_HOME/release) and jvm.flags' content (a cache is
# refused under other flags, e.g. another collector), so a cache of another build or JDK is never picked. A cache
# the JVM refuses anyway is not fatal: it runs without it, its own lines about that are silenced (-Xlog:aot*=off),
# and the harness says so in one line and in the record (measurement.readiness.aot_cache).

# aot_cache_dir: prints the cache directory.
aot_cache_dir() {
  echo "${TOKENCLOCK_AOT_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/tokenclock/aot}"
}

# aot_jar_sha JAR: the jar's sha256, remembered beside the caches by path, size and time (hashing 50 MB at every
# command's start would cost a quarter of a second).
aot_jar_sha() {
  local jar=$1 dir stamp memo sha
  dir="$(aot_cache_dir)"
  stamp="$(stat -c '%s %Y' "$jar")" || return 1
  memo="$dir/jar-sha256"
  if [[ -f "$memo" ]]; then
    sha=$(awk -v p="$jar" -v s="$stamp" '$3 == p && $1 " " $2 == s {print $4; exit}' "$memo")
    [[ -n "$sha" ]] && { echo "$sha"; return 0; }
  fi
  sha=$(sha256sum "$jar" | cut -c1-64) || return 1
  if mkdir -p "$dir" 2>/dev/null; then
    { grep -v -F " $jar " "$memo" 2>/dev/null | tail -20; echo "$stamp $jar $sha"; } > "$memo.$$" &&
      mv -f "$memo.$$" "$memo"
  fi
  echo "$sha"
}

# aot_cache_file JAR: prints the path of the cache for JAR under $JAVA_HOME and jvm.flags.
aot_cache_file() {
  local jar=$1 sha mtime jdk flags
  sha="$(aot_jar_sha "$jar")" || return 1
  mtime="$(stat -c '%Y' "$jar")" || return 1
  jdk=$(sed -n 's/^JAVA_RUNTIME_VERSION="\(.*\)"$/\1/p' "$JAVA_HOME/release" 2>/dev/null | head -1)
  [[ -n "$jdk" ]] || jdk=unknown
  flags=$(sha256sum "$tokenclock_root_dir/jvm.flags" | cut -c1-12)
  echo "$(aot_cache_dir)/tokenclock-${sha:0:16}-$mtime-jdk${jdk//[^A-Za-z0-9._-]/_}-flags$flags.aot"
}

# aot_jvm_flags JAR: the flags that start a JVM from JAR's cache, one a line; nothing when there is none, when
# TOKENCLOCK_AOT=off, or on a JDK older than 25 (no -XX:AOTCacheOutput to have made one with).
aot_jvm_flags() {
  local file
  [[ "${TOKENCLOCK_AOT:-on}" == off ]] && return 0
  file="$(aot_cache_file "$1" 2>/dev/null)" || return 0
  [[ -f "$file" ]] || return 0
  echo "-XX:AOTCache=$file"
  echo "-Xlog:aot*=off"
}
