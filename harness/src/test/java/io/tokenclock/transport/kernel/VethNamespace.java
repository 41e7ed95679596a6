package io.tokenclock.transport.kernel;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A network namespace joined to this one by a veth pair, for tests whose traffic must cross a network device rather
 * than loopback: {@code ip netns add}, {@code ip link add ... type veth peer ... netns}, an address on each end.
 * Needs root and iproute2 ({@link #unavailableReason}). Every {@code ip} call is bounded in time; {@link #close}
 * removes the namespace and the pair, whatever state setup reached.
 * <p>
 * {@link #inside} runs code on a thread that has entered the namespace ({@code setns(2)}, which moves only the
 * calling thread): a socket created there, and a thread started from there (Netty's event loops start on their
 * first task, from the thread that gave it), belong to the namespace.
 */
final class VethNamespace implements AutoCloseable
{
    private static final int CLONE_NEWNET = 0x40000000;
    private static final int O_RDONLY_CLOEXEC = 0x80000;
    private static final long IP_TIMEOUT_S = 10;

    private final String name;
    private final String hostSide;
    private final String hostAddress;
    private final String nsAddress;

    private VethNamespace(final String name, final String hostSide, final String hostAddress, final String nsAddress)
    {
        this.name = name;
        this.hostSide = hostSide;
        this.hostAddress = hostAddress;
        this.nsAddress = nsAddress;
    }

    /** @return null when a namespace can be made here; else why not and how to enable it, in one sentence. */
    static String unavailableReason()
    {
        if (!"0".equals(uid()))
        {
            return "not root (uid " + uid() + "); run the integration tests as root to cross a veth pair";
        }
        if (!Files.isExecutable(Path.of("/usr/sbin/ip")) && !Files.isExecutable(Path.of("/sbin/ip")) &&
            !Files.isExecutable(Path.of("/usr/bin/ip")))
        {
            return "no ip command; apt-get install -y iproute2";
        }
        return null;
    }

    private static String uid()
    {
        try
        {
            for (final String line : Files.readAllLines(Path.of("/proc/self/status")))
            {
                if (line.startsWith("Uid:"))
                {
                    return line.substring(4).trim().split("\\s+")[0];
                }
            }
        }
        catch (final IOException e)
        {
            return "unknown: " + e.getMessage();
        }
        return "unknown";
    }

    /**
     * Creates the namespace and the pair. Names and the /24 come from this process's pid, so that two builds on
     * one machine (two worktrees) do not collide; 10.77.0.0/24 is scripts/shards-netns', not used here.
     */
    static VethNamespace create() throws IOException, InterruptedException
    {
        final long pid = ProcessHandle.current().pid() % 16_000;
        final String subnet = "10." + (100 + pid / 250) + "." + (pid % 250);
        final VethNamespace ns = new VethNamespace("tcveth" + pid, "tcv" + pid + "h", subnet + ".1", subnet + ".2");
        try
        {
            ns.ip("netns", "add", ns.name);
            ns.ip("link", "add", ns.hostSide, "type", "veth", "peer", "name", "eth0", "netns", ns.name);
            ns.ip("addr", "add", ns.hostAddress + "/24", "dev", ns.hostSide);
            ns.ip("link", "set", ns.hostSide, "up");
            ns.ip("-n", ns.name, "addr", "add", ns.nsAddress + "/24", "dev", "eth0");
            ns.ip("-n", ns.name, "link", "set", "eth0", "up");
            ns.ip("-n", ns.name, "link", "set", "lo", "up");
            return ns;
        }
        catch (final IOException | InterruptedException | RuntimeException e)
        {
            ns.close();
            throw e;
        }
    }

    /** @return the address inside the namespace (its end of the pair). */
    InetAddress nsAddress() throws IOException
    {
        return InetAddress.getByName(nsAddress);
    }

    /** @return the name of the pair's end in this (the host's) namespace, where the server's segments arrive. */
    String hostSide()
    {
        return hostSide;
    }

    /** @return bytes received so far by the pair's end in this namespace (what the namespace sent through it). */
    long hostSideRxBytes() throws IOException
    {
        return Long.parseLong(Files.readString(Path.of("/sys/class/net", hostSide, "statistics", "rx_bytes")).trim());
    }

    /** Runs {@code work} on a new thread inside the namespace, waiting at most {@code timeoutMs} for it. */
    <T> T inside(final Callable<T> work, final long timeoutMs) throws Exception
    {
        final AtomicReference<T> result = new AtomicReference<>();
        final AtomicReference<Throwable> failure = new AtomicReference<>();
        final Thread t = new Thread(() ->
        {
            try
            {
                enter();
                result.set(work.call());
            }
            catch (final Throwable e)
            {
                failure.set(e);
            }
        }, "tokenclock-netns-" + name);
        t.setDaemon(true);
        t.start();
        t.join(timeoutMs);
        if (t.isAlive())
        {
            throw new IllegalStateException("work inside " + name + " did not finish in " + timeoutMs + " ms");
        }
        if (failure.get() instanceof Exception e)
        {
            throw e;
        }
        if (failure.get() != null)
        {
            throw new IllegalStateException(failure.get());
        }
        return result.get();
    }

    /** Moves the calling thread into the namespace (setns(2): no Java API does it; jvm.flags grants native access). */
    @SuppressWarnings("restricted")
    private void enter() throws Throwable
    {
        final Linker linker = Linker.nativeLinker();
        final MethodHandle open = linker.downcallHandle(linker.defaultLookup().find("open").orElseThrow(),
            FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.ADDRESS, ValueLayout.JAVA_INT,
                ValueLayout.JAVA_INT), Linker.Option.firstVariadicArg(2));
        final MethodHandle setns = linker.downcallHandle(linker.defaultLookup().find("setns").orElseThrow(),
            FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.JAVA_INT));
        final MethodHandle close = linker.downcallHandle(linker.defaultLookup().find("close").orElseThrow(),
            FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_INT));
        try (Arena arena = Arena.ofConfined())
        {
            final MemorySegment path = arena.allocateFrom("/run/netns/" + name, StandardCharsets.US_ASCII);
            final int fd = (int)open.invokeExact(path, O_RDONLY_CLOEXEC, 0);
            if (fd < 0)
            {
                throw new IOException("open /run/netns/" + name + " failed");
            }
            final int r = (int)setns.invokeExact(fd, CLONE_NEWNET);
            final int ignored = (int)close.invokeExact(fd);
            if (r != 0)
            {
                throw new IOException("setns into " + name + " failed");
            }
        }
    }

    /** Runs {@code ip args...}, bounded in time; fails with its output when it fails. */
    private void ip(final String... args) throws IOException, InterruptedException
    {
        final List<String> command = new ArrayList<>(List.of("ip"));
        command.addAll(List.of(args));
        final Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        if (!p.waitFor(IP_TIMEOUT_S, TimeUnit.SECONDS))
        {
            p.destroyForcibly().waitFor(IP_TIMEOUT_S, TimeUnit.SECONDS);
            throw new IOException(String.join(" ", command) + " did not end in " + IP_TIMEOUT_S + " s");
        }
        final String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        if (p.exitValue() != 0)
        {
            throw new IOException(String.join(" ", command) + " failed (" + p.exitValue() + "): " + out);
        }
    }

    /** Removes the namespace (its end of the pair goes with it) and this end, ignoring what is already gone. */
    @Override
    public void close()
    {
        for (final String[] args : new String[][] {{"netns", "del", name}, {"link", "del", hostSide}})
        {
            try
            {
                ip(args);
            }
            catch (final IOException e)
            {
                // already gone, or never made: nothing to remove
            }
            catch (final InterruptedException e)
            {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }
}
