package io.tokenclock.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import io.tokenclock.fixtures.sim.SimConfig;
import io.tokenclock.fixtures.sim.SimServer;
import io.tokenclock.results.record.PooledRecord;
import io.tokenclock.results.record.RecordJson;
import io.tokenclock.results.Results;

/** The command line's contract: exit codes, one-line errors, no stack traces, no credential in the results. */
// A guard against a hang, not a speed bound: three repetitions, each with its report.html, CSV and .hlog files, took
// over 60 s under stress-ng --cpu 2.
@Timeout(240)
final class CliIT
{
    @RegisterExtension
    final CapturedConsole console = new CapturedConsole();

    @TempDir
    Path dir;

    private String errText()
    {
        return console.err();
    }

    private void assertOneLineError()
    {
        final String text = errText().strip();
        assertTrue(text.startsWith("tokenclock: "), text);
        assertFalse(text.contains("\n"), "one line: " + text);
        assertFalse(text.contains("Exception") && text.contains("\tat "), "no stack trace: " + text);
    }

    @Test
    void shouldExitWithUsageCodeOnUnknownOption()
    {
        assertEquals(Main.EXIT_USAGE, Main.execute("run", "--url", "http://127.0.0.1:9/v1", "--bogus"));
        assertOneLineError();
    }

    @Test
    void shouldExitWithUsageCodeWhenLoopModelsAreMixed()
    {
        assertEquals(Main.EXIT_USAGE, Main.execute("run", "--url", "http://127.0.0.1:9/v1", "--concurrency", "2",
            "--rate", "3"));
        assertOneLineError();
        assertTrue(errText().contains("--max-concurrency"));
    }

    @Test
    void shouldExitWithUsageCodeOnNegativeRate()
    {
        assertEquals(Main.EXIT_USAGE, Main.execute("run", "--url", "http://127.0.0.1:9/v1", "--rate", "-1"));
        assertOneLineError();
    }

    @Test
    void shouldRejectNonFiniteNumbersInAnyNumberFlag()
    {
        for (final String[] flag : new String[][] {{"--temperature", "NaN"}, {"--rate", "Infinity"},
            {"--timeout", "-Infinity"}, {"--grace", "NaN"}, {"--connect-timeout", "NaN"},
            {"--wait-ready", "Infinity"}})
        {
            console.resetErr();
            final String[] args = flag[0].equals("--rate") ?
                new String[] {"run", "--url", "http://127.0.0.1:9/v1", flag[0], flag[1]} :
                new String[] {"run", "--url", "http://127.0.0.1:9/v1", "--concurrency", "1", flag[0], flag[1]};
            assertEquals(Main.EXIT_USAGE, Main.execute(args), String.join(" ", flag));
            assertOneLineError();
            assertTrue(errText().contains("not a finite number") && errText().contains(flag[0]), errText());
        }
    }

    @Test
    void shouldExitWithUsageCodeOnBadUrlAndBadArrival()
    {
        assertEquals(Main.EXIT_USAGE, Main.execute("run", "--url", "ftp://x/v1", "--concurrency", "1"));
        assertEquals(Main.EXIT_USAGE, Main.execute("run", "--url", "http://127.0.0.1:9/v1", "--rate", "1",
            "--arrival", "zipf"));
    }

    @Test
    void shouldWriteAFlameGraphAndJfrWhenProfiling() throws Exception
    {
        try (SimServer server = SimServer.start(new SimConfig().prefillBaseMs(2).decodeBaseMs(1)))
        {
            final int code = Main.execute("run", "--url", server.baseUrl(), "--concurrency", "2", "--requests", "20",
                "--max-tokens", "16", "--output-dir", dir.toString(), "--no-progress", "--profile", "wall");
            assertEquals(Main.EXIT_OK, code, errText());
        }
        assertTrue(Files.size(dir.resolve("flamegraph-wall.html")) > 1000);
        assertTrue(Files.size(dir.resolve("recording.jfr")) > 1000);
        assertTrue(Files.readString(dir.resolve("record.json")).contains("\"profile\""));
    }

