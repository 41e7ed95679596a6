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
 * Records every garbage collection of the client JVM during a run, from the JVM's GC notifications: count, total and
 * longest duration. For collectors whose notifications are stop-the-world pauses (Parallel,
 * Serial, G1's young and mixed pauses) the duration is the pause; for concurrent cycles it is the cycle's length, and
 * the name says which ({@code gcName} / {@code gcAction}). The harness allocates nothing per chunk, so a run normally
 * shows few or no collections; any that happen are stated beside the latencies they might have touched.
 * Thread-safe.
 */
public final class GcPauseMonitor implements NotificationListener, AutoCloseable
{
    private final List<NotificationEmitter> emitters = new ArrayList<>();
    private final List<String> collectors = new ArrayList<>();
    private long count;
    private long totalMs;
    private long maxMs;

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
        onCollection(info.getGcInfo().getDuration());
    }

    /** Counts one collection that lasted {@code ms} milliseconds. */
    synchronized void onCollection(final long ms)
    {
        count++;
        totalMs += ms;
        maxMs = Math.max(maxMs, ms);
    }

    /** @return collections seen so far. */
    public synchronized long count()
    {
        return count;
    }

    /** @return summed durations in ms. */
    public synchronized long totalMs()
    {
        return totalMs;
    }

    /** @return the longest duration in ms. */
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
