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
import java.util.concurrent.TimeUnit;

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
import io.tokenclock.report.RecordBlock;

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
        signal(p, "INT");
        assertEquals(130, exit(p, 60), console(run));
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
        signal(p, "TERM");
        assertEquals(143, exit(p, 60), console(run));
        assertTrue(record(run).path("partial_reason").asText().contains("SIGTERM"));
    }

    @Test
    void shouldStopAtOnceOnASecondSignal() throws Exception
    {
        final Path run = dir.resolve("run");
        final Process p = startLong(run, "120");
        awaitFinishedRequests(run, 1);
        signal(p, "INT");
        Thread.sleep(500);
        signal(p, "INT");
        assertEquals(130, exit(p, 20), "a 120 s grace was cut short: " + console(run));
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
        assertTrue(RecordBlock.render(record).startsWith("PARTIAL RECORD: "),
            "tokenclock record says so first");
        assertTrue(requests(run).size() >= before, "no finished request lost");
        assertFalse(Files.exists(run.resolve("record.json.tmp")), "no half-written record left behind");
    }

    @Test
    void shouldRefuseADirectoryThatHoldsARunUnlessForced() throws Exception
    {
        final Path run = dir.resolve("run");
        Files.createDirectories(run);
        Files.writeString(run.resolve("requests.jsonl"), "{}\n");
        final Process refused = start(run, "--requests", "2", "--max-tokens", "2");
        assertEquals(2, exit(refused, 60));
        final String said = console(run);
        assertTrue(said.contains("already holds a run") && said.contains("--force"), said);
        assertEquals(1, said.strip().lines().count(), "one line: " + said);
        assertEquals("{}\n", Files.readString(run.resolve("requests.jsonl")), "nothing was overwritten");

        final Process forced = start(run, "--requests", "2", "--max-tokens", "2", "--force");
        assertEquals(0, exit(forced, 60), console(run));
        assertFalse(record(run).path("partial").asBoolean());
    }

    /** A run of 200 three-second answers at concurrency 4: far longer than any test waits. */
    private Process startLong(final Path run, final String grace) throws IOException
    {
        return start(run, "--requests", "200", "--max-tokens", "60", "--grace", grace);
    }

    private Process start(final Path run, final String... extra) throws IOException
    {
        final List<String> command = new ArrayList<>(List.of(
            Path.of(System.getProperty("java.home"), "bin", "java").toString(),
            System.getProperty("tokenclock.jvmFlags"), "-Dtokenclock.tty=0", "-Dtokenclock.selfWarmup=false",
            "-jar", Path.of("target", "tokenclock.jar").toString(), "run",
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

    private static void signal(final Process p, final String name) throws Exception
    {
        final Process kill = new ProcessBuilder("kill", "-" + name, Long.toString(p.pid())).start();
        assertEquals(0, kill.waitFor(), "kill -" + name);
    }

    private static int exit(final Process p, final int seconds) throws InterruptedException
    {
        if (!p.waitFor(seconds, TimeUnit.SECONDS))
        {
            p.destroyForcibly();
            throw new AssertionError("still running after " + seconds + " s");
        }
        return p.exitValue();
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
