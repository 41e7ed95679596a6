package io.tokenclock.health;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;
import net.jqwik.api.constraints.Size;

import io.tokenclock.health.ThreadCpu.Group;

/**
 * Grouping never loses a nanosecond and never counts one twice: whatever threads come, go, reuse an id or cannot be
 * read, each thread's in-window CPU lands in exactly one group, and {@code ended} takes exactly what the process
 * total has beyond the threads seen.
 */
final class ThreadCpuProperties
{
    private static final List<String> NAMES = List.of("multiThreadIoEv", "tokenclock-ksta", "tokenclock-coll",
        "tokenclock-requ", "tokenclock-load", "tokenclock-hicc", "tokenclock-sim-", "java", "C2 CompilerThre",
        "GC Thread#0", "VM Thread", "ForkJoinPool-1-", "a name with spaces");

    @Property(tries = 1000)
    void shouldCountEveryThreadsWindowOnceAndEndedAsTheRest(
        @ForAll @Size(max = 40) final List<@IntRange(min = 0, max = 63) Integer> startIds,
        @ForAll @Size(max = 40) final List<@IntRange(min = 0, max = 63) Integer> endIds,
        @ForAll @Size(min = 80, max = 80) final List<@LongRange(min = -1, max = 5_000_000_000L) Long> cpu,
        @ForAll @Size(min = 80, max = 80) final List<@IntRange(min = 0, max = 12) Integer> names,
        @ForAll @LongRange(min = 0, max = 200_000_000_000L) final long processNs)
    {
        final ThreadCpu.Snapshot start = snapshot(startIds, cpu, names, 0);
        final ThreadCpu.Snapshot end = snapshot(endIds, cpu, names, 40);

        final ThreadCpu.ByGroup g = ThreadCpu.between(start, end, processNs);

        final Map<Group, Long> expected = new HashMap<>();
        long seenNs = 0;
        for (final Map.Entry<Long, ThreadCpu.Sample> e : end.threads().entrySet())
        {
            final ThreadCpu.Sample before = start.threads().get(e.getKey());
            final long after = e.getValue().cpuNs();
            final long ran = after < 0 || before != null && before.cpuNs() < 0 ? 0 :
                before == null || after < before.cpuNs() ? after : after - before.cpuNs();
            expected.merge(Group.of(e.getValue().name()), ran, Long::sum);
            seenNs += ran;
        }
        long sumNs = 0;
        for (final Group group : Group.values())
        {
            final long got = g.groups().get(group).cpuNs();
            assertTrue(got >= 0, group + " is negative: " + got);
            if (group != Group.ENDED)
            {
                assertEquals(expected.getOrDefault(group, 0L), got, group.key());
            }
            sumNs += got;
        }
        assertEquals(Math.max(0, processNs - seenNs), g.groups().get(Group.ENDED).cpuNs());
        assertEquals(Math.max(processNs, seenNs), sumNs, "the groups add up to the process, or the threads if more");
        assertEquals(sumNs, g.totalNs());
    }

    private static ThreadCpu.Snapshot snapshot(final List<Integer> ids, final List<Long> cpu,
        final List<Integer> names, final int offset)
    {
        final Map<Long, ThreadCpu.Sample> threads = new HashMap<>();
        for (int i = 0; i < ids.size(); i++)
        {
            threads.put((long)ids.get(i), new ThreadCpu.Sample(NAMES.get(names.get(offset + i)), cpu.get(offset + i)));
        }
        return new ThreadCpu.Snapshot(threads, null);
    }
}
