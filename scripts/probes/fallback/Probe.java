// scripts/probes/fallback/Probe.java: which reads of a fresh kernel-stamped connection come back without
// SCM_TIMESTAMPING (results/kernel-stamps/fallback-probe; docs/ACCURACY.md, "Reads without a stamp, and why"). Modes:
// gap N MS, keepergap N MS, none N, keeper N MS (that folder's README). From the repository root, after a build:
//   javac -cp kernel/target/classes:harness/target/classes -d /tmp/probe scripts/probes/fallback/Probe.java
//   java @jvm.flags -cp kernel/target/classes:harness/target/classes:/tmp/probe Probe gap 3 300
import io.tokenclock.transport.kernel.*;
import java.io.*;
import java.net.*;
import java.util.*;
import java.util.concurrent.locks.LockSupport;

/** Which reads of a fresh kernel-stamped connection lack SCM_TIMESTAMPING: by read index, by phase. */
public class Probe {
    static final int EVENTS = 30;
    public static void main(String[] a) throws Exception {
        ServerSocket ss = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread srv = new Thread(() -> {
            try {
                while (true) {
                    Socket s = ss.accept(); s.setTcpNoDelay(true);
                    OutputStream o = s.getOutputStream();
                    for (int i = 0; i < EVENTS; i++) { o.write(("data: " + i + " xxxxxxxxxxxxxxxxxxxxxxxx\n\n").getBytes()); o.flush(); Thread.sleep(2); }
                    s.close();
                }
            } catch (Exception e) { }
        });
        srv.setDaemon(true); srv.start();
        String mode = a[0];
        int conns = Integer.parseInt(a[1]);
        System.out.println("probe: " + KernelStamps.unavailableReason());
        StampedSocket keeper = null;
        if (mode.contains("keeper")) {
            keeper = StampedSocket.connect(InetAddress.getLoopbackAddress(), ss.getLocalPort(), true);
            Thread.sleep(Long.parseLong(a[2]));
        }
        for (int c = 0; c < conns; c++) {
            StampedSocket s = StampedSocket.connect(InetAddress.getLoopbackAddress(), ss.getLocalPort(), true);
            StringBuilder line = new StringBuilder();
            int reads = 0, missing = 0, firstStamped = -1; long t0 = System.nanoTime();
            List<String> miss = new ArrayList<>();
            while (true) {
                int n = s.readEvent();
                if (n == -1) { LockSupport.parkNanos(50_000); if (System.nanoTime() - t0 > 5_000_000_000L) break; continue; }
                if (n <= 0) break;
                reads++;
                if (s.lastStampNs() < 0) { missing++; miss.add("#" + reads + "(" + n + "B," + (System.nanoTime() - t0) / 1000 + "us," + ControlMessages.describe(s.lastStampNs()) + ")"); }
                else if (firstStamped < 0) firstStamped = reads;
            }
            System.out.println("conn " + c + ": reads " + reads + ", missing " + missing + ", first stamped read #" + firstStamped + " " + miss);
            s.close();
            if (mode.contains("gap")) Thread.sleep(Long.parseLong(a[2]));
        }
    }
}
