package io.tokenclock.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import org.HdrHistogram.Histogram;

import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

import io.tokenclock.export.LlmdSchema;
import io.tokenclock.json.Json;
import io.tokenclock.metrics.Metric;
import io.tokenclock.report.HistogramLogs;

/**
 * No internal error ever reaches the user: every reader (a peer's file of each format, a run's {@code record.json}
 * and {@code requests.jsonl}, an {@code .hlog}, a contract file) fed the real fixtures truncated, with a field
 * removed, with a value of the wrong type, with NaN, Infinity, 1e308 or a negative number, with binary bytes or
 * nesting past any limit, either reads the file (some damage leaves it valid: a line-boundary cut, an optional key
 * removed) or answers with one line on stderr naming the file, exit 2. Never exit 1, a second line, a stack trace, an
 * internal message, or a figure of 9223372036854 ms. And what {@code export} writes of a file it reads is valid under
 * llm-d's schema.
 */
class ReaderFuzzProperties
{
    private static final Path RESOURCES = Path.of("src", "test", "resources", "io", "tokenclock");
    private static final Path PEERS = RESOURCES.resolve("peers");
    private static final Path REAL = PEERS.resolve("real");
    private static final Path GOLDEN = RESOURCES.resolve("report").resolve("golden");
    private static final ObjectMapper JSON = JsonMapper.builder().enable(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS)
        .build();
    private static final String HOSTILE = "@@hostile@@";

    /** The file a reader reads, and how: a file alone, or a directory holding it and its companions. */
    record Seed(String name, Path source, String fileName, List<Path> companions, String command)
    {
        @Override
        public String toString()
        {
            return name;
        }
    }

    /** One way to damage a file: its kind, a position, and for a value what to put there. */
    record Damage(String kind, int at, String value)
    {
    }

    @Provide
    Arbitrary<Seed> peerSeeds()
    {
        return Arbitraries.of(
            new Seed("vllm 0.9 append", REAL.resolve("vllm-0.9-append-metadata.jsonl"), "vllm.jsonl", List.of(),
                "record"),
            new Seed("aiperf 2025 summary", REAL.resolve("aiperf-2025-10-run1/profile_export_aiperf.json"),
                "profile_export_aiperf.json", List.of(REAL.resolve("aiperf-2025-10-run1/profile_export.jsonl")),
                "record-dir"),
            new Seed("aiperf 2025 records", REAL.resolve("aiperf-2025-10-run1/profile_export.jsonl"),
                "profile_export.jsonl", List.of(REAL.resolve("aiperf-2025-10-run1/profile_export_aiperf.json")),
                "record-dir"),
            new Seed("aiperf 2026", REAL.resolve("aiperf-2026-04-v0.8.0-bare/profile_export_aiperf.json"),
                "profile_export_aiperf.json", List.of(), "record-dir"),
            new Seed("guidellm 0.3", REAL.resolve("guidellm-0.3-benchmarks_stripped.json"), "benchmarks.json",
                List.of(), "record"),
            new Seed("vllm detailed", PEERS.resolve("vllm-save-result.json"), "vllm.json", List.of(), "record"),
            new Seed("sglang", PEERS.resolve("sglang.jsonl"), "sglang.jsonl", List.of(), "record"),
            new Seed("guidellm current", PEERS.resolve("guidellm-current.json"), "benchmarks.json", List.of(),
                "record"),
            new Seed("record.json", GOLDEN.resolve("full-record.json"), "record.json",
                List.of(GOLDEN.resolve("requests.jsonl")), "record-dir"));
    }

    @Provide
    Arbitrary<Damage> damage()
    {
        final Arbitrary<String> kind = Arbitraries.of("truncate", "remove", "retype", "hostile", "binary", "deep");
        final Arbitrary<String> value = Arbitraries.of("NaN", "Infinity", "-Infinity", "1e308", "-1e308", "1e400",
            "-1", "\"x\"", "true", "null", "[]", "{}", "[[1]]", "0");
        return Combinators.combine(kind, Arbitraries.integers().between(0, 1_000_000), value).as(Damage::new);
    }

    @Property(tries = 300)
    void shouldReadOrRefuseInOneLineEveryPeerFileAndRecordHoweverDamaged(
        @ForAll("peerSeeds") final Seed seed, @ForAll("damage") final Damage damage) throws IOException
    {
        final Path dir = Files.createTempDirectory("fuzz");
        try
        {
            final Path file = dir.resolve(seed.fileName());
            Files.write(file, damaged(Files.readAllBytes(seed.source()), damage));
            for (final Path c : seed.companions())
            {
                Files.copy(c, dir.resolve(c.getFileName().toString().equals("requests.jsonl") ? "requests.jsonl" :
                    c.getFileName().toString()));
            }
            check(dir, "record", (seed.command().equals("record-dir") ? dir : file).toString());
        }
        finally
        {
            delete(dir);
        }
    }

