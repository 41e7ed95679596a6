#!/usr/bin/env bash
# jrun.sh NAME ROOT: one 16-stream run of the build at ROOT against $URL, AOT off, with JFR compilations/deopts
set -uo pipefail
name=$1; root=$2; shift 2
export JAVA_HOME=/usr/lib/jvm/temurin-25-jdk-amd64
python3 -c 'import time; print(time.time_ns() - time.monotonic_ns())' > /tmp/jx/$name.offset
TOKENCLOCK_AOT=off TOKENCLOCK_JAVA_OPTS="-XX:StartFlightRecording=filename=/tmp/jx/$name.jfr,settings=/tmp/jx/comp.jfc ${JOPTS:-}" $root/tokenclock run --url "$URL" --concurrency ${C:-16} --requests ${N:-400} --max-tokens 200 --no-progress --output-dir /tmp/jx/$name "$@" > /tmp/jx/$name.log 2>&1 || { tail -3 /tmp/jx/$name.log; exit 1; }
python3 - /tmp/jx/$name/record.json "$name" <<'PY'
import json,sys
r=json.load(open(sys.argv[1])); m=r["measurement"]; rd=m["readiness"]
g=m["client_cpu_by_thread"]["groups"]
print(sys.argv[2], "jit_ms", m["client_jit"]["compilation_ms_during_load"], "jit_cpu_ms", round(g.get("jit",{}).get("cpu_ms",0)),
  "warmup_s", round(rd["self_warmup_s"],1), "warmup_jit", rd["self_warmup_jit_ms"], "requests", rd["self_warmup_requests"], "window", r["report"]["window"]["duration_s"])
PY
python3 /tmp/jx/prev.py $name | head -25
