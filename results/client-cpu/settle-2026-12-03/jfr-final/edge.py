import sys
exec(open('/tmp/jx/jfr.py').read().split('inw=')[0])
D=w["duration_s"]
straddle=[x for x in rows if x[0]<0 and x[0]+x[1]/1e3>0]
after=[x for x in rows if x[0]>D]
print(name,"straddling start: n=%d ms %.0f"%(len(straddle),sum(x[1] for x in straddle)))
for x in sorted(straddle,key=lambda x:-x[1])[:5]: print("  %6.2f s %6.1f ms t%d %s"%x)
print(" after window end: n=%d ms %.0f (non-jfr %.0f)"%(len(after),sum(x[1] for x in after),sum(x[1] for x in after if 'jdk/jfr' not in x[3])))
for x in sorted(after,key=lambda x:-x[1])[:6]: print("  %6.2f s %6.1f ms t%d %s"%x)