    @Property(tries = 40) // each try validates every report written: 40 took about 25 s on the loaded 2-core VM
    void shouldExportValidReportsOrRefuseInOneLineEveryPeerFileAndRecordHoweverDamaged(
        @ForAll("peerSeeds") final Seed seed, @ForAll("damage") final Damage damage) throws IOException
    {
        final Path dir = Files.createTempDirectory("fuzz");
        try
        {
            final Path file = dir.resolve(seed.fileName());
            Files.write(file, damaged(Files.readAllBytes(seed.source()), damage));
            for (final Path c : seed.companions())
            {
                Files.copy(c, dir.resolve(c.getFileName().toString()));
            }
            final Ran ran = check(dir, "export", "--format", "llmd-report",
                (seed.command().equals("record-dir") ? dir : file).toString());
            for (final String line : ran.exit() == Main.EXIT_OK ? ran.out().lines().toList() : List.<String>of())
            {
                assertEquals(List.of(), LlmdSchema.errors(Json.MAPPER.readTree(line)), "what export wrote: " + line);
            }
        }
        finally
        {
            delete(dir);
        }
    }

    @Property(tries = 40)
    void shouldReportOrRefuseInOneLineARequestsJsonlHoweverDamaged(@ForAll("damage") final Damage damage)
        throws IOException
    {
        final Path dir = Files.createTempDirectory("fuzz");
        try
        {
            Files.copy(GOLDEN.resolve("full-record.json"), dir.resolve("record.json"));
            Files.write(dir.resolve("requests.jsonl"), damaged(Files.readAllBytes(GOLDEN.resolve("requests.jsonl")),
                damage));
            check(dir, "report", dir.toString(), "--output", dir.resolve("r.html").toString());
        }
        finally
        {
            delete(dir);
        }
    }

    @Property(tries = 150)
    void shouldReadOrRefuseInOneLineAnHlogHoweverDamaged(@ForAll("damage") final Damage damage) throws IOException
    {
        final Path dir = Files.createTempDirectory("fuzz");
        try
        {
            final Histogram h = new Histogram(1, 3_600_000_000_000L, 3);
            for (int i = 1; i <= 1000; i++)
            {
                h.recordValue(i * 997_000L);
            }
            HistogramLogs.write(dir, Map.of(Metric.TTFT, h), 0, 1, "fuzz");
            final Path file = dir.resolve("ttft" + HistogramLogs.SUFFIX);
            Files.write(file, damaged(Files.readAllBytes(file), damage));
            try
            {
                HistogramLogs.read(dir, Metric.TTFT);
            }
            catch (final IllegalArgumentException ex)
            {
                assertTrue(ex.getMessage().startsWith(file.toString()), ex.getMessage());
                assertFalse(ex.getMessage().contains("\n"), ex.getMessage());
            }
        }
        finally
        {
            delete(dir);
        }
    }

    @Property(tries = 100)
    void shouldValidateOrRefuseLineByLineAContractHoweverDamaged(@ForAll("damage") final Damage damage)
        throws IOException
    {
        final Path dir = Files.createTempDirectory("fuzz");
        try
        {
            final Path file = dir.resolve("contract.yaml");
            final byte[] yaml = Files.readAllBytes(Path.of("..", "examples", "chat-slo.yaml"));
            Files.write(file, damage.kind().equals("remove") || damage.kind().equals("retype") ?
                yamlDamaged(yaml, damage) : damaged(yaml, damage));
            final Ran ran = ran("validate", file.toString());
            assertTrue(ran.exit() == Main.EXIT_OK || ran.exit() == Main.EXIT_USAGE, ran.exit() + ": " + ran.err());
            for (final String line : ran.err().strip().lines().toList())
            {
                assertTrue(line.startsWith("tokenclock: " + file), line);
                internal(line);
            }
        }
        finally
        {
            delete(dir);
        }
    }

    /** Runs {@code args}, then checks: read (exit 0), or refused in one line naming a file in {@code dir} (exit 2). */
    private static Ran check(final Path dir, final String... args)
    {
        final Ran ran = ran(args);
        final String err = ran.err().strip();
        assertTrue(ran.exit() == Main.EXIT_OK || ran.exit() == Main.EXIT_USAGE, ran.exit() + ": " + err);
        assertFalse(ran.out().contains("9223372036854"), ran.out());
        if (ran.exit() == Main.EXIT_USAGE)
        {
            assertEquals(1, err.lines().count(), err);
            assertTrue(err.startsWith("tokenclock: " + dir), "names the file: " + err);
            internal(err);
        }
        return ran;
    }

    /** What a command line gave: its exit status and its output. */
    record Ran(int exit, String out, String err)
    {
    }

    private static Ran ran(final String... args)
    {
        final CapturedConsole console = CapturedConsole.started();
        try
        {
            final int exit = Main.execute(args);
            return new Ran(exit, console.out(), console.err());
        }
        finally
        {
            console.restore();
        }
    }

