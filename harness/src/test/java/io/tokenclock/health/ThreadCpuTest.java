package io.tokenclock.health;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.tokenclock.health.ThreadCpu.Group;

/** Per-thread CPU read from a fake {@code /proc/self/task} tree, and grouped between two snapshots. */
final class ThreadCpuTest
{
    @TempDir
    Path tasks;

    @Test
    void shouldReadEachThreadsNameAndNanosecondsOnCpu() throws IOException
    {
        thread(101, "tokenclock-coll", "1200000000 5000 17");
        thread(102, "multiThreadIoEv", "300 0 1");

        final ThreadCpu.Snapshot s = ThreadCpu.read(tasks);

        assertNull(s.unavailable());
        assertEquals(new ThreadCpu.Sample("tokenclock-coll", 1_200_000_000L, 17), s.threads().get(101L));
        assertEquals(new ThreadCpu.Sample("multiThreadIoEv", 300, 1), s.threads().get(102L));
    }

    @Test
    void shouldKeepSpacesInAThreadsName() throws IOException
    {
        thread(7, "C2 CompilerThre", "5 0 1");

        final ThreadCpu.Sample s = ThreadCpu.read(tasks).threads().get(7L);

        assertEquals("C2 CompilerThre", s.name());
        assertEquals(Group.JIT, Group.of(s.name()));
    }

    @Test
    void shouldCountAThreadThatEndedBetweenSnapshotsAsEndedFromTheProcessTotal() throws IOException
    {
        thread(1, "tokenclock-coll", "100000000 0 1");
        thread(2, "tokenclock-requ", "50000000 0 1");
        final ThreadCpu.Snapshot start = ThreadCpu.read(tasks);
        thread(1, "tokenclock-coll", "400000000 0 9");
        delete(2);
        thread(3, "multiThreadIoEv", "70000000 0 3");
        final ThreadCpu.Snapshot end = ThreadCpu.read(tasks);

        final ThreadCpu.ByGroup g = ThreadCpu.between(start, end, 420_000_000L);

        assertNull(g.unavailable());
        assertEquals(new ThreadCpu.GroupCpu(300_000_000L, 8, 1), g.groups().get(Group.COLLECTOR), "runs 9 - 1");
        assertEquals(new ThreadCpu.GroupCpu(70_000_000L, 3, 1), g.groups().get(Group.STAMPING), "born in the window");
        assertEquals(new ThreadCpu.GroupCpu(0, 0, 0), g.groups().get(Group.STAGE), "ended: counts nothing itself");
        assertEquals(50_000_000L, g.groups().get(Group.ENDED).cpuNs());
        assertEquals(420_000_000L, g.totalNs());
    }

    @Test
    void shouldNeverMakeEndedNegativeWhenTheTickRoundedTotalIsBelowTheThreadsSum() throws IOException
    {
        thread(1, "tokenclock-load", "0 0 0");
        final ThreadCpu.Snapshot start = ThreadCpu.read(tasks);
        thread(1, "tokenclock-load", "15000000 0 2");

        final ThreadCpu.ByGroup g = ThreadCpu.between(start, ThreadCpu.read(tasks), 10_000_000L);

        assertEquals(0, g.groups().get(Group.ENDED).cpuNs());
        assertEquals(15_000_000L, g.totalNs());
    }

    @Test
    void shouldCountANewThreadOnAReusedIdFromZero() throws IOException
    {
        thread(5, "tokenclock-hicc", "900 0 1");
        final ThreadCpu.Snapshot start = ThreadCpu.read(tasks);
        thread(5, "tokenclock-serv", "200 0 1");

        final ThreadCpu.ByGroup g = ThreadCpu.between(start, ThreadCpu.read(tasks), 1_100);

        assertEquals(200, g.groups().get(Group.MONITORS).cpuNs());
        assertEquals(1, g.groups().get(Group.MONITORS).runs(), "the new thread's own runs");
        assertEquals(900, g.groups().get(Group.ENDED).cpuNs());
    }

    @Test
    void shouldCountNoRunsWhereASchedstatGivesOnlyTheCpuTime() throws IOException
    {
        thread(1, "tokenclock-ksta", "100");
        final ThreadCpu.Snapshot start = ThreadCpu.read(tasks);
        thread(1, "tokenclock-ksta", "400 0 5");

        final ThreadCpu.ByGroup g = ThreadCpu.between(start, ThreadCpu.read(tasks), 300);

        assertEquals(-1, start.threads().get(1L).runs());
        assertEquals(new ThreadCpu.GroupCpu(300, 0, 1), g.groups().get(Group.STAMPING),
            "the CPU is known, the runs in the window are not");
    }