    @Test
    void shouldRepeatARunAndReportTheSpread() throws Exception
    {
        try (SimServer server = SimServer.start(new SimConfig().prefillBaseMs(2).decodeBaseMs(1)))
        {
            final int code = Main.execute("run", "--url", server.baseUrl(), "--concurrency", "2", "--requests", "6",
                "--max-tokens", "4", "--output-dir", dir.toString(), "--no-progress", "--repetitions", "3");
            assertEquals(Main.EXIT_OK, code, errText());
        }
        for (int k = 1; k <= 3; k++)
        {
            assertTrue(Files.exists(dir.resolve("rep-" + k).resolve("record.json")), "rep-" + k);
            assertTrue(Files.readString(dir.resolve("rep-" + k).resolve("record.json")).contains("\"of\" : 3"));
        }
        final String summary = Files.readString(dir.resolve("repetitions.json"));
        assertTrue(summary.contains("\"repetitions\" : 3") && summary.contains("ttft_p50_ms"), summary);
        assertTrue(console.out().contains("run-to-run over 3 repetitions"));
        final PooledRecord pooled = RecordJson.JSON.readValue(dir.resolve(PooledRecord.FILE).toFile(),
            PooledRecord.class);
        long ttft = 0;
        for (int k = 1; k <= 3; k++)
        {
            ttft += Results.record(dir.resolve("rep-" + k)).report().distribution("ttft").count();
        }
        assertEquals(List.of(1, 2, 3), pooled.pooledRepetitions());
        assertEquals(ttft, pooled.distribution("ttft").count(), "every repetition's TTFT samples, pooled");
        assertTrue(console.out().contains("pooled (3 of 3 repetitions; partial, left out: none)"), console.out());
    }

    @Test
    void shouldRejectAnUnknownProfileMode()
    {
        assertEquals(Main.EXIT_USAGE, Main.execute("run", "--url", "http://127.0.0.1:9/v1", "--concurrency", "1",
            "--profile", "gpu"));
        assertOneLineError();
    }

    @Test
    void shouldExitWithUnreachableCodeWhenNothingListens()
    {
        assertEquals(Main.EXIT_UNREACHABLE, Main.execute("run", "--url", "http://127.0.0.1:1/v1", "--concurrency",
            "1", "--requests", "1", "--output-dir", dir.toString()));
        assertOneLineError();
    }

    @Test
    void shouldRunAgainstTheSimulatorAndNeverWriteTheKeyOrHeaderValues() throws Exception
    {
        final String secret = System.getenv().getOrDefault("PATH", "none");
        try (SimServer server = SimServer.start(new SimConfig().prefillBaseMs(2).decodeBaseMs(1)))
        {
            final int code = Main.execute("run", "--url", server.baseUrl(), "--concurrency", "2", "--requests", "6",
                "--warmup-requests", "2", "--max-tokens", "8", "--output-dir", dir.toString(), "--no-progress",
                "--api-key-env", "PATH", "-H", "X-Api-Key: hunter2-secret");
            assertEquals(Main.EXIT_OK, code, errText());
        }
        final String record = Files.readString(dir.resolve("record.json"));
        final String requests = Files.readString(dir.resolve("requests.jsonl"));
        assertFalse(record.contains("hunter2-secret") || requests.contains("hunter2-secret"));
        assertFalse(record.contains(secret), "the API key variable's value is never written");
        assertTrue(record.contains("X-Api-Key: <redacted>"), "the header is recorded by name only");
        assertTrue(console.out().contains("results: "));
    }

    @Test
    void shouldRejectAHeaderWithALineBreakWithoutPrintingItsValue()
    {
        assertEquals(Main.EXIT_USAGE, Main.execute("run", "--url", "http://127.0.0.1:9/v1", "--concurrency", "1",
            "-H", "X-Key: s3cret\r\nX-Injected: 1"));
        assertOneLineError();
        assertTrue(errText().contains("X-Key") && !errText().contains("s3cret"), errText());
    }

    @Test
    void shouldRefuseToReplayWithASecretItNeverStoredAndReplayWhenItIsGivenAgain() throws Exception
    {
        final Path recorded = dir.resolve("recorded");
        try (SimServer server = SimServer.start(new SimConfig().prefillBaseMs(2).decodeBaseMs(1)))
        {
            final String url = server.baseUrl() + "?api-version=1";
            assertEquals(Main.EXIT_OK, Main.execute("run", "--url", url, "--concurrency", "1", "--requests", "2",
                "--max-tokens", "4", "--no-progress", "-H", "X-Key: s3cret", "--output-dir", recorded.toString()),
                errText());

            assertEquals(Main.EXIT_USAGE, Main.execute("replay", recorded.toString()));
            assertTrue(errText().contains("--url"), errText());
            console.resetErr();
            assertEquals(Main.EXIT_USAGE, Main.execute("replay", recorded.toString(), "--url", url));
            assertOneLineError();
            assertTrue(errText().contains("header X-Key") && errText().contains("-H"), errText());
            console.resetErr();

            final Path again = dir.resolve("again");
            assertEquals(Main.EXIT_OK, Main.execute("replay", recorded.toString(), "--url", url, "-H",
                "X-Key: s3cret", "--output-dir", again.toString()), errText());
            final String record = Files.readString(again.resolve("record.json"));
            assertTrue(record.contains("X-Key: <redacted>") && !record.contains("s3cret"), record);
        }
    }

