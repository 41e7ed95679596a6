package io.tokenclock.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A peer's file larger than the heap (issue 40: a 190 MB vLLM file took 4.5 GB and died of an OutOfMemoryError):
 * {@code record} in a child JVM of 64 MiB of heap reads a generated 100 MB {@code --save-detailed} file of 16,000
 * requests and 4.8 million gaps, streamed into the histograms. Read as a tree, the gaps alone are some 200 MB of nodes.
 * {@code report} of the same file in the same heap draws an evenly spread sample of its requests.
 */
@Tag("slow")
final class LargePeerFileIT
{
    private static final int REQUESTS = 16_000;
    private static final int GAPS = 300;

    @TempDir
    Path dir;

    @Test
    void shouldReadAPeerFileLargerThanTheHeapInBoundedMemory() throws Exception
    {
        final Path file = dir.resolve("vllm-detailed.json");
        write(file);
        assertTrue(Files.size(file) > 90_000_000L, "larger than the child's heap: " + Files.size(file));
        final Process p = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
            System.getProperty("tokenclock.jvmFlags"), "-Xmx64m", "-jar", Path.of("target", "tokenclock.jar")
            .toString(), "record", file.toString())
            .redirectErrorStream(true).redirectOutput(dir.resolve("out.txt").toFile()).start();
        assertTrue(p.waitFor(300, TimeUnit.SECONDS), "ended");
        final String out = Files.readString(dir.resolve("out.txt"));
        assertEquals(0, p.exitValue(), out);
        assertFalse(out.contains("OutOfMemoryError"), out);
        // every TTFT 0.1 s and every gap 0.01 s: 100 ms and 10 ms, at HdrHistogram's 3 digits
        assertTrue(Pattern.compile("(?m)^ttft +100\\.000 +100\\.000 +100\\.\\d+ +100\\.\\d+ ").matcher(out).find(),
            out);
        assertTrue(Pattern.compile("(?m)^inter_chunk_latency +10\\.000 +10\\.000 +10\\.\\d+ +10\\.\\d+ ").matcher(out)
            .find(), out);
        assertTrue(out.contains(REQUESTS + " successful requests recomputed from ttfts and itls"), out);

        // report.html draws the requests one by one: in the same heap, an evenly spread sample (peers.KeptRequests)
        final Path page = dir.resolve("report.html");
        assertEquals(0, child(dir, "report", file.toString(), "--output", page.toString()),
            Files.readString(dir.resolve("out.txt")));
        assertTrue(Files.readString(page).contains("The charts draw 2,000 of the file&#39;s 16,000 successful " +
            "requests: every 8th"), "the sample named");
    }

    /** @return the exit status of {@code tokenclock ARGS} in a child JVM of 64 MiB of heap, its output in out.txt. */
    private static int child(final Path dir, final String... args) throws Exception
    {
        final List<String> command = new java.util.ArrayList<>(List.of(Path.of(System.getProperty("java.home"),
            "bin", "java").toString(), System.getProperty("tokenclock.jvmFlags"), "-Xmx64m", "-jar",
            Path.of("target", "tokenclock.jar").toString()));
        command.addAll(List.of(args));
        final Process p = new ProcessBuilder(command).redirectErrorStream(true)
            .redirectOutput(dir.resolve("out.txt").toFile()).start();
        assertTrue(p.waitFor(300, TimeUnit.SECONDS), "ended");
        return p.exitValue();
    }

    /** Writes a vLLM {@code --save-detailed} result, its summary keys agreeing with its arrays. */
    private static void write(final Path file) throws IOException
    {
        try (OutputStream out = new BufferedOutputStream(Files.newOutputStream(file), 1 << 20))
        {
            text(out, "{\"date\": \"20260101-000000\", \"backend\": \"vllm\", \"model_id\": \"m\", \"tokenizer_id\": " +
                "\"m\", \"num_prompts\": " + REQUESTS + ", \"request_rate\": \"inf\", \"burstiness\": 1.0, " +
                "\"max_concurrency\": 64, \"duration\": 60.0, \"completed\": " + REQUESTS + ", \"failed\": 0, " +
                "\"total_input_tokens\": " + REQUESTS * 100L + ", \"total_output_tokens\": " + REQUESTS * (GAPS + 1L) +
                ", \"request_throughput\": 266.7, \"output_throughput\": 80266.7, \"mean_ttft_ms\": 100.0, " +
                "\"median_ttft_ms\": 100.0, \"p99_ttft_ms\": 100.0, \"mean_itl_ms\": 10.0, \"median_itl_ms\": 10.0, " +
                "\"p99_itl_ms\": 10.0, ");
            for (final String array : List.of("input_lens", "output_lens", "ttfts", "errors"))
            {
                final String value = switch (array)
                {
                    case "input_lens" -> "100";
                    case "output_lens" -> String.valueOf(GAPS + 1);
                    case "ttfts" -> "0.1";
                    default -> "\"\"";
                };
                text(out, "\"" + array + "\": [" + (value + ", ").repeat(REQUESTS - 1) + value + "], ");
            }
            text(out, "\"itls\": [");
            final byte[] gaps = ("[" + "0.0100000000000000, ".repeat(GAPS - 1) + "0.0100000000000000]")
                .getBytes(StandardCharsets.US_ASCII);
            for (int i = 0; i < REQUESTS; i++)
            {
                out.write(gaps);
                text(out, i < REQUESTS - 1 ? ", " : "]}");
            }
        }
    }

    private static void text(final OutputStream out, final String s) throws IOException
    {
        out.write(s.getBytes(StandardCharsets.US_ASCII));
    }
}
