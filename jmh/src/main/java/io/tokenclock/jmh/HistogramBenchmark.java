package io.tokenclock.jmh;

import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;
import org.HdrHistogram.SingleWriterRecorder;
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
import org.openjdk.jmh.annotations.Warmup;

import io.tokenclock.metrics.Metric;
import io.tokenclock.metrics.MetricRecorders;

/**
 * Stage 4: recording a value into HdrHistogram, and the reader's periodic interval swap.
 * <p>
 * The collector records every derived value (each inter-chunk gap, and per request TTFT, TPOT, E2E and the rest)
 * into one HdrHistogram recorder per metric; once a second the reporting thread swaps each recorder's active
 * histogram for an empty one ({@code getIntervalHistogram(recycle)}) and folds the interval into the run totals
 * ({@link MetricRecorders#sample}). tokenclock uses {@link SingleWriterRecorder} because the collector is the only
 * writer; {@link Recorder} (multi-writer) is measured beside it to show what that choice saves. All histograms are
 * tokenclock's: 1 ns to 1 hour at 3 significant digits.
 * <ul>
 * <li>{@link #singleWriterRecordValue}, {@link #recorderRecordValue}: one {@code recordValue} of a realistic
 * inter-token gap, cycling through 1,024 log-uniform values between 1 ms and 100 ms so that the counts touched vary
 * as in a run (a constant value would keep one counter hot in L1 and flatter the result).</li>
 * <li>{@link #singleWriterIntervalSwap}, {@link #recorderIntervalSwap}: one interval swap with a recycled histogram.
 * Its cost is dominated by clearing the recycled histogram's counts array (about 33,000 longs, roughly 270 KB, for
 * this range and precision), so it is independent of how many values were recorded.</li>
 * <li>{@link #metricRecordersSample}: the reporting thread's whole once-a-second job, {@link MetricRecorders#sample}:
 * one swap and one fold into the totals for each of the 14 metrics.</li>
 * </ul>
 * How to read the numbers: {@code recordValue} is paid a few times per chunk at most (amortised, most chunks record
 * one inter-chunk gap), so a few ns here are a few ns of {@code PerChunkBenchmark.perChunk}. The swap and sample
 * costs are per second, not per chunk: {@code metricRecordersSample} in µs divided by 10^6 µs is the fraction of one
 * core the reporting thread uses. The difference between the two recorders is the writer-side cost of the
 * multi-writer phaser. All must be 0 B/op once the recycled histograms exist.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class HistogramBenchmark
{
    private static final int VALUES = 1024;

    private final long[] values = new long[VALUES];
    private SingleWriterRecorder singleWriter;
    private Recorder recorder;
    private Histogram singleWriterRecycle;
    private Histogram recorderRecycle;
    private MetricRecorders metricRecorders;
    private int next;

    @Setup(Level.Trial)
    public void setUp()
    {
        final SplittableRandom random = new SplittableRandom(42);
        for (int i = 0; i < VALUES; i++)
        {
            values[i] = Math.round(Math.exp(Math.log(1e6) + random.nextDouble() * Math.log(100.0)));
        }
        singleWriter = new SingleWriterRecorder(1, MetricRecorders.HIGHEST_TRACKABLE,
            MetricRecorders.SIGNIFICANT_DIGITS);
        recorder = new Recorder(1, MetricRecorders.HIGHEST_TRACKABLE, MetricRecorders.SIGNIFICANT_DIGITS);
        singleWriterRecycle = singleWriter.getIntervalHistogram();
        recorderRecycle = recorder.getIntervalHistogram();
        metricRecorders = new MetricRecorders();
        for (final Metric m : Metric.values())
        {
            metricRecorders.record(m, values[m.ordinal()]);
        }
        metricRecorders.sample();
    }

    @Benchmark
    public int singleWriterRecordValue()
    {
        final int i = next++ & (VALUES - 1);
        singleWriter.recordValue(values[i]);
        return i;
    }

    @Benchmark
    public int recorderRecordValue()
    {
        final int i = next++ & (VALUES - 1);
        recorder.recordValue(values[i]);
        return i;
    }

    @Benchmark
    public long singleWriterIntervalSwap()
    {
        singleWriter.recordValue(values[next++ & (VALUES - 1)]);
        singleWriterRecycle = singleWriter.getIntervalHistogram(singleWriterRecycle);
        return singleWriterRecycle.getTotalCount();
    }

    @Benchmark
    public long recorderIntervalSwap()
    {
        recorder.recordValue(values[next++ & (VALUES - 1)]);
        recorderRecycle = recorder.getIntervalHistogram(recorderRecycle);
        return recorderRecycle.getTotalCount();
    }

    @Benchmark
    public long metricRecordersSample()
    {
        metricRecorders.record(Metric.INTER_CHUNK_LATENCY, values[next++ & (VALUES - 1)]);
        metricRecorders.sample();
        return metricRecorders.lastInterval(Metric.INTER_CHUNK_LATENCY).getTotalCount();
    }
}
