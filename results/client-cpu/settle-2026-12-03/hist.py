import json,subprocess,sys,datetime
# hist.py NAME PATTERN...: every compilation/deopt of methods matching PATTERN, time relative to the window start
name=sys.argv[1]; pats=sys.argv[2:]; d="/tmp/jx"
r=json.load(open(f"{d}/{name}/record.json")); w=r["report"]["window"]
out=subprocess.run(["/usr/lib/jvm/temurin-25-jdk-amd64/bin/jfr","print","--json","--events","jdk.Compilation,jdk.Deoptimization",f"{d}/{name}.jfr"],capture_output=True,text=True).stdout
off=int(open(f"{d}/{name}.offset").read())
def ns(iso):
    a,f=iso.rstrip("Z").split(".")
    t=datetime.datetime.fromisoformat(a).replace(tzinfo=datetime.timezone.utc)
    return int(t.timestamp())*10**9+int(f.ljust(9,"0")[:9])-off
print("window", w["duration_s"])
for ev in json.loads(out)["recording"]["events"]:
    v=ev["values"]; t=(ns(v["startTime"])-w["start_ns"])/1e9
    m=v["method"]["type"]["name"].split("/")[-1]+"::"+v["method"]["name"]
    if not any(p in m for p in pats): continue
    if ev["type"]=="jdk.Compilation":
        print("%8.2f C t%d %7.1f ms osr=%s size=%s inl=%s %s"%(t,v["compileLevel"],float(v["duration"][2:-1])*1e3,v.get("isOsr"),v.get("codeSize"),v.get("inlinedBytes"),m))
    else:
        print("%8.2f D %s %s %s"%(t,v.get("reason"),v.get("action"),m))
