package io.tokenclock.recording;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;

import org.agrona.UnsafeApi;
import org.junit.jupiter.api.Test;

/**
 * The collector's timeline lies at least {@link #APART} bytes from every other field of the slot, and from the slot's
 * start, in the layout this JVM chose: what the paddings are for, checked where it is decided rather than assumed
 * from the declaration order (a JVM may place a subclass's field in a superclass's hole).
 */
final class RequestSlotLayoutTest
{
    /** Two cache lines: one, and the neighbour that adjacent-line prefetching pulls in with it. */
    private static final long APART = 128;

    private record Placed(String name, long offset, long bytes)
    {
        long end()
        {
            return offset + bytes;
        }
    }

    @Test
    void shouldKeepTheCollectorsTimelineTwoCacheLinesFromEveryOtherFieldOfTheSlot()
    {
        final List<Placed> timeline = new ArrayList<>();
        final List<Placed> others = new ArrayList<>();
        for (Class<?> c = RequestSlot.class; c != Object.class; c = c.getSuperclass())
        {
            for (final Field f : c.getDeclaredFields())
            {
                if (Modifier.isStatic(f.getModifiers()) || f.getName().matches("p\\d{3}"))
                {
                    continue;
                }
                final Placed p = new Placed(f.getName(), UnsafeApi.objectFieldOffset(f), bytes(f.getType()));
                ("RequestSlotTimeline".equals(c.getSimpleName()) ? timeline : others).add(p);
            }
        }
        assertEquals(6, timeline.size(), "chunkNs, chunkTokens, chunkFlags, chunkCount, firstTokenNs, " +
            "firstOutputNs: " + timeline);
        final long start = timeline.stream().mapToLong(Placed::offset).min().orElseThrow();
        final long end = timeline.stream().mapToLong(Placed::end).max().orElseThrow();
        assertTrue(start >= APART, "the timeline starts " + start + " bytes into the slot");
        for (final Placed o : others)
        {
            assertTrue(o.end() + APART <= start || o.offset() >= end + APART,
                o + " lies within " + APART + " bytes of the timeline [" + start + ", " + end + ")");
        }
    }

    /** @return the bytes a field of {@code type} takes: a reference's are this JVM's (4 with compressed oops). */
    private static long bytes(final Class<?> type)
    {
        if (!type.isPrimitive())
        {
            return UnsafeApi.arrayIndexScale(Object[].class);
        }
        if (type == long.class || type == double.class)
        {
            return 8;
        }
        if (type == int.class || type == float.class)
        {
            return 4;
        }
        return type == short.class || type == char.class ? 2 : 1;
    }
}
