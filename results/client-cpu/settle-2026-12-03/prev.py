import json,subprocess,sys,datetime,collections
name=sys.argv[1]; d="/tmp/jx"
r=json.load(open(f"{d}/{name}/record.json")); w=r["report"]["window"]
out=subprocess.run(["/usr/lib/jvm/temurin-25-jdk-amd64/bin/jfr","print","--json","--events","jdk.Compilation",f"{d}/{name}.jfr"],capture_output=True,text=True).stdout
off=int(open(f"{d}/{name}.offset").read())
def ns(iso):
    a,f=iso.rstrip("Z").split(".")
    t=datetime.datetime.fromisoformat(a).replace(tzinfo=datetime.timezone.utc)
    return int(t.timestamp())*10**9+int(f.ljust(9,"0")[:9])-off
hist=collections.defaultdict(list)
for ev in json.loads(out)["recording"]["events"]:
    v=ev["values"]; t=(ns(v["startTime"])-w["start_ns"])/1e9
    m=v["method"]["type"]["name"].split("/")[-1]+"::"+v["method"]["name"]+v["method"]["descriptor"][:30]
    hist[m].append((t,v["compileLevel"],float(v["duration"][2:-1])*1e3,v.get("isOsr")))
rows=[]
for m,h in hist.items():
    for i,(t,l,dur,osr) in enumerate(h):
        if 0<=t<=w["duration_s"] and dur>=2 and "jfr" not in m:
            before=[(round(x[0],1),x[1]) for x in h[:i]]
            rows.append((dur,t,l,osr,m,before[-3:]))
for x in sorted(rows,reverse=True)[:30]: print("%6.1f ms at %5.1f s t%d osr=%s %s prev=%s"%x)
