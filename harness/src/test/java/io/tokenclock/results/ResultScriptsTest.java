package io.tokenclock.results;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The scripts that made a committed figure still make it from the files committed beside it: a committed figure keeps
 * the command that made it, and the command lives in {@code scripts/} (results/ holds figures and their READMEs).
 * Each script is run on the committed inputs and its output compared with the committed one, byte for byte. Needs
 * {@code python3}, and skips in one line without it.
 */
final class ResultScriptsTest
{
    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    private static final Path APIS = ROOT.resolve("results/llama-server/apis-2026-12-06");
    private static final Path POOLING = ROOT.resolve("results/llama-server/pooling-2026-12-06");

    @TempDir
    Path tmp;

    /** {@code scripts/llama-server-beside}, in both layouts it reads (one server for three APIs; one per API). */
    @ParameterizedTest
    @ValueSource(strings = {".", "after-merge"})
    void shouldReprintTheEngineBesideTheClientTableOfEachApi(final String dir) throws IOException, InterruptedException
    {
        assertEquals(Files.readString(APIS.resolve(dir).resolve("table.txt")),
            python("scripts/llama-server-beside", APIS.resolve(dir).normalize().toString()));
    }

    @Test
    void shouldReprintTheEngineBesideTheClientTableOfEmbeddingsAndRerank() throws IOException, InterruptedException
    {
        assertEquals(Files.readString(POOLING.resolve("table.txt")), python("scripts/llama-server-pooling-beside",
            POOLING.resolve("embeddings").toString(), POOLING.resolve("rerank").toString()));
    }

    @Test
    void shouldWriteTheScaledSessionTraceAgainFromTheFixture() throws IOException, InterruptedException
    {
        final Path out = tmp.resolve("scaled.jsonl");
        assertEquals("", python("scripts/scale-trace",
            ROOT.resolve("harness/src/test/resources/io/tokenclock/workload/traces/aiperf-inference-day-2026.jsonl")
                .toString(), out.toString()));
        assertArrayEquals(Files.readAllBytes(
            ROOT.resolve("results/sessions/llama-server-2026-12-06/aiperf-inference-day-2026-scaled.jsonl")),
            Files.readAllBytes(out));
    }

    /** @return what {@code script} printed, run by python3 with {@code args}; it must exit 0. */
    private static String python(final String script, final String... args) throws IOException, InterruptedException
    {
        final List<String> command = new ArrayList<>(List.of("python3", ROOT.resolve(script).toString()));
        command.addAll(List.of(args));
        final Process p;
        try
        {
            p = new ProcessBuilder(command).redirectErrorStream(true).start();
        }
        catch (final IOException e)
        {
            assumeTrue(false, "no python3 (" + e.getMessage() + "): apt-get install python3 to run this test");
            return "";
        }
        final String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), script + " did not finish in 60 s");
        assertEquals(0, p.exitValue(), out);
        return out;
    }
}
