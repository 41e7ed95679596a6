package io.tokenclock.runner;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.text.ParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import jdk.jfr.Configuration;
import jdk.jfr.Recording;

import one.profiler.AsyncProfiler;

import io.tokenclock.config.RunOptions;

/**
 * Profiles the harness itself during a run ({@code --profile cpu|wall|alloc|lock}): async-profiler (from its Maven
 * artifact, which bundles the native library) writes an HTML flame graph, and a JDK Flight Recorder recording with
 * the {@code profile} settings is written beside it. Both go to {@code --profile-out}, by default the run's output
 * directory.
 * <p>
 * CPU profiling wants perf events; where the kernel refuses them ({@code kernel.perf_event_paranoid} above 1 without
 * the capability), the session falls back to the {@code itimer} sampler and says so in one line. The fallback sees
 * Java and native frames but not kernel ones.
 */
public final class ProfilerSession implements AutoCloseable
{
    /** The modes accepted by {@code --profile}. */
    public static final List<String> MODES = RunOptions.PROFILE_MODES;

    private final AsyncProfiler profiler;
    private final Recording jfr;
    private final Path dir;
    private final String mode;
    private final String event;
    private final List<String> files = new ArrayList<>();

    private ProfilerSession(
        final AsyncProfiler profiler, final Recording jfr, final Path dir, final String mode, final String event)
    {
        this.profiler = profiler;
        this.jfr = jfr;
        this.dir = dir;
        this.mode = mode;
        this.event = event;
    }

    /**
     * Starts profiling.
     *
     * @throws IllegalArgumentException for an unknown mode.
     * @throws IllegalStateException    if async-profiler cannot be loaded on this platform.
     */
    public static ProfilerSession start(final String mode, final Path dir, final PrintStream err) throws IOException
    {
        final String m = mode.toLowerCase(Locale.ROOT);
        if (!MODES.contains(m))
        {
            throw new IllegalArgumentException("--profile must be one of " + MODES + ": " + mode);
        }
        Files.createDirectories(dir);
        final AsyncProfiler profiler;
        try
        {
            profiler = AsyncProfiler.getInstance();
        }
        catch (final Throwable ex)
        {
            throw new IllegalStateException("async-profiler cannot load on this platform: " + ex.getMessage(), ex);
        }
        String event = m;
        try
        {
            profiler.execute("start,event=" + event + ",interval=" + interval(m));
        }
        catch (final IllegalStateException | IOException ex)
        {
            if (!m.equals("cpu"))
            {
                throw new IllegalStateException("async-profiler refused event " + m + ": " + ex.getMessage(), ex);
            }
            event = "itimer";
            err.println("tokenclock: perf events are not available here (" + oneLine(ex.getMessage()) + "; " +
                "kernel.perf_event_paranoid=" + paranoid() + "): profiling cpu with the itimer sampler instead");
            profiler.execute("start,event=itimer,interval=" + interval(m));
        }
        final Recording jfr = startJfr(dir);
        return new ProfilerSession(profiler, jfr, dir, m, event);
    }

    private static String interval(final String mode)
    {
        return switch (mode)
        {
            case "alloc" -> "512k";
            case "lock" -> "10us";
            default -> "1ms";
        };
    }

    /**
     * JFR events that carry what a recording must never hold: the environment (the API key's variable), the JVM's
     * and the program's arguments (header values, JVM options with passwords), system properties
     * ({@code sun.java.command} repeats the arguments), and the command lines of this and other processes.
     */
    static final List<String> SECRET_BEARING_EVENTS = List.of(
        "jdk.InitialEnvironmentVariable", "jdk.JVMInformation", "jdk.InitialSystemProperty", "jdk.SystemProcess",
        "jdk.ProcessStart", "jdk.JavaAgent", "jdk.NativeAgent");

    /**
     * Events the settings would take that tokenclock's recordings leave out. {@code jdk.ThreadDump} (every chunk: at
     * the recording's start and end) stops every thread to print them all, a safepoint operation that would land in
     * or at the edge of the measured window; and at a recording's end, while the run's threads were exiting, it
     * crashed a test JVM here (SIGSEGV in {@code pthread_getcpuclockid} under {@code VM_PrintThreads}, in
     * {@code JfrEventsIT}'s fork, JDK 25.0.3).
     */
    static final List<String> LEFT_OUT_EVENTS = List.of("jdk.ThreadDump");

    private static Recording startJfr(final Path dir) throws IOException
    {
        try
        {
            final Recording recording = new Recording(Configuration.getConfiguration("profile"));
            for (final String event : SECRET_BEARING_EVENTS)
            {
                recording.disable(event);
            }
            for (final String event : LEFT_OUT_EVENTS)
            {
                recording.disable(event);
            }
            recording.setName("tokenclock");
            recording.setDestination(dir.resolve("recording.jfr"));
            recording.start();
            return recording;
        }
        catch (final ParseException ex)
        {
            throw new IOException("cannot read the JFR 'profile' settings: " + ex.getMessage(), ex);
        }
    }

    /** @return the async-profiler event actually used (differs from the mode when cpu fell back to itimer). */
    public String event()
    {
        return event;
    }

    /** @return files written, after {@link #close()}. */
    public List<String> files()
    {
        return List.copyOf(files);
    }

    /** Stops both profilers and writes the flame graph and the JFR recording. */
    @Override
    public void close() throws IOException
    {
        final Path flame = dir.resolve("flamegraph-" + mode + ".html");
        profiler.execute("stop,file=" + flame.toAbsolutePath());
        files.add(flame.toString());
        jfr.stop();
        jfr.close();
        files.add(dir.resolve("recording.jfr").toString());
    }

    private static String paranoid()
    {
        try
        {
            return Files.readString(Path.of("/proc/sys/kernel/perf_event_paranoid")).strip();
        }
        catch (final IOException | RuntimeException ex)
        {
            return "unknown";
        }
    }

    private static String oneLine(final String s)
    {
        return s == null ? "refused" : s.replace('\n', ' ').strip();
    }
}
