package io.tokenclock.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code record}, {@code report} and {@code compare} on every real peer file (peers/real/NOTICE.md), each with a
 * figure it must print, read by hand from the file: the peer's own p50 and p99 of one metric.
 */
final class RealPeerFilesCliTest
{
    private static final Path REAL = Path.of("src", "test", "resources", "io", "tokenclock", "peers", "real");

    @RegisterExtension
    final CapturedConsole console = new CapturedConsole();

    @TempDir
    Path dir;

    static Stream<Arguments> fixtures()
    {
        return Stream.of(
            // line 3: median_ttft_ms 4066.1594384998807, p99_ttft_ms 9951.535929819987 (request_rate "inf")
            Arguments.of("vllm-0.9-append-metadata.jsonl", "ttft", "4066.159", "9951.536"),
            // records.ttft.p50 2369.317693, p99 3833.3894000399996
            Arguments.of("aiperf-2025-10-run1", "ttft", "2369.318", "3833.389"),
            // request_latency.p50 0.6734304999999999, p99 15.14387014
            Arguments.of("aiperf-2026-04-v0.8.0-bare", "e2e", "0.673", "15.144"),
            // metrics.time_to_first_token_ms.successful.median 16.38054847717285, percentiles.p99 21.281957626342773
            Arguments.of("guidellm-0.3-benchmarks_stripped.json", "ttft", "16.381", "21.282"));
    }

    @ParameterizedTest
    @MethodSource("fixtures")
    void shouldPrintTheFiguresOfEveryRealPeerFile(final String name, final String metric, final String p50,
        final String p99)
    {
        assertEquals(Main.EXIT_OK, Main.execute("record", REAL.resolve(name).toString()), console.err());
        final String line = "(?m)^" + metric + " +" + Pattern.quote(p50) + " +" + Pattern.quote(p99) + " ";
        assertTrue(Pattern.compile(line).matcher(console.out()).find(), console.out());
    }

    @ParameterizedTest
    @MethodSource("fixtures")
    void shouldWriteAReportOfEveryRealPeerFile(final String name, final String metric, final String p50,
        final String p99) throws IOException
    {
        final Path out = dir.resolve("report.html");
        assertEquals(Main.EXIT_OK, Main.execute("report", REAL.resolve(name).toString(), "--output", out.toString()),
            console.err());
        assertTrue(Files.readString(out).contains(name), "the report names the file it shows");
    }

    @ParameterizedTest
    @MethodSource("fixtures")
    void shouldCompareEveryRealPeerFileWithItself(final String name, final String metric, final String p50,
        final String p99) throws IOException
    {
        final Path out = dir.resolve("compare.json");
        assertEquals(Main.EXIT_OK, Main.execute("compare", REAL.resolve(name).toString(),
            REAL.resolve(name).toString(), "--output", out.toString()), console.err());
        assertTrue(Files.readString(out).contains(name), "compare.json names the file");
    }
}
