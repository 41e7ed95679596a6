package io.tokenclock.accuracy;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * Pins everything {@code AccuracyReport} writes, byte for byte, on one fixed cell: {@code analyze}'s map, the
 * {@code cell} command's JSON file and table rows, and the {@code table} command's output. The figures are checked by
 * hand in {@link AccuracyReportTest}; this test holds the rest (key order, every count, the resource figures, the
 * missing-input rows) steady across refactoring. The expected files are {@code src/test/resources/golden/}; on a
 * mismatch the actual output is written to {@code target/golden-actual/} to diff against them.
 */
final class AccuracyReportGoldenTest
{
    private static final ObjectMapper MAPPER = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    @TempDir
    Path dir;

    @Test
    void analyzeWritesThePinnedResult() throws Exception
    {
        writeFixture();
        final String json = MAPPER.writeValueAsString(AccuracyReport.analyze(
            AccuracyReport.readTruth(dir.resolve("truth.jsonl")), AccuracyReport.readClient(dir.resolve("tc.jsonl"))));
        assertGolden("analyze.json", json + "\n");
    }

    @Test
    void cellAndTableCommandsWriteThePinnedFilesAndRows() throws Exception
    {
        writeFixture();
        final Path cell = dir.resolve("out/cell.json");
        final String cellOut = stdout(() -> AccuracyReport.main(new String[] {"cell", "--out", cell.toString(),
            "--cell", "s1-open", "--meta", "loop=open", "--meta", "rate=2.5", "--meta", "streams=4",
            "--meta", "note=x", "--meta", "flag", "--truth", file("truth.jsonl"),
            "--client", "name=tokenclock,requests=" + file("tc.jsonl") + ",cpu=" + file("cpu.txt") + ",time=" +
                file("time.txt") + ",gc=" + file("gc.log"),
            "--client", "name=vllm-peer,requests=" + file("peer.jsonl") + ",truth=" + file("truth.jsonl"),
            "--client", "name=jdk-httpclient,requests=" + file("absent.jsonl"),
            "--client", "name=nolog,requests=" + file("tc.jsonl") + ",truth=" + file("absent-truth.jsonl")}));
        assertGolden("cell.json", Files.readString(cell));
        assertGolden("cell.txt", cellOut);

        final Path all = dir.resolve("all.json");
        final String tableOut = stdout(() -> AccuracyReport.main(new String[] {"table", "--json", all.toString(),
            cell.toString()}));
        assertGolden("table.txt", tableOut);
        assertGolden("table-all.json", Files.readString(all));
        final String again = stdout(() -> AccuracyReport.main(new String[] {"table", "--no-header", all.toString()}));
        assertGolden("table-no-header.txt", again);
    }

    @Test
    void cellRejectsUnknownFlagsAndNoClient()
    {
        assertEquals("unknown flag --bogus", assertThrows(IllegalArgumentException.class,
            () -> AccuracyReport.main(new String[] {"cell", "--bogus"})).getMessage());
        assertEquals("at least one --client is required", assertThrows(IllegalArgumentException.class,
            () -> AccuracyReport.main(new String[] {"cell", "--cell", "c"})).getMessage());
        assertEquals("unknown command nope", assertThrows(IllegalArgumentException.class,
            () -> AccuracyReport.main(new String[] {"nope"})).getMessage());
    }

