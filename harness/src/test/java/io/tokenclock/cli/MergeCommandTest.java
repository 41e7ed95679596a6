package io.tokenclock.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.stream.Stream;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import io.tokenclock.merge.SyntheticShards;

/**
 * What {@code merge} must never do: destroy a shard (an output that is one of its inputs, by any path), overwrite a
 * result without {@code --force}, leave an old record beside new files; and which shards it refuses, one line and
 * exit 2 each: another formulas version, a {@code requests.jsonl} that is not of its record (empty, cut), an
 * implausible clock offset. Through the command line, as a user runs it.
 */
final class MergeCommandTest
{
    private static final ObjectMapper JSON = new ObjectMapper();
    /** 2027-01-15T08:00:00Z minus a monotonic clock that started at boot: a plausible offset. */
    private static final long OFFSET_NS = 1_800_000_000_000_000_000L;
    private static final long SECOND = 1_000_000_000L;

    @RegisterExtension
    final CapturedConsole console = new CapturedConsole();

    @TempDir
    Path tmp;

    private List<Path> shards(final int count, final long requests) throws IOException
    {
        final SyntheticShards synthetic = new SyntheticShards(5);
        final List<Path> dirs = new ArrayList<>();
        for (int i = 0; i < count; i++)
        {
            dirs.add(synthetic.write(tmp.resolve("shard-" + i), i, count, requests, OFFSET_NS));
        }
        return dirs;
    }

    @Test
    void shouldRefuseAShardAsTheOutputEvenThroughALinkOrARelativePathAndEvenWithForce() throws IOException
    {
        final List<Path> dirs = shards(2, 10);
        final byte[] record = Files.readAllBytes(dirs.get(0).resolve("record.json"));
        final byte[] requests = Files.readAllBytes(dirs.get(0).resolve("requests.jsonl"));
        final Path link = Files.createSymbolicLink(tmp.resolve("link"), dirs.get(0));
        final Path relative = Path.of("").toAbsolutePath().relativize(dirs.get(0).resolve("..").resolve("shard-0"));
        for (final Path out : List.of(dirs.get(0), link, relative))
        {
            console.assertUsage("it is the shard directory", "merge", out.toString(), dirs.get(0).toString(),
                dirs.get(1).toString());
            console.assertUsage("it is the shard directory", "merge", out.toString(), dirs.get(0).toString(),
                dirs.get(1).toString(), "--force");
        }
        assertArrayEquals(record, Files.readAllBytes(dirs.get(0).resolve("record.json")));
        assertArrayEquals(requests, Files.readAllBytes(dirs.get(0).resolve("requests.jsonl")),
            "the shard's requests are whole and its own");
    }

    @Test
    void shouldRefuseAnOutputThatHoldsAResultUnlessForced() throws IOException
    {
        final List<Path> dirs = shards(3, 10);
        final byte[] record = Files.readAllBytes(dirs.get(0).resolve("record.json"));
        // merge out/shard-* with OUT forgotten: shard 0 becomes the output, the others its inputs
        console.assertUsage("already holds a result (record.json)", "merge", dirs.get(0).toString(),
            dirs.get(1).toString(), dirs.get(2).toString());
        assertArrayEquals(record, Files.readAllBytes(dirs.get(0).resolve("record.json")), "shard 0 untouched");
        final Path out = tmp.resolve("merged");
        assertEquals(Main.EXIT_FAILED, Main.execute("merge", out.toString(), dirs.get(0).toString(),
            dirs.get(1).toString()), "shard 2 missing: " + console.err());
        console.assertUsage("already holds a result (index.json)", "merge", out.toString(), dirs.get(0).toString(),
            dirs.get(1).toString(), dirs.get(2).toString());
        assertTrue(console.err().contains("--force"), console.err());
        assertEquals(Main.EXIT_OK, Main.execute("merge", out.toString(), dirs.get(0).toString(),
            dirs.get(1).toString(), dirs.get(2).toString(), "--force"), console.err());
        assertEquals(30, JSON.readTree(out.resolve("record.json").toFile()).path("report").path("counts")
            .path("measured").asLong(), "replaced by the merge of three");
        assertTrue(names(out).stream().noneMatch(n -> n.endsWith(".tmp")), names(out).toString());
    }

    @Test
    void shouldLeaveNoOldRecordBesideNewFilesWhenAForcedMergeStopsMidway() throws IOException
    {
        final List<Path> dirs = shards(2, 10);
        final Path out = tmp.resolve("merged");
        assertEquals(Main.EXIT_OK, Main.execute("merge", out.toString(), dirs.get(0).toString(),
            dirs.get(1).toString()), console.err());
        // a whole line that is no JSON: the merge stops while writing requests.jsonl
        final Path broken = dirs.get(1).resolve("requests.jsonl");
        Files.writeString(broken, Files.readString(broken).replaceFirst("\\{\"id\"", "{\"id\"\"x"));
        assertFalse(Main.execute("merge", out.toString(), dirs.get(0).toString(), dirs.get(1).toString(),
            "--force") == Main.EXIT_OK);
        console.resetErr();
        console.assertUsage("record.json", "record", out.toString());
        assertTrue(names(out).stream().noneMatch(n -> n.endsWith(".tmp")), names(out).toString());
    }

