package io.tokenclock.runner;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * The open-files limit against the connections a run will hold, checked before anything is sent.
 * <p>
 * Why: every connection is a file descriptor. A run planned for more connections than {@code ulimit -n} allows used
 * to fail thousands of requests with "Unable to create Channel" and still exit 0. The JVM already raises its soft
 * limit to the hard one at start ({@code -XX:+MaxFDLimit}, the default on Linux); where it did not, the soft limit is
 * raised here with util-linux {@code prlimit}. If the hard limit itself is too low, the run is refused with one line
 * saying what to raise.
 * <p>
 * Linux only ({@code /proc/self/limits}); elsewhere the check is skipped. Cold path, once per run.
 */
final class DescriptorLimit
{
    /** Descriptors the JVM and the harness hold besides connections: jars, epoll, pipes, the result files. */
    static final int RESERVED = 256;
    private static final Path LIMITS = Path.of("/proc/self/limits");

    private DescriptorLimit()
    {
    }

    /**
     * @param connections the most connections the run may hold at once.
     * @param why         how an open loop's connections were sized, for the line; null for a cap the user gave.
     * @throws IllegalArgumentException when the limit cannot be raised far enough (exit 2).
     */
    static void check(final int connections, final String why)
    {
        final long needed = (long)connections + RESERVED;
        long[] limits = read();
        if (limits == null || limits[0] >= needed)
        {
            return;
        }
        if (limits[1] >= needed)
        {
            raiseSoftToHard(limits[1]);
            limits = read();
            if (limits != null && limits[0] >= needed)
            {
                return;
            }
        }
        throw new IllegalArgumentException(String.format(Locale.ROOT, "this run may hold %d connections%s, " +
            "but the open-files limit is %d (ulimit -n; hard limit %d): raise it to at least %d, or %s",
            connections, why == null ? "" : " (" + why + ")", limits == null ? -1 : limits[0],
            limits == null ? -1 : limits[1], needed, why == null ? "lower --concurrency / --max-concurrency" :
                "set --max-concurrency"));
    }

    /** @return {soft, hard} from /proc/self/limits ("unlimited" as Long.MAX_VALUE), or null where unreadable. */
    static long[] read()
    {
        try
        {
            for (final String line : Files.readAllLines(LIMITS))
            {
                if (line.startsWith("Max open files"))
                {
                    final String[] f = line.substring("Max open files".length()).trim().split("\\s+");
                    return new long[] {parse(f[0]), parse(f[1])};
                }
            }
        }
        catch (final IOException | RuntimeException ex)
        {
            return null;
        }
        return null;
    }

    private static long parse(final String value)
    {
        return "unlimited".equals(value) ? Long.MAX_VALUE : Long.parseLong(value);
    }

    private static void raiseSoftToHard(final long hard)
    {
        try
        {
            final Process p = new ProcessBuilder(List.of("prlimit", "--pid", Long.toString(ProcessHandle.current()
                .pid()), "--nofile=" + hard + ":" + hard)).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            if (!p.waitFor(5, TimeUnit.SECONDS))
            {
                p.destroyForcibly();
            }
        }
        catch (final IOException ex)
        {
            // no prlimit: the check that follows says what to do
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
        }
    }
}