    @Test
    void shouldLeaveAThreadWithAMissingFileToEndedRatherThanFail() throws IOException
    {
        thread(1, "tokenclock-coll", "100 0 1");
        thread(2, "GC Thread#0", "100 0 1");
        final ThreadCpu.Snapshot start = ThreadCpu.read(tasks);
        thread(1, "tokenclock-coll", "300 0 1");
        Files.delete(tasks.resolve("2").resolve("schedstat"));
        Files.writeString(tasks.resolve("2").resolve("comm"), "GC Thread#0\n");

        final ThreadCpu.Snapshot end = ThreadCpu.read(tasks);
        final ThreadCpu.ByGroup g = ThreadCpu.between(start, end, 500);

        assertEquals(-1, end.threads().get(2L).cpuNs());
        assertEquals(200, g.groups().get(Group.COLLECTOR).cpuNs());
        assertEquals(0, g.groups().get(Group.GC).cpuNs());
        assertEquals(300, g.groups().get(Group.ENDED).cpuNs());
    }

    @Test
    void shouldLeaveAnUnreadableFileToEndedRatherThanFail() throws IOException
    {
        assumeTrue(!"root".equals(System.getProperty("user.name")), "root reads a file without read permission");
        thread(1, "tokenclock-coll", "100 0 1");
        Files.setPosixFilePermissions(tasks.resolve("1").resolve("schedstat"),
            PosixFilePermissions.fromString("---------"));
        thread(2, "tokenclock-load", "100 0 1");

        assertEquals(-1, ThreadCpu.read(tasks).threads().get(1L).cpuNs());
    }

    @Test
    void shouldLeaveAGarbledFileToEndedRatherThanFail() throws IOException
    {
        thread(1, "tokenclock-coll", "not a number");
        thread(2, "tokenclock-load", "100 0 1");

        final ThreadCpu.Snapshot s = ThreadCpu.read(tasks);

        assertEquals(-1, s.threads().get(1L).cpuNs());
        assertEquals(100, s.threads().get(2L).cpuNs());
    }

    @Test
    void shouldCountAThreadThatReadItselfAsItEndedToItsGroupNotToEnded() throws IOException
    {
        thread(1, "tokenclock-coll", "100 0 1");
        thread(2, "tokenclock-load", "100 0 1");
        final ThreadCpu.Snapshot start = ThreadCpu.read(tasks);
        final ThreadCpu.Exits exits = new ThreadCpu.Exits();
        final Path self = Files.createSymbolicLink(tasks.resolveSibling(tasks.getFileName() + "-self"),
            tasks.resolve("1"));
        exits.record(self);
        exits.arm();
        thread(1, "tokenclock-coll", "700 0 1");
        exits.record(self);
        thread(2, "tokenclock-load", "400 0 1");
        delete(1);

        final ThreadCpu.Snapshot end = exits.addTo(ThreadCpu.read(tasks));
        final ThreadCpu.ByGroup g = ThreadCpu.between(start, end, 1_000);

        assertEquals(600, g.groups().get(Group.COLLECTOR).cpuNs());
        assertEquals(300, g.groups().get(Group.LOAD).cpuNs());
        assertEquals(100, g.groups().get(Group.ENDED).cpuNs());
        Files.delete(self);
    }

    @Test
    void shouldCountAThreadStoppedAfterTheDrainUpToTheReadingTakenBeforeStopping() throws IOException
    {
        thread(4, "tokenclock-serv", "100 0 1");
        thread(5, "tokenclock-coll", "100 0 1");
        final ThreadCpu.Snapshot start = ThreadCpu.read(tasks);
        final ThreadCpu.Exits exits = new ThreadCpu.Exits();
        exits.arm();
        final Path self = Files.createSymbolicLink(tasks.resolveSibling(tasks.getFileName() + "-coll"),
            tasks.resolve("5"));
        thread(5, "tokenclock-coll", "800 0 1");
        exits.record(self);
        thread(4, "tokenclock-serv", "350 0 1");
        thread(5, "tokenclock-coll", "600 0 1");
        exits.keepAll(ThreadCpu.read(tasks));
        delete(4);
        delete(5);
        thread(1, "java", "0 0 1");

        final ThreadCpu.ByGroup g = ThreadCpu.between(start, exits.addTo(ThreadCpu.read(tasks)), 1_000);

        assertEquals(250, g.groups().get(Group.MONITORS).cpuNs());
        assertEquals(700, g.groups().get(Group.COLLECTOR).cpuNs(), "its own reading, the later, wins");
        assertEquals(50, g.groups().get(Group.ENDED).cpuNs());
        Files.delete(self);
    }

