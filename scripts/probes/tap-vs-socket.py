#!/usr/bin/env python3
# scripts/probes/tap-vs-socket.py [N]: on loopback, the stamp a packet socket (the tap's kind) gives each incoming
# segment against the stamp the receiving socket gives the same bytes: UDP datagrams and TCP segments, N of each (200
# by default), one at a time, 2 ms apart. Needs root (CAP_NET_RAW) and Python 3. It made
# results/kernel-stamps/tap-vs-socket-2026-12-03 (`scripts/probes/tap-vs-socket.py 300`, twice; docs/ACCURACY.md,
# "A packet tap for the stalls").
import socket, struct, time, select, sys
N = int(sys.argv[1]) if len(sys.argv) > 1 else 200
SO_TIMESTAMPNS = 35; SO_TIMESTAMPING = 37; SCM_TIMESTAMPING = 37
ETH_P_ALL = 3
def tap():
    s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, socket.htons(ETH_P_ALL))
    s.bind(("lo", 0)); s.setsockopt(socket.SOL_SOCKET, SO_TIMESTAMPNS, 1); s.setblocking(False)
    return s
def ns_of(anc, want):
    for lvl, typ, data in anc:
        if lvl == socket.SOL_SOCKET and typ == want:
            sec, nsec = struct.unpack("qq", data[:16]); return sec * 10**9 + nsec
    return None
def tap_stamp(t, port, proto):
    # the incoming copy (PACKET_HOST = 0) of the segment for `port` carrying data
    deadline = time.time() + 1
    while time.time() < deadline:
        try:
            data, anc, flags, addr = t.recvmsg(65536, 1024)
        except BlockingIOError:
            select.select([t], [], [], 0.05); continue
        if addr[2] != 0 or len(data) < 34: continue   # outgoing copies are PACKET_OUTGOING (4)
        ihl = (data[14] & 15) * 4; l4 = 14 + ihl
        if data[23] != proto: continue
        dport = struct.unpack("!H", data[l4 + 2:l4 + 4])[0]
        if dport != port: continue
        if proto == 6:
            doff = (data[l4 + 12] >> 4) * 4
            if len(data) <= l4 + doff: continue      # a bare ACK
        return ns_of(anc, SO_TIMESTAMPNS)
    return None
def run(proto):
    t = tap(); diffs = []
    if proto == 17:
        r = socket.socket(socket.AF_INET, socket.SOCK_DGRAM); r.bind(("127.0.0.1", 0))
        r.setsockopt(socket.SOL_SOCKET, SO_TIMESTAMPNS, 1); port = r.getsockname()[1]
        w = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        send = lambda b: w.sendto(b, ("127.0.0.1", port)); want = SO_TIMESTAMPNS
    else:
        l = socket.socket(); l.bind(("127.0.0.1", 0)); l.listen(1); port = l.getsockname()[1]
        w = socket.create_connection(("127.0.0.1", port)); w.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        r, _ = l.accept()
        r.setsockopt(socket.SOL_SOCKET, SO_TIMESTAMPING, (1 << 3) | (1 << 4))  # RX_SOFTWARE | SOFTWARE
        send = w.sendall; want = SCM_TIMESTAMPING
        time.sleep(0.05)
        while True:                                    # the handshake's copies
            try: t.recv(65536)
            except BlockingIOError: break
    for i in range(N):
        send(b"x" * 100)
        data, anc, _, _ = r.recvmsg(4096, 1024)
        sock = ns_of(anc, want); tp = tap_stamp(t, port, proto)
        if sock and tp: diffs.append(sock - tp)
        time.sleep(0.002)
    diffs.sort()
    name = "UDP" if proto == 17 else "TCP"
    print(f"{name}: {len(diffs)} of {N} pairs; socket stamp - tap stamp, ns: min {diffs[0]} median "
          f"{diffs[len(diffs)//2]} p99 {diffs[int(len(diffs)*0.99)]} max {diffs[-1]}; equal {sum(1 for d in diffs if d == 0)}")
run(17); run(6)
