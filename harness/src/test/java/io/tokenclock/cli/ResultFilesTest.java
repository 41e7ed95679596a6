package io.tokenclock.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Result files as the readers meet them: a record and a {@code requests.jsonl} that are not of one result are refused
 * (one line, exit 2), a partial record keeps what a killed run finished after it; {@code report --output} to a
 * missing directory or onto one is one line, with nothing left behind; a link planted at a name a writer once used is
 * never followed; a set written as it went and stopped midway is read as partial by {@code record}, {@code report}
 * and {@code compare}.
 */
final class ResultFilesTest
{
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Path GOLDEN = Path.of("src", "test", "resources", "io", "tokenclock", "report", "golden",
        "full-record.json");
    /** A finished request's line (the fields a reader needs). */
    private static final String LINE = "{\"id\":%d,\"phase\":\"measure\",\"status\":\"ok\",\"scheduled_ns\":1," +
        "\"sent_ns\":2,\"first_token_ns\":3,\"end_ns\":4,\"ttft_ms\":0.001,\"e2e_ms\":0.002}\n";

    @RegisterExtension
    final CapturedConsole console = new CapturedConsole();

    @TempDir
    Path dir;

    /** A run whose record counts {@code measured} requests (no warm-up), whole or partial, and no requests.jsonl. */
    private Path run(final Path at, final long measured, final boolean partial) throws IOException
    {
        Files.createDirectories(at);
        final ObjectNode record = (ObjectNode)JSON.readTree(GOLDEN.toFile());
        record.put("partial", partial).put("partial_reason", partial ? "the run was in progress" : null);
        ((ObjectNode)record.path("report").path("counts")).put("measured", measured).put("warmup", 0);
        JSON.writeValue(at.resolve("record.json").toFile(), record);
        return at;
    }

    private static void lines(final Path run, final int n, final String tail) throws IOException
    {
        final StringBuilder sb = new StringBuilder();
        for (int i = 0; i < n; i++)
        {
            sb.append(LINE.formatted(i));
        }
        Files.writeString(run.resolve("requests.jsonl"), sb + tail);
    }

    @Test
    void shouldRefuseAWholeRecordBesideRequestsCutMidLine() throws IOException
    {
        // what an interrupted merge into an existing output left: the old record beside new requests cut mid-line
        final Path run = run(dir.resolve("run"), 3, false);
        lines(run, 3, "{\"id\":3,\"phase\":\"mea");
        console.assertUsage("requests.jsonl ends in a cut line", "record", run.toString());
    }

    @Test
    void shouldRefuseAWholeRecordWhoseRequestsHoldOtherLinesThanItCounts() throws IOException
    {
        final Path run = run(dir.resolve("run"), 3, false);
        lines(run, 2, "");
        console.assertUsage("holds 2 whole lines, but record.json counts 3 requests", "record", run.toString());
        lines(run, 5, "");
        console.assertUsage("holds 5 whole lines, but record.json counts 3 requests", "report", run.toString());
        assertFalse(Files.exists(run.resolve("report.html")));
    }

    @Test
    void shouldReadAPartialRecordBesideWhatAKilledRunFinishedAfterIt() throws IOException
    {
        final Path run = run(dir.resolve("run"), 0, true);
        lines(run, 4, "{\"id\":4,\"pha");
        assertEquals(Main.EXIT_OK, Main.execute("record", run.toString()), console.err());
        assertTrue(console.out().startsWith("PARTIAL RECORD: "), console.out());
        final Path kept = run(dir.resolve("kept"), 7, false);
        assertEquals(Main.EXIT_OK, Main.execute("record", kept.toString()), "a record kept without its requests: " +
            console.err());
    }

    @Test
    void shouldRefuseReportOutputToAMissingDirectoryWithOneLineAndLeaveNothing() throws IOException
    {
        final Path run = run(dir.resolve("run"), 3, false);
        final Path missing = dir.resolve("nowhere").resolve("r.html");
        console.assertUsage("no such directory", "report", run.toString(), "--output", missing.toString());
        assertFalse(Files.exists(dir.resolve("nowhere")));
        assertEquals(List.of("run"), names(dir), "no stray temporary file");
    }

    @Test
    void shouldRefuseReportOutputOntoADirectoryWithOneLineAndLeaveNothing() throws IOException
    {
        final Path run = run(dir.resolve("run"), 3, false);
        final Path onto = Files.createDirectories(dir.resolve("out"));
        console.assertUsage("is a directory", "report", run.toString(), "--output", onto.toString());
        assertEquals(List.of("out", "run"), names(dir), "no stray temporary file beside it");
        assertEquals(List.of(), names(onto));
        assertEquals(List.of("record.json"), names(run));
    }

