package io.tokenclock.health;

import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;

import javax.management.ListenerNotFoundException;
import javax.management.Notification;
import javax.management.NotificationEmitter;
import javax.management.NotificationListener;
import javax.management.openmbean.CompositeData;

import com.sun.management.GarbageCollectionNotificationInfo;

/**
 * Records every garbage collection of the client JVM during a run, from the JVM's GC notifications, in two kinds. A
 * pause stops every Java thread, the stamping thread included: count, total and longest. A concurrent cycle runs
 * beside them and stops nothing by itself: count and total only. They are told apart by the collector's bean
 * ({@link #concurrent}): ZGC and Shenandoah report each cycle on a "... Cycles" bean and its pauses on a
 * "... Pauses" bean, and G1 its concurrent mark on "G1 Concurrent GC"; Parallel, Serial and G1's young and mixed
 * collections are pauses. Counting a ZGC cycle as a pause would report a 2 s "pause" where the threads stopped for
 * under a millisecond (the 10,000-stream cell, 2026-12-02). The harness allocates nothing per chunk, so a run
 * normally shows few or no collections; any that happen are stated beside the latencies they might have touched.
 * Thread-safe.
 */
public final class GcPauseMonitor implements NotificationListener, AutoCloseable
{
    private final List<NotificationEmitter> emitters = new ArrayList<>();
    private final List<String> collectors = new ArrayList<>();
    private long count;
    private long totalMs;
    private long maxMs;
    private long concurrentCycles;
    private long concurrentMs;

    /** Listens to every collector of this JVM from now until {@link #close()}. */
    public GcPauseMonitor()
    {
        this(ManagementFactory.getGarbageCollectorMXBeans());
    }

    /** Listens to {@code beans} only; with none, a test feeds {@link #onCollection} durations of its choosing. */
    GcPauseMonitor(final List<GarbageCollectorMXBean> beans)
    {
        for (final GarbageCollectorMXBean gc : beans)
        {
            collectors.add(gc.getName());
            if (gc instanceof NotificationEmitter emitter)
            {
                emitter.addNotificationListener(this, null, null);
                emitters.add(emitter);
            }
        }
    }

    @Override
    public void handleNotification(final Notification notification, final Object handback)
    {
        if (!GarbageCollectionNotificationInfo.GARBAGE_COLLECTION_NOTIFICATION.equals(notification.getType()))
        {
            return;
        }
        final GarbageCollectionNotificationInfo info =
            GarbageCollectionNotificationInfo.from((CompositeData)notification.getUserData());
        onCollection(info.getGcInfo().getDuration(), concurrent(info.getGcName()));
    }

    /**
     * @param gcName a collector's bean name, as its notifications carry it.
     * @return whether its notifications are concurrent cycles rather than pauses.
     */
    static boolean concurrent(final String gcName)
    {
        return gcName.endsWith(" Cycles") || gcName.contains("Concurrent");
    }

    /** Counts one pause that lasted {@code ms} milliseconds. */
    void onCollection(final long ms)
    {
        onCollection(ms, false);
    }

    /** Counts one pause, or one concurrent cycle, that lasted {@code ms} milliseconds. */
    synchronized void onCollection(final long ms, final boolean concurrentCycle)
    {
        if (concurrentCycle)
        {
            concurrentCycles++;
            concurrentMs += ms;
            return;
        }
        count++;
        totalMs += ms;
        maxMs = Math.max(maxMs, ms);
    }

    /** @return concurrent cycles seen so far. */
    public synchronized long concurrentCycles()
    {
        return concurrentCycles;
    }

    /** @return their summed lengths in ms. */
    public synchronized long concurrentMs()
    {
        return concurrentMs;
    }

    /** @return pauses seen so far. */
    public synchronized long count()
    {
        return count;
    }

    /** @return summed pauses in ms. */
    public synchronized long totalMs()
    {
        return totalMs;
    }

    /** @return the longest pause in ms. */
    public synchronized long maxMs()
    {
        return maxMs;
    }

    /** @return the collectors of this JVM. */
    public List<String> collectors()
    {
        return List.copyOf(collectors);
    }

    @Override
    public void close()
    {
        for (final NotificationEmitter emitter : emitters)
        {
            try
            {
                emitter.removeNotificationListener(this);
            }
            catch (final ListenerNotFoundException ex)
            {
                // already gone
            }
        }
    }
}
