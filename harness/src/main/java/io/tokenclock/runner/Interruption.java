package io.tokenclock.runner;

import java.io.PrintStream;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.util.Locale;

/**
 * Ctrl-C and {@code SIGTERM} as a request to stop, not a crash: the first signal asks the run to stop scheduling,
 * give the requests in flight a grace period ({@code --grace}), record the rest as {@code cancelled}, write
 * {@code record.json} marked partial, and exit 130 (SIGINT) or 143 (SIGTERM). A second signal stops the process at
 * once with the same status: whoever sends it has decided not to wait. What is already on disk stays valid:
 * {@code requests.jsonl} is written in whole lines, and {@code record.json} was written, marked partial, at the
 * start of the measured window. A first signal before the window opens (probe, preflight, readiness waits) ends the
 * run at once with the same status and one line: nothing was measured, so nothing is written ({@link #preparing}).
 * <p>
 * Why {@code sun.misc.Signal} (module {@code jdk.unsupported}, in every JDK since 9): the JVM's default handling runs
 * shutdown hooks, which cannot keep a run going for a grace period, and it ignores a second signal. Where the
 * handlers cannot be installed (a JVM started with {@code -Xrs}), the default handling stays and the early partial
 * record is what remains.
 * <p>
 * Thread-safety: the handler runs on the JVM's signal thread; {@link #requested()} may be polled from any thread.
 */
public final class Interruption
{
    /** Never requested: for runs that install no handler (tests, the self-warm-up). */
    public static final Interruption NONE = new Interruption(null);

    private final PrintStream err;
    /** Whether {@link #deadlineNs} asks for the stop too ({@link #at}). */
    private final boolean hasDeadline;
    /** When the stop is asked for without a signal, System.nanoTime; meaningful only with {@link #hasDeadline}. */
    private final long deadlineNs;
    private volatile String signal;
    private volatile double graceS;
    private volatile long signalledAtNs;
    /** The thread preparing a run (probe, preflight, readiness), before its window opens; null in the window. */
    private Thread preparing;
    /** Whether the first signal came before a window opened: nothing was measured, nothing to let finish. */
    private volatile boolean beforeWindow;

    /**
     * Thrown on the preparing thread when a signal came before the measured window opened: the run ends at once,
     * with the signal's exit status; the signal's handler has already said so in one line.
     */
    public static final class Stopped extends RuntimeException
    {
        private static final long serialVersionUID = 1L;
        private final int exitStatus;

        Stopped(final String signal, final int exitStatus)
        {
            super("stopped by " + signal + " before the measured window");
            this.exitStatus = exitStatus;
        }

        /** @return 130 for SIGINT, 143 for SIGTERM. */
        public int exitStatus()
        {
            return exitStatus;
        }
    }

    private Interruption(final PrintStream err)
    {
        this(err, false, 0);
    }

    private Interruption(final PrintStream err, final boolean hasDeadline, final long deadlineNs)
    {
        this.err = err;
        this.hasDeadline = hasDeadline;
        this.deadlineNs = deadlineNs;
    }

    /**
     * A stop asked for by the clock, not a signal: from {@code deadlineNs} ({@code System.nanoTime}) on,
     * {@link #requested()} is true, and a run given it stops as after a first signal (no new request; those in flight
     * have {@code --grace}, then are cancelled), silently. Why: the self-warm-up's cap. {@code --duration} bounds only
     * a rehearsal's measured requests, and under {@code stress-ng} on the client's core its own warm-up phase and the
     * streams still in flight took the self-warm-up to 43-48 s against its 10 s (issue 41).
     */
    static Interruption at(final long deadlineNs)
    {
        return new Interruption(null, true, deadlineNs);
    }

    /**
     * Installs handlers for SIGINT and SIGTERM that report to this object.
     *
     * @param graceS the grace period the first signal's message announces, s.
     * @return the interruption to hand to the runner; {@link #NONE}-like if the handlers could not be installed.
     */
    public static Interruption install(final PrintStream err, final double graceS)
    {
        final Interruption interruption = new Interruption(err);
        interruption.graceS = graceS;
        try
        {
            handle("INT", () -> interruption.onSignal("SIGINT"));
            handle("TERM", () -> interruption.onSignal("SIGTERM"));
        }
        catch (final IllegalArgumentException | UnsupportedOperationException | LinkageError |
            ReflectiveOperationException ex)
        {
            return interruption;
        }
        return interruption;
    }

