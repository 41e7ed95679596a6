#!/usr/bin/env bash
# The packet tap against the socket's own stamps, interleaved: T S T S T S over three goal cells (no peer: this
# compares tokenclock with itself), then the 10,000 x 400 ms cell T S T S with the raw files kept. Run from the
# repository root, as root (the tap needs CAP_NET_RAW): results/kernel-stamps/tap-client-2026-12-03/ab.sh
set -euo pipefail
o=results/kernel-stamps/tap-client-2026-12-03
for i in 1 2 3; do
  for mode in tap socket; do
    args=(); [[ $mode == tap ]] && args=(--tc-args "--packet-tap lo")
    scripts/accuracy --grid tail --cells "1x8,16x8,256x20" --skip-jdk --skip-peer --server-kernel-stamps \
      "${args[@]}" --out-dir "$o/ab/$mode-$i" --json "$o/ab/$mode-$i.json" > "$o/ab/$mode-$i.txt" 2>&1
  done
done
for i in 1 2; do
  for mode in tap socket; do
    args=(); [[ $mode == tap ]] && args=(--tc-args "--packet-tap lo")
    scripts/accuracy --cells 10000x400 --seconds 8 --skip-jdk --skip-peer --server-kernel-stamps --keep \
      "${args[@]}" --out-dir "$o/s10000/$mode-$i" --json "$o/s10000/$mode-$i.json" > "$o/s10000/$mode-$i.txt" 2>&1
  done
done
