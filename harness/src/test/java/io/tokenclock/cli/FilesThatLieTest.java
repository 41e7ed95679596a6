package io.tokenclock.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.zip.Deflater;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.node.ObjectNode;

import io.tokenclock.json.Json;
import io.tokenclock.merge.SyntheticShards;

/**
 * Result files that are not what they claim (issue 40), through {@code record}, {@code report}, {@code compare} and
 * {@code merge}: each is one line on stderr naming the file (and the line, where there is one), the field and what
 * was expected, and exit 2; never a stack trace, the parser's raw text, or a figure printed as measured.
 */
final class FilesThatLieTest
{
    private static final Path GOLDEN = Path.of("src", "test", "resources", "io", "tokenclock", "report", "golden");
    private static final Path PEERS = Path.of("src", "test", "resources", "io", "tokenclock", "peers");

    @RegisterExtension
    final CapturedConsole console = new CapturedConsole();

    @TempDir
    Path dir;

    /**
     * A run directory of the golden record and request lines, its counts made to agree with the lines (the golden
     * record counts 225 requests, the golden file holds 5), so that what each test breaks is the only fault.
     */
    private Path run(final String name) throws IOException
    {
        final Path run = Files.createDirectories(dir.resolve(name));
        final ObjectNode record = (ObjectNode)Json.MAPPER.readTree(GOLDEN.resolve("full-record.json").toFile());
        final ObjectNode counts = (ObjectNode)record.path("report").path("counts");
        counts.put("measured", 4).put("warmup", 1);
        Files.writeString(run.resolve("record.json"), Json.PRETTY.writeValueAsString(record));
        Files.copy(GOLDEN.resolve("requests.jsonl"), run.resolve("requests.jsonl"));
        return run;
    }

    /** Runs the command line and returns its one line on stderr, after checking exit 2 and nothing more. */
    private String refused(final String... args)
    {
        console.resetErr();
        final int exit = Main.execute(args);
        final String err = console.err().strip();
        assertEquals(Main.EXIT_USAGE, exit, err);
        assertFalse(err.contains("\n"), "one line: " + err);
        assertFalse(err.contains("Exception") || err.contains("at io.") || err.contains("Cannot invoke") ||
            err.contains("[Source:"), "no internal message: " + err);
        return err;
    }

    private List<String[]> readers(final Path result)
    {
        final List<String[]> commands = new ArrayList<>();
        commands.add(new String[] {"record", result.toString()});
        commands.add(new String[] {"report", result.toString(), "--output", dir.resolve("r.html").toString()});
        commands.add(new String[] {"compare", result.toString(), result.toString(), "--output",
            dir.resolve("c.json").toString()});
        return commands;
    }

    @Test
    void shouldRefuseARecordHoldingNullInEveryReader() throws IOException
    {
        final Path run = run("null");
        Files.writeString(run.resolve("record.json"), "null");
        for (final String[] command : readers(run))
        {
            assertEquals("tokenclock: " + run.resolve("record.json") + ": expected a record (a JSON object), got null",
                refused(command), command[0]);
        }
    }

    @Test
    void shouldRefuseARecordFormatOrFormulasNewerThanThisBuildInEveryReaderAndInMerge() throws IOException
    {
        final Path run = run("newer");
        final String record = Files.readString(run.resolve("record.json"));
        Files.writeString(run.resolve("record.json"), record.replaceFirst("\"record_format\" : \\d+",
            "\"record_format\" : 6"));
        for (final String[] command : readers(run))
        {
            assertTrue(refused(command).endsWith("record.json: field tokenclock.record_format: expected at most 5 " +
                "(what this build reads), got 6: written by a newer tokenclock; read it with that version"));
        }
        Files.writeString(run.resolve("record.json"), record.replace("tokenclock-metrics/1", "tokenclock-metrics/2"));
        for (final String[] command : readers(run))
        {
            assertTrue(refused(command).contains("record.json: field tokenclock.formulas_version: expected at most " +
                "tokenclock-metrics/1"));
        }
        final List<Path> shards = shards();
        final Path shard = shards.get(1).resolve("record.json");
        Files.writeString(shard, Files.readString(shard).replaceFirst("\"record_format\" : \\d+",
            "\"record_format\" : 9"));
        assertTrue(refused("merge", dir.resolve("merged").toString(), shards.get(0).toString(),
            shards.get(1).toString()).contains(shard + ": field tokenclock.record_format: expected at most 5"));
    }

