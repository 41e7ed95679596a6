#!/usr/bin/env python3
"""The engine's own timings beside tokenclock's, per API, from one run.sh output directory.

chat and responses: the engine's timings come in the stream (llama.cpp's `timings`), as requests.jsonl's
engine_prompt_ms / engine_decode_ms / engine_predicted_tokens. messages: the stream carries none, so they are read from
the server's log (print_timing: "prompt eval time", "eval time"), whose tasks are in the order the requests reached it:
per run, the preflight (4 tokens), then the warm-up and measured requests that reached it (32 tokens each).
Usage: beside.py OUT_DIR. Two layouts: run.sh's (OUT/API/requests.jsonl, one server log OUT/llama-server.log for the
three runs) and scripts/llama-server's, one invocation per API (OUT/API/kernel/requests.jsonl, OUT/API/server.log).
"""
import json
import os
import re
import statistics
import sys

out = sys.argv[1]
prompt_re = re.compile(r"prompt eval time =\s+([\d.]+) ms /\s+(\d+) tokens")
eval_re = re.compile(r"\beval time =\s+([\d.]+) ms /\s+(\d+) tokens")
per_api = os.path.isdir(f"{out}/chat/kernel")


def read_tasks(log):
    tasks = []
    pending = None
    for line in open(log, encoding="utf-8", errors="replace"):
        m = prompt_re.search(line)
        if m:
            pending = (float(m.group(1)), int(m.group(2)))
            continue
        m = eval_re.search(line)
        if m and "prompt eval" not in line and pending:
            tasks.append({"prompt_ms": pending[0], "prompt_n": pending[1], "eval_ms": float(m.group(1)),
                          "eval_n": int(m.group(2))})
            pending = None
    return tasks


def lines(api):
    path = f"{out}/{api}/kernel/requests.jsonl" if per_api else f"{out}/{api}/requests.jsonl"
    return [json.loads(l) for l in open(path)]


def p50(xs):
    return statistics.median(xs) if xs else float("nan")


# each run's tasks: after its preflight (4 output tokens), the warm-up and measured requests that reached the server
runs = {}
if per_api:
    for api in ["chat", "responses", "messages"]:
        tasks = read_tasks(f"{out}/{api}/server.log")
        runs[api] = tasks[1:]
else:
    tasks = read_tasks(f"{out}/llama-server.log")
    starts = [i for i, t in enumerate(tasks) if t["eval_n"] == 4]
    for k, api in enumerate(["chat", "responses", "messages"]):
        runs[api] = tasks[starts[k] + 1: starts[k + 1] if k + 1 < len(starts) else len(tasks)]

print("api        ok err resends  ttft p50 | engine prompt p50 | tpot p50 | engine tpot p50 | cached p50 | "
      "client never early | engine via")
for api in ["chat", "responses", "messages"]:
    reqs = sorted(lines(api), key=lambda d: d["sent_ns"])
    ok = [d for d in reqs if d["status"] == "ok"]
    measured = [d for d in ok if d["phase"] == "measure"]
    if api == "messages":
        # the requests that reached the server, in order: every ok one (the cut ones never got there)
        for d, t in zip(ok, runs[api]):
            d["engine_prompt_ms"] = t["prompt_ms"]
            d["engine_decode_ms"] = t["eval_ms"]
            d["engine_predicted_tokens"] = t["eval_n"]
        via = "server log"
    else:
        via = "stream"
    eng_prompt = [d["engine_prompt_ms"] for d in measured]
    eng_tpot = [d["engine_decode_ms"] / (d["engine_predicted_tokens"] - 1) for d in measured]
    never_early = all(d["ttft_ms"] >= d["engine_prompt_ms"] - 0.002 for d in measured)
    cached = [d["cached_tokens"] for d in measured if d.get("cached_tokens") is not None]
    print(f"{api:10} {len(measured):2d} {sum(1 for d in reqs if d['status'] != 'ok'):3d} "
          f"{sum(d.get('stale_connection_resends', 0) for d in reqs):7d} "
          f"{p50([d['ttft_ms'] for d in measured]):9.3f} | {p50(eng_prompt):17.3f} | "
          f"{p50([d['tpot_ms'] for d in measured]):8.3f} | {p50(eng_tpot):15.3f} | "
          f"{(str(p50(cached)) if cached else '-'):>10} | {str(never_early):18} | {via}")
