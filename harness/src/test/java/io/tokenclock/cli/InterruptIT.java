package io.tokenclock.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import io.tokenclock.fixtures.sim.SimConfig;
import io.tokenclock.fixtures.sim.SimServer;
import io.tokenclock.results.record.RecordJson;
import io.tokenclock.report.RecordBlock;
import io.tokenclock.testing.ScriptedSseServer;

/**
 * A run stopped from outside, as a user stops it: {@code tokenclock run} in its own JVM against a simulator whose
 * answers take seconds, signalled mid-window. SIGINT and SIGTERM stop the schedule, let requests in flight run for
 * the grace period, cancel the rest, and leave a record marked partial with exit 130 and 143; a second signal stops at
 * once; {@code kill -9} leaves the record written when the window opened (valid, marked partial) and a
 * {@code requests.jsonl} whose every line parses, holding every request that finished well before the kill. A
 * directory that holds a run is refused unless {@code --force}.
 */
@Timeout(240)
@Tag("slow") // starts JVMs, signals them and waits for their exit: skipped by -Pfast
final class InterruptIT
{
    private static final ObjectMapper JSON = new ObjectMapper();
    /** Long enough answers that requests are always in flight: 60 tokens at 50 ms, 3 s each. */
    private static final SimConfig SLOW = new SimConfig().prefillBaseMs(5).decodeBaseMs(50).jitter(0);

    @TempDir
    Path dir;

    private SimServer server;

    @BeforeEach
    void startServer() throws Exception
    {
        server = SimServer.start(SLOW);
    }

    @AfterEach
    void stopServer()
    {
        server.close();
    }

    @Test
    void shouldStopOnSigintLetTheGracePassCancelTheRestAndWriteAPartialRecord() throws Exception
    {
        final Path run = dir.resolve("run");
        final Process p = startLong(run, "1");
        awaitFinishedRequests(run, 2);
        ChildJvm.signal(p, "INT");
        assertEquals(130, ChildJvm.exit(p, 60), console(run));
        final JsonNode record = record(run);
        assertTrue(record.path("partial").asBoolean(), record.path("partial_reason").asText());
        assertTrue(record.path("partial_reason").asText().contains("SIGINT"), record.path("partial_reason").asText());
        final JsonNode counts = record.path("report").path("counts");
        assertTrue(counts.path("cancelled").asLong() >= 1, "3 s answers outlive a 1 s grace: " + counts);
        assertTrue(counts.path("measured").asLong() < 200, "the schedule stopped: " + counts);
        final List<JsonNode> rows = requests(run);
        assertEquals(counts.path("measured").asLong() + counts.path("warmup").asLong(), rows.size(),
            "every request the record counts is in requests.jsonl");
        assertTrue(rows.stream().anyMatch(r -> "cancelled".equals(r.path("status").asText())));
        assertTrue(console(run).contains("PARTIAL"), console(run));
    }

    @Test
    void shouldStopOnSigtermWithExit143() throws Exception
    {
        final Path run = dir.resolve("run");
        final Process p = startLong(run, "1");
        awaitFinishedRequests(run, 1);
        ChildJvm.signal(p, "TERM");
        assertEquals(143, ChildJvm.exit(p, 60), console(run));
        assertTrue(record(run).path("partial_reason").asText().contains("SIGTERM"));
    }

    @Test
    void shouldStopAtOnceOnASecondSignal() throws Exception
    {
        final Path run = dir.resolve("run");
        final Process p = startLong(run, "120");
        awaitFinishedRequests(run, 1);
        ChildJvm.signal(p, "INT");
        Thread.sleep(500);
        ChildJvm.signal(p, "INT");
        assertEquals(130, ChildJvm.exit(p, 20), "a 120 s grace was cut short: " + console(run));
        assertTrue(record(run).path("partial").asBoolean(), "the record written when the window opened remains");
        requests(run);
    }

