package io.tokenclock.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import io.tokenclock.export.LlmdSchema;
import io.tokenclock.fixtures.sim.SimConfig;
import io.tokenclock.fixtures.sim.SimServer;
import io.tokenclock.json.Json;

/**
 * {@code export --format llmd-report} of real results, made here against the simulator: a run, a sweep and a merged
 * run of two shards, each validated against llm-d's JSON Schema, with the figures the record
 * printed.
 */
@Tag("slow") // seconds of load per result: skipped by -Pfast
@Timeout(300)
final class ExportIT
{
    @RegisterExtension
    final CapturedConsole console = new CapturedConsole();

    @TempDir
    Path dir;

    private void run(final String... args)
    {
        final List<String> all = new ArrayList<>(List.of(args));
        all.addAll(List.of("--max-tokens", "12", "--ignore-eos", "--input-tokens", "16", "--no-progress",
            "--warmup-requests", "4", "--server-metrics-interval-ms", "250", "--no-report"));
        assertEquals(Main.EXIT_OK, Main.execute(all.toArray(String[]::new)), console.err());
    }

    /** @return the reports {@code export} prints for {@code result}, each valid under the schema. */
    private List<JsonNode> export(final Path result) throws IOException
    {
        console.resetOut();
        assertEquals(Main.EXIT_OK, Main.execute("export", "--format", "llmd-report", result.toString()),
            console.err());
        final List<JsonNode> reports = new ArrayList<>();
        for (final String line : console.out().lines().toList())
        {
            final JsonNode report = Json.MAPPER.readTree(line);
            assertEquals(List.of(), LlmdSchema.errors(report), result + ": " + line);
            reports.add(report);
        }
        return reports;
    }

    @Test
    void shouldExportARunASweepAndAMergedRunThatValidate() throws IOException
    {
        try (SimServer server = SimServer.start(new SimConfig().prefillBaseMs(2).decodeBaseMs(2).jitter(0.05)))
        {
            final String url = server.baseUrl();
            run("run", "--url", url, "--concurrency", "4", "--requests", "60", "--output-dir", path("one"));
            final JsonNode one = export(dir.resolve("one")).get(0);
            final JsonNode aggregate = one.path("results").path("request_performance").path("aggregate");
            assertEquals(60, aggregate.path("requests").path("total").asInt(), one.toString());
            final JsonNode ttft = aggregate.path("latency").path("time_to_first_token");
            final JsonNode record = Json.MAPPER.readTree(dir.resolve("one").resolve("record.json").toFile());
            assertEquals(record.path("report").path("distributions").path("ttft").path("p99").asDouble(),
                ttft.path("p99").asDouble(), "the .hlog's p99 is the record's: " + ttft);
            assertTrue(ttft.has("p25") && ttft.has("p0p1"), "every percentile from the histogram: " + ttft);
            assertTrue(aggregate.path("latency").has("normalized_time_per_output_token"), aggregate.toString());
            assertEquals("fixed", one.path("scenario").path("load").path("standardized").path("output_seq_len")
                .path("distribution").asText());
            assertTrue(one.path("run").path("time").has("end"), one.path("run").toString());

            run("sweep", "--url", url, "--rates", "20,40", "--point-duration", "1", "--no-search",
                "--output-dir", path("sweep"));
            final List<JsonNode> points = export(dir.resolve("sweep"));
            assertEquals(2, points.size());
            assertEquals(40.0, points.get(1).path("scenario").path("load").path("standardized").path("rate_qps")
                .asDouble(), points.get(1).path("scenario").toString());

            for (int i = 0; i < 2; i++)
            {
                run("run", "--url", url, "--rate", "20", "--duration", "1", "--shard", i + "/2", "--output-dir",
                    path("shard-" + i));
            }
            assertEquals(Main.EXIT_OK, Main.execute("merge", path("merged"), path("shard-0"), path("shard-1")),
                console.err());
            final JsonNode merged = export(dir.resolve("merged")).get(0);
            assertEquals(2, merged.path("scenario").path("load").path("standardized").path("parallelism").asInt());

        }
    }

    private String path(final String name)
    {
        return dir.resolve(name).toString();
    }
}