    private static void internal(final String line)
    {
        for (final String word : List.of("Exception", "Cannot invoke", "Index ", "[Source:", "\tat ", "null pointer",
            "java.", "com.fasterxml"))
        {
            assertFalse(line.contains(word), "no internal message: " + line);
        }
    }

    /** @return {@code bytes} damaged: cut, a JSON field removed or retyped, a hostile number, binary, deep nesting. */
    static byte[] damaged(final byte[] bytes, final Damage d) throws IOException
    {
        final int at = d.at() % Math.max(1, bytes.length);
        return switch (d.kind())
        {
            case "truncate" -> java.util.Arrays.copyOf(bytes, Math.max(1, at));
            case "binary" -> insert(bytes, at, new byte[] {(byte)0xff, (byte)0xfe, 0, (byte)0xc3});
            case "deep" -> json(bytes, d.at(), "[".repeat(3000) + "]".repeat(3000), false);
            case "hostile" -> json(bytes, d.at(), d.value(), true);
            case "retype" -> json(bytes, d.at(), d.value(), false);
            default -> json(bytes, d.at(), null, false);
        };
    }

    private static byte[] insert(final byte[] bytes, final int at, final byte[] what)
    {
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(bytes, 0, at);
        out.writeBytes(what);
        out.write(bytes, at, bytes.length - at);
        return out.toByteArray();
    }

    /**
     * @return the JSON (or JSON lines) of {@code bytes} with its {@code k}-th node (mod their count) replaced by the
     * raw text {@code value}, or removed when {@code value} is null; {@code numbers} picks among numbers only.
     */
    private static byte[] json(final byte[] bytes, final int k, final String value, final boolean numbers)
        throws IOException
    {
        final String text = new String(bytes, StandardCharsets.UTF_8);
        if (!text.strip().startsWith("{"))
        {
            return bytes; // not JSON (an .hlog): left as it is
        }
        final List<JsonNode> roots = new ArrayList<>();
        try (var it = JSON.readerFor(JsonNode.class).<JsonNode>readValues(text))
        {
            while (it.hasNext())
            {
                roots.add(it.next());
            }
        }
        final List<Object[]> slots = new ArrayList<>();
        roots.forEach(r -> slots(r, slots, numbers));
        if (!slots.isEmpty())
        {
            final Object[] slot = slots.get(k % slots.size());
            if (slot[0] instanceof ObjectNode o)
            {
                if (value == null)
                {
                    o.remove((String)slot[1]);
                }
                else
                {
                    o.set((String)slot[1], TextNode.valueOf(HOSTILE));
                }
            }
            else if (slot[0] instanceof ArrayNode a)
            {
                if (value == null)
                {
                    a.remove((Integer)slot[1]);
                }
                else
                {
                    a.set((Integer)slot[1], TextNode.valueOf(HOSTILE));
                }
            }
        }
        final StringBuilder sb = new StringBuilder();
        for (final JsonNode r : roots)
        {
            sb.append(JSON.writeValueAsString(r)).append('\n');
        }
        return sb.toString().replace("\"" + HOSTILE + "\"", value == null ? "" : value)
            .getBytes(StandardCharsets.UTF_8);
    }

    private static void slots(final JsonNode n, final List<Object[]> slots, final boolean numbers)
    {
        if (n instanceof ObjectNode o)
        {
            o.properties().forEach(e ->
            {
                if (!numbers || e.getValue().isNumber())
                {
                    slots.add(new Object[] {o, e.getKey()});
                }
                slots(e.getValue(), slots, numbers);
            });
        }
        else if (n instanceof ArrayNode a)
        {
            for (int i = 0; i < a.size(); i++)
            {
                if (!numbers || a.get(i).isNumber())
                {
                    slots.add(new Object[] {a, i});
                }
                slots(a.get(i), slots, numbers);
            }
        }
    }

    /** @return a YAML contract with its {@code at}-th line removed, or its value replaced by {@code d.value()}. */
    private static byte[] yamlDamaged(final byte[] yaml, final Damage d)
    {
        final List<String> lines = new ArrayList<>(new String(yaml, StandardCharsets.UTF_8).lines().toList());
        final int i = d.at() % lines.size();
        if (d.kind().equals("remove"))
        {
            lines.remove(i);
        }
        else if (lines.get(i).contains(":"))
        {
            lines.set(i, lines.get(i).substring(0, lines.get(i).indexOf(':') + 1) + " " + d.value());
        }
        return (String.join("\n", lines) + "\n").getBytes(StandardCharsets.UTF_8);
    }

    private static void delete(final Path dir) throws IOException
    {
        try (Stream<Path> s = Files.walk(dir))
        {
            for (final Path p : s.sorted(Comparator.reverseOrder()).toList())
            {
                Files.deleteIfExists(p);
            }
        }
    }
}
