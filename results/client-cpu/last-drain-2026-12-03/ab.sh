#!/usr/bin/env bash
# ab.sh OUT PAIRS: interleaved runs of the base build (/tmp/base) and this one (/work/main), AOT off, no JFR
set -uo pipefail
out=$1; pairs=$2; mkdir -p $out
export JAVA_HOME=/usr/lib/jvm/temurin-25-jdk-amd64
for i in $(seq 1 $pairs); do
  for b in A B; do
    root=/tmp/base; [[ $b == B ]] && root=/work/main
    name=$b$i; load=$(cut -d' ' -f1-3 /proc/loadavg)
    TOKENCLOCK_AOT=off $root/tokenclock run --url "$URL" --concurrency ${C:-16} --requests ${N:-400} --max-tokens 200 --no-progress --output-dir $out/$name > $out/$name.log 2>&1 || { echo "$name failed"; tail -3 $out/$name.log; continue; }
    python3 - $out/$name/record.json "$name" "$load" <<'PY'
import json,sys
r=json.load(open(sys.argv[1])); m=r["measurement"]; rd=m["readiness"]
g=m["client_cpu_by_thread"]["groups"]; cc=m["client_cost"]
print(sys.argv[2], "jit_ms %5d" % m["client_jit"]["compilation_ms_during_load"], "in_window %5s" % m["client_jit"].get("compilation_ms_in_window"), "jit_cpu_ms %5.0f" % g.get("jit",{}).get("cpu_ms",0),
  "warmup_s %4.1f" % rd["self_warmup_s"], "warmup_jit %6.0f" % rd["self_warmup_jit_ms"], "window %5.1f" % r["report"]["window"]["duration_s"],
  "cpu_total_ms %5.0f" % g.get("total_ms", sum(v.get("cpu_ms",0) for v in g.values() if isinstance(v,dict))), "load", sys.argv[3], flush=True)
PY
  done
done