    @Test
    void shouldPrintReplaysCommandLineWithEverySecretRedacted() throws Exception
    {
        final Path recorded = dir.resolve("recorded");
        try (SimServer server = SimServer.start(new SimConfig().prefillBaseMs(2).decodeBaseMs(1)))
        {
            final String url = "http://alice:pw-url-71b3@127.0.0.1:" + server.port() + "/v1?key=q-url-0c9e";
            final String[] secrets = {"-H", "Authorization: Bearer sk-hdr-5d21", "-HX-Key:hdr-attached-88f0",
                "--header=X-Other:hdr-equals-e4a7"};
            final List<String> run = new ArrayList<>(List.of("run", "--url", url, "--concurrency", "1",
                "--requests", "2", "--max-tokens", "4", "--no-progress", "--output-dir", recorded.toString()));
            run.addAll(List.of(secrets));
            assertEquals(Main.EXIT_OK, Main.execute(run.toArray(String[]::new)), errText());
            console.resetOut();
            console.resetErr();

            final Path again = dir.resolve("again");
            final List<String> replay = new ArrayList<>(List.of("replay", recorded.toString(), "--url", url,
                "--output-dir", again.toString()));
            replay.addAll(List.of(secrets));
            assertEquals(Main.EXIT_OK, Main.execute(replay.toArray(String[]::new)), errText());
            final String shown = console.out() + errText();
            for (final String secret : List.of("pw-url-71b3", "q-url-0c9e", "sk-hdr-5d21", "hdr-attached-88f0",
                "hdr-equals-e4a7"))
            {
                assertFalse(shown.contains(secret), secret + " printed: " + shown);
            }
            assertTrue(shown.contains("replay: re-running") && shown.contains("Authorization: <redacted>") &&
                shown.contains("X-Key: <redacted>") && shown.contains("http://<redacted>@127.0.0.1"), shown);
        }
    }

    @Test
    void shouldReplayIntoADirectoryThatHoldsARunOnlyWithForce() throws Exception
    {
        final Path recorded = dir.resolve("recorded");
        try (SimServer server = SimServer.start(new SimConfig().prefillBaseMs(2).decodeBaseMs(1)))
        {
            assertEquals(Main.EXIT_OK, Main.execute("run", "--url", server.baseUrl(), "--concurrency", "1",
                "--requests", "2", "--max-tokens", "4", "--no-progress", "--output-dir", recorded.toString()),
                errText());
            final Path again = dir.resolve("again");
            assertEquals(Main.EXIT_OK, Main.execute("replay", recorded.toString(), "--output-dir", again.toString()),
                errText());
            console.resetErr();
            assertEquals(Main.EXIT_USAGE, Main.execute("replay", recorded.toString(), "--output-dir",
                again.toString()));
            assertTrue(errText().contains("--force"), errText());
            console.resetErr();
            assertEquals(Main.EXIT_OK, Main.execute("replay", recorded.toString(), "--output-dir", again.toString(),
                "--force"), errText());
        }
    }

    @Test
    void shouldRefuseADecodingValueOutsideTheApisRangeWithOneLine()
    {
        assertEquals(Main.EXIT_USAGE, Main.execute("run", "--url", "http://127.0.0.1:9/v1", "--concurrency", "1",
            "--temperature", "-1"));
        assertOneLineError();
        assertTrue(errText().contains("--temperature must be in [0, 2]"), errText());
    }

    @Test
    void shouldPrintWhatAServerThatSpeaksNoHttpSentEscaped() throws Exception
    {
        try (GarbageServer garbage = new GarbageServer())
        {
            // without --model the listing meets the bytes first; with it, the preflight does
            assertEquals(Main.EXIT_UNREACHABLE, Main.execute("run", "--url", garbage.baseUrl(), "--concurrency", "1",
                "--requests", "1", "--no-progress", "--output-dir", dir.resolve("a").toString()));
            assertOneLineError();
            assertTrue(GarbageServer.printable(errText()), errText());
            console.resetErr();
            assertEquals(Main.EXIT_UNREACHABLE, Main.execute("run", "--url", garbage.baseUrl(), "--model", "m",
                "--concurrency", "1", "--requests", "1", "--no-progress", "--output-dir", dir.resolve("b").toString()));
            assertOneLineError();
            assertTrue(GarbageServer.printable(errText()), errText());
        }
    }
}
