#!/usr/bin/env bash
# tokenclock against llama.cpp's own server (tools/server, d32676d77, built by the lead at
# /work/ext/llama.cpp/build/bin) serving the model fixtures.engine generates (GeneratedModel, size 256x4, 7.4 MB):
# one run per API, chat first as the baseline, each against the same server, closed loop, concurrency 1.
# Usage: run.sh MODEL.gguf TOKENCLOCK_JAR OUT_DIR
set -euo pipefail
model=$1; jar=$2; out=$3
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../../.." && pwd)"
java=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java
bin=/work/ext/llama.cpp/build/bin
port=$((30000 + RANDOM % 10000))
mkdir -p "$out"
uptime > "$out/uptime-start.txt"
LD_LIBRARY_PATH="$bin" "$bin/llama-server" -m "$model" --host 127.0.0.1 --port "$port" -np 1 -t 1 -c 4096 \
  --metrics --no-webui > "$out/llama-server.log" 2>&1 &
server=$!
trap 'kill "$server" 2>/dev/null || true' EXIT
for i in $(seq 100); do curl -sf "http://127.0.0.1:$port/health" >/dev/null 2>&1 && break; sleep 0.2; done
for api in chat responses messages; do
  "$java" @"$root/jvm.flags" -Dtokenclock.tty=0 -jar "$jar" run --url "http://127.0.0.1:$port/v1" --endpoint "$api" \
    --model tokenclock-256x4.gguf --concurrency 1 --requests 20 --warmup-requests 3 --max-tokens 32 --ignore-eos \
    --input-tokens 32 --no-progress --no-report --output-dir "$out/$api" > "$out/$api.console.txt" 2>&1
  echo "=== end of $api run" >> "$out/llama-server.log"
done
uptime > "$out/uptime-end.txt"