    /** The hand-checked cell of {@link AccuracyReportTest}, plus an aborted stream, a peer and resource files. */
    private void writeFixture() throws IOException
    {
        write("truth.jsonl",
            "{\"response_id\":\"a\",\"status\":\"ok\",\"arrival_ns\":0,\"scheduled_ns\":[900,2000,2950]," +
                "\"sent_ns\":[1000,2000,3000],\"flushed_ns\":[1010,2010,3010],\"tokens\":[1,1,1]}",
            "{\"response_id\":\"b\",\"status\":\"ok\",\"arrival_ns\":9000,\"scheduled_ns\":[10000,11000,12000,13000]," +
                "\"sent_ns\":[10000,11000,12000,13000],\"flushed_ns\":[10005,11005,12005,13005],\"tokens\":[1,1,1,1]}",
            "{\"response_id\":\"p\",\"status\":\"ok\",\"arrival_ns\":0,\"scheduled_ns\":[5],\"sent_ns\":[5]," +
                "\"flushed_ns\":[6],\"tokens\":[1]}",
            "{\"response_id\":\"x\",\"status\":\"aborted\",\"arrival_ns\":20000,\"scheduled_ns\":[21000,22000]," +
                "\"sent_ns\":[21010,22020],\"flushed_ns\":[21015,0],\"tokens\":[1,1]}");
        write("tc.jsonl",
            "{\"id\":0,\"response_id\":\"a\",\"phase\":\"measure\",\"status\":\"ok\",\"error\":null," +
                "\"scheduled_ns\":-700,\"submit_ns\":-650,\"sent_ns\":-500," +
                "\"end_ns\":3200,\"chunk_ns\":[1100,2300,3150],\"extra\":{\"x\":[1,\"y\"]}}",
            "{\"id\":1,\"response_id\":\"b\",\"phase\":\"measure\",\"status\":\"ok\",\"error\":null,\"sent_ns\":8000," +
                "\"end_ns\":12100,\"chunk_ns\":[10050,11050,12080]}",
            "{\"id\":2,\"response_id\":null,\"phase\":\"measure\",\"status\":\"error\",\"error\":\"http_5xx\"," +
                "\"sent_ns\":100,\"end_ns\":200,\"chunk_ns\":[]}",
            "{\"id\":3,\"response_id\":\"w\",\"phase\":\"warmup\",\"status\":\"ok\",\"sent_ns\":1,\"end_ns\":2," +
                "\"chunk_ns\":[1,2]}",
            "{\"id\":4,\"response_id\":\"x\",\"phase\":\"measure\",\"status\":\"error\",\"error\":null," +
                "\"scheduled_ns\":19000,\"submit_ns\":19100,\"sent_ns\":19200,\"end_ns\":22100," +
                "\"chunk_ns\":[21000,22050]}",
            "{\"id\":5,\"response_id\":\"zzz\",\"phase\":\"measure\",\"status\":\"ok\",\"sent_ns\":0,\"end_ns\":5," +
                "\"chunk_ns\":[3,4]}");
        write("peer.jsonl",
            "{\"id\":0,\"response_id\":\"a\",\"phase\":\"measure\",\"status\":\"ok\",\"scheduled_ns\":-700," +
                "\"sent_ns\":-400,\"end_ns\":3500,\"chunk_ns\":[1200,2500,3400]}",
            "{\"id\":1,\"response_id\":\"b\",\"phase\":\"measure\",\"status\":\"ok\",\"sent_ns\":8100," +
                "\"end_ns\":13500,\"chunk_ns\":[10100,11300,12200,13400]}");
        write("cpu.txt",
            "# clk_tck 100",
            "-1000 client 10 5 102400", "-1000 machine 1000 3 0", "-1000 server 20 2 51200",
            "5000 client 40 9 110000", "5000 machine 1400 5 0", "5000 server 30 4 52000",
            "13000 client 90 20 120000", "13000 machine 2200 9 0", "13000 server 60 8 53000");
        write("time.txt", "Command exited with non-zero status 1", "1.50 0.25 204800 3.20");
        write("gc.log",
            "[0.010s][info][gc] Using G1",
            "[0.123s][info][gc] GC(0) Pause Young (Normal) (G1 Evacuation Pause) 24M->3M(256M) 2.345ms",
            "[0.456s][info][gc] GC(1) Pause Young (Normal) (G1 Evacuation Pause) 1G->512K(2G) 1.000ms");
    }

    private void write(final String name, final String... lines) throws IOException
    {
        Files.writeString(dir.resolve(name), String.join("\n", lines) + "\n");
    }

    private String file(final String name)
    {
        return dir.resolve(name).toString();
    }

    /** What the body printed to System.out, with this test's directory written as {@code DIR}. */
    private String stdout(final Body body) throws Exception
    {
        final PrintStream saved = System.out;
        final ByteArrayOutputStream sink = new ByteArrayOutputStream();
        System.setOut(new PrintStream(sink, true, StandardCharsets.UTF_8));
        try
        {
            body.run();
        }
        finally
        {
            System.setOut(saved);
        }
        return sink.toString(StandardCharsets.UTF_8).replace(dir.toString(), "DIR");
    }

    /** A command under test. */
    private interface Body
    {
        void run() throws Exception;
    }

    private static void assertGolden(final String name, final String actual) throws IOException
    {
        final String expected;
        try (InputStream in = AccuracyReportGoldenTest.class.getResourceAsStream("/golden/" + name))
        {
            expected = in == null ? null : new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        if (!actual.equals(expected))
        {
            final Path out = Path.of("target", "golden-actual", name);
            Files.createDirectories(out.getParent());
            Files.writeString(out, actual);
        }
        assertNotNull(expected, "no golden/" + name + "; the actual output is in target/golden-actual/");
        assertEquals(expected, actual, name + " (the actual output is in target/golden-actual/)");
    }
}
