package io.tokenclock.health;

import java.io.IOException;
import java.nio.ByteOrder;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * The JVM's own safepoint counters, read passively from its performance-data memory ({@code hsperfdata}, the file
 * {@code jstat} reads): how many safepoints there were, how long all threads were stopped in them, and how long
 * reaching them took.
 * <p>
 * Why: a safepoint stops every Java thread, the stamping thread included, so chunks that arrive during one are
 * stamped late by its length. GC pauses are reported apart, but safepoints also serve deoptimisation, biased-lock
 * and class-redefinition operations, code-cache sweeps and thread dumps, which no GC notification shows. HotSpot
 * keeps the totals anyway ({@code sun.rt.safepoints}, {@code sun.rt.safepointTime},
 * {@code sun.rt.safepointSyncTime}); reading them at the edges of the measured window costs two memory reads and
 * starts nothing (no JFR, no extra thread, no JVM flag).
 * <p>
 * The file is {@code /tmp/hsperfdata_USER/PID}, mapped read-only. Its layout (HotSpot's {@code perfMemory.hpp}): a
 * prologue (magic {@code CAFEC0C0}, byte order, version, ..., entry offset at 24, entry count at 28), then entries
 * (length, name offset, vector length, type, flags, units, variability, data offset). Where it is missing (another OS,
 * {@code -XX:-UsePerfData}, {@code -XX:+PerfDisableSharedMem}) {@link #open()} returns null and the record says the
 * figure is unavailable.
 * <p>
 * Thread-safety: reads only; values may be read from any thread.
 */
public final class SafepointCounters
{
    private static final int MAGIC = 0xcafec0c0;

    private final MappedByteBuffer data;
    private final int countAt;
    private final int timeAt;
    private final int syncAt;
    private final double nsPerTick;

    private SafepointCounters(final MappedByteBuffer data, final int countAt, final int timeAt, final int syncAt,
        final double nsPerTick)
    {
        this.data = data;
        this.countAt = countAt;
        this.timeAt = timeAt;
        this.syncAt = syncAt;
        this.nsPerTick = nsPerTick;
    }

    /** One reading: safepoints so far, time stopped in them and time to reach them, ns. */
    public record Reading(long safepoints, long totalNs, long syncNs)
    {
        /** @return what happened between {@code earlier} and this reading. */
        public Reading since(final Reading earlier)
        {
            return new Reading(safepoints - earlier.safepoints, totalNs - earlier.totalNs, syncNs - earlier.syncNs);
        }
    }

    /** @return the counters of this JVM, or null where its performance-data file cannot be found or read. */
    public static SafepointCounters open()
    {
        final Path file = Path.of("/tmp", "hsperfdata_" + System.getProperty("user.name"),
            Long.toString(ProcessHandle.current().pid()));
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ))
        {
            return parse(channel.map(FileChannel.MapMode.READ_ONLY, 0, channel.size()));
        }
        catch (final IOException | RuntimeException ex)
        {
            return null;
        }
    }

    /** @return the counters found in a performance-data buffer, or null if it lacks them. */
    static SafepointCounters parse(final MappedByteBuffer buffer)
    {
        if (buffer.order(ByteOrder.BIG_ENDIAN).getInt(0) != MAGIC)
        {
            return null;
        }
        buffer.order(buffer.get(4) == 1 ? ByteOrder.LITTLE_ENDIAN : ByteOrder.BIG_ENDIAN);
        int entry = buffer.getInt(24);
        final int entries = buffer.getInt(28);
        int count = -1;
        int time = -1;
        int sync = -1;
        long frequency = -1;
        for (int i = 0; i < entries && entry > 0 && entry < buffer.capacity(); i++)
        {
            final int length = buffer.getInt(entry);
            final String name = cString(buffer, entry + buffer.getInt(entry + 4));
            final boolean scalarLong = buffer.getInt(entry + 8) == 0 && buffer.get(entry + 12) == 'J';
            final int valueAt = entry + buffer.getInt(entry + 16);
            if (scalarLong)
            {
                switch (name)
                {
                    case "sun.rt.safepoints" -> count = valueAt;
                    case "sun.rt.safepointTime" -> time = valueAt;
                    case "sun.rt.safepointSyncTime" -> sync = valueAt;
                    case "sun.os.hrt.frequency" -> frequency = buffer.getLong(valueAt);
                    default ->
                    {
                    }
                }
            }
            if (length <= 0)
            {
                break;
            }
            entry += length;
        }
        if (count < 0 || time < 0 || sync < 0 || frequency <= 0)
        {
            return null;
        }
        return new SafepointCounters(buffer, count, time, sync, 1e9 / frequency);
    }

    private static String cString(final MappedByteBuffer buffer, final int at)
    {
        int end = at;
        while (end < buffer.capacity() && buffer.get(end) != 0)
        {
            end++;
        }
        final byte[] bytes = new byte[end - at];
        buffer.get(at, bytes);
        return new String(bytes, StandardCharsets.US_ASCII);
    }

    /** @return the totals since the JVM started. */
    public Reading now()
    {
        final MappedByteBuffer d = data;
        return new Reading(d.getLong(countAt), Math.round(d.getLong(timeAt) * nsPerTick),
            Math.round(d.getLong(syncAt) * nsPerTick));
    }
}
