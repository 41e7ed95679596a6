package io.tokenclock.runner;

import java.io.IOException;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import io.tokenclock.secrets.Redaction;

/**
 * Captures the client host: CPU model, logical CPUs, memory, OS and kernel, JVM and GC, container limits. Each value
 * is read, never assumed; what cannot be read is recorded as null. Linux sources: /proc/cpuinfo, /proc/meminfo,
 * /etc/os-release, and the cgroup v2 files cpu.max and memory.max, recorded as written. cgroup v1 keeps its limits
 * in other files (cpu.cfs_quota_us, memory.limit_in_bytes) that are not read: on a v1 host both limits are null.
 * <p>
 * In the runner, not in report, because it runs things ({@code nvidia-smi}, TCP connects to the server): the
 * preparation phase calls it once before the window, and its findings travel in the result
 * ({@code run.ClientHost}, {@code RunResult.Provenance#connectRtt}), so that writing a record runs nothing.
 */
final class EnvironmentCapture
{
    private EnvironmentCapture()
    {
    }

    /** @return an ordered map of the client host's facts, JSON-ready. */
    public static Map<String, Object> client()
    {
        final Map<String, Object> m = new LinkedHashMap<>();
        m.put("hostname", hostname());
        m.put("cpu_model", firstValue(Path.of("/proc/cpuinfo"), "model name"));
        m.put("logical_cpus", Runtime.getRuntime().availableProcessors());
        m.put("sockets", countDistinct(Path.of("/proc/cpuinfo"), "physical id"));
        m.put("numa_nodes", numaNodes());
        m.put("memory_total_bytes", memTotalBytes());
        m.put("os", osPrettyName());
        m.put("kernel", System.getProperty("os.name") + " " + System.getProperty("os.version"));
        m.put("arch", System.getProperty("os.arch"));
        m.put("jvm", System.getProperty("java.vm.name") + " " + System.getProperty("java.runtime.version") +
            " (" + System.getProperty("java.vm.vendor") + ")");
        m.put("jvm_max_heap_bytes", Runtime.getRuntime().maxMemory());
        final List<String> gcs = new ArrayList<>();
        for (final GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans())
        {
            gcs.add(gc.getName());
        }
        m.put("gc", gcs);
        m.put("jvm_arguments", Redaction.jvmArguments(ManagementFactory.getRuntimeMXBean().getInputArguments()));
        m.put("container_cpu_limit", readFirstLine(Path.of("/sys/fs/cgroup/cpu.max")));
        m.put("container_memory_limit", readFirstLine(Path.of("/sys/fs/cgroup/memory.max")));
        return m;
    }

    /** The fields {@link #gpus()} asks nvidia-smi for, in order. */
    static final String GPU_QUERY = "index,name,uuid,memory.total,driver_version,power.limit,clocks.max.sm," +
        "clocks.max.mem,mig.mode.current,pstate";
    /** How long {@link #gpus()} waits for nvidia-smi, in ms, before it kills it and records no GPUs. */
    static final long GPU_QUERY_TIMEOUT_MS = 10_000;

    /**
     * The local GPU inventory from {@code nvidia-smi --query-gpu}, one map per GPU, or an empty list when there is no
     * nvidia-smi (the usual case on a client machine; a server's GPUs are declared in the contract when the server
     * runs elsewhere), when it fails, or when it has not answered within {@link #GPU_QUERY_TIMEOUT_MS} (a hung
     * driver). Thread-safe: each call runs its own process.
     */
    public static List<Map<String, String>> gpus()
    {
        final String text = boundedOutput(
            List.of("nvidia-smi", "--query-gpu=" + GPU_QUERY, "--format=csv,noheader,nounits"), GPU_QUERY_TIMEOUT_MS);
        return text != null ? parseGpuCsv(text, GPU_QUERY.split(",")) : new ArrayList<>();
    }

    /**
     * Runs {@code command} and returns its output, stdout and stderr together, or null when it cannot start, exits
     * non-zero, or is still running after {@code timeoutMs}, in which case it is killed. The output goes to a
     * temporary file, not a pipe: reading a pipe to its end blocks for as long as the command keeps it open, which
     * is what would defeat the bound, and a command that fills a pipe nobody reads would block until the timeout.
     */
    static String boundedOutput(final List<String> command, final long timeoutMs)
    {
        Path file = null;
        Process process = null;
        try
        {
            file = Files.createTempFile("tokenclock-command-", ".out");
            process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(file.toFile()).start();
            if (!process.waitFor(timeoutMs, TimeUnit.MILLISECONDS) || process.exitValue() != 0)
            {
                return null;
            }
            return new String(Files.readAllBytes(file), StandardCharsets.UTF_8);
        }
        catch (final IOException ex)
        {
            return null;
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            return null;
        }
        finally
        {
            if (process != null && process.isAlive())
            {
                process.destroyForcibly();
            }
            deleteQuietly(file);
        }
    }

