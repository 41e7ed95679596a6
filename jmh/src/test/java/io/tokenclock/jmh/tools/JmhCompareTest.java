package io.tokenclock.jmh.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The verdict rule of {@link JmhCompare}, and its exit statuses, on hand-made JMH results. */
class JmhCompareTest
{
    @TempDir
    Path dir;

    private static JmhResult avgt(final double score, final double error)
    {
        return new JmhResult("io.tokenclock.jmh.X.y", "avgt", Map.of(), score, error, "ns/op", 0.0, true, 1e9);
    }

    private static JmhResult thrpt(final double score, final double error)
    {
        return new JmhResult("io.tokenclock.jmh.X.y", "thrpt", Map.of(), score, error, "ops/us", 0.0, true, 1e9);
    }

    @Test
    void shouldFlagRegressionOnlyWhenIntervalsAreDisjointAndRatioExceedsThreshold()
    {
        assertEquals(JmhCompare.Verdict.REGRESSION, JmhCompare.verdict(avgt(100, 5), avgt(200, 10), 0.10));
        // Disjoint but only 8% slower: below the threshold.
        assertEquals(JmhCompare.Verdict.SAME, JmhCompare.verdict(avgt(100, 1), avgt(108, 1), 0.10));
        // 50% slower but the intervals overlap: noise.
        assertEquals(JmhCompare.Verdict.SAME, JmhCompare.verdict(avgt(100, 40), avgt(150, 20), 0.10));
        assertEquals(JmhCompare.Verdict.SAME, JmhCompare.verdict(avgt(100, 5), avgt(100, 5), 0.10));
    }

    @Test
    void shouldBeSymmetric()
    {
        assertEquals(JmhCompare.Verdict.IMPROVEMENT, JmhCompare.verdict(avgt(200, 10), avgt(100, 5), 0.10));
        assertEquals(JmhCompare.Verdict.SAME, JmhCompare.verdict(avgt(108, 1), avgt(100, 1), 0.10));
    }

    @Test
    void shouldReverseDirectionForThroughput()
    {
        assertEquals(JmhCompare.Verdict.REGRESSION, JmhCompare.verdict(thrpt(200, 10), thrpt(100, 5), 0.10));
        assertEquals(JmhCompare.Verdict.IMPROVEMENT, JmhCompare.verdict(thrpt(100, 5), thrpt(200, 10), 0.10));
    }

    @Test
    void shouldTreatMissingErrorAsPointEstimate()
    {
        assertEquals(JmhCompare.Verdict.REGRESSION,
            JmhCompare.verdict(avgt(100, Double.NaN), avgt(120, Double.NaN), 0.10));
        assertEquals(JmhCompare.Verdict.SAME, JmhCompare.verdict(avgt(100, Double.NaN), avgt(105, Double.NaN), 0.10));
    }

    @Test
    void shouldExitZeroOnSelfAndOneOnPlantedSlowdownAndTwoOnBadUsage() throws IOException
    {
        final Path base = write("base.json", 250.0, 8.0);
        final Path slow = write("slow.json", 500.0, 16.0);

        assertEquals(0, run(base.toString(), base.toString()));
        assertEquals(1, run(base.toString(), slow.toString()));
        assertEquals(0, run(slow.toString(), base.toString()));
        assertEquals(0, run(base.toString(), slow.toString(), "--threshold", "150"));
        assertEquals(2, run(base.toString()));
        assertEquals(2, run(base.toString(), slow.toString(), "--threshold", "x"));
        assertEquals(2, run(base.toString(), dir.resolve("missing.json").toString()));
    }

