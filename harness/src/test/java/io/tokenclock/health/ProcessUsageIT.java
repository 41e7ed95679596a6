package io.tokenclock.health;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.BufferedReader;
import java.io.File;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The process CPU figure of {@code record.json} ({@link ProcessUsage#cpuNow}) against an outside measurement: a child
 * JVM burns CPU on threads that then end, prints its own figure and waits; this test, another process, reads the
 * child's CPU time through the JDK's process API at that moment. The two must agree to a few scheduler ticks. A
 * figure summed over live threads, or one that forgot system time, misses most of it.
 */
@Tag("slow") // samples a child JVM's CPU time over time: skipped by -Pfast
final class ProcessUsageIT
{
    /** Ticks of 10 ms each side may round; the child runs interpreted (no JIT threads busy between the readings). */
    private static final long TOLERANCE_NS = 30_000_000L;

    @Test
    @Timeout(60)
    void shouldAgreeWithTheChildProcessCpuTimeAsSeenFromOutside() throws Exception
    {
        assumeTrue(Files.isReadable(Path.of("/proc/self/stat")), "Linux only");
        final Process child = new ProcessBuilder(List.of(
            Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-XX:+UseSerialGC", "-Xint",
            "-cp", "target/test-classes" + File.pathSeparator + "target/classes",
            Probe.class.getName())).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        try (BufferedReader in = new BufferedReader(new InputStreamReader(child.getInputStream(),
            StandardCharsets.US_ASCII)))
        {
            final String line = in.readLine();
            final Duration outside = child.info().totalCpuDuration().orElseThrow();
            final String[] f = line.split(" ");
            final long userNs = Long.parseLong(f[0]);
            final long systemNs = Long.parseLong(f[1]);
            final long burnedNs = Long.parseLong(f[2]);
            final long insideNs = userNs + systemNs;
            assertTrue(burnedNs > 400_000_000L, "the ended threads burned " + burnedNs / 1e6 + " ms");
            assertTrue(insideNs >= burnedNs - 20_000_000L, "the figure includes threads that ended: " +
                insideNs / 1e6 + " ms against " + burnedNs / 1e6 + " ms burned");
            assertTrue(Math.abs(outside.toNanos() - insideNs) <= TOLERANCE_NS, "inside " + insideNs / 1e6 +
                " ms (user " + userNs / 1e6 + ", system " + systemNs / 1e6 + "), outside " + outside.toMillis() +
                " ms");
            assertTrue(systemNs > 0, "system time is counted apart (a JVM start alone takes some)");
        }
        finally
        {
            child.getOutputStream().close();
            if (!child.waitFor(10, TimeUnit.SECONDS))
            {
                child.destroyForcibly();
            }
        }
    }

    /** The child: burns CPU on two threads that end, prints "user system burned" in ns, waits for stdin to close. */
    public static final class Probe
    {
        public static void main(final String[] args) throws Exception
        {
            final long[] burned = new long[3];
            final Thread[] threads = new Thread[3];
            for (int t = 0; t < 2; t++)
            {
                final int index = t;
                threads[t] = new Thread(() -> burned[index] = burn(250_000_000L));
                threads[t].start();
            }
            // System time is sampled per scheduler tick: a run that happens to spend few ticks in the kernel could
            // show none, so one thread makes sure of some with a stream of tiny writes.
            threads[2] = new Thread(() -> burned[2] = burnSystem(30_000_000L));
            threads[2].start();
            for (final Thread thread : threads)
            {
                thread.join();
            }
            final ProcessUsage.CpuTimes cpu = ProcessUsage.cpuNow();
            System.out.println(cpu.userNs() + " " + cpu.systemNs() + " " + (burned[0] + burned[1] + burned[2]));
            System.out.flush();
            while (System.in.read() >= 0)
            {
                Thread.onSpinWait();
            }
        }

        /** Writes single bytes to /dev/null until the thread has spent {@code systemNs} in the kernel, or 5 s. */
        private static long burnSystem(final long systemNs)
        {
            final ThreadMXBean mx = ManagementFactory.getThreadMXBean();
            final long start = mx.getCurrentThreadCpuTime();
            final long startUser = mx.getCurrentThreadUserTime();
            final long deadlineNs = System.nanoTime() + 5_000_000_000L;
            try (FileOutputStream devNull = new FileOutputStream("/dev/null"))
            {
                while ((mx.getCurrentThreadCpuTime() - start) - (mx.getCurrentThreadUserTime() - startUser) <
                    systemNs && System.nanoTime() < deadlineNs)
                {
                    for (int i = 0; i < 1_000; i++)
                    {
                        devNull.write(i);
                    }
                }
            }
            catch (final IOException ex)
            {
                throw new UncheckedIOException(ex);
            }
            return mx.getCurrentThreadCpuTime() - start;
        }

        private static long burn(final long cpuNs)
        {
            final var mx = ManagementFactory.getThreadMXBean();
            final long start = mx.getCurrentThreadCpuTime();
            long x = 1;
            while (mx.getCurrentThreadCpuTime() - start < cpuNs)
            {
                for (int i = 0; i < 10_000; i++)
                {
                    x = x * 31 + i;
                }
            }
            return mx.getCurrentThreadCpuTime() - start + (x == 42 ? 1 : 0);
        }
    }
}
