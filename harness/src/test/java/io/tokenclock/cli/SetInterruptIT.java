package io.tokenclock.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import io.tokenclock.fixtures.sim.SimConfig;
import io.tokenclock.fixtures.sim.SimServer;
import io.tokenclock.merge.ShardMerge;
import io.tokenclock.merge.SyntheticShards;

/**
 * {@code ab}, {@code sweep} and {@code merge} stopped from outside, each in its own JVM against the simulator (or on
 * synthetic shards), by SIGINT, SIGTERM and {@code kill -9}: every file left is whole, no run starts after a signal,
 * a run cut short is no sample, and the directory reads as a partial set in {@code record}, {@code report} and
 * {@code compare}. A merge stopped mid-write leaves no record that reads as whole.
 */
@Timeout(300)
@Tag("slow") // starts JVMs, signals them and waits for their exit: skipped by -Pfast
final class SetInterruptIT
{
    private static final ObjectMapper JSON = new ObjectMapper();
    /** 40-token answers at 25 ms a token: every run is a few seconds, long enough to be stopped in its window. */
    private static final SimConfig SLOW = new SimConfig().prefillBaseMs(5).decodeBaseMs(25).jitter(0);

    @RegisterExtension
    final CapturedConsole console = new CapturedConsole();

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
    void shouldStopAnAbAfterTheRunInFlightOnSigintAndLeaveTheCutRunOutOfItsFigures() throws Exception
    {
        final Path out = dir.resolve("ab");
        assertEquals(130, stopInWindow(ab(out), out.resolve("B").resolve("rep-2"), "INT"), console("ab"));
        assertFalse(Files.exists(out.resolve("A").resolve("rep-2")), "no run started after the signal");
        final JsonNode ab = JSON.readTree(out.resolve("ab.json").toFile());
        assertTrue(ab.path("partial").asText().startsWith("interrupted by SIGINT"), ab.path("partial").toString());
        assertEquals("[\"b 2\"]", ab.path("partial_runs").toString(), "the run the signal cut");
        ab.path("figures").forEach(f ->
        {
            assertEquals(1, f.path("a").size(), f.toString());
            assertTrue(f.path("exceeds_noise").isNull(), "one whole run a side gives no verdict: " + f);
        });
        assertFalse(console("ab").contains("differs"), console("ab"));
        assertWholeAndReadableAsPartial(out, "PARTIAL SET: interrupted by SIGINT");
    }

    @Test
    void shouldLeaveAnAbKilledWithSignal9ReadableAsThePartialSetItWas() throws Exception
    {
        final Path out = dir.resolve("ab");
        assertEquals(137, stopInWindow(ab(out), out.resolve("B").resolve("rep-2"), "KILL"), console("ab"));
        final JsonNode index = JSON.readTree(out.resolve("index.json").toFile());
        assertEquals(2, index.path("members").size(), "the two finished runs: " + index);
        assertTrue(JSON.readTree(out.resolve("ab.json").toFile()).path("partial").asText()
            .startsWith("in progress: 2 of 4 runs made"));
        assertWholeAndReadableAsPartial(out, "PARTIAL SET: in progress: 2 of 4 runs made");
    }

    @Test
    void shouldStopASweepAfterThePointInFlightOnSigtermAndMarkItPartial() throws Exception
    {
        final Path out = dir.resolve("sweep");
        assertEquals(143, stopInWindow(sweep(out), out.resolve("points").resolve("02-rate-4"), "TERM"),
            console("sweep"));
        assertFalse(Files.exists(out.resolve("points").resolve("03-rate-6")), "no point started after the signal");
        assertTrue(JSON.readTree(out.resolve("sweep.json").toFile()).path("partial").asText()
            .contains("SIGTERM"));
        assertWholeAndReadableAsPartial(out, "PARTIAL SET: interrupted by SIGTERM");
    }

    @Test
    void shouldLeaveASweepKilledWithSignal9ReadableAsThePartialSweepItWas() throws Exception
    {
        final Path out = dir.resolve("sweep");
        assertEquals(137, stopInWindow(sweep(out), out.resolve("points").resolve("02-rate-4"), "KILL"),
            console("sweep"));
        final JsonNode sweep = JSON.readTree(out.resolve("sweep.json").toFile());
        assertEquals(1, sweep.path("points").size(), sweep.toString());
        assertWholeAndReadableAsPartial(out, "PARTIAL SET: in progress: 1 run(s) made");
    }

