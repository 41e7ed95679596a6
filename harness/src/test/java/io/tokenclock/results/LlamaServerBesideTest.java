package io.tokenclock.results;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code scripts/llama-server-beside} still prints the tables committed beside the runs it read, in both of the
 * layouts it reads (one server for three APIs; {@code scripts/llama-server}'s, one per API): a committed figure keeps
 * the command that made it. Needs {@code python3}, and skips in one line without it.
 */
final class LlamaServerBesideTest
{
    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    private static final Path RUNS = ROOT.resolve("results/llama-server/apis-2026-12-06");

    @ParameterizedTest
    @ValueSource(strings = {".", "after-merge"})
    void shouldReprintTheCommittedTable(final String dir) throws IOException, InterruptedException
    {
        final Process p;
        try
        {
            p = new ProcessBuilder("python3", ROOT.resolve("scripts/llama-server-beside").toString(),
                RUNS.resolve(dir).normalize().toString()).redirectErrorStream(true).start();
        }
        catch (final IOException e)
        {
            assumeTrue(false, "no python3 (" + e.getMessage() + "): apt-get install python3 to run this test");
            return;
        }
        final String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "the script did not finish in 60 s");
        assertEquals(0, p.exitValue(), out);
        assertEquals(Files.readString(RUNS.resolve(dir).resolve("table.txt")), out);
    }
}
