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
 * A sample is used only when its two realtime readings are close: a thread preempted between them (a loaded
 * machine) would put up to half the spread into the offset, and stamps converted with it would move by as much, even
 * backwards. "Close" is twice the narrowest spread this bridge has seen, but never under {@link #TIGHT_SPREAD_NS}
 * (always good enough) nor over {@link #MAX_SPREAD_NS}. A wider sample keeps the previous offset. The first sample
 * has no previous offset to keep, so it reads the pair up to {@link #FIRST_SAMPLE_TRIES} times and keeps the narrowest.
 * <p>
 * For example, where a clock read takes 40 ns the narrowest spread is about 80 ns, so samples up to 1 µs wide are used
 * and each converted stamp is within 0.5 µs of the kernel's; a sample preempted for 4 µs between its readings, which
 * would have moved the offset by 2 µs, is counted loose instead. Two bridges in two processes then agree within 1 µs,
 * which is what comparing a client's receive stamp with a server's send stamp needs.
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

    /** The widest gap between the two realtime readings of a sample that is ever used, whatever the clocks cost. */
    public static final long MAX_SPREAD_NS = 10_000;

    /** A sample no wider than this is always used: it puts at most half of it into the offset. */
    public static final long TIGHT_SPREAD_NS = 1_000;

    /** The most readings of the clock pair the first sample takes to find one within {@link #TIGHT_SPREAD_NS}. */
    public static final int FIRST_SAMPLE_TRIES = 16;

    private final Clocks clocks;
    private long loose;
    private final long stepNs;
    private long offsetNs;
    private long minOffsetNs = Long.MAX_VALUE;
    private long maxOffsetNs = Long.MIN_VALUE;
    private long steps;
    private long samples;
    private long lastMonotonicNs;
    private long narrowestSpreadNs = Long.MAX_VALUE;

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
        if (samples == 0)
        {
            return firstSample();
        }
        final long r1 = clocks.realtimeNs();
        final long m = clocks.monotonicNs();
        final long r2 = clocks.realtimeNs();
        lastMonotonicNs = m;
        final long spread = r2 - r1;
        narrowestSpreadNs = Math.min(narrowestSpreadNs, spread);
        if (spread > usableSpreadNs())
        {
            loose++;
            return m;
        }
        use(r1, m, r2);
        return m;
    }

    /** @return the widest sample used now: twice the narrowest seen, within [TIGHT_SPREAD_NS, MAX_SPREAD_NS]. */
    long usableSpreadNs()
    {
        return Math.min(MAX_SPREAD_NS, Math.max(TIGHT_SPREAD_NS, 2 * narrowestSpreadNs));
    }

    /** The narrowest of up to FIRST_SAMPLE_TRIES readings (the first tight one ends the loop); its offset is used. */
    private long firstSample()
    {
        long bestR1 = 0;
        long bestM = 0;
        long bestR2 = Long.MAX_VALUE;
        long m = 0;
        for (int i = 0; i < FIRST_SAMPLE_TRIES; i++)
        {
            final long r1 = clocks.realtimeNs();
            m = clocks.monotonicNs();
            final long r2 = clocks.realtimeNs();
            if (r2 - r1 < bestR2 - bestR1)
            {
                bestR1 = r1;
                bestM = m;
                bestR2 = r2;
            }
            if (r2 - r1 <= TIGHT_SPREAD_NS)
            {
                break;
            }
        }
        narrowestSpreadNs = bestR2 - bestR1;
        lastMonotonicNs = m;
        use(bestR1, bestM, bestR2);
        return m;
    }

    private void use(final long r1, final long m, final long r2)
    {
        final long offset = r1 + (r2 - r1) / 2 - m;
        if (samples > 0 && Math.abs(offset - offsetNs) > stepNs)
        {
            steps++;
        }
        samples++;
        offsetNs = offset;
        minOffsetNs = Math.min(minOffsetNs, offset);
        maxOffsetNs = Math.max(maxOffsetNs, offset);
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

    /** @return samples not used: their realtime readings were further apart than {@link #usableSpreadNs()}. */
    public long looseSamples()
    {
        return loose;
    }
}
