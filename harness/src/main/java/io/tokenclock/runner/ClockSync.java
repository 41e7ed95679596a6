package io.tokenclock.runner;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * What a shard can read of its host's clock synchronisation, for the record: {@code chronyc tracking},
 * {@code timedatectl show} and {@code adjtimex --print}, each as its output or why it gave none. Shards that share
 * one start time are only as aligned as their wall clocks; this says how far to trust that. Read before the window
 * (it runs processes), never during it.
 */
final class ClockSync
{
    private static final long TIMEOUT_MS = 2_000;
    private static final int MAX_CHARS = 2_000;
    private static final Map<String, List<String>> COMMANDS = Map.of(
        "chronyc_tracking", List.of("chronyc", "tracking"),
        "timedatectl", List.of("timedatectl", "show"),
        "adjtimex", List.of("adjtimex", "--print"));

    private ClockSync()
    {
    }

    /** @return each source's output (trimmed), or "unavailable: why"; in a fixed order. */
    static Map<String, String> read()
    {
        final Map<String, String> state = new LinkedHashMap<>();
        for (final String key : List.of("chronyc_tracking", "timedatectl", "adjtimex"))
        {
            state.put(key, run(COMMANDS.get(key)));
        }
        return state;
    }

    private static String run(final List<String> command)
    {
        try
        {
            final Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
            p.getOutputStream().close();
            final byte[] out;
            try (InputStream in = p.getInputStream())
            {
                out = in.readNBytes(MAX_CHARS);
            }
            if (!p.waitFor(TIMEOUT_MS, TimeUnit.MILLISECONDS))
            {
                p.destroyForcibly();
                return "unavailable: " + command.get(0) + " did not answer within " + TIMEOUT_MS + " ms";
            }
            final String text = new String(out, StandardCharsets.UTF_8).strip();
            return p.exitValue() == 0 ? text : "unavailable: " + command.get(0) + " exited " + p.exitValue() +
                (text.isEmpty() ? "" : ": " + text.lines().findFirst().orElse(""));
        }
        catch (final IOException ex)
        {
            return "unavailable: " + command.get(0) + " not found";
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            return "unavailable: interrupted";
        }
    }
}
