"""acctable.py DIR: one line per scripts/accuracy run (DIR/A1.json, B1.json, ...): CPU per chunk (user + system) of
tokenclock and the vLLM-style peer, their ratio, the ITL error p99 against the truth server's kernel send stamp, and,
where DIR/NAME-tokenclock-measurement.json is there (an excerpt of tokenclock's record.json), the JIT inside the
window and the CPU by thread group, µs per chunk."""
import glob, json, os, sys

for d in sys.argv[1:]:
    for f in sorted(glob.glob(d + "/[AB][0-9].json")):
        name = os.path.basename(f)[:-5]
        for cell in json.load(open(f)):
            cpu, err = {}, {}
            for c in cell["clients"]:
                w = c["cpu_window"]
                cpu[c["client"]] = w["user_us_per_chunk"] + w["sys_us_per_chunk"]
                err[c["client"]] = c["kernel_send"]["itl_error_abs_ns"]["p99"] / 1e3
            peer = cpu.get("vllm-peer", float("nan"))
            line = (f"{name:3s} {cell['cell']:9s} CPU us/chunk tokenclock {cpu['tokenclock']:6.1f} peer {peer:6.1f} "
                    f"({cpu['tokenclock'] / peer:.2f}x)  ITL error p99 us tokenclock {err['tokenclock']:6.1f} "
                    f"peer {err.get('vllm-peer', float('nan')):7.1f}")
            excerpt = f"{d}/{name}-tokenclock-measurement.json"
            if os.path.exists(excerpt):
                m = json.load(open(excerpt))
                g = m["client_cpu_by_thread"]["groups"]
                line += (f"  JIT in window {m['client_jit']['compilation_ms_during_load']} ms (CPU "
                         f"{g['jit']['cpu_ms']:.0f} ms); by thread: " +
                         " ".join(f"{k} {v['us_per_chunk']:.0f}" for k, v in g.items() if v["us_per_chunk"] >= 1))
            print(line)