    @Test
    void shouldPrintThePinnedTableNotesAndSummary() throws IOException
    {
        final Path base = Golden.write(dir, "base.json",
            Golden.entry("PerChunkBenchmark.perChunk", "avgt", null, 250.0, "8.0", "ns/op", "0.001"),
            Golden.entry("SseFramerBenchmark.oneEventPerRead", "avgt", null, 65.13, "4.22", "ns/op", "0.0"),
            Golden.entry("ClockBenchmark.nanoTime", "avgt", null, 22.13, "2.33", "ns/op", "0.0"),
            Golden.entry("RingBufferBenchmark.publishAndDrainOne", "thrpt", "{\"size\":\"1024\"}", 37.5, "1.0",
                "ops/us", "0.0"),
            Golden.entry("HistogramBenchmark.singleWriterRecordValue", "avgt", null, 11.09, "\"NaN\"", "ns/op", null),
            Golden.entry("ChunkParserBenchmark.content", "avgt", null, 130.4, "3.33", "ns/op", "0.001"),
            Golden.entry("RequestLifecycleBenchmark.request", "avgt", null, 1266.0, "24.66", "ns/op", "0.009"));
        final Path now = Golden.write(dir, "new.json",
            Golden.entry("PerChunkBenchmark.perChunk", "avgt", null, 500.0, "16.0", "ns/op", "24.0"),
            Golden.entry("SseFramerBenchmark.oneEventPerRead", "avgt", null, 38.97, "4.34", "ns/op", "0.0"),
            Golden.entry("ClockBenchmark.nanoTime", "avgt", null, 22.13, "0.789", "ns/op", "0.0"),
            Golden.entry("RingBufferBenchmark.publishAndDrainOne", "thrpt", "{\"size\":\"1024\"}", 12.0, "0.5",
                "ops/us", "0.0"),
            Golden.entry("HistogramBenchmark.singleWriterRecordValue", "avgt", null, 11.22, "\"NaN\"", "ns/op", null),
            Golden.entry("ChunkParserBenchmark.content", "avgt", null, 0.119, "0.01", "us/op", "0.001"),
            Golden.entry("KernelReadPath.read", "avgt", null, 900.0, "10.0", "ns/op", "0.0"));
        final Path one = Golden.write(dir, "one.json",
            Golden.entry("PerChunkBenchmark.perChunk", "avgt", null, 250.0, "8.0", "ns/op", "0.001"));
        Golden.assertGolden("jmh-compare.txt", String.join("\n",
            Golden.run(JmhCompare::run, dir, base.toString(), now.toString()),
            Golden.run(JmhCompare::run, dir, now.toString(), base.toString(), "--threshold=12.5%"),
            Golden.run(JmhCompare::run, dir, one.toString(), one.toString(), "--threshold", "0"),
            Golden.run(JmhCompare::run, dir, "--help"),
            Golden.run(JmhCompare::run, dir, one.toString()),
            Golden.run(JmhCompare::run, dir, one.toString(), one.toString(), "--threshold"),
            Golden.run(JmhCompare::run, dir, one.toString(), one.toString(), "--threshold", "-1"),
            Golden.run(JmhCompare::run, dir, one.toString(), one.toString(), "--bogus"),
            Golden.run(JmhCompare::run, dir, one.toString(), dir.resolve("missing.json").toString())));
    }

    @Test
    void shouldReadJmhJsonIncludingNanErrorAndOmittedAllocKey() throws IOException
    {
        final Path f = dir.resolve("nan.json");
        Files.writeString(f,
            "[{\"benchmark\":\"io.tokenclock.jmh.A.b\",\"mode\":\"avgt\",\"measurementTime\":\"1 s\"," +
            "\"params\":{\"n\":\"4\"}," +
            "\"primaryMetric\":{\"score\":12.5,\"scoreError\":\"NaN\",\"scoreUnit\":\"ns/op\"}," +
            "\"secondaryMetrics\":{\"gc.count\":{\"score\":0.0,\"scoreError\":\"NaN\",\"scoreUnit\":\"counts\"}}}]");

        final JmhResult r = JmhResult.read(f).get(0);

        assertTrue(Double.isNaN(r.scoreError()));
        assertEquals("A.b:n=4", r.displayName());
        assertEquals("0*", r.allocCell());
        assertEquals(0.0, r.allocOrZero());
        assertFalse(r.allocates(0.5));
        assertEquals(1e9, r.iterationNs());
    }

    private int run(final String... args)
    {
        final ByteArrayOutputStream sink = new ByteArrayOutputStream();
        final PrintStream out = new PrintStream(sink, true, StandardCharsets.UTF_8);
        return JmhCompare.run(args, out, out);
    }

    private Path write(final String name, final double perChunk, final double error) throws IOException
    {
        final Path f = dir.resolve(name);
        Files.writeString(f, "[" + entry("PerChunkBenchmark.perChunk", perChunk, error) + "," +
            entry("ClockBenchmark.nanoTime", 22.0, 0.5) + "]");
        return f;
    }

    private static String entry(final String name, final double score, final double error)
    {
        return "{\"benchmark\":\"io.tokenclock.jmh." + name + "\",\"mode\":\"avgt\",\"measurementTime\":\"1 s\"," +
            "\"primaryMetric\":{\"score\":" + score + ",\"scoreError\":" + error + ",\"scoreUnit\":\"ns/op\"}," +
            "\"secondaryMetrics\":{\"gc.alloc.rate.norm\":" +
            "{\"score\":0.001,\"scoreError\":0.0,\"scoreUnit\":\"B/op\"}}}";
    }
}
