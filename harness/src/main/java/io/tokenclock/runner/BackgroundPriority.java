package io.tokenclock.runner;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Puts the calling thread in Linux's idle scheduling class ({@code SCHED_IDLE}), so that it runs only when no
 * ordinary thread wants its core, and is preempted the moment one wakes.
 * <p>
 * Why: the harness's per-request work (tokenizing, metrics, {@code requests.jsonl}) runs on a thread of its own, but
 * on a client confined to one core it still competes with the thread that stamps chunk arrivals. Under the kernel's
 * fair scheduler a woken thread does not always preempt a running one of equal priority at once; a running
 * {@code SCHED_IDLE} thread is always preempted on wake-up. So a request's bookkeeping can never hold back the next
 * read, which is what a stamp needs, while an otherwise idle core still runs it at full speed.
 * <p>
 * Java has no API for this ({@code Thread.setPriority} is ignored on Linux), so the thread finds its own kernel id
 * ({@code /proc/thread-self}) and runs {@code chrt --idle -p 0 TID} from util-linux; an unprivileged process may
 * lower its own threads. Failing that, {@code renice -n 19}; failing that, the thread stays as it was. The result
 * is recorded with the run. Cold path: once per run, before the measured window.
 */
public final class BackgroundPriority
{
    /** Values of {@link #lowerCurrentThread}. */
    public static final String IDLE = "SCHED_IDLE";
    public static final String NICE = "nice 19";
    public static final String NORMAL = "normal";

    /** System property that keeps the stage at normal priority ({@code normal}), for comparisons. */
    public static final String PROPERTY = "tokenclock.stagePriority";

    private BackgroundPriority()
    {
    }

    /**
     * Lowers the calling thread as far as the system lets it, unless {@link #PROPERTY} is {@code normal}.
     *
     * @return what the thread runs at now: {@link #IDLE}, {@link #NICE} or {@link #NORMAL}.
     */
    public static String lowerCurrentThread()
    {
        if (NORMAL.equals(System.getProperty(PROPERTY)))
        {
            return NORMAL;
        }
        final String tid = currentThreadId();
        if (tid == null)
        {
            return NORMAL;
        }
        if (runs(List.of("chrt", "--idle", "-p", "0", tid)))
        {
            return IDLE;
        }
        return runs(List.of("renice", "-n", "19", "-p", tid)) ? NICE : NORMAL;
    }

    /**
     * Puts the JVM's JIT compiler threads ({@code C1 CompilerThread*}, {@code C2 CompilerThread*}) in the idle class:
     * called once the self-warm-up has compiled the harness's hot paths, so that whatever the JIT still compiles during
     * the measured window runs only when the stamping core is otherwise idle. Why: a scheduler trace of a 40 req/s
     * open-loop run ({@code perf sched timehist}, results/accuracy/sessions-2026-11-30) found a compiler thread on the
     * core at five of the event loop's seven wake-ups that waited over 0.3 ms (the longest 4.4 ms). Threads the JVM
     * starts later (it may add compiler threads under load) keep their normal priority. Unless {@link #PROPERTY} is
     * {@code normal}.
     *
     * @return how many compiler threads were lowered; 0 where none could be.
     */
    public static int lowerCompilerThreads()
    {
        if (NORMAL.equals(System.getProperty(PROPERTY)))
        {
            return 0;
        }
        int lowered = 0;
        try (var tasks = Files.list(Path.of("/proc/self/task")))
        {
            for (final Path task : tasks.toList())
            {
                final String comm = readComm(task);
                if ((comm.startsWith("C1 CompilerThre") || comm.startsWith("C2 CompilerThre")) &&
                    runs(List.of("chrt", "--idle", "-p", "0", task.getFileName().toString())))
                {
                    lowered++;
                }
            }
        }
        catch (final IOException | RuntimeException ex)
        {
            return lowered;
        }
        return lowered;
    }

    private static String readComm(final Path task)
    {
        try
        {
            return Files.readString(task.resolve("comm")).trim();
        }
        catch (final IOException ex)
        {
            return "";
        }
    }

    /** @return the kernel's id of the calling thread, or null where {@code /proc/thread-self} does not exist. */
    static String currentThreadId()
    {
        try
        {
            final String link = Files.readSymbolicLink(Path.of("/proc/thread-self")).toString();
            final String tid = link.substring(link.lastIndexOf('/') + 1);
            return tid.chars().allMatch(Character::isDigit) && !tid.isEmpty() ? tid : null;
        }
        catch (final IOException | UnsupportedOperationException | SecurityException ex)
        {
            return null;
        }
    }

    private static boolean runs(final List<String> command)
    {
        try
        {
            final Process p = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            if (!p.waitFor(2, TimeUnit.SECONDS))
            {
                p.destroyForcibly();
                return false;
            }
            return p.exitValue() == 0;
        }
        catch (final IOException ex)
        {
            return false;
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
