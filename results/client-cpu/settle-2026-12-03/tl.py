"""tl.py NAME FROM_S: compilation time by half-second from FROM_S (negative: before the window) to the window's start."""
import collections, sys
import jfrlib

w, evs = jfrlib.events(sys.argv[1], "jdk.Compilation")
b = collections.defaultdict(list)
for t, _, v in evs:
    if float(sys.argv[2]) <= t < 0:
        b[round(t * 2) / 2].append((jfrlib.ms(v), v["compileLevel"], jfrlib.method(v)))
for k in sorted(b):
    xs = sorted(b[k], reverse=True)
    print("%6.1f %6.0f ms %3d  %s" % (k, sum(x[0] for x in xs), len(xs),
                                     "; ".join("%s t%d %.0f" % (x[2], x[1], x[0]) for x in xs[:3])))