    @Test
    void shouldKeepNoReadingTakenBeforeTheWindowWasArmed() throws IOException
    {
        thread(9, "tokenclock-requ", "500 0 1");
        final ThreadCpu.Exits exits = new ThreadCpu.Exits();
        final Path self = Files.createSymbolicLink(tasks.resolveSibling(tasks.getFileName() + "-early"),
            tasks.resolve("9"));
        exits.record(self);
        delete(9);
        thread(1, "java", "0 0 1");

        final ThreadCpu.Snapshot end = ThreadCpu.read(tasks);

        assertEquals(end, exits.addTo(end), "a thread that ended before the window would count as born in it");
        Files.delete(self);
    }

    @Test
    void shouldSayWhyWhenThereIsNoTaskDirectory()
    {
        final ThreadCpu.Snapshot s = ThreadCpu.read(tasks.resolve("absent"));
        final ThreadCpu.ByGroup g = ThreadCpu.between(s, s, 1_000);

        assertTrue(s.unavailable().contains("Linux only"), s.unavailable());
        assertEquals(s.unavailable(), g.unavailable());
        assertTrue(g.groups().isEmpty());
        assertEquals(1_000, g.processNs());
    }

    @Test
    void shouldSayWhyWhenNoThreadsSchedstatCanBeRead() throws IOException
    {
        Files.createDirectories(tasks.resolve("1"));
        Files.writeString(tasks.resolve("1").resolve("comm"), "java\n");

        assertNotNull(ThreadCpu.read(tasks).unavailable());
    }

    @Test
    void shouldGroupTheHarnessesAndTheJvmsThreadsByTheirKernelNames()
    {
        assertEquals(Group.STAMPING, Group.of("multiThreadIoEv"));
        assertEquals(Group.STAMPING, Group.of("tokenclock-ksta"));
        assertEquals(Group.COLLECTOR, Group.of("tokenclock-coll"));
        assertEquals(Group.STAGE, Group.of("tokenclock-requ"));
        assertEquals(Group.LOAD, Group.of("tokenclock-load"));
        assertEquals(Group.MONITORS, Group.of("tokenclock-hicc"));
        assertEquals(Group.MONITORS, Group.of("tokenclock-serv"));
        assertEquals(Group.MONITORS, Group.of("HttpClient-1-Se"));
        assertEquals(Group.SIMULATOR, Group.of("tokenclock-sim-"));
        assertEquals(Group.RUNNER, Group.of("java"));
        assertEquals(Group.OTHER, Group.of("javac"), "the runner's names match whole");
        assertEquals(Group.JIT, Group.of("C1 CompilerThre"));
        assertEquals(Group.GC, Group.of("GC Thread#1"));
        assertEquals(Group.GC, Group.of("G1 Refine#0"));
        assertEquals(Group.JVM, Group.of("VM Thread"));
        assertEquals(Group.OTHER, Group.of("ForkJoinPool-1-"));
    }

    @Test
    void shouldReadThisProcesssOwnThreadsOnLinux()
    {
        assumeTrue(Files.isDirectory(Path.of("/proc/self/task")), "Linux only");

        final ThreadCpu.Snapshot s = ThreadCpu.snapshot();

        assertNull(s.unavailable());
        assertTrue(s.threads().values().stream().anyMatch(t -> t.name().startsWith("C2 CompilerThre") ||
            t.name().startsWith("C1 CompilerThre")), s.threads().toString());
        assertTrue(s.threads().values().stream().allMatch(t -> t.cpuNs() >= 0), s.threads().toString());
    }

    private void thread(final long tid, final String comm, final String schedstat) throws IOException
    {
        final Path dir = Files.createDirectories(tasks.resolve(Long.toString(tid)));
        Files.writeString(dir.resolve("comm"), comm + "\n", StandardCharsets.UTF_8);
        Files.writeString(dir.resolve("schedstat"), schedstat + "\n", StandardCharsets.US_ASCII);
    }

    private void delete(final long tid) throws IOException
    {
        final Path dir = tasks.resolve(Long.toString(tid));
        Files.delete(dir.resolve("comm"));
        Files.delete(dir.resolve("schedstat"));
        Files.delete(dir);
    }
}
