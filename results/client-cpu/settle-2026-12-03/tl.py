import json,subprocess,sys,datetime,collections
name=sys.argv[1]; lo=float(sys.argv[2]); d="/tmp/jx"
r=json.load(open(f"{d}/{name}/record.json")); w=r["report"]["window"]
out=subprocess.run(["/usr/lib/jvm/temurin-25-jdk-amd64/bin/jfr","print","--json","--events","jdk.Compilation",f"{d}/{name}.jfr"],capture_output=True,text=True).stdout
off=int(open(f"{d}/{name}.offset").read())
def ns(iso):
    a,f=iso.rstrip("Z").split(".")
    t=datetime.datetime.fromisoformat(a).replace(tzinfo=datetime.timezone.utc)
    return int(t.timestamp())*10**9+int(f.ljust(9,"0")[:9])-off
b=collections.defaultdict(list)
for ev in json.loads(out)["recording"]["events"]:
    v=ev["values"]; t=(ns(v["startTime"])-w["start_ns"])/1e9
    if lo<=t<0:
        m=v["method"]["type"]["name"].split("/")[-1]+"::"+v["method"]["name"]
        b[round(t*2)/2].append((float(v["duration"][2:-1])*1e3,v["compileLevel"],m))
for k in sorted(b):
    xs=sorted(b[k],reverse=True)
    print("%6.1f %6.0f ms %3d  %s"%(k,sum(x[0] for x in xs),len(xs),"; ".join("%s t%d %.0f"%(x[2],x[1],x[0]) for x in xs[:3])))
