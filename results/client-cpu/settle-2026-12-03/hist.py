"""hist.py NAME PATTERN...: every compilation and deoptimisation of the methods matching a PATTERN."""
import sys
import jfrlib

w, evs = jfrlib.events(sys.argv[1])
print("window", w["duration_s"])
for t, kind, v in evs:
    m = jfrlib.method(v)
    if not any(p in m for p in sys.argv[2:]):
        continue
    if kind == "jdk.Compilation":
        print("%8.2f C t%d %7.1f ms osr=%s size=%s inl=%s %s" % (t, v["compileLevel"], jfrlib.ms(v), v.get("isOsr"),
                                                             v.get("codeSize"), v.get("inlinedBytes"), m))
    else:
        print("%8.2f D %s %s %s" % (t, v.get("reason"), v.get("action"), m))
