package io.tokenclock.runner;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;

/**
 * The request stage's thread really leaves the normal scheduling class: the kernel's own view of the thread
 * ({@code /proc/thread-self/stat}, field 41, the policy) is checked, not the method's return value alone.
 */
final class BackgroundPriorityTest
{
    private static final int SCHED_IDLE = 5;

    @Test
    void shouldPutTheCallingThreadInTheIdleSchedulingClass() throws Exception
    {
        assumeTrue(Files.isSymbolicLink(Path.of("/proc/thread-self")), "Linux only");
        assumeTrue(Files.isExecutable(Path.of("/usr/bin/chrt")) || Files.isExecutable(Path.of("/bin/chrt")),
            "needs util-linux chrt");
        final String[] result = new String[1];
        final int[] policy = new int[2];
        final Thread thread = new Thread(() ->
        {
            policy[0] = policyOfCurrentThread();
            result[0] = BackgroundPriority.lowerCurrentThread();
            policy[1] = policyOfCurrentThread();
        });
        thread.start();
        thread.join(10_000);
        assertEquals(BackgroundPriority.IDLE, result[0]);
        assertEquals(0, policy[0], "SCHED_OTHER before");
        assertEquals(SCHED_IDLE, policy[1], "SCHED_IDLE after, as the kernel sees it");
        assertEquals(0, policyOfCurrentThread(), "only the calling thread changed");
    }

    @Test
    void shouldFindTheKernelIdOfTheCallingThread()
    {
        assumeTrue(Files.isSymbolicLink(Path.of("/proc/thread-self")), "Linux only");
        final String tid = BackgroundPriority.currentThreadId();
        assertEquals(true, tid != null && Files.isDirectory(Path.of("/proc/self/task", tid)), "tid " + tid);
    }

    private static int policyOfCurrentThread()
    {
        try
        {
            final String stat = Files.readString(Path.of("/proc/thread-self/stat"));
            final String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            return Integer.parseInt(fields[41 - 3]);
        }
        catch (final IOException ex)
        {
            throw new IllegalStateException(ex);
        }
    }
}
