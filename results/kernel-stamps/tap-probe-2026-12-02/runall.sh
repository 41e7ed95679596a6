#!/bin/sh
# runs every measurement in RESULTS.md; each run takes 2.5-5 s
cd "$(dirname "$0")"
gcc -O2 -Wall -o tap tap.c -lpthread
run() { name=$1; shift; nstat -n >/dev/null; timeout 60 ./tap "$@" > $name.txt; echo "nstat (system-wide deltas):" >> $name.txt; nstat TcpRetransSegs TcpExtTCPOFOQueue TcpExtTCPRcvCoalesce TcpExtTCPBacklogCoalesce >> $name.txt; echo "== $name: ./tap $*"; cat $name.txt; echo; }
run A-1conn
run A2-1conn-B16 -B 16
run B-100conn-B64 -n 100 -i 5000 -m 400 -B 64
run C-100conn-B64-buf8M -n 100 -i 5000 -m 400 -B 64 -b 8388608
run D-100conn-B64-H-buf8M -n 100 -i 5000 -m 400 -B 64 -H -b 8388608
run E-100conn-B1-buf8M -n 100 -i 5000 -m 400 -B 1 -b 8388608
