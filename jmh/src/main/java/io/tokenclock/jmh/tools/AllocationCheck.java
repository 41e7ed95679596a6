package io.tokenclock.jmh.tools;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.lang.annotation.Annotation;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.management.ManagementFactory;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.TearDown;

import io.tokenclock.jmh.AllocationBound;

/**
 * The deterministic companion of {@code -prof gc}: calls every benchmark method of the suite directly, on this
 * thread, and counts the heap bytes the thread allocates per call with
 * {@code com.sun.management.ThreadMXBean#getThreadAllocatedBytes} (exact, and blind to JMH's own bookkeeping, which
 * {@code -prof gc} spreads over the operations of an iteration: a few KB per iteration, i.e. a visible fraction of a
 * byte per op for benchmarks that run only thousands of ops a second).
 * <p>
 * Each benchmark gets a fresh instance, its {@code @Setup(Level.Trial)} methods, a warm-up long enough for C2 to
 * compile it (so escape analysis has run, as in a JMH fork), then a measured run. Benchmarks are found in
 * {@code META-INF/BenchmarkList}, the list JMH itself runs from. The methods are invoked through a method handle whose
 * return is dropped, so a primitive result is not boxed. Only {@code @State(Scope.Thread)} benchmarks without
 * {@code Blackhole} parameters are supported, which is all of this suite but the {@code @Group}s of
 * {@code SlotSharingBenchmark}: those are listed as skipped.
 * <p>
 * Usage: {@code AllocationCheck [REGEX] [--warmup-ms N] [--ops N]}. Exit status 1 if any benchmark allocates more
 * than its {@link io.tokenclock.jmh.AllocationBound} per operation in steady state (1 byte without one), 0
 * otherwise, 2 on bad usage.
 */
public final class AllocationCheck
{
    private static final long CALIBRATION_ROUNDS = 3;

    private AllocationCheck()
    {
    }

    public static void main(final String[] args) throws Throwable
    {
        System.exit(run(args, System.out, System.err));
    }

    /** The flags; {@code help} when {@code -h} or {@code --help} came before any bad flag. */
    private record Flags(Pattern filter, long warmupMs, long ops, boolean help)
    {
    }

    /** What one benchmark allocated over its measured calls, and the bound it declares (null: 1 byte per op). */
    private record Measurement(long ops, long bytes, AllocationBound declared)
    {
        double perOp()
        {
            return (double)bytes / ops;
        }

        boolean withinBound()
        {
            return perOp() <= (declared == null ? 1.0 : declared.bytesPerOp());
        }
    }

    static int run(final String[] args, final PrintStream out, final PrintStream err) throws Throwable
    {
        final Flags flags;
        try
        {
            flags = flags(args);
        }
        catch (final RuntimeException ex)
        {
            err.println("AllocationCheck: " + ex.getMessage());
            return 2;
        }
        if (flags.help())
        {
            out.println("usage: AllocationCheck [REGEX] [--warmup-ms N] [--ops N]");
            return 0;
        }

        final com.sun.management.ThreadMXBean threads =
            (com.sun.management.ThreadMXBean)ManagementFactory.getThreadMXBean();
        if (!threads.isThreadAllocatedMemorySupported() || !threads.isThreadAllocatedMemoryEnabled())
        {
            err.println("AllocationCheck: this JVM cannot count per-thread allocation");
            return 2;
        }
        final long calibration = calibration(threads);

        int failures = 0;
        int checked = 0;
        out.printf(Locale.ROOT, "%-48s %14s %12s %9s%n", "benchmark", "ops measured", "B/op", "bound");
        for (final String name : benchmarkNames())
        {
            if (!flags.filter().matcher(name).find())
            {
                continue;
            }
            if (!runsAlone(name))
            {
                out.printf(Locale.ROOT, "%-48s skipped: a @Group of threads (run it with JMH)%n",
                    name.replace("io.tokenclock.jmh.", ""));
                continue;
            }
            final Measurement m = measure(name, threads, calibration, flags);
            final boolean ok = m.withinBound();
            failures += ok ? 0 : 1;
            checked++;
            out.printf(Locale.ROOT, "%-48s %,14d %12.4f %9s%s%n", name.replace("io.tokenclock.jmh.", ""), m.ops(),
                m.perOp(), m.declared() == null ? "0" : "<= " + m.declared().bytesPerOp(),
                ok ? "" : "   OVER BOUND (" + m.bytes() + " bytes in total)");
        }
        if (checked == 0)
        {
            err.println("AllocationCheck: no benchmark matches " + flags.filter());
            return 2;
        }
        out.println(failures == 0 ?
            "all " + checked + " benchmarks within their allocation bound in steady state (thread-allocated bytes; " +
                "0 means <= 1 B/op)" :
            failures + " of " + checked + " benchmarks allocate more than their bound in steady state");
        return failures == 0 ? 0 : 1;
    }

