package io.tokenclock.health;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Where the client's CPU went: the process's CPU over the load split by what its threads do (stamping, collector,
 * request stage, load generator, monitors, an embedded simulator, JIT, GC, the JVM's other threads), so that a CPU
 * per chunk that is too high says which part to work on.
 * <p>
 * Each thread's figure is the first field of {@code /proc/self/task/TID/schedstat}: the nanoseconds the scheduler
 * ran it, counted exactly (not sampled on the 10 ms tick that {@link ProcessUsage} is read in), user and system
 * together. Its third field counts the times the thread was switched in, its runs: a thread that sleeps between
 * chunks runs about once per chunk, and where a run costs far more than the work it does (a wake-up's context
 * switch and cold caches), CPU over runs says so. At one stream x 8 ms on the 2-core development VM the stamping
 * thread ran 1.1 times per chunk at 192 µs a run, while JMH puts the per-chunk work at 0.25 µs. Its name is {@code /proc/self/task/TID/comm}, which the kernel cuts to 15 bytes
 * ({@code tokenclock-kstamp-0} reads {@code tokenclock-ksta}); the groups are told apart by the first characters of
 * that name ({@link Group#of}). A {@link Snapshot} is taken at the start of load and one at its end; the difference
 * per thread, summed by group, is {@link ByGroup}.
 * <p>
 * A thread that ended before the second snapshot takes its in-window CPU with it from {@code /proc/self/task}, and so
 * does one born and ended inside the window, unless its figure was kept ({@link Exits}): the run's collector, request
 * stage and load generator, stopped before the window's last reading, read their own as they end, and a snapshot
 * taken as the drain ends keeps the threads stopped after it (the server-metrics scraper, power sources) up to that
 * moment. The rest is {@link Group#ENDED}, computed as the process's total over the same window
 * ({@link ProcessUsage}, every thread, ended ones included) minus the sum over the threads seen, and never negative. The process total is exact to one 10 ms tick, so {@code ended} is too; a thread whose files could
 * not be read in either snapshot lands there as well, never lost and never counted twice.
 * <p>
 * Worked example: {@code tokenclock-coll} at 1.20 s in the first snapshot and 1.45 s in the second is 250 ms of
 * collector; a Netty event loop born inside the window at 600 ms counts its 600 ms to stamping; a thread seen only in
 * the first snapshot counts nothing itself; with the process at 2,000 ms over the window and 1,850 ms seen per
 * thread, {@code ended} is 150 ms.
 * <p>
 * Only on Linux; elsewhere {@link #snapshot()} says why it is unavailable, and so does the {@link ByGroup} built from
 * it. Reads two small files per thread, three times per run (load start, drain end, load end), and an ending window
 * thread's own two; never on the stamping path.
 */
public final class ThreadCpu
{
    /** What a thread does, told by its name's first characters (matched against the 15-byte {@code comm}). */
    public enum Group
    {
        /**
         * The I/O threads that read, stamp and frame: Netty's event loops, or the kernel client's epoll loops and its
         * packet tap's thread.
         */
        STAMPING("stamping", List.of("multiThreadIoEv", "epollEventLoop", "nioEventLoopGro", "tokenclock-ksta",
            "tokenclock-tap")),
        /** The collector: drains the ring, rebuilds chunk timelines, frees permits. */
        COLLECTOR("collector", List.of("tokenclock-coll")),
        /** The request stage: token counts, metrics, histograms, requests.jsonl. */
        STAGE("stage", List.of("tokenclock-requ")),
        /** The load generator: takes a slot, builds the body, hands it to the transport. */
        LOAD("load", List.of("tokenclock-load")),
        /**
         * The client's monitors: hiccups, the server-metrics scraper and its HTTP client, power sources, the stamping
         * threads' saturation.
         */
        MONITORS("monitors", List.of("tokenclock-hicc", "tokenclock-serv", "tokenclock-powe", "tokenclock-satu",
            "HttpClient-")),
        /** An embedded simulator or engine (demo, the self-warm-up's simulator): not the client's own work. */
        SIMULATOR("simulator", List.of("tokenclock-sim", "tokenclock-engi")),
        /** The supervising thread: Java's {@code main}, whose native name stays the launcher's {@code java}. */
        RUNNER("runner", List.of("java=", "main=")),
        /** HotSpot's JIT compiler threads. */
        JIT("jit", List.of("C1 CompilerThre", "C2 CompilerThre", "JVMCI")),
        /** GC worker and concurrent threads (Parallel and G1's workers, G1's, ZGC's and Shenandoah's own). */
        GC("gc", List.of("GC Thread#", "G1 ", "ZDirector", "ZDriver", "ZWorker", "ZStat", "ZUnmapper", "ZUncommit",
            "Shenandoah")),
        /** The JVM's other threads: the VM thread (safepoint operations), reference handling, signals, cleaners. */
        JVM("jvm", List.of("VM Thread", "VM Periodic Tas", "Service Thread", "Signal Dispatch", "Reference Handl",
            "Finalizer", "Common-Cleaner", "Notification Th", "Monitor Deflati", "Attach Listene", "Sweeper thread",
            "process reaper", "C-Cleaner")),
        /** Every other named thread: a fork-join pool, a library's own. */
        OTHER("other", List.of()),
        /** Threads that ended inside the window, or could not be read: the process total minus the threads seen. */
        ENDED("ended", List.of());

        private final String key;
        private final List<String> prefixes;

        Group(final String key, final List<String> prefixes)
        {
            this.key = key;
            this.prefixes = prefixes;
        }

        /** @return the group's key in {@code record.json}. */
        public String key()
        {
            return key;
        }

        /**
         * A name matches a prefix it starts with, or a name ending in {@code =} it equals without the {@code =}.
         *
         * @param comm a thread's name as {@code comm} holds it (or its whole name).
         * @return its group; {@link #OTHER} when no group claims it; never {@link #ENDED}.
         */
        public static Group of(final String comm)
        {
            for (final Group g : values())
            {
                for (final String prefix : g.prefixes)
                {
                    final boolean exact = prefix.endsWith("=");
                    if (exact ? comm.length() == prefix.length() - 1 && prefix.startsWith(comm) :
                        comm.startsWith(prefix))
                    {
                        return g;
                    }
                }
            }
            return OTHER;
        }
    }

    /**
     * One thread in a snapshot.
     *
     * @param name  its {@code comm}, trailing newline removed.
     * @param cpuNs the ns it has run, or -1 when its files were listed but could not be read.
     * @param runs  the times it was switched in, or -1 when not known.
     */
    public record Sample(String name, long cpuNs, long runs)
    {
        /** A reading without a run count. */
        public Sample(final String name, final long cpuNs)
        {
            this(name, cpuNs, -1);
        }
    }

    /**
     * Every thread of the process at one moment, by thread id, or why none could be read.
     *
     * @param threads     by thread id; empty when unavailable.
     * @param unavailable why per-thread CPU cannot be read here, or null.
     */
    public record Snapshot(Map<Long, Sample> threads, String unavailable)
    {
        static Snapshot unavailableBecause(final String reason)
        {
            return new Snapshot(Map.of(), reason);
        }
    }

    /**
     * One group's CPU over the window.
     *
     * @param cpuNs   ns on CPU, summed over its threads.
     * @param runs    the times its threads were switched in, summed over those whose count is known in both
     *                readings (0 for {@link Group#ENDED}).
     * @param threads how many of its threads ran in the window (0 for {@link Group#ENDED}).
     */
    public record GroupCpu(long cpuNs, long runs, int threads)
    {
    }

    /**
     * The window's CPU by group.
     *
     * @param groups      every group in declaration order, those with nothing included; empty when unavailable.
     * @param processNs   the process's own total over the window ({@link ProcessUsage}), ns.
     * @param unavailable why there are no groups, or null.
     */
    public record ByGroup(Map<Group, GroupCpu> groups, long processNs, String unavailable)
    {
        /** @return the sum over every group, {@code ended} included: the process total, or the threads' if more. */
        public long totalNs()
        {
            long sum = 0;
            for (final GroupCpu g : groups.values())
            {
                sum += g.cpuNs();
            }
            return sum;
        }

        /** @return a figure that says only why it is missing. */
        public static ByGroup unavailable(final String reason, final long processNs)
        {
            return new ByGroup(Map.of(), processNs, reason);
        }
    }

    /**
     * Readings that threads take of themselves as they end, so that a thread stopped before the window's last
     * snapshot still counts to its group. Armed at the window's start: a thread that ended before it is not kept (it
     * would count as born in the window). Thread-safe.
     */
    public static final class Exits
    {
        private final Map<Long, Sample> samples = new ConcurrentHashMap<>();
        private volatile boolean armed;

        /** From now on, an ending thread's reading is kept. */
        public void arm()
        {
            samples.clear();
            armed = true;
        }

        /** Called by a thread as the last thing it does: keeps its own reading, if armed; never throws. */
        public void recordCurrentThread()
        {
            record(THREAD_SELF);
        }

        /** Keeps the reading of the thread {@code threadSelf} links to ({@code /proc/thread-self} layout). */
        void record(final Path threadSelf)
        {
            if (!armed)
            {
                return;
            }
            try
            {
                final long tid = tid(Files.readSymbolicLink(threadSelf));
                final Sample s = sample(threadSelf);
                if (tid >= 0 && s.cpuNs() >= 0)
                {
                    samples.merge(tid, s, ThreadCpu::later);
                }
            }
            catch (final IOException | RuntimeException ex)
            {
                // not Linux, or /proc unreadable: this thread's window stays in "ended"
            }
        }

        /**
         * Keeps the readings of a snapshot taken before threads are stopped, for those that will be gone at the end;
         * a thread's own later reading, higher, wins.
         */
        public void keepAll(final Snapshot beforeStopping)
        {
            if (!armed)
            {
                return;
            }
            beforeStopping.threads().forEach((tid, s) ->
            {
                if (s.cpuNs() >= 0)
                {
                    samples.merge(tid, s, ThreadCpu::later);
                }
            });
        }

        /** @return {@code end} with the kept readings of threads it no longer lists. */
        public Snapshot addTo(final Snapshot end)
        {
            if (end.unavailable() != null || samples.isEmpty())
            {
                return end;
            }
            final Map<Long, Sample> threads = new HashMap<>(end.threads());
            samples.forEach(threads::putIfAbsent);
            return new Snapshot(Collections.unmodifiableMap(threads), null);
        }
    }

    private static final Path TASKS = Path.of("/proc/self/task");
    private static final Path THREAD_SELF = Path.of("/proc/thread-self");

    /** @return of two readings of one thread, the later: CPU time only grows. */
    private static Sample later(final Sample a, final Sample b)
    {
        return a.cpuNs() >= b.cpuNs() ? a : b;
    }

    private ThreadCpu()
    {
    }

    /** @return every thread of this process now, or why that cannot be read (not Linux, no schedstat). */
    public static Snapshot snapshot()
    {
        return read(TASKS);
    }

    /**
     * Reads a {@code task} directory laid out as Linux's {@code /proc/PID/task}.
     *
     * @param tasks the directory of one subdirectory per thread id.
     * @return its threads, or why none could be read; never throws.
     */
    public static Snapshot read(final Path tasks)
    {
        if (!Files.isDirectory(tasks))
        {
            return Snapshot.unavailableBecause("no " + tasks + ": per-thread CPU is read on Linux only");
        }
        final Map<Long, Sample> threads = new HashMap<>();
        boolean anyRead = false;
        try (DirectoryStream<Path> dirs = Files.newDirectoryStream(tasks))
        {
            for (final Path dir : dirs)
            {
                final long tid = tid(dir);
                if (tid >= 0)
                {
                    final Sample s = sample(dir);
                    anyRead |= s.cpuNs() >= 0;
                    threads.put(tid, s);
                }
            }
        }
        catch (final IOException | RuntimeException ex)
        {
            return Snapshot.unavailableBecause("cannot list " + tasks + ": " + ex);
        }
        return anyRead ? new Snapshot(Collections.unmodifiableMap(threads), null) :
            Snapshot.unavailableBecause("no readable " + tasks + "/TID/schedstat (a kernel without " +
            "CONFIG_SCHED_INFO?)");
    }

    private static long tid(final Path dir)
    {
        try
        {
            return Long.parseLong(dir.getFileName() == null ? "" : dir.getFileName().toString());
        }
        catch (final NumberFormatException ex)
        {
            return -1;
        }
    }

    /** One thread's name and CPU; a file gone (the thread ended) or unreadable gives -1, not an exception. */
    private static Sample sample(final Path dir)
    {
        String name = "?";
        try
        {
            name = new String(Files.readAllBytes(dir.resolve("comm")), StandardCharsets.UTF_8);
            name = name.endsWith("\n") ? name.substring(0, name.length() - 1) : name;
            final String[] stat = Files.readString(dir.resolve("schedstat"), StandardCharsets.US_ASCII).strip()
                .split(" ");
            return new Sample(name, Long.parseLong(stat[0]), stat.length >= 3 ? Long.parseLong(stat[2]) : -1);
        }
        catch (final IOException | RuntimeException ex)
        {
            return new Sample(name, -1);
        }
    }

    /**
     * The CPU of the window from {@code start} to {@code end}, by group.
     * <p>
     * Per thread id: one read in both snapshots counts {@code end - start} to the group of its name at the end; one
     * first seen in {@code end} was born in the window and counts all of {@code end}; one whose CPU went down is a
     * new thread on a reused id and counts likewise; one read at the end but listed unreadable at the start, or
     * unreadable at the end, counts nothing itself. {@link Group#ENDED} is {@code processNs} minus that sum, at
     * least 0.
     *
     * @param start     the snapshot at the window's start.
     * @param end       the snapshot at its end.
     * @param processNs the process's CPU over the same window ({@link ProcessUsage.CpuTimes#totalNs()}), read
     *                  before {@code start} and after {@code end}, so that it covers both.
     * @return every group, or why there are none.
     */
    public static ByGroup between(final Snapshot start, final Snapshot end, final long processNs)
    {
        if (start.unavailable() != null || end.unavailable() != null)
        {
            return ByGroup.unavailable(start.unavailable() != null ? start.unavailable() : end.unavailable(),
                processNs);
        }
        final long[] cpuNs = new long[Group.values().length];
        final long[] runs = new long[cpuNs.length];
        final int[] threads = new int[cpuNs.length];
        long seenNs = 0;
        for (final Map.Entry<Long, Sample> e : end.threads().entrySet())
        {
            final Sample before = start.threads().get(e.getKey());
            final long ranNs = ranInWindow(before, e.getValue());
            if (ranNs > 0)
            {
                final int g = Group.of(e.getValue().name()).ordinal();
                cpuNs[g] += ranNs;
                runs[g] += runsInWindow(before, e.getValue());
                threads[g]++;
                seenNs += ranNs;
            }
        }
        cpuNs[Group.ENDED.ordinal()] = Math.max(0, processNs - seenNs);
        final Map<Group, GroupCpu> groups = new EnumMap<>(Group.class);
        for (final Group g : Group.values())
        {
            groups.put(g, new GroupCpu(cpuNs[g.ordinal()], runs[g.ordinal()], threads[g.ordinal()]));
        }
        return new ByGroup(Collections.unmodifiableMap(groups), processNs, null);
    }

    /** @return the ns a thread ran between the two samples; 0 when either could not be read. */
    private static long ranInWindow(final Sample before, final Sample after)
    {
        if (after.cpuNs() < 0 || before != null && before.cpuNs() < 0)
        {
            return 0;
        }
        return before == null || after.cpuNs() < before.cpuNs() ? after.cpuNs() : after.cpuNs() - before.cpuNs();
    }

    /** @return the runs of a thread that ran in the window ({@link #ranInWindow} above 0); 0 when not known. */
    private static long runsInWindow(final Sample before, final Sample after)
    {
        if (after.runs() < 0)
        {
            return 0;
        }
        if (before == null || after.cpuNs() < before.cpuNs())
        {
            return after.runs();
        }
        return before.runs() < 0 || after.runs() < before.runs() ? 0 : after.runs() - before.runs();
    }
}
