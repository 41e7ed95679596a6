package io.tokenclock.jmh;

import java.util.concurrent.TimeUnit;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import io.tokenclock.clock.NanoClock;
import io.tokenclock.clock.SystemNanoClock;

/**
 * The ruler: how long one read of the harness's clock takes, and how finely that clock ticks.
 * <p>
 * Every stamp tokenclock records is one {@code System.nanoTime()} read, taken on the I/O thread as a read arrives.
 * Two properties of that clock bound what any harness cost means. Its <em>latency</em> (the time one read takes) is
 * the floor of every stamp: nothing on the per-chunk path can cost less than the stamp it takes, and a harness whose
 * per-chunk cost is a handful of clock reads is already close to that floor. Its <em>granularity</em> (the smallest
 * non-zero difference between two successive readings) is the finest interval a stamp can resolve: a harness cost
 * below the granularity is invisible in the stamps themselves.
 * <p>
 * {@link #nanoTime} and {@link #nanoClock} measure latency: the first calls {@code System.nanoTime()} directly, the
 * second through the {@link NanoClock} interface the core uses, to show the indirection is free (the JIT sees one
 * implementation and inlines it). {@link #granularity} measures granularity the way JMH's own timer-granularity check
 * does: spin reading the clock until its value differs from the last distinct reading. Its score is the average time
 * from one distinct reading to the next, as a reader that never stops sees it, i.e. {@code max(tick, latency)}; the
 * smallest non-zero step it saw is printed at the end of the fork ({@code clock granularity: ...}). The first step of
 * each iteration spans JMH's pause between iterations; it is one op in tens of millions and does not move the mean.
 * <p>
 * How to read the numbers: on Linux with an invariant TSC, CLOCK_MONOTONIC is read through the vDSO and ticks every
 * nanosecond, so every read returns a new value and {@code granularity} comes out equal to {@code nanoTime}: the clock
 * resolves finer than it can be read, and the effective resolution of a stamp is the read latency, about 20-25 ns on
 * the development VM (the smallest step printed is then that latency too). If {@code granularity} is much larger than
 * {@code nanoTime} (a virtualised clock source such as {@code hpet} or a coarse {@code kvm-clock}), stamps are
 * quantised to that step: state ITL resolutions against it, not against the nanosecond unit. The harness's
 * per-chunk cost ({@code PerChunkBenchmark.perChunk}) is best read as a multiple of {@code nanoTime}.
 * <p>
 * None of the three allocates.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class ClockBenchmark
{
    private NanoClock clock;
    private long last;
    private long minStep;
    private long steps;

    @Setup(Level.Trial)
    public void setUp()
    {
        clock = SystemNanoClock.INSTANCE;
        last = System.nanoTime();
        minStep = Long.MAX_VALUE;
    }

    @TearDown(Level.Trial)
    public void tearDown()
    {
        if (steps > 0)
        {
            System.out.println("clock granularity: smallest non-zero step " + minStep + " ns over " + steps +
                " steps");
        }
    }

    /** One {@code System.nanoTime()} read: the clock's latency. */
    @Benchmark
    public long nanoTime()
    {
        return System.nanoTime();
    }

    /** The same read through {@link NanoClock}, as the harness core calls it. */
    @Benchmark
    public long nanoClock()
    {
        return clock.nanoTime();
    }

    /**
     * Reads until the clock moves on from the last distinct reading: the average time from one distinct reading to
     * the next, {@code max(tick, latency)}.
     */
    @Benchmark
    public long granularity()
    {
        final long previous = last;
        long now;
        do
        {
            now = System.nanoTime();
        }
        while (now == previous);
        last = now;
        final long step = now - previous;
        if (step < minStep)
        {
            minStep = step;
        }
        steps++;
        return step;
    }
}
