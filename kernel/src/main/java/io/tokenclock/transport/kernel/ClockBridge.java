package io.tokenclock.transport.kernel;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * Converts the kernel's receive stamps ({@code CLOCK_REALTIME}) to the run's clock ({@code CLOCK_MONOTONIC}, the
 * clock of {@code System.nanoTime()}) with an offset sampled beside each read: realtime, monotonic, realtime, and the
 * offset from the midpoint of the two realtime readings. A stamp the kernel took a few µs earlier converts with the
 * offset of now; that is exact unless the realtime clock stepped in between, which is why each sample is compared
 * with the last: a move of more than {@code stepNs} is counted as a step (NTP slews move it by ppm, far less).
 * <p>
 * A sample is used only when its two realtime readings are close ({@link #MAX_SPREAD_NS}): a thread preempted
 * between them (a loaded machine) would put half the preemption into the offset, and stamps converted with it would
 * move by as much, even backwards. Such a sample keeps the previous offset (the first sample is always taken).
 * <p>
 * Records the offsets' range for the record. One instance per I/O thread; not thread-safe.
 */
public final class ClockBridge
{
    /** The two clocks, so that tests can drive a fake pair. */
    public interface Clocks
    {
        /** @return {@code CLOCK_REALTIME}, ns. */
        long realtimeNs();

        /** @return {@code CLOCK_MONOTONIC}, ns: the run's clock. */
        long monotonicNs();
    }

    /** An offset move larger than this between two samples is a step of the realtime clock (NTP slews stay below). */
    public static final long STEP_NS = 1_000_000;

    /** The widest gap between the two realtime readings of a sample that is used (a few clock reads take ~100 ns). */
    public static final long MAX_SPREAD_NS = 10_000;

    private final Clocks clocks;
    private long loose;
    private final long stepNs;
    private long offsetNs;
    private long minOffsetNs = Long.MAX_VALUE;
    private long maxOffsetNs = Long.MIN_VALUE;
    private long steps;
    private long samples;
    private long lastMonotonicNs;

    /** @return the two clocks of this machine: {@code CLOCK_REALTIME} through FFM, monotonic as System.nanoTime(). */
    public static Clocks systemClocks()
    {
        final MemorySegment ts = Arena.ofAuto().allocate(16, 8);
        return new Clocks()
        {
            @Override
            public long realtimeNs()
            {
                return LinuxNet.realtimeNs(ts);
            }

            @Override
            public long monotonicNs()
            {
                return System.nanoTime();
            }
        };
    }

    /** A bridge reading {@code clocks}; an offset that moves by more than {@code stepNs} counts as a step. */
    public ClockBridge(final Clocks clocks, final long stepNs)
    {
        this.clocks = clocks;
        this.stepNs = stepNs;
    }

    /**
     * Samples the offset now.
     *
     * @return the monotonic reading of the sample: a user stamp taken at the same moment.
     */
    public long sample()
    {
        final long r1 = clocks.realtimeNs();
        final long m = clocks.monotonicNs();
        final long r2 = clocks.realtimeNs();
        lastMonotonicNs = m;
        if (samples > 0 && r2 - r1 > MAX_SPREAD_NS)
        {
            loose++;
            return m;
        }
        final long offset = r1 + (r2 - r1) / 2 - m;
        if (samples > 0 && Math.abs(offset - offsetNs) > stepNs)
        {
            steps++;
        }
        samples++;
        offsetNs = offset;
        minOffsetNs = Math.min(minOffsetNs, offset);
        maxOffsetNs = Math.max(maxOffsetNs, offset);
        return m;
    }

    /** @return {@code realtimeNs} on the run's clock, with the last sampled offset. */
    public long toMonotonicNs(final long realtimeNs)
    {
        return realtimeNs - offsetNs;
    }

    /** @return the monotonic reading of the last sample. */
    public long lastMonotonicNs()
    {
        return lastMonotonicNs;
    }

    public long offsetNs()
    {
        return offsetNs;
    }

    /** @return the smallest offset sampled, or 0 before any sample. */
    public long minOffsetNs()
    {
        return samples == 0 ? 0 : minOffsetNs;
    }

    /** @return the largest offset sampled, or 0 before any sample. */
    public long maxOffsetNs()
    {
        return samples == 0 ? 0 : maxOffsetNs;
    }

    /** @return how many samples moved the offset by more than the step threshold. */
    public long steps()
    {
        return steps;
    }

    /** @return samples used for the offset. */
    public long samples()
    {
        return samples;
    }

    /** @return samples not used: their realtime readings were more than {@link #MAX_SPREAD_NS} apart. */
    public long looseSamples()
    {
        return loose;
    }
}
