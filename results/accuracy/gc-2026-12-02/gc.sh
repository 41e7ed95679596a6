#!/usr/bin/env bash
# 10k-stream cell, ParallelGC (the default) against ZGC, interleaved P Z P Z, tokenclock only
cd /work/main
for i in 1 2; do
  for gc in P Z; do
    [[ $gc == Z ]] && opts="-XX:-UseParallelGC -XX:+UseZGC" || opts=""
    echo "=== run $gc$i opts [$opts] $(date +%T) load $(cut -d' ' -f1-3 /proc/loadavg)"
    TOKENCLOCK_JAVA_OPTS="$opts" scripts/accuracy --cells 10000x400 --seconds 8 --skip-jdk --skip-peer --server-kernel-stamps --keep --out-dir /tmp/jw/gc/$gc$i 2>&1 | grep -v "^\s*$" | tail -8
  done
done
