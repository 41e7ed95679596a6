package io.tokenclock.metrics;

import org.HdrHistogram.Histogram;
import org.HdrHistogram.SingleWriterRecorder;

/**
 * One HdrHistogram {@link SingleWriterRecorder} per {@link Metric}: the request stage's thread records (lock-free,
 * wait-free for the writer), and one reader thread swaps out interval histograms and folds them into run totals:
 * the TTFT's every half second for the live progress line, when there is one, and every metric's once, at the end.
 * <p>
 * Threading: {@link #record} only from the single writer; {@link #sample()}, {@link #total} and {@link #lastInterval}
 * only from the single reader. Values are recorded as non-negative longs in the metric's recording unit (ns for
 * latencies); a value above the trackable range (1 hour in ns) is clamped to it and counted.
 */
public final class MetricRecorders
{
    /** Highest trackable value: one hour in nanoseconds. */
    public static final long HIGHEST_TRACKABLE = 3_600_000_000_000L;
    public static final int SIGNIFICANT_DIGITS = 3;

    private final SingleWriterRecorder[] recorders = new SingleWriterRecorder[Metric.count()];
    private final Histogram[] totals = new Histogram[Metric.count()];
    private final Histogram[] intervals = new Histogram[Metric.count()];
    private volatile long clamped;

    /** One recorder and one running total per {@link Metric}, allocated up front so recording never allocates. */
    public MetricRecorders()
    {
        for (int i = 0; i < recorders.length; i++)
        {
            recorders[i] = new SingleWriterRecorder(1, HIGHEST_TRACKABLE, SIGNIFICANT_DIGITS);
            totals[i] = new Histogram(1, HIGHEST_TRACKABLE, SIGNIFICANT_DIGITS);
        }
    }

    /** Writer thread only. Negative values (undefined metrics) are ignored; zero is recorded as zero. */
    public void record(final Metric metric, final long value)
    {
        if (value < 0)
        {
            return;
        }
        long v = value;
        if (v > HIGHEST_TRACKABLE)
        {
            v = HIGHEST_TRACKABLE;
            clamped++;
        }
        recorders[metric.ordinal()].recordValue(v);
    }

    /** Writer thread only: records {@code value} {@code count} times. */
    public void record(final Metric metric, final long value, final long count)
    {
        if (value < 0 || count <= 0)
        {
            return;
        }
        recorders[metric.ordinal()].recordValueWithCount(Math.min(value, HIGHEST_TRACKABLE), count);
    }

    /**
     * Reader thread only: moves everything recorded since the last sample into the totals. It walks every metric's
     * whole counts array (about 270 KB each at this range and precision) three times, a few ms in all: take it once,
     * at the end, or per metric ({@link #sample(Metric)}) for what a live view shows.
     */
    public void sample()
    {
        for (int i = 0; i < recorders.length; i++)
        {
            sample(Metric.of(i));
        }
    }

    /** Reader thread only: {@link #sample()} for one metric; its {@link #lastInterval} is then what came since. */
    public void sample(final Metric metric)
    {
        final int i = metric.ordinal();
        intervals[i] = recorders[i].getIntervalHistogram(intervals[i]);
        totals[i].add(intervals[i]);
    }

    /** Reader thread only: the run total so far (as of the last {@link #sample()}). */
    public Histogram total(final Metric metric)
    {
        return totals[metric.ordinal()];
    }

    /** Reader thread only: what was recorded between the last two samples. */
    public Histogram lastInterval(final Metric metric)
    {
        final Histogram h = intervals[metric.ordinal()];
        return h != null ? h : new Histogram(1, HIGHEST_TRACKABLE, SIGNIFICANT_DIGITS);
    }

    /** @return how many values were above the trackable range and clamped. */
    public long clampedCount()
    {
        return clamped;
    }
}