    private static Flags flags(final String[] args)
    {
        Pattern filter = Pattern.compile(".*");
        long warmupMs = 1_500;
        long ops = 200_000;
        for (int i = 0; i < args.length; i++)
        {
            switch (args[i])
            {
                case "--warmup-ms" -> warmupMs = Long.parseLong(args[++i]);
                case "--ops" -> ops = Long.parseLong(args[++i]);
                case "-h", "--help" ->
                {
                    return new Flags(filter, warmupMs, ops, true);
                }
                default -> filter = Pattern.compile(args[i]);
            }
        }
        return new Flags(filter, warmupMs, ops, false);
    }

    /** @return whether {@code name} is a method without parameters, which one thread can call: not a {@code @Group}. */
    private static boolean runsAlone(final String name) throws ClassNotFoundException
    {
        final int dot = name.lastIndexOf('.');
        for (final Method m : Class.forName(name.substring(0, dot)).getMethods())
        {
            if (m.getName().equals(name.substring(dot + 1)) && m.getParameterCount() == 0)
            {
                return true;
            }
        }
        return false;
    }

    /** @return the bytes that reading the counter itself allocates, to subtract. */
    private static long calibration(final com.sun.management.ThreadMXBean threads)
    {
        final long tid = Thread.currentThread().threadId();
        long calibration = Long.MAX_VALUE;
        for (int i = 0; i < CALIBRATION_ROUNDS; i++)
        {
            final long a = threads.getThreadAllocatedBytes(tid);
            calibration = Math.min(calibration, threads.getThreadAllocatedBytes(tid) - a);
        }
        return calibration;
    }

    /**
     * Runs one benchmark on a fresh instance between its trial helpers: warmed up for {@code warmupMs}, then measured.
     */
    private static Measurement measure(
        final String name, final com.sun.management.ThreadMXBean threads, final long calibration, final Flags flags)
        throws Throwable
    {
        final long tid = Thread.currentThread().threadId();
        final int dot = name.lastIndexOf('.');
        final Class<?> type = Class.forName(name.substring(0, dot));
        final Object instance = type.getDeclaredConstructor().newInstance();
        invokeHelpers(type, instance, Setup.class);
        final Method m = type.getMethod(name.substring(dot + 1));
        final MethodHandle op = MethodHandles.publicLookup().unreflect(m).bindTo(instance)
            .asType(MethodType.methodType(void.class));

        final long warmupEnd = System.nanoTime() + flags.warmupMs() * 1_000_000L;
        long warmupOps = 0;
        while (System.nanoTime() < warmupEnd)
        {
            for (int i = 0; i < 1_000; i++)
            {
                op.invokeExact();
            }
            warmupOps += 1_000;
        }
        // Slow benchmarks (interval swaps) get fewer measured ops: as many as ran in a fifth of the warm-up.
        final long measured = Math.max(100, Math.min(flags.ops(), warmupOps / 5));
        final long before = threads.getThreadAllocatedBytes(tid);
        for (long i = 0; i < measured; i++)
        {
            op.invokeExact();
        }
        final long bytes = Math.max(0, threads.getThreadAllocatedBytes(tid) - before - calibration);
        invokeHelpers(type, instance, TearDown.class);
        return new Measurement(measured, bytes, m.getAnnotation(AllocationBound.class));
    }

    private static void invokeHelpers(
        final Class<?> type, final Object instance, final Class<? extends Annotation> kind)
        throws ReflectiveOperationException
    {
        for (final Method m : type.getMethods())
        {
            if (Modifier.isStatic(m.getModifiers()) || m.getParameterCount() != 0)
            {
                continue;
            }
            final Level level = kind == Setup.class ?
                (m.isAnnotationPresent(Setup.class) ? m.getAnnotation(Setup.class).value() : null) :
                (m.isAnnotationPresent(TearDown.class) ? m.getAnnotation(TearDown.class).value() : null);
            if (level == Level.Trial)
            {
                m.invoke(instance);
            }
            else if (level != null)
            {
                throw new IllegalStateException(type.getName() + "." + m.getName() + ": only Level.Trial helpers are " +
                    "supported");
            }
        }
    }

    /** @return the fully qualified benchmark methods listed in JMH's {@code META-INF/BenchmarkList}, in order. */
    static List<String> benchmarkNames() throws IOException
    {
        final List<String> names = new ArrayList<>();
        try (InputStream in = AllocationCheck.class.getResourceAsStream("/META-INF/BenchmarkList"))
        {
            if (in == null)
            {
                throw new IOException("META-INF/BenchmarkList not on the classpath (run from benchmarks.jar)");
            }
            for (final String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n"))
            {
                // JMH 1.37 lines are "JMH S <len> <userClass> S <len> <generatedClass> S <len> <method> ...".
                final String[] f = line.trim().split(" ");
                if (f.length > 9 && f[0].equals("JMH"))
                {
                    final String name = f[3] + "." + f[9];
                    if (!names.contains(name))
                    {
                        names.add(name);
                    }
                }
            }
        }
        names.sort(String::compareTo);
        return names;
    }
}
