package io.tokenclock.runner;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import io.tokenclock.config.RunOptions;
import io.tokenclock.health.GcPauseMonitor;
import io.tokenclock.health.HiccupMonitor;
import io.tokenclock.health.ProcessUsage;
import io.tokenclock.health.SafepointCounters;
import io.tokenclock.health.StampingSaturation;
import io.tokenclock.health.ThreadCpu;
import io.tokenclock.metrics.Distribution;
import io.tokenclock.run.ReadinessReport;
import io.tokenclock.run.RunResult;

/**
 * The client's own health over a run: scheduling hiccups, GC pauses, heap, process CPU, JIT compilation, safepoints,
 * and the profiler when one was asked for. Started before the window, read at its edges, closed after it.
 */
final class Monitors implements AutoCloseable
{
    /** With user-space stamps the hiccup monitor asks to wake every millisecond, as jHiccup does. */
    static final long USER_STAMPS_HICCUP_INTERVAL_US = 1_000;
    /**
     * With kernel stamps, every 10 ms. A wake-up from sleep costs this 2-core VM 20-30 us of CPU (a parking loop,
     * interleaved 1 and 5 ms, 2026-12-02), so 1,000 a second were the client's largest cost at 1 stream (about 24 ms
     * of CPU a second, more than the stamping thread's 15: results/client-cpu). Kernel stamps no longer move with the
     * client's own lateness, and each read's kernel-to-user delay (measurement.stamping.client_receive_delay) now
     * measures that lateness on the stamping thread itself, at every read and at no cost; the monitor is then a
     * coarse witness of longer stalls (GC, safepoints, a descheduled process), which 10 ms still catches.
     */
    static final long KERNEL_STAMPS_HICCUP_INTERVAL_US = 10_000;

    /** Readings at the window's start, to subtract from those at its end. */
    record AtLoadStart(ProcessUsage.CpuTimes cpu, ThreadCpu.Snapshot threads, long jitMs,
        SafepointCounters.Reading safepoints)
    {
    }

    /**
     * What the window cost the client: process CPU, the same by thread group, JIT compilation (ms) during load and
     * since the window opened (-1 when it never did), safepoints (null when unreadable).
     */
    record InLoad(ProcessUsage.CpuTimes cpu, ThreadCpu.ByGroup cpuByThread, long jitMs, long jitMsInWindow,
        SafepointCounters.Reading safepoints, StampingSaturation.Result saturation)
    {
    }

    private final HiccupMonitor hiccups;
    private final GcPauseMonitor gc = new GcPauseMonitor();
    private final ProcessUsage usage = new ProcessUsage();
    private final SafepointCounters safepoints = SafepointCounters.open();
    private final ThreadCpu.Exits exits = new ThreadCpu.Exits();
    /** The stamping threads' CPU, second by second, against {@link StampingSaturation#BOUND} of a core. */
    private final StampingSaturation saturation = new StampingSaturation(ThreadCpu::snapshot).start();
    private final ProfilerSession profiler;
    /** The JIT's total at the window's opening, ms; -1 until it opens. Written by the load thread, read after it. */
    private final AtomicLong jitAtWindowOpenMs = new AtomicLong(-1);

    private Monitors(final ProfilerSession profiler, final long hiccupIntervalNs)
    {
        this.profiler = profiler;
        this.hiccups = new HiccupMonitor(hiccupIntervalNs).start();
    }

    /** @param kernelStamps whether the client's reads are stamped by the kernel (it picks the hiccup interval). */
    static Monitors start(final RunOptions options, final boolean kernelStamps, final Path outputDir,
        final PrintStream err) throws IOException
    {
        return new Monitors(options.measurement().profile() == null ? null :
            ProfilerSession.start(options.measurement().profile(),
            options.measurement().profileOut() != null ? options.measurement().profileOut() : outputDir, err),
            hiccupIntervalNs(options.measurement().hiccupIntervalUs(), kernelStamps));
    }