    @Test
    void shouldLeaveAValidPartialRecordAndWholeLinesAfterKill9() throws Exception
    {
        final Path run = dir.resolve("run");
        final Process p = startLong(run, "1");
        final int before = awaitFinishedRequests(run, 3);
        p.destroyForcibly();
        assertTrue(p.waitFor(30, TimeUnit.SECONDS));
        final JsonNode record = record(run);
        assertTrue(record.path("partial").asBoolean());
        assertTrue(record.path("partial_reason").asText().contains("in progress"), record.toString());
        assertTrue(RecordBlock.render(RecordJson.of(record)).startsWith("PARTIAL RECORD: "),
            "tokenclock record says so first");
        assertTrue(requests(run).size() >= before, "no finished request lost");
        try (Stream<Path> files = Files.list(run))
        {
            assertTrue(files.noneMatch(f -> f.getFileName().toString().endsWith(".tmp")),
                "no half-written record left behind");
        }
    }

    @Test
    void shouldRefuseADirectoryThatHoldsARunUnlessForced() throws Exception
    {
        final Path run = dir.resolve("run");
        Files.createDirectories(run);
        Files.writeString(run.resolve("requests.jsonl"), "{}\n");
        final Process refused = start(run, "--requests", "2", "--max-tokens", "2");
        assertEquals(2, ChildJvm.exit(refused, 60));
        final String said = console(run);
        assertTrue(said.contains("already holds a result") && said.contains("--force"), said);
        assertEquals(1, said.strip().lines().count(), "one line: " + said);
        assertEquals("{}\n", Files.readString(run.resolve("requests.jsonl")), "nothing was overwritten");

        final Process forced = start(run, "--requests", "2", "--max-tokens", "2", "--force");
        assertEquals(0, ChildJvm.exit(forced, 60), console(run));
        assertFalse(record(run).path("partial").asBoolean());
    }

    @Test
    void shouldEndAReadinessWaitAtOnceOnAFirstSigtermWithOneTrueLine() throws Exception
    {
        try (NotReady notReady = new NotReady(false))
        {
            final Path run = dir.resolve("run");
            final Process p = startAgainst(run, notReady.url(), "--wait-ready", "120");
            awaitConsole(run, "not ready");
            ChildJvm.signal(p, "TERM");
            assertEquals(143, ChildJvm.exit(p, 10), "a first signal ended the wait: " + console(run));
            assertStoppedBeforeTheWindow(run, "SIGTERM");
        }
    }

    @Test
    void shouldEndAPreflightThatWaitsForASilentStreamAtOnceOnAFirstSigint() throws Exception
    {
        try (NotReady silent = new NotReady(true))
        {
            final Path run = dir.resolve("run");
            final Process p = startAgainst(run, silent.url(), "--timeout", "120");
            silent.awaitPreflight();
            ChildJvm.signal(p, "INT");
            assertEquals(130, ChildJvm.exit(p, 10), "a first signal ended the preflight: " + console(run));
            assertStoppedBeforeTheWindow(run, "SIGINT");
        }
    }

    private void assertStoppedBeforeTheWindow(final Path run, final String signal) throws IOException
    {
        final List<String> lines = console(run).strip().lines().filter(l -> !l.isBlank())
            .filter(l -> !l.contains("not ready")).toList();
        assertEquals(1, lines.size(), "one line: " + lines);
        assertTrue(lines.get(0).contains(signal) && lines.get(0).contains("before the measured window"), lines.get(0));
        assertFalse(console(run).contains("in flight") || console(run).contains("partial"),
            "nothing speaks of requests in flight or of a partial record: " + console(run));
        assertFalse(Files.exists(run.resolve("record.json")), "there is no record");
    }

    /**
     * A server that is loading (503 on every path), or one whose stream starts and then says nothing until it is
     * closed.
     */
    private static final class NotReady implements AutoCloseable
    {
        private final ScriptedSseServer http = new ScriptedSseServer();
        private final CountDownLatch preflight = new CountDownLatch(1);
        private final CountDownLatch closing = new CountDownLatch(1);