    @Test
    void shouldLeaveRepetitionsKilledWithSignal9ReadableAsThePartialSetTheyWere() throws Exception
    {
        final Path out = dir.resolve("reps");
        final List<String> command = ChildJvm.tokenclock();
        command.addAll(List.of("run", "--url", server.baseUrl(), "--model", SLOW.modelName(), "--concurrency", "2",
            "--requests", "8", "--max-tokens", "40", "--ignore-eos", "--repetitions", "3", "--no-progress",
            "--no-report", "--output-dir", out.toString()));
        assertEquals(137, stopInWindow(start(command, "reps"), out.resolve("rep-2"), "KILL"), console("reps"));
        final JsonNode index = JSON.readTree(out.resolve("index.json").toFile());
        assertEquals(1, index.path("members").size(), "the finished repetition: " + index);
        assertWholeAndReadableAsPartial(out, "PARTIAL SET: in progress: 1 of 3 repetitions made");
    }

    @Test
    void shouldLeaveNoWholeLookingResultWhenAForcedMergeIsStoppedMidWrite() throws Exception
    {
        final SyntheticShards big = new SyntheticShards(21);
        final List<String> shards = new ArrayList<>();
        for (int i = 0; i < 2; i++)
        {
            shards.add(big.write(dir.resolve("big-" + i), i, 2, 150_000, 1_800_000_000_000_000_000L).toString());
        }
        final SyntheticShards small = new SyntheticShards(22);
        final List<Path> old = List.of(small.write(dir.resolve("small-0"), 0, 2, 5, 1_800_000_000_000_000_000L),
            small.write(dir.resolve("small-1"), 1, 2, 5, 1_800_000_000_000_000_000L));
        for (final String signal : List.of("INT", "TERM", "KILL"))
        {
            final Path out = dir.resolve("merged-" + signal);
            ShardMerge.merge(out, old); // the result a forced merge replaces
            final List<String> command = ChildJvm.tokenclock();
            command.addAll(List.of("merge", out.toString(), shards.get(0), shards.get(1), "--force"));
            final Process p = start(command, "merge-" + signal);
            awaitMergeWriting(p, out);
            ChildJvm.signal(p, signal);
            final int status = ChildJvm.exit(p, 60);
            assertEquals(Map.of("INT", 130, "TERM", 143, "KILL", 137).get(signal), status, console("merge-" + signal));
            console.resetErr();
            assertEquals(Main.EXIT_USAGE, Main.execute("record", out.toString()),
                "nothing reads as a whole result: " + console.out());
            for (final Path f : files(out))
            {
                final String name = f.getFileName().toString();
                assertFalse(name.endsWith(".tmp") && !"KILL".equals(signal), "removed on an orderly exit: " + name);
                assertTrue(!name.endsWith(".tmp") || name.matches(".+\\.[0-9a-f]{16}\\.tmp"), name);
                if (name.equals("requests.jsonl"))
                {
                    assertTrue(Files.readString(f).endsWith("\n"), "whole lines, the old file's");
                }
            }
        }
    }

    /** Every file under {@code out} whole; {@code record}, {@code report} and {@code compare} read it as partial. */
    private void assertWholeAndReadableAsPartial(final Path out, final String partial) throws Exception
    {
        for (final Path f : files(out))
        {
            final String name = f.getFileName().toString();
            assertFalse(name.endsWith(".tmp"), "no temporary file left: " + f);
            if (name.endsWith(".json"))
            {
                JSON.readTree(f.toFile());
            }
            if (name.endsWith(".jsonl"))
            {
                for (final String line : Files.readAllLines(f))
                {
                    JSON.readTree(line);
                }
            }
        }
        console.resetOut();
        assertEquals(Main.EXIT_OK, Main.execute("record", out.toString()), console.err());
        assertTrue(console.out().startsWith(partial), console.out());
        assertEquals(Main.EXIT_OK, Main.execute("report", out.toString(), "--output",
            dir.resolve("report.html").toString()), console.err());
        assertTrue(Files.readString(dir.resolve("report.html")).contains(partial));
        console.resetOut();
        assertEquals(Main.EXIT_OK, Main.execute("compare", out.toString(), out.toString(), "--output",
            dir.resolve("compare.json").toString()), console.err());
        assertTrue(console.out().contains("[PARTIAL: "), console.out());
    }