    /** @return the hiccup monitor's interval: the one given ({@code --hiccup-interval-us}), else the stamping's. */
    static long hiccupIntervalNs(final Long givenUs, final boolean kernelStamps)
    {
        return TimeUnit.MICROSECONDS.toNanos(givenUs != null ? givenUs :
            kernelStamps ? KERNEL_STAMPS_HICCUP_INTERVAL_US : USER_STAMPS_HICCUP_INTERVAL_US);
    }

    /** The process total is read before the threads at the start and after them at the end, so that it covers them. */
    AtLoadStart atLoadStart()
    {
        final ProcessUsage.CpuTimes cpu = ProcessUsage.cpuNow();
        exits.arm();
        final ThreadCpu.Snapshot threads = ThreadCpu.snapshot();
        saturation.arm();
        saturation.onSample(System.nanoTime(), threads);
        return new AtLoadStart(cpu, threads, Readiness.compilationMs(),
            safepoints == null ? null : safepoints.now());
    }

    /**
     * Reads the JIT's total as the window opens (the load generator's hook): a run's own warm-up requests come
     * between the start of load and the window, and the JIT's work in them is not the window's.
     */
    void windowOpened()
    {
        jitAtWindowOpenMs.compareAndSet(-1, Readiness.compilationMs());
    }

    /** @return JIT compilation since the window opened, ms, or -1 when it has not. */
    private long jitInWindowMs()
    {
        final long atOpen = jitAtWindowOpenMs.get();
        return atOpen < 0 ? -1 : Readiness.compilationMs() - atOpen;
    }

    InLoad inLoadSince(final AtLoadStart start)
    {
        final ThreadCpu.Snapshot threads = exits.addTo(ThreadCpu.snapshot());
        final ProcessUsage.CpuTimes cpu = ProcessUsage.cpuNow().since(start.cpu());
        return new InLoad(cpu, ThreadCpu.between(start.threads(), threads, cpu.totalNs()),
            Readiness.compilationMs() - start.jitMs(), jitInWindowMs(),
            safepoints == null ? null : safepoints.now().since(start.safepoints()), saturation.result());
    }

    /**
     * A reading of every thread as the drain ends, before the window's threads are stopped: one gone by the window's
     * last reading (the server-metrics scraper, a power source) counts to its group up to here, not to {@code ended}.
     */
    void beforeStopping()
    {
        exits.keepAll(ThreadCpu.snapshot());
    }

    /**
     * Runs {@code body}, then has its thread read its own CPU as it ends, so that a thread stopped before the
     * window's end still counts to its group (collector, stage, load) rather than to {@code ended}.
     */
    Runnable countingItsCpu(final Runnable body)
    {
        return () ->
        {
            try
            {
                body.run();
            }
            finally
            {
                exits.recordCurrentThread();
            }
        };
    }

    /** @return the client's health for the record; complete once {@link #close()} has written the profiles. */
    RunResult.ClientHealth health(final InLoad inLoad, final ReadinessReport ready, final String stagePriority)
    {
        return new RunResult.ClientHealth(Distribution.of(hiccups.snapshot(), "ms", 1e6), hiccups.intervalNs(),
            gc.count(), gc.totalMs(), gc.maxMs(), gc.concurrentCycles(), gc.concurrentMs(), gc.collectors(),
            profiler == null ? null : profiler.event(), profiler == null ? List.of() : profiler.files(), inLoad.cpu(),
            inLoad.cpuByThread(), usage.peakHeapBytes(), ready,
            inLoad.jitMs(), inLoad.jitMsInWindow(), inLoad.safepoints(), stagePriority, inLoad.saturation());
    }

    @Override
    public void close() throws IOException
    {
        if (profiler != null)
        {
            profiler.close();
        }
        hiccups.close();
        gc.close();
        saturation.close();
    }
}
