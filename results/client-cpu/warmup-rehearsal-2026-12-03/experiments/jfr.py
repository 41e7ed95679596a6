import json,subprocess,sys,collections
# jfr.py NAME: compilations and deopts in the window of /tmp/jx/NAME (JFR's clock: startTime iso; window from record)
name=sys.argv[1]; d="/tmp/jx"
r=json.load(open(f"{d}/{name}/record.json")); w=r["report"]["window"]
out=subprocess.run(["/usr/lib/jvm/temurin-25-jdk-amd64/bin/jfr","print","--json","--events","jdk.Compilation,jdk.Deoptimization",f"{d}/{name}.jfr"],capture_output=True,text=True).stdout
import datetime
off=int(open(f"{d}/{name}.offset").read())
def ns(iso):
    a,f=iso.rstrip("Z").split(".")
    t=datetime.datetime.fromisoformat(a).replace(tzinfo=datetime.timezone.utc)
    return int(t.timestamp())*10**9+int(f.ljust(9,"0")[:9])-off
rows=[];de=[]
for ev in json.loads(out)["recording"]["events"]:
    v=ev["values"]; t=(ns(v["startTime"])-w["start_ns"])/1e9
    m=v["method"]["type"]["name"]+"::"+v["method"]["name"]
    if ev["type"]=="jdk.Compilation":
        dur=float(v["duration"][2:-1])*1e3
        rows.append((t,dur,v["compileLevel"],m))
    else:
        de.append((t,v.get("reason"),v.get("action"),m,v.get("lineNumber"),v.get("compiler")))
inw=[x for x in rows if 0<=x[0]<=w["duration_s"]]
print("window compilations",len(inw),"ms %.0f"%sum(x[1] for x in inw), "excluding jfr %.0f"%sum(x[1] for x in inw if "jdk/jfr" not in x[3]))
for x in sorted(inw,key=lambda x:-x[1])[:25]: print("  %6.2f s %6.1f ms t%d %s"%x)
print("deopts in window")
for x in de:
    if 0<=x[0]<=w["duration_s"]: print("  %6.2f %s %s %s line %s %s"%x)
print("deopts before window (last 40)")
bw=[x for x in de if x[0]<0]
c=collections.Counter((x[3],x[1]) for x in bw)
for k,v in c.most_common(30): print("  ",v,k)
