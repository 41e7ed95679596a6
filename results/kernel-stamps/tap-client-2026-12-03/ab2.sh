#!/usr/bin/env bash
# The tap with PACKET_IGNORE_OUTGOING against the socket's own stamps, interleaved T S T S at 16 x 8 and 256 x 20 ms
# (no peer). From the repository root, as root: results/kernel-stamps/tap-client-2026-12-03/ab2.sh
set -euo pipefail
o=results/kernel-stamps/tap-client-2026-12-03/ignore-outgoing
mkdir -p "$o/ab"
for i in 1 2; do
  for mode in tap socket; do
    args=(); [[ $mode == tap ]] && args=(--tc-args "--packet-tap lo")
    scripts/accuracy --grid tail --cells "16x8,256x20" --skip-jdk --skip-peer --server-kernel-stamps \
      "${args[@]}" --out-dir "$o/ab/$mode-$i" --json "$o/ab/$mode-$i.json" > "$o/ab/$mode-$i.txt" 2>&1
  done
done