    /** An A/B of two runs a variant (A B B A), each 8 requests at concurrency 2: about 3 s of window a run. */
    private Process ab(final Path out) throws IOException
    {
        final List<String> contracts = new ArrayList<>();
        for (final String name : List.of("a", "b"))
        {
            final Path file = dir.resolve(name + ".yaml");
            Files.writeString(file, """
                target: {url: %s}
                model: {name: %s, decoding: {max_tokens: %d, ignore_eos: true}}
                workload: {input_tokens: {dist: fixed, value: 16}}
                load: {mode: closed, concurrency: 2, requests: 8}
                """.formatted(server.baseUrl(), SLOW.modelName(), name.equals("a") ? 30 : 40));
            contracts.add(file.toString());
        }
        final List<String> command = ChildJvm.tokenclock();
        command.addAll(List.of("ab", contracts.get(0), contracts.get(1), "--repetitions", "2", "--output-dir",
            out.toString(), "--no-report"));
        return start(command, "ab");
    }

    /** A sweep of three 4 s points at 2, 4 and 6 requests/s. */
    private Process sweep(final Path out) throws IOException
    {
        final List<String> command = ChildJvm.tokenclock();
        command.addAll(List.of("sweep", "--url", server.baseUrl(), "--model", SLOW.modelName(), "--rates", "2,4,6",
            "--point-duration", "4", "--max-tokens", "40", "--ignore-eos", "--grace", "1", "--no-progress",
            "--no-report", "--output-dir", out.toString()));
        return start(command, "sweep");
    }

    private Process start(final List<String> command, final String name) throws IOException
    {
        return new ProcessBuilder(command).redirectErrorStream(true)
            .redirectOutput(dir.resolve("console-" + name + ".txt").toFile()).start();
    }

    private String console(final String name) throws IOException
    {
        final Path file = dir.resolve("console-" + name + ".txt");
        return Files.exists(file) ? Files.readString(file, StandardCharsets.UTF_8) : "";
    }

    /** @return the exit status of {@code p}, sent {@code signal} once the run in {@code run} is in its window. */
    private static int stopInWindow(final Process p, final Path run, final String signal) throws Exception
    {
        awaitWindow(p, run);
        ChildJvm.signal(p, signal);
        return ChildJvm.exit(p, 90);
    }

    /** Waits until the run in {@code run} is in its window: its record written, a request finished. */
    private static void awaitWindow(final Process p, final Path run) throws Exception
    {
        final long deadlineNs = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        while (!(Files.exists(run.resolve("record.json")) && Files.exists(run.resolve("requests.jsonl")) &&
            Files.size(run.resolve("requests.jsonl")) > 0))
        {
            assertTrue(p.isAlive(), "ended before " + run + " was in its window");
            assertTrue(System.nanoTime() < deadlineNs, run + " never reached its window");
            Thread.sleep(20);
        }
    }

    /** Waits until the merge writes OUT's new requests.jsonl (or, before WholeFile, removed or changed the old one). */
    private static void awaitMergeWriting(final Process p, final Path out) throws Exception
    {
        final long deadlineNs = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        final long oldSize = Files.size(out.resolve("requests.jsonl"));
        while (!writingTemporary(out) && size(out.resolve("requests.jsonl")) == oldSize)
        {
            assertTrue(p.isAlive(), "the merge ended before it was stopped");
            assertTrue(System.nanoTime() < deadlineNs, "the merge never wrote");
            Thread.sleep(5);
        }
        assertTrue(p.isAlive(), "the merge ended before it was stopped");
    }

    /**
     * @return whether a non-empty temporary file is under {@code out}; a file that vanished while the tree was walked
     * (renamed into place under the walk) says the merge is writing too.
     */
    private static boolean writingTemporary(final Path out) throws IOException
    {
        try
        {
            return files(out).stream().anyMatch(f -> f.getFileName().toString().endsWith(".tmp") && size(f) > 0);
        }
        catch (final UncheckedIOException ex)
        {
            return true;
        }
    }

    private static long size(final Path f)
    {
        try
        {
            return Files.size(f);
        }
        catch (final IOException ex)
        {
            return -1;
        }
    }

    private static List<Path> files(final Path root) throws IOException
    {
        try (Stream<Path> s = Files.walk(root))
        {
            return s.filter(Files::isRegularFile).toList();
        }
    }
}