        NotReady(final boolean silentStream) throws IOException
        {
            http.on("/v1/models", x -> ScriptedSseServer.reply(x, silentStream ? 200 : 503, silentStream ?
                "{\"data\":[{\"id\":\"m\"}]}" : "{\"error\":\"Loading model\"}"));
            http.on("/v1/chat/completions", x ->
            {
                if (!silentStream)
                {
                    ScriptedSseServer.reply(x, 503, "{\"error\":\"Loading model\"}");
                    return;
                }
                ScriptedSseServer.openStream(x);
                preflight.countDown();
                try
                {
                    closing.await(60, TimeUnit.SECONDS);
                }
                catch (final InterruptedException ex)
                {
                    Thread.currentThread().interrupt();
                }
                x.close();
            });
            http.start();
        }

        String url()
        {
            return http.apiUrl();
        }

        void awaitPreflight() throws InterruptedException
        {
            assertTrue(preflight.await(60, TimeUnit.SECONDS), "the preflight was sent");
        }

        @Override
        public void close()
        {
            closing.countDown();
            http.close();
        }
    }

    private void awaitConsole(final Path run, final String text) throws Exception
    {
        final long deadlineNs = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!console(run).contains(text))
        {
            assertTrue(System.nanoTime() < deadlineNs, "never said " + text + ": " + console(run));
            Thread.sleep(50);
        }
    }

    private Process startAgainst(final Path run, final String url, final String... extra) throws IOException
    {
        final List<String> command = ChildJvm.tokenclock();
        command.addAll(List.of("run", "--url", url, "--model", "m",
            "--concurrency", "1", "--requests", "2", "--no-progress", "--output-dir", run.toString()));
        command.addAll(List.of(extra));
        Files.createDirectories(dir);
        return new ProcessBuilder(command).redirectErrorStream(true)
            .redirectOutput(dir.resolve("console-" + run.getFileName() + ".txt").toFile()).start();
    }

    /** A run of 200 three-second answers at concurrency 4: far longer than any test waits. */
    private Process startLong(final Path run, final String grace) throws IOException
    {
        return start(run, "--requests", "200", "--max-tokens", "60", "--grace", grace);
    }

    private Process start(final Path run, final String... extra) throws IOException
    {
        final List<String> command = ChildJvm.tokenclock();
        command.addAll(List.of("run",
            "--url", "http://127.0.0.1:" + server.port() + "/v1", "--model", SLOW.modelName(),
            "--concurrency", "4", "--ignore-eos", "--no-progress", "--output-dir", run.toString()));
        command.addAll(List.of(extra));
        Files.createDirectories(dir);
        return new ProcessBuilder(command).redirectErrorStream(true)
            .redirectOutput(dir.resolve("console-" + run.getFileName() + ".txt").toFile()).start();
    }

    private String console(final Path run) throws IOException
    {
        final Path file = dir.resolve("console-" + run.getFileName() + ".txt");
        return Files.exists(file) ? Files.readString(file, StandardCharsets.UTF_8) : "";
    }

    /** Waits until requests.jsonl holds {@code n} measured lines (the run is in its window); returns the count. */
    private static int awaitFinishedRequests(final Path run, final int n) throws Exception
    {
        final long deadlineNs = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        final Path file = run.resolve("requests.jsonl");
        while (System.nanoTime() < deadlineNs)
        {
            if (Files.exists(file) && Files.exists(run.resolve("record.json")))
            {
                final long lines = Files.readAllLines(file).size();
                if (lines >= n)
                {
                    Thread.sleep(300);
                    return Files.readAllLines(file).size();
                }
            }
            Thread.sleep(50);
        }
        throw new AssertionError("the run never finished " + n + " requests");
    }

    private static JsonNode record(final Path run) throws IOException
    {
        return JSON.readTree(run.resolve("record.json").toFile());
    }

    /** Every line parses; returns them. */
    private static List<JsonNode> requests(final Path run) throws IOException
    {
        final List<JsonNode> rows = new ArrayList<>();
        for (final String line : Files.readAllLines(run.resolve("requests.jsonl")))
        {
            rows.add(JSON.readTree(line));
        }
        return rows;
    }
}
