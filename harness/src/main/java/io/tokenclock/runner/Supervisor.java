package io.tokenclock.runner;

import java.util.concurrent.TimeUnit;

import io.tokenclock.clock.NanoClock;
import io.tokenclock.config.RunOptions;
import io.tokenclock.goodput.GroupStats;
import io.tokenclock.load.LoadGenerator;
import io.tokenclock.metrics.Metric;
import io.tokenclock.metrics.MetricRecorders;
import io.tokenclock.recording.Collector;
import io.tokenclock.recording.SlotPool;
import io.tokenclock.report.ProgressLine;
import io.tokenclock.transport.StreamClient;

/**
 * The calling thread's part of the window: every interval it draws the progress line and applies the deadlines.
 * It does not sample the histograms as it goes: folding every metric's interval into its total walks a few MB of
 * counts twice a second, on the stamping thread's core, for a view nobody reads. The progress line takes only the
 * TTFT it shows; the totals are read once, after the drain. A signal ({@link Interruption}) stops the generator and opens the grace period; once the
 * generator has finished, requests in flight get {@code --drain-timeout} (or what is left of the grace), then are
 * cancelled, and the run waits a bounded time for them to end.
 */
final class Supervisor
{
    private final RunOptions options;
    private final NanoClock clock;
    private final Interruption interruption;
    private final LoadGenerator generator;
    private final SlotPool pool;
    private final StreamClient client;
    private final Collector collector;
    private final MetricRecorders recorders;
    private final GroupStats[] groups;
    private final ProgressLine progress;

    private long drainDeadlineNs;
    private long graceDeadlineNs;
    private boolean cancelled;
    private long cancelDeadlineNs;

    Supervisor(
        final RunOptions options, final NanoClock clock, final Interruption interruption,
        final LoadGenerator generator, final SlotPool pool, final StreamClient client, final Collector collector,
        final MetricRecorders recorders, final GroupStats[] groups, final ProgressLine progress)
    {
        this.options = options;
        this.clock = clock;
        this.interruption = interruption;
        this.generator = generator;
        this.pool = pool;
        this.client = client;
        this.collector = collector;
        this.recorders = recorders;
        this.groups = groups;
        this.progress = progress;
    }

    /**
     * @param intervalNs   how often to sample and look at the deadlines.
     * @param cancelWaitNs how long cancelled requests may take to end before the run stops waiting for them.
     */
    void untilDrained(final long intervalNs, final long cancelWaitNs) throws InterruptedException
    {
        while (true)
        {
            Thread.sleep(TimeUnit.NANOSECONDS.toMillis(intervalNs));
            final long now = clock.nanoTime();
            if (progress != null)
            {
                recorders.sample(Metric.TTFT); // the line's only histogram; the totals are taken once, at the end
                progress.update(now, generator, pool, collector, recorders);
            }
            if (graceDeadlineNs == 0 && interruption.requested())
            {
                generator.stop();
                graceDeadlineNs = now + (long)(options.load().graceS() * 1e9);
            }
            if (generator.isFinished() && (pool.inUse() == 0 || drained(now, cancelWaitNs)))
            {
                return;
            }
        }
    }

    /** @return true when cancelled requests have had their time; cancels them first when the drain is over. */
    private boolean drained(final long now, final long cancelWaitNs)
    {
        if (drainDeadlineNs == 0)
        {
            drainDeadlineNs = now + (long)(options.load().drainTimeoutS() * 1e9);
        }
        if (graceDeadlineNs != 0)
        {
            drainDeadlineNs = Math.min(drainDeadlineNs, graceDeadlineNs);
        }
        if (!cancelled && now >= drainDeadlineNs)
        {
            client.cancelAll();
            cancelled = true;
            cancelDeadlineNs = now + cancelWaitNs;
        }
        return cancelled && now >= cancelDeadlineNs;
    }

    static void sampleGroups(final GroupStats[] groups)
    {
        for (final GroupStats g : groups)
        {
            g.recorders().sample();
        }
    }
}
