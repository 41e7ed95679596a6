package io.tokenclock.jmh.tools;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static io.tokenclock.jmh.tools.Golden.entry;

/**
 * Pins what {@code scripts/overhead} prints from a result file, every branch of the report (allocation-free or not,
 * with or without {@code -prof gc}, the clock's fallback, no per-chunk result) and the exit statuses of bad usage.
 */
final class OverheadReportTest
{
    @TempDir
    Path dir;

    @Test
    void reportsTheFullTableBudgetAndTargets() throws IOException
    {
        final Path full = Golden.write(dir, "full.json",
            entry("PerChunkBenchmark.perChunk", "avgt", null, 270.7, "10.03", "ns/op", "0.002"),
            entry("ClockBenchmark.nanoTime", "avgt", null, 22.13, "2.33", "ns/op", "0.0"),
            entry("ClockBenchmark.granularity", "avgt", null, 22.13, "2.37", "ns/op", "0.001"),
            entry("RequestLifecycleBenchmark.request", "avgt", null, 1266.0, "24.66", "ns/op", "0.009"),
            entry("RingBufferBenchmark.publishAndDrainOne", "thrpt", "{\"size\":\"1024\"}", 37.5, "\"NaN\"",
                "ops/us", "48.0"));
        final Path noGc = Golden.write(dir, "nogc.json",
            entry("PerChunkBenchmark.perChunk", "avgt", null, 1450.0, "\"NaN\"", "ns/op", null),
            entry("PerChunkBenchmark.nanoTime", "avgt", null, 25.0, "1.0", "ns/op", null),
            entry("PerChunkBenchmark.perChunk", "avgt", "{\"chunks\":\"4\"}", 999.0, "1.0", "ns/op", null));
        final Path noPerChunk = Golden.write(dir, "clock.json",
            entry("ClockBenchmark.nanoTime", "avgt", null, 0.004, "0.0001", "us/op", "0.9"));
        Golden.assertGolden("overhead-report.txt", String.join("\n",
            Golden.run(OverheadReport::run, dir, full.toString(), "--cores", "4", "--streams", "1000"),
            Golden.run(OverheadReport::run, dir, full.toString(), "--cores", "1", "--streams", "25"),
            Golden.run(OverheadReport::run, dir, noGc.toString(), "--cores", "1"),
            Golden.run(OverheadReport::run, dir, noPerChunk.toString(), "--cores", "2"),
            Golden.run(OverheadReport::run, dir, noPerChunk.toString(), "--cores", "2", "--per-chunk",
                "ClockBenchmark.nanoTime"),
            Golden.run(OverheadReport::run, dir, full.toString(), "--cores", "2", "--per-chunk",
                "io.tokenclock.jmh.ClockBenchmark.nanoTime")));
    }

    @Test
    void exitsTwoOnBadUsageAndZeroOnHelp() throws IOException
    {
        final Path full = Golden.write(dir, "one.json",
            entry("PerChunkBenchmark.perChunk", "avgt", null, 270.7, "10.03", "ns/op", "0.002"));
        final Path broken = dir.resolve("broken.json");
        Files.writeString(broken, "{\"not\":\"an array\"}");
        Golden.assertGolden("overhead-usage.txt", String.join("\n",
            Golden.run(OverheadReport::run, dir, "--help"),
            Golden.run(OverheadReport::run, dir),
            Golden.run(OverheadReport::run, dir, full.toString(), full.toString()),
            Golden.run(OverheadReport::run, dir, full.toString(), "--bogus"),
            Golden.run(OverheadReport::run, dir, full.toString(), "--cores", "0"),
            Golden.run(OverheadReport::run, dir, full.toString(), "--streams", "x"),
            Golden.run(OverheadReport::run, dir, dir.resolve("missing.json").toString()),
            Golden.run(OverheadReport::run, dir, broken.toString())));
    }
}