    /**
     * {@code sun.misc.Signal.handle(new Signal(name), handler)}, called through reflection. Not to hide the use (the
     * class javadoc gives the reason for it): javac's "internal proprietary API" warning for {@code sun.misc} is
     * mandatory, no {@code @SuppressWarnings} or {@code -Xlint} key silences it under {@code --release}, and the build
     * compiles with {@code -Xlint:all -Werror}. This is the one place that touches {@code jdk.unsupported}.
     * What {@code Signal} throws (a signal the JVM keeps, as under {@code -Xrs}) comes out unwrapped, as from a
     * direct call.
     */
    private static void handle(final String name, final Runnable onSignal) throws ReflectiveOperationException
    {
        final Class<?> signalClass = Class.forName("sun.misc.Signal");
        final Class<?> handlerClass = Class.forName("sun.misc.SignalHandler");
        final Object handler = Proxy.newProxyInstance(handlerClass.getClassLoader(), new Class<?>[] {handlerClass},
            (proxy, method, args) -> switch (method.getName())
            {
                case "handle" ->
                {
                    onSignal.run();
                    yield null;
                }
                case "hashCode" -> System.identityHashCode(proxy);
                case "equals" -> proxy == args[0];
                default -> "tokenclock's " + name + " handler";
            });
        try
        {
            final Object signal = signalClass.getConstructor(String.class).newInstance(name);
            signalClass.getMethod("handle", signalClass, handlerClass).invoke(null, signal, handler);
        }
        catch (final InvocationTargetException ex)
        {
            if (ex.getCause() instanceof final RuntimeException unchecked)
            {
                throw unchecked;
            }
            if (ex.getCause() instanceof final Error error)
            {
                throw error;
            }
            throw ex;
        }
    }

    /**
     * The calling thread prepares a run: probes, preflight, readiness waits. A first signal from now until
     * {@link #windowOpens} interrupts it, and the run ends at once ({@link Stopped}): there is nothing in flight to
     * give a grace period to, and no record to mark partial. No-op for {@link #NONE}.
     */
    public void preparing()
    {
        if (this != NONE)
        {
            synchronized (this)
            {
                preparing = Thread.currentThread();
            }
        }
    }

    /**
     * The measured window opens: from here a first signal is the graceful stop.
     *
     * @throws Stopped if a signal came while the run was being prepared.
     */
    public void windowOpens()
    {
        synchronized (this)
        {
            preparing = null;
        }
        stopIfSignalledBeforeWindow();
    }

    /** @throws Stopped, with the interrupt the signal left cleared, if a signal came before the window opened. */
    public void stopIfSignalledBeforeWindow()
    {
        if (beforeWindow)
        {
            Thread.interrupted();
            throw new Stopped(signal, exitStatus());
        }
    }

    /** Handles a signal as if the operating system had delivered it (also for tests). */
    void onSignal(final String name)
    {
        if (signal != null)
        {
            if (err != null)
            {
                err.println("tokenclock: second " + name + ": stopping now" + (beforeWindow ? "" :
                    " (requests.jsonl holds the finished requests; record.json is the partial record written when " +
                        "the window opened)"));
                err.flush();
            }
            Runtime.getRuntime().halt(exitStatus());
            return;
        }
        if (stopPreparation(name))
        {
            return;
        }
        signalledAtNs = System.nanoTime();
        signal = name;
        if (err != null)
        {
            err.printf(Locale.ROOT, "%ntokenclock: %s: no new requests; those in flight have %.0f s to " +
                "finish, then are cancelled; the record will be marked partial (%s again to stop at once)%n", name,
                graceS, name);
            err.flush();
        }
    }

    /** A first signal before the window: one line, and the preparing thread is interrupted. */
    private synchronized boolean stopPreparation(final String name)
    {
        if (preparing == null)
        {
            return false;
        }
        signalledAtNs = System.nanoTime();
        signal = name;
        beforeWindow = true;
        if (err != null)
        {
            err.printf(Locale.ROOT, "%ntokenclock: %s before the measured window (probe, preflight or readiness): " +
                "stopped; nothing was measured and no record is written%n", name);
            err.flush();
        }
        preparing.interrupt();
        return true;
    }

    /** @return when the first signal came, or the deadline (System.nanoTime); meaningful once {@link #requested()}. */
    public long signalledAtNs()
    {
        return signal == null && hasDeadline ? deadlineNs : signalledAtNs;
    }

    /** @return whether a stop was asked for: by a signal, or by the clock ({@link #at}). */
    public boolean requested()
    {
        return signal != null || (hasDeadline && System.nanoTime() - deadlineNs >= 0);
    }

    /** @return the signal's name ({@code SIGINT}, {@code SIGTERM}), or null if none came. */
    public String signalName()
    {
        return signal;
    }

    /** @return the exit status for the signal received: 130 for SIGINT, 143 for SIGTERM (128 + its number). */
    public int exitStatus()
    {
        return "SIGTERM".equals(signal) ? 143 : 130;
    }
}
