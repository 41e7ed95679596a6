import sys, collections
sys.path.insert(0, "/work/main/results/client-cpu/settle-2026-12-03")
import jfrlib
name = sys.argv[1]
w, evs = jfrlib.events(name, "jdk.MethodTrace")
print("events", len(evs), "window", w["duration_s"])
bins = collections.Counter()
callers = collections.defaultdict(collections.Counter)
for t, typ, v in evs:
    b = "before-20" if t < -20 else "-20..-5" if t < -5 else "-5..0" if t < 0 else "window" if t < w["duration_s"] else "after"
    bins[b] += 1
    frames = v.get("stackTrace", {}).get("frames", []) if v.get("stackTrace") else []
    key = []
    for f in frames:
        m = f["method"]; cn = m["type"]["name"]
        if cn.startswith("java/lang/invoke") or cn.startswith("jdk/internal/reflect") or cn.startswith("java/lang/reflect"):
            continue
        key.append(cn.split("/")[-1] + "::" + m["name"] + ":" + str(f.get("lineNumber")))
        if len(key) >= 3: break
    callers[b][" < ".join(key)] += 1
print(bins)
for b in ["before-20", "-20..-5", "-5..0", "window", "after"]:
    print("==", b, bins[b])
    for k, n in callers[b].most_common(12): print(f"{n:7d} {k}")
