#!/usr/bin/env bash
# small cells, ParallelGC then ZGC, tokenclock only, same working tree
cd /work/main
for gc in P Z; do
  [[ $gc == Z ]] && opts="-XX:-UseParallelGC -XX:+UseZGC" || opts=""
  echo "=== $gc opts [$opts] $(date +%T) load $(cut -d' ' -f1-3 /proc/loadavg)"
  TOKENCLOCK_JAVA_OPTS="$opts" scripts/accuracy --grid tail --cells 1x8,o1x8,16x8 --skip-jdk --skip-peer --server-kernel-stamps --keep --out-dir /tmp/jw/small/$gc 2>&1 | grep -v "^\s*$" | tail -12
done