    @Test
    void shouldNameTheFieldOfARecordOfTheWrongType() throws IOException
    {
        final Path run = run("typed");
        Files.writeString(run.resolve("record.json"), Files.readString(run.resolve("record.json"))
            .replaceFirst("\"measured\" : \\d+", "\"measured\" : \"many\""));
        assertTrue(refused("record", run.toString()).endsWith("record.json: field report.counts.measured: expected " +
            "a number"));
        Files.copy(GOLDEN.resolve("full-record.json"), run.resolve("record.json"),
            java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        final String record = Files.readString(run.resolve("record.json"));
        Files.writeString(run.resolve("record.json"), record.replace("\"logical_cpus\" : 8",
            "\"logical_cpus\" : \"x\""));
        assertTrue(refused("record", run.toString()).endsWith("record.json: field hardware.client.logical_cpus: " +
            "expected a number"));
        Files.writeString(run.resolve("record.json"), record.replaceFirst("\"p99\" : 1.75", "\"p99\" : Infinity"));
        assertTrue(refused("record", run.toString()).endsWith("record.json: field measurement.client_jitter.lateness" +
            ".p99: expected a finite number, got Infinity"), console.err());
    }

    @Test
    void shouldNameTheLineOfARequestsJsonlThatIsCutShortNanBinaryOrTooDeepInReportAndMerge() throws IOException
    {
        final List<String> lines = Files.readAllLines(GOLDEN.resolve("requests.jsonl"));
        final String third = lines.get(2);
        final List<byte[]> bad = List.of(
            third.substring(0, third.length() / 2).getBytes(StandardCharsets.UTF_8),
            third.replaceFirst("\"end_ns\":\\d+", "\"end_ns\":NaN").getBytes(StandardCharsets.UTF_8),
            new byte[] {'{', '"', 'a', '"', ':', '"', (byte)0xff, (byte)0xfe, '"', '}'},
            ("{\"a\":" + "[".repeat(5000) + "]".repeat(5000) + "}").getBytes(StandardCharsets.UTF_8));
        final List<String> expected = List.of("expected one JSON object per line, got one cut short (no closing brace)",
            "expected JSON of finite numbers, got NaN or Infinity", "expected UTF-8 text, got bytes that are not",
            "expected JSON within its limits of nesting and size, got more");
        for (int i = 0; i < bad.size(); i++)
        {
            final Path run = run("lines-" + i);
            write(run.resolve("requests.jsonl"), lines, bad.get(i));
            assertEquals("tokenclock: " + run.resolve("requests.jsonl") + ": line 3: " + expected.get(i),
                refused("report", run.toString(), "--output", dir.resolve("r.html").toString()));
            final List<Path> shards = shards();
            final Path file = shards.get(0).resolve("requests.jsonl");
            write(file, Files.readAllLines(file), bad.get(i));
            assertEquals("tokenclock: " + file + ": line 3: " + expected.get(i), refused("merge",
                dir.resolve("merged-" + i).toString(), shards.get(0).toString(), shards.get(1).toString()));
        }
    }

    /** Writes {@code lines} with the third replaced by {@code third}'s bytes. */
    private static void write(final Path file, final List<String> lines, final byte[] third) throws IOException
    {
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (int i = 0; i < lines.size(); i++)
        {
            out.write(i == 2 ? third : lines.get(i).getBytes(StandardCharsets.UTF_8));
            out.write('\n');
        }
        Files.write(file, out.toByteArray());
    }

    private List<Path> shards() throws IOException
    {
        final SyntheticShards synthetic = new SyntheticShards(3);
        final Path base = Files.createTempDirectory(dir, "shards");
        // wall clocks of 2027 (a plausible offset: merge refuses a window outside 2020-2100)
        final long wallMinusMonotonicNs = 1_800_000_000_000_000_000L;
        return List.of(synthetic.write(base.resolve("shard-0"), 0, 2, 20, wallMinusMonotonicNs),
            synthetic.write(base.resolve("shard-1"), 1, 2, 20, wallMinusMonotonicNs + 1_000_000L));
    }

    @Test
    void shouldRefuseAnHlogThatIsNotBase64OrClaimsAHugeArray() throws IOException
    {
        final List<Path> shards = shards();
        final Path hlog = shards.get(1).resolve("ttft.hlog");
        final String text = Files.readString(hlog);
        final String encoded = text.substring(text.lastIndexOf(',') + 1).strip();
        Files.writeString(hlog, text.replace(encoded, "not*base64"));
        assertTrue(refused("merge", dir.resolve("m1").toString(), shards.get(0).toString(),
            shards.get(1).toString()).endsWith(hlog + ": line 6: expected a base64 HdrHistogram interval, got text " +
            "that is not base64"), console.err());
        Files.writeString(hlog, text.replace(encoded, huge()));
        assertTrue(refused("merge", dir.resolve("m2").toString(), shards.get(0).toString(),
            shards.get(1).toString()).endsWith(hlog + ": line 6: expected an HdrHistogram interval of at most " +
            "67108864 bytes, got one claiming 2147483647"), console.err());
    }

    /** @return an interval whose header claims a payload of 2 GiB, as HdrHistogram's V2 encoding lays it out. */
    private static String huge()
    {
        final ByteBuffer header = ByteBuffer.allocate(40).putInt(0x1c849303).putInt(Integer.MAX_VALUE).putInt(0)
            .putInt(3).putLong(1).putLong(3_600_000_000_000L).putDouble(1.0);
        final Deflater deflater = new Deflater();
        deflater.setInput(header.array());
        deflater.finish();
        final byte[] compressed = new byte[128];
        final int n = deflater.deflate(compressed);
        deflater.end();
        final ByteBuffer all = ByteBuffer.allocate(8 + n).putInt(0x1c849304).putInt(n).put(compressed, 0, n);
        return Base64.getEncoder().encodeToString(all.array());
    }

    @Test
    void shouldRefuseToCompareASweepWhosePointsHoldNoRun() throws IOException
    {
        final Path sweep = Files.createDirectories(dir.resolve("sweep"));
        Files.writeString(sweep.resolve("sweep.json"), "{\"format\": \"tokenclock-sweep/1\", \"points\": []}");
        assertEquals("tokenclock: " + sweep + ": expected a sweep with runs to compare, got none (no point of it " +
            "holds a record.json)", refused("compare", sweep.toString(), run("one").toString(), "--output",
            dir.resolve("c.json").toString()));
    }

    @Test
    void shouldNeverPrintAFigureOfAPeerFileHoldingAHugeTime() throws IOException
    {
        final Path p = dir.resolve("vllm.json");
        Files.writeString(p, Files.readString(PEERS.resolve("vllm-save-result.json"))
            .replace("\"ttfts\": [0.1, 0.2", "\"ttfts\": [0.1, 1e308"));
        assertEquals("tokenclock: " + p + ": field ttfts[1]: expected a time from 0 to 11.6 days (1e9 ms), got " +
            "1.0E308", refused("record", p.toString()));
        assertFalse(console.out().contains("9223372036854"), console.out());
    }
}
