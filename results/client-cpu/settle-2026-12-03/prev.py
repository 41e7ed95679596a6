"""prev.py NAME: the window's compilations of 2 ms or more, longest first, each with its method's earlier ones."""
import collections, sys
import jfrlib

w, evs = jfrlib.events(sys.argv[1], "jdk.Compilation")
hist = collections.defaultdict(list)
for t, _, v in evs:
    hist[jfrlib.method(v, 30)].append((t, v["compileLevel"], jfrlib.ms(v), v.get("isOsr")))
rows = []
for m, h in hist.items():
    for i, (t, level, dur, osr) in enumerate(h):
        if 0 <= t <= w["duration_s"] and dur >= 2 and "jfr" not in m:
            rows.append((dur, t, level, osr, m, [(round(x[0], 1), x[1]) for x in h[:i]][-3:]))
for x in sorted(rows, reverse=True)[:30]:
    print("%6.1f ms at %5.1f s t%d osr=%s %s prev=%s" % x)
