"""jfrlib: JFR events of one run in /tmp/jx (NAME.jfr, NAME.offset, NAME/record.json), timed from its window's start."""
import datetime, json, subprocess

JFR = "/usr/lib/jvm/temurin-25-jdk-amd64/bin/jfr"


def events(name, types="jdk.Compilation,jdk.Deoptimization", d="/tmp/jx"):
    """@return the run's window (record.json's report.window) and [(s from the window's start, type, values)]."""
    w = json.load(open(f"{d}/{name}/record.json"))["report"]["window"]
    out = subprocess.run([JFR, "print", "--json", "--events", types, f"{d}/{name}.jfr"],
                         capture_output=True, text=True).stdout
    # the wall clock's offset from the monotonic one, taken as the run started (JFR stamps on the wall clock)
    off = int(open(f"{d}/{name}.offset").read())

    def ns(iso):
        a, f = iso.rstrip("Z").split(".")
        t = datetime.datetime.fromisoformat(a).replace(tzinfo=datetime.timezone.utc)
        return int(t.timestamp()) * 10**9 + int(f.ljust(9, "0")[:9]) - off

    return w, [((ns(ev["values"]["startTime"]) - w["start_ns"]) / 1e9, ev["type"], ev["values"])
               for ev in json.loads(out)["recording"]["events"]]


def method(v, descriptor=0):
    """@return Class::method of an event's method, with the first `descriptor` characters of its descriptor."""
    m = v["method"]
    return m["type"]["name"].split("/")[-1] + "::" + m["name"] + m["descriptor"][:descriptor]


def ms(v):
    return float(v["duration"][2:-1]) * 1e3
