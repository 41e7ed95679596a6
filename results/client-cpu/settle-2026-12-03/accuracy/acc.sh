#!/usr/bin/env bash
# acc.sh OUT PAIRS CELLS: scripts/accuracy on the base build and this one in turn
set -uo pipefail
out=$1; pairs=$2; cells=$3; mkdir -p $out
export JAVA_HOME=/usr/lib/jvm/temurin-25-jdk-amd64
for i in $(seq 1 $pairs); do
  for b in A B; do
    root=/tmp/base; [[ $b == B ]] && root=/work/main
    echo "== $b$i $(date +%T) load $(cut -d' ' -f1-3 /proc/loadavg)"
    $root/scripts/accuracy --grid tail --cells "$cells" --skip-jdk --server-kernel-stamps --keep --out-dir $out/$b$i --json $out/$b$i.json > $out/$b$i.log 2>&1 || echo "$b$i failed"
  done
done