    @Test
    void shouldNeverFollowALinkPlantedWhereAWriterOnceMadeItsTemporaryFile() throws IOException
    {
        final Path run = run(dir.resolve("run"), 3, false);
        final Path victim = Files.writeString(dir.resolve("victim"), "precious");
        Files.createSymbolicLink(run.resolve("report.html.tmp"), victim);
        Files.createSymbolicLink(dir.resolve("compare.json.tmp"), victim);
        assertEquals(Main.EXIT_OK, Main.execute("report", run.toString()), console.err());
        assertEquals(Main.EXIT_OK, Main.execute("compare", run.toString(), run.toString(), "--output",
            dir.resolve("compare.json").toString()), console.err());
        assertEquals("precious", Files.readString(victim), "the link's target was never written");
        assertTrue(Files.isRegularFile(run.resolve("report.html"), LinkOption.NOFOLLOW_LINKS),
            "report.html is a file, never a link");
        assertTrue(Files.isRegularFile(dir.resolve("compare.json"), LinkOption.NOFOLLOW_LINKS));
    }

    @Test
    void shouldReadAnAbStoppedMidwayAsPartialInRecordReportAndCompare() throws IOException
    {
        final Path ab = dir.resolve("ab");
        run(ab.resolve("A").resolve("rep-1"), 3, false);
        run(ab.resolve("B").resolve("rep-1"), 3, false);
        // as ab writes them after its second run of four, before kill -9 stopped the third
        Files.writeString(ab.resolve("index.json"), "{\"format\": \"tokenclock-index/1\", \"kind\": \"ab\", " +
            "\"members\": [{\"path\": \"A/rep-1\", \"role\": \"a 1\"}, {\"path\": \"B/rep-1\", \"role\": \"b 1\"}]}");
        Files.writeString(ab.resolve("ab.json"), "{\"variants\": {\"A\": \"a.yaml\", \"B\": \"b.yaml\"}, " +
            "\"order\": [\"A\", \"B\"], \"partial\": \"in progress: 2 of 4 runs made\", \"partial_runs\": [], " +
            "\"figures\": {\"e2e_p50_ms\": {\"a\": [10], \"b\": [30], \"mean_a\": 10, \"mean_b\": 30, " +
            "\"difference\": 20, \"relative\": 2.0, \"ci95\": null, \"exceeds_noise\": null}}}");
        assertEquals(Main.EXIT_OK, Main.execute("record", ab.toString()), console.err());
        assertTrue(console.out().startsWith("PARTIAL SET: in progress: 2 of 4 runs made"), console.out());
        assertFalse(console.out().contains("differs") || console.out().contains("within noise"), console.out());
        assertEquals(Main.EXIT_OK, Main.execute("report", ab.toString()), console.err());
        assertTrue(Files.readString(ab.resolve("report.html")).contains("PARTIAL SET: in progress"));
        console.resetOut();
        assertEquals(Main.EXIT_OK, Main.execute("compare", ab.toString(), ab.toString(), "--output",
            dir.resolve("c.json").toString()), console.err());
        assertTrue(console.out().contains("[PARTIAL: in progress: 2 of 4 runs made] variant A"), console.out());
    }

    @Test
    void shouldReadASweepKilledBeforeItsFirstPointAsPartialAndRefuseToCompareIt() throws IOException
    {
        final Path sweep = Files.createDirectories(dir.resolve("sweep"));
        Files.writeString(sweep.resolve("index.json"), "{\"format\": \"tokenclock-index/1\", \"kind\": \"sweep\", " +
            "\"members\": []}");
        Files.writeString(sweep.resolve("sweep.json"), "{\"format\": \"tokenclock-sweep/1\", \"mode\": \"rates\", " +
            "\"point_duration_s\": 10, \"partial\": \"in progress: 0 run(s) made\", \"points\": [], \"knee\": {}}");
        assertEquals(Main.EXIT_OK, Main.execute("record", sweep.toString()), console.err());
        assertTrue(console.out().startsWith("PARTIAL SET: in progress: 0 run(s) made"), console.out());
        final Path run = run(dir.resolve("run"), 3, false);
        console.assertUsage("a result without finished runs cannot be compared (it is partial: in progress", "compare",
            run.toString(), sweep.toString(), "--output", dir.resolve("c.json").toString());
    }


    private static List<String> names(final Path at) throws IOException
    {
        try (Stream<Path> s = Files.list(at))
        {
            return s.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }
}