    @Test
    void shouldRefuseShardsWhoseFormulasVersionsDiffer() throws IOException
    {
        final List<Path> dirs = shards(2, 5);
        // an older version beside this build's (a newer one is refused by the record's reader before merge looks)
        edit(dirs.get(0), r -> ((ObjectNode)r.get("tokenclock")).put("formulas_version", "tokenclock-metrics/0"));
        edit(dirs.get(1), r -> ((ObjectNode)r.get("tokenclock")).put("formulas_version", "tokenclock-metrics/1"));
        assertRefused(dirs, "formulas versions differ", "has tokenclock-metrics/0", "has tokenclock-metrics/1");
    }

    @Test
    void shouldRefuseAShardWhoseRequestsAreEmptyWhileItsRecordCountsMeasuredRequests() throws IOException
    {
        final List<Path> dirs = shards(2, 8);
        Files.writeString(dirs.get(1).resolve("requests.jsonl"), "");
        assertRefused(dirs, "shard 1/2", "holds 0 whole lines, but record.json counts 8 requests");
        Files.delete(dirs.get(1).resolve("requests.jsonl"));
        assertRefused(dirs, "shard 1/2", "counts 8 requests (measured and warm-up), but it has no requests.jsonl");
    }

    @Test
    void shouldRefuseAWholeShardWhoseRequestsEndInACutLine() throws IOException
    {
        final List<Path> dirs = shards(2, 8);
        final Path file = dirs.get(0).resolve("requests.jsonl");
        final String text = Files.readString(file);
        Files.writeString(file, text + text.substring(0, 20));
        assertRefused(dirs, "shard 0/2", "ends in a cut line (20 bytes after its last newline)");
    }

    @Test
    void shouldTakeOnlyTheWholeLinesOfAShardKilledMidWrite() throws IOException
    {
        final List<Path> dirs = shards(2, 8);
        edit(dirs.get(1), r -> r.put("partial", true).put("partial_reason", "the run was in progress"));
        final Path file = dirs.get(1).resolve("requests.jsonl");
        Files.writeString(file, Files.readString(file) + "{\"id\":99,\"pha");
        final Path out = tmp.resolve("merged");
        assertEquals(Main.EXIT_FAILED, Main.execute("merge", out.toString(), dirs.get(0).toString(),
            dirs.get(1).toString()), "a failed shard makes the merge incomplete: " + console.err());
        assertTrue(console.err().contains("the merged record is marked partial"), console.err());
        assertTrue(console.out().contains("16 lines in requests.jsonl"), console.out());
        final List<String> lines = Files.readAllLines(out.resolve("requests.jsonl"));
        assertEquals(16, lines.size(), "both shards' whole lines, and not the cut one");
        for (final String line : lines)
        {
            JSON.readTree(line);
        }
    }

    @Test
    void shouldRefuseAClockOffsetThatPutsTheWindowWhereTheRunCannotHaveMeasuredIt() throws IOException
    {
        final List<Path> dirs = shards(2, 5);
        // shard 1's window starts at 2 s on its monotonic clock: at OFFSET + 2 s on the wall clock, for 10 s
        final long windowStart = OFFSET_NS + 2 * SECOND;
        edit(dirs.get(1), r -> ((ObjectNode)r.get("shard")).put("wall_minus_monotonic_ns", 0));
        assertRefused(dirs, "shard 1/2", "implausible clock offset", "outside the years 2020 to 2100");

        edit(dirs.get(1), r ->
        {
            ((ObjectNode)r.get("shard")).put("wall_minus_monotonic_ns", OFFSET_NS + 3600 * SECOND);
            r.put("started_at", instant(windowStart - SECOND));
        });
        assertRefused(dirs, "shard 1/2", "implausible clock offset", "ending after the run can have ended");

        edit(dirs.get(1), r ->
        {
            ((ObjectNode)r.get("shard")).put("wall_minus_monotonic_ns", OFFSET_NS);
            ((ObjectNode)r.get("shard")).put("start_at", instant(windowStart + 5 * SECOND))
                .put("start_tolerance_s", 2.0);
        });
        assertRefused(dirs, "shard 1/2", "implausible clock offset", "before the common start");

        edit(dirs.get(1), r -> ((ObjectNode)r.get("shard")).put("start_at", instant(windowStart)));
        assertEquals(Main.EXIT_OK, Main.execute("merge", tmp.resolve("merged").toString(), dirs.get(0).toString(),
            dirs.get(1).toString()), "the same shard, its window where its start and its wall time put it: " +
            console.err());
    }

    private void assertRefused(final List<Path> dirs, final String... expected)
    {
        final List<String> args = new ArrayList<>(List.of("merge", tmp.resolve("refused").toString()));
        dirs.forEach(d -> args.add(d.toString()));
        console.assertUsage(expected[0], args.toArray(String[]::new));
        for (final String e : expected)
        {
            assertTrue(console.err().contains(e), console.err());
        }
        assertFalse(Files.exists(tmp.resolve("refused")), "nothing written");
    }


    private static void edit(final Path dir, final Consumer<ObjectNode> change) throws IOException
    {
        final ObjectNode record = (ObjectNode)JSON.readTree(dir.resolve("record.json").toFile());
        change.accept(record);
        JSON.writeValue(dir.resolve("record.json").toFile(), record);
    }

    private static String instant(final long epochNs)
    {
        return Instant.ofEpochSecond(epochNs / SECOND, epochNs % SECOND).toString();
    }

    private static List<String> names(final Path dir) throws IOException
    {
        try (Stream<Path> s = Files.list(dir))
        {
            return s.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }
}
