package io.tokenclock.results;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.tokenclock.results.record.MeasurementSection;
import io.tokenclock.results.record.RecordJson;
import io.tokenclock.results.record.RunRecord;

/** Every kind of output directory opens as its result, with index.json and (written before it) without. */
final class ResultsTest
{
    private static final Path GOLDEN = Path.of("src", "test", "resources", "io", "tokenclock", "report", "golden");

    @TempDir
    Path dir;

    @Test
    void shouldReadAndWriteBackTheGoldenRecordsByteForByte() throws IOException
    {
        for (final String name : List.of("full-record.json", "bare-record.json"))
        {
            final RunRecord r = RecordJson.read(GOLDEN.resolve(name));
            assertEquals(Files.readString(GOLDEN.resolve(name)), new String(RecordJson.bytes(r)), name);
        }
    }

    @Test
    void shouldReadTheClientCpuByThreadBackIntoItsTypedSectionInItsOrder() throws IOException
    {
        final MeasurementSection.ClientCpuByThread c =
            RecordJson.read(GOLDEN.resolve("full-record.json")).measurement().clientCpuByThread();
        assertEquals(List.of("stamping", "collector", "stage", "load", "monitors", "simulator", "runner", "jit", "gc",
            "jvm", "other", "ended"), List.copyOf(c.groups().keySet()));
        assertEquals(1_800.0, c.groups().get("stamping").cpuMs());
        assertEquals(0.12, c.groups().get("ended").share());
        assertEquals(c.totalMs(), c.groups().values().stream().mapToDouble(g -> g.cpuMs()).sum(), 1e-9);
        final MeasurementSection.ClientCpuByThread bare =
            RecordJson.read(GOLDEN.resolve("bare-record.json")).measurement().clientCpuByThread();
        assertNull(bare.groups());
        assertTrue(bare.unavailable().contains("Linux only"), bare.unavailable());
    }

    @Test
    void shouldReadARecordOfAnOlderFormatIntoTheSameTypes() throws IOException
    {
        final Path run = dir.resolve("old");
        Files.createDirectories(run);
        Files.writeString(run.resolve("record.json"), "{\"tokenclock\": {\"record_format\": 1, \"formulas_version\": " +
            "\"tokenclock-metrics/1\"}, \"run_id\": \"r1\", \"report\": {\"distributions\": {\"ttft\": {\"unit\": " +
            "\"ms\", \"count\": 3, \"p50\": 12.5, \"p99\": 20.0}}}}");
        final Result r = Results.open(run);
        final RunResultDir d = assertInstanceOf(RunResultDir.class, r);
        assertEquals(1, d.record().tokenclock().recordFormat());
        assertEquals(12.5, d.record().report().distribution("ttft").figure("p50"));
        assertTrue(Double.isNaN(d.record().report().distribution("ttft").figure("p90")));
    }

    @Test
    void shouldOpenARunWithAndWithoutItsIndex() throws IOException
    {
        final Path run = run(dir.resolve("one"));
        assertEquals(Kind.RUN, Results.open(run).kind());
        Index.write(run, Kind.RUN, List.of());
        assertEquals(Kind.RUN, Results.open(run).kind());
        assertEquals(Kind.RUN, Results.open(run.resolve("record.json")).kind());
    }

    @Test
    void shouldOpenRepetitionsWrittenBeforeIndexJsonByTheirRepDirectories() throws IOException
    {
        run(dir.resolve("rep-2"));
        run(dir.resolve("rep-1"));
        run(dir.resolve("rep-10"));
        Files.writeString(dir.resolve("repetitions.json"), "{\"repetitions\": 3, \"figures\": {}}");
        final RepetitionSet set = assertInstanceOf(RepetitionSet.class, Results.open(dir));
        assertEquals(List.of("repetition 1", "repetition 2", "repetition 10"),
            set.runs().stream().map(Result.Run::role).toList());
    }

    @Test
    void shouldOpenAnAbByItsIndexAndSplitItsVariants() throws IOException
    {
        run(dir.resolve("A").resolve("rep-1"));
        run(dir.resolve("B").resolve("rep-1"));
        Files.writeString(dir.resolve("ab.json"), "{\"figures\": {}}");
        Index.write(dir, Kind.AB, List.of(new Index.Member(dir.resolve("A/rep-1").toString(), "a 1"),
            new Index.Member("B/rep-1", "b 1")));
        assertEquals("A/rep-1", Index.read(dir).members().get(0).path(), "members are written relative");
        final AbResult ab = assertInstanceOf(AbResult.class, Results.open(dir));
        assertEquals(1, ab.a().size());
        assertEquals(1, ab.b().size());
        assertEquals(Kind.AB, assertInstanceOf(AbResult.class, Results.open(dir.resolve("A").getParent())).kind());
    }

    @Test
    void shouldOpenALegacySweepByTheRunDirsOfSweepJson() throws IOException
    {
        run(dir.resolve("points").resolve("01-rate-2"));
        run(dir.resolve("points").resolve("02-rate-4"));
        Files.writeString(dir.resolve("sweep.json"), "{\"format\": \"tokenclock-sweep/1\", \"points\": [" +
            "{\"offered\": 2, \"run_dir\": \"points/01-rate-2\"}, " +
            "{\"offered\": 4, \"run_dir\": \"points/02-rate-4\"}]}");
        final Sweep s = assertInstanceOf(Sweep.class, Results.open(dir));
        assertEquals(List.of("point 1", "point 2"), s.runs().stream().map(Result.Run::role).toList());
    }

    @Test
    void shouldNameTheDirectoryAndWhatWasLookedForWhenItIsNoResult()
    {
        final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class, () -> Results.open(dir));
        assertTrue(ex.getMessage().startsWith(dir + ": not a tokenclock result: no index.json, record.json"),
            ex.getMessage());
    }

    @Test
    void shouldRefuseAnIndexOfAnotherFormatNamingItsField() throws IOException
    {
        Files.writeString(dir.resolve("index.json"), "{\"format\": \"other/9\", \"kind\": \"run\"}");
        final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class, () -> Results.open(dir));
        assertTrue(ex.getMessage().contains("field format: expected \"tokenclock-index/1\""), ex.getMessage());
    }

    private static Path run(final Path at) throws IOException
    {
        Files.createDirectories(at);
        Files.copy(GOLDEN.resolve("bare-record.json"), at.resolve("record.json"));
        return at;
    }
}