    private static void deleteQuietly(final Path file)
    {
        if (file == null)
        {
            return;
        }
        try
        {
            Files.deleteIfExists(file);
        }
        catch (final IOException ex)
        {
            // a leftover file in the temporary directory is harmless
        }
    }

    static List<Map<String, String>> parseGpuCsv(final String text, final String[] keys)
    {
        final List<Map<String, String>> out = new ArrayList<>();
        for (final String line : text.split("\n"))
        {
            if (line.isBlank())
            {
                continue;
            }
            final String[] values = line.split(",");
            final Map<String, String> gpu = new LinkedHashMap<>();
            for (int i = 0; i < keys.length && i < values.length; i++)
            {
                gpu.put(keys[i], values[i].trim());
            }
            out.add(gpu);
        }
        return out;
    }

    /**
     * TCP connect round trips to {@code host:port}: {@code probes} connects, each timed from {@code connect()} to
     * established, then closed. A connect is one network round trip (SYN, SYN-ACK) plus the kernel's work on both
     * ends, so its distribution describes the client/server path apart from any HTTP or model work.
     *
     * @return p50, p99, min, max in ms and the count, or an {@code error} entry when the host cannot be reached.
     */
    public static Map<String, Object> connectRtt(final String host, final int port, final int probes)
    {
        final Map<String, Object> m = new LinkedHashMap<>();
        final long[] ns = new long[probes];
        int n = 0;
        for (int i = 0; i < probes; i++)
        {
            try (Socket socket = new Socket())
            {
                final long start = System.nanoTime();
                socket.connect(new InetSocketAddress(host, port), 2_000);
                ns[n++] = System.nanoTime() - start;
            }
            catch (final IOException ex)
            {
                m.put("error", ex.getClass().getSimpleName() + ": " + ex.getMessage());
                break;
            }
        }
        Arrays.sort(ns, 0, n);
        m.put("probes", n);
        if (n > 0)
        {
            m.put("min_ms", ns[0] / 1e6);
            m.put("p50_ms", ns[(n - 1) / 2] / 1e6);
            m.put("p99_ms", ns[(int)Math.ceil(0.99 * n) - 1] / 1e6);
            m.put("max_ms", ns[n - 1] / 1e6);
        }
        return m;
    }

    private static String hostname()
    {
        try
        {
            return InetAddress.getLocalHost().getHostName();
        }
        catch (final IOException ex)
        {
            return System.getenv().getOrDefault("HOSTNAME", null);
        }
    }

    private static Integer numaNodes()
    {
        try (var nodes = Files.list(Path.of("/sys/devices/system/node")))
        {
            final long n = nodes.filter(d -> d.getFileName().toString().matches("node[0-9]+")).count();
            return n > 0 ? (int)n : null;
        }
        catch (final IOException | RuntimeException ex)
        {
            return null;
        }
    }

    private static Long memTotalBytes()
    {
        final String v = firstValue(Path.of("/proc/meminfo"), "MemTotal");
        if (v == null)
        {
            return null;
        }
        try
        {
            return Long.parseLong(v.replace("kB", "").trim()) * 1024;
        }
        catch (final NumberFormatException ex)
        {
            return null;
        }
    }

    private static String osPrettyName()
    {
        try
        {
            for (final String line : Files.readAllLines(Path.of("/etc/os-release")))
            {
                if (line.startsWith("PRETTY_NAME="))
                {
                    return line.substring("PRETTY_NAME=".length()).replace("\"", "");
                }
            }
        }
        catch (final IOException | RuntimeException ex)
        {
            // fall through: not Linux, or no os-release
        }
        return System.getProperty("os.name");
    }

    private static String firstValue(final Path file, final String key)
    {
        try
        {
            for (final String line : Files.readAllLines(file))
            {
                final int colon = line.indexOf(':');
                if (colon > 0 && line.substring(0, colon).trim().equals(key))
                {
                    return line.substring(colon + 1).trim();
                }
            }
        }
        catch (final IOException | RuntimeException ex)
        {
            // not readable here
        }
        return null;
    }

    private static Integer countDistinct(final Path file, final String key)
    {
        try
        {
            final Set<String> seen = new HashSet<>();
            for (final String line : Files.readAllLines(file))
            {
                final int colon = line.indexOf(':');
                if (colon > 0 && line.substring(0, colon).trim().equals(key))
                {
                    seen.add(line.substring(colon + 1).trim());
                }
            }
            return seen.isEmpty() ? null : seen.size();
        }
        catch (final IOException | RuntimeException ex)
        {
            return null;
        }
    }

    private static String readFirstLine(final Path file)
    {
        try
        {
            final List<String> lines = Files.readAllLines(file);
            return lines.isEmpty() ? null : lines.get(0).trim();
        }
        catch (final IOException | RuntimeException ex)
        {
            return null;
        }
    }
}
