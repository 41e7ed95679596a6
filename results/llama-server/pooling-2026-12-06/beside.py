#!/usr/bin/env python3
"""The engine's own timings beside the client's, for embeddings and rerank against llama.cpp's server.

llama.cpp's server answers an embeddings or rerank request with no timings, so the engine's side comes from its log:
each input is one task, `launch_slot_: ... | task N | processing task` when a slot takes it and `release: ... | task N
| stop processing` when its pooled output is done (timestamps M.SS.mmm.uuu since the server started). With one slot
and a closed loop of concurrency 1, the tasks run one after another in request order, so the last INPUTS x MEASURED
tasks are the measured requests' inputs, in the order of requests.jsonl's sends. A request's engine span is its first
task's launch to its last task's release. The client's e2e must never be shorter than it (the engine's work lies
inside the request's send and its answer's last byte), but the release is no bound: the server logs it after
handing the result to its HTTP thread (server-context.cpp: send_embedding / send_rerank, then slot.release()), so on a
loaded machine the answer can leave before the release is logged. The table gives the difference both ways.

usage: beside.py DIR... (each DIR holds server.log and CLIENT/requests.jsonl for each client run)
"""
import json
import re
import statistics
import sys
from pathlib import Path

STAMP = r"(\d+)\.(\d+)\.(\d+)\.(\d+)"
LAUNCH = re.compile(STAMP + r" I slot launch_slot_: id +\d+ \| task (\d+) \| processing task")
RELEASE = re.compile(STAMP + r" I slot +release: id +\d+ \| task (\d+) \| stop processing")


def us(m):
    mi, s, ms, u = (int(m.group(i)) for i in range(1, 5))
    return ((mi * 60 + s) * 1000 + ms) * 1000 + u


def tasks(log):
    launch, spans = {}, []
    for line in log.read_text(errors="replace").splitlines():
        m = LAUNCH.match(line)
        if m:
            launch[m.group(5)] = us(m)
            continue
        m = RELEASE.match(line)
        if m and m.group(5) in launch:
            spans.append((launch.pop(m.group(5)), us(m)))
    return spans


def p50(xs):
    return statistics.median(xs) if xs else float("nan")


def main(dirs):
    print("| API | client | measured ok | inputs/request | e2e p50 ms | engine span p50 ms | e2e - engine p50 ms | "
          "e2e - engine min / max ms | usage prompt tokens p50 |")
    print("|---|---|---|---|---|---|---|---|---|")
    for d in map(Path, dirs):
        spans = tasks(d / "server.log")
        runs = sorted(p.parent for p in d.glob("*/requests.jsonl"))
        # the clients ran one after the other against one server: each run's tasks follow the last run's
        offset = 0
        per_run = len(spans) // max(1, len(runs))
        for run in runs:
            own = spans[offset:offset + per_run]
            offset += per_run
            lines = [json.loads(l) for l in (run / "requests.jsonl").read_text().splitlines()]
            measured = sorted((l for l in lines if l["phase"] == "measure"), key=lambda l: l["sent_ns"])
            n = measured[0]["inputs"]
            mine = own[len(own) - n * len(measured):]
            e2e, engine, gap, tokens = [], [], [], []
            for i, l in enumerate(measured):
                group = mine[i * n:(i + 1) * n]
                span_ms = (group[-1][1] - group[0][0]) / 1000.0
                e2e.append(l["e2e_ms"])
                engine.append(span_ms)
                gap.append(l["e2e_ms"] - span_ms)
                tokens.append(l["usage_prompt_tokens"])
            api = measured[0]["api"]
            ok = sum(1 for l in measured if l["status"] == "ok")
            print(f"| {api} | {run.name} | {ok} | {n} | {p50(e2e):.2f} | {p50(engine):.2f} | {p50(gap):.2f} | "
                  f"{min(gap):.2f} / {max(gap):.2f} | {p50(tokens):.0f} |")


if __name__ == "__main__":
    main(sys.argv[1:])
