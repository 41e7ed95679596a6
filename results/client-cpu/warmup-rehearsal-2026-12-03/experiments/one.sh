#!/usr/bin/env bash
# one.sh NAME [extra run args]: one 16-stream run against a running sim at $URL, AOT off, prints the JIT figures
set -euo pipefail
name=$1; shift
cd /work/main
export JAVA_HOME=/usr/lib/jvm/temurin-25-jdk-amd64
TOKENCLOCK_AOT=${AOT:-off} TOKENCLOCK_JAVA_OPTS="-Dtokenclock.warmup.trace=true ${JOPTS:-}" ./tokenclock run --url "$URL" --concurrency ${C:-16} --requests ${N:-400} --max-tokens 200 --no-progress --output-dir /tmp/jx/$name "$@" > /tmp/jx/$name.log 2>&1 || { tail /tmp/jx/$name.log; exit 1; }
grep "warm-up round" /tmp/jx/$name.log | tr '\n' ';'; echo
python3 - /tmp/jx/$name/record.json "$name" <<'PY'
import json,sys
r=json.load(open(sys.argv[1])); m=r["measurement"]; rd=m["readiness"]
g=m["client_cpu_by_thread"]["groups"]
print(sys.argv[2], "jit_ms", m["client_jit"]["compilation_ms_during_load"], "jit_cpu_ms", round(g.get("jit",{}).get("cpu_ms",0)),
  "warmup_s", round(rd["self_warmup_s"],1), "warmup_jit", rd["self_warmup_jit_ms"], "window", r["report"]["window"]["duration_s"])
PY
