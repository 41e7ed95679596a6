#!/bin/bash
cd /work/main
export JAVA_HOME=/usr/lib/jvm/temurin-25-jdk-amd64
for rep in 1 2; do
  for v in 1000 default; do
    args=""; [[ $v != default ]] && args="--hiccup-interval-us $v"
    echo "=== rep $rep interval $v $(date +%T) load $(cut -d' ' -f1-3 /proc/loadavg)"
    scripts/accuracy --cells 1x5,16x8 --seconds 4 --skip-jdk --server-kernel-stamps --out-dir /tmp/abh/$rep-$v ${args:+--tc-args "$args"} 2>&1 | sed -n '/^cell /,$p'
  done
done
echo "=== done $(date +%T)"
