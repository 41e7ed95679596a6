package io.tokenclock.energy;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

import io.tokenclock.clock.NanoClock;

/**
 * NVIDIA GPUs' power through {@code nvidia-smi --query-gpu=index,power.draw --format=csv,noheader,nounits -lms N},
 * run as a subprocess (an argument vector, no shell): each line it prints is stamped on the run's clock as it
 * arrives, on a reader thread of this source's own. Depending on the driver, {@code power.draw} is an instantaneous
 * reading or an average over the last second (docs/COST_ENERGY.md); the integral is over its samples either way.
 * The executable is looked up on the {@code PATH} given (the process's own by default), so that tests can put a fake
 * one first.
 * <p>
 * Thread-safety: lines are parsed on the reader thread; the channels are thread-safe.
 */
final class NvidiaSmiSource implements PowerSource
{
    private final String command;
    private final String searchPath;
    private final List<Integer> devices;
    private final long intervalMs;
    private final NanoClock clock;
    private final Map<String, Channel> channels = new TreeMap<>();
    private final Path executable;
    private Process process;
    private Thread reader;
    private volatile String failure;

    /**
     * @param command    {@code nvidia-smi}, or a path to it.
     * @param searchPath the {@code PATH} to look a bare command up on.
     * @param devices    GPU indices to read; empty for all.
     */
    NvidiaSmiSource(final String command, final String searchPath, final List<Integer> devices, final long intervalMs,
        final NanoClock clock)
    {
        this.command = command;
        this.searchPath = searchPath == null ? "" : searchPath;
        this.devices = List.copyOf(devices);
        this.intervalMs = intervalMs;
        this.clock = clock;
        this.executable = resolve();
    }

    private Path resolve()
    {
        if (command.contains("/"))
        {
            return Files.isExecutable(Path.of(command)) ? Path.of(command) : null;
        }
        for (final String dir : searchPath.split(File.pathSeparator))
        {
            final Path candidate = Path.of(dir.isEmpty() ? "." : dir, command);
            if (Files.isRegularFile(candidate) && Files.isExecutable(candidate))
            {
                return candidate;
            }
        }
        return null;
    }

    /** @return the argument vector run. */
    List<String> argv()
    {
        final List<String> argv = new ArrayList<>(List.of(String.valueOf(executable),
            "--query-gpu=index,power.draw", "--format=csv,noheader,nounits", "-lms", String.valueOf(intervalMs)));
        if (!devices.isEmpty())
        {
            argv.add("-i");
            argv.add(String.join(",", devices.stream().map(String::valueOf).toList()));
        }
        return argv;
    }

    @Override
    public void start(final Runnable atThreadStart)
    {
        if (executable == null)
        {
            return;
        }
        try
        {
            process = new ProcessBuilder(argv()).redirectErrorStream(true).start();
        }
        catch (final IOException ex)
        {
            failure = "nvidia-smi: cannot start " + executable + ": " + ex.getMessage();
            return;
        }
        reader = new Thread(() ->
        {
            atThreadStart.run();
            read();
        }, "tokenclock-power-nvidia-smi");
        reader.setDaemon(true);
        reader.start();
    }

    private void read()
    {
        try (BufferedReader in = new BufferedReader(new InputStreamReader(process.getInputStream(),
            StandardCharsets.UTF_8)))
        {
            String line;
            while ((line = in.readLine()) != null)
            {
                line(clock.nanoTime(), line);
            }
        }
        catch (final IOException ex)
        {
            // The process was stopped: its pipe closed under the reader.
        }
    }

    /** Takes one line of output, stamped {@code nowNs}: {@code INDEX, WATTS}; anything else is kept as a note. */
    void line(final long nowNs, final String line)
    {
        final String[] fields = line.split(",");
        if (fields.length != 2)
        {
            failure = "nvidia-smi: unexpected output: " + oneLine(line);
            return;
        }
        final String index = fields[0].trim();
        final Channel channel;
        synchronized (channels)
        {
            channel = channels.computeIfAbsent(index, i -> new Channel("nvidia-smi:" + i, Component.ACCELERATOR, 0));
        }
        try
        {
            channel.addPower(nowNs, Double.parseDouble(fields[1].trim()));
        }
        catch (final NumberFormatException ex)
        {
            channel.note("nvidia-smi: GPU " + oneLine(index) + " power.draw is " + oneLine(fields[1].trim()));
        }
    }

    private static String oneLine(final String s)
    {
        final String clean = s.replaceAll("\\p{Cntrl}", "?");
        return clean.length() > 120 ? clean.substring(0, 120) + "..." : clean;
    }

    /** Waits for the process to end on its own (tests: a fake that prints and exits); false on timeout. */
    boolean awaitExit(final long timeoutMs) throws InterruptedException
    {
        if (reader == null)
        {
            return true;
        }
        reader.join(timeoutMs);
        return !reader.isAlive();
    }

    @Override
    public void stop()
    {
        if (process == null)
        {
            return;
        }
        process.destroy();
        try
        {
            if (!process.waitFor(2, TimeUnit.SECONDS))
            {
                process.destroyForcibly();
            }
            reader.join(TimeUnit.SECONDS.toMillis(2));
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
        }
        process = null;
    }

    @Override
    public String describe()
    {
        return String.format(Locale.ROOT, "nvidia-smi power.draw (-lms) on this machine, GPUs %s",
            devices.isEmpty() ? "all" : devices);
    }

    @Override
    public List<Channel> channels(final long windowStartNs)
    {
        synchronized (channels)
        {
            return new ArrayList<>(channels.values());
        }
    }

    @Override
    public String unavailable()
    {
        if (executable == null)
        {
            return "nvidia-smi: " + command + " not found" + (command.contains("/") ? "" : " on PATH");
        }
        return failure != null && channels.isEmpty() ? failure : null;
    }

    @Override
    public void close()
    {
        stop();
    }
}
