package io.tokenclock.runner;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import io.tokenclock.config.RunOptions;
import io.tokenclock.config.RunOptionsBuilder;
import io.tokenclock.fixtures.sim.SimConfig;
import io.tokenclock.fixtures.sim.SimServer;
import io.tokenclock.metrics.Distribution;
import io.tokenclock.metrics.Metric;
import io.tokenclock.run.RunResult;
import io.tokenclock.telemetry.EngineNames;
import io.tokenclock.telemetry.ServerMetricsScraper;
import io.tokenclock.telemetry.ServerMetricsSummary;
import io.tokenclock.testing.SimServerExtension;

/**
 * Server telemetry end to end: a run against the simulator, whose two batch slots are fewer than the run's six
 * requests in flight, scrapes its {@code /metrics} (vLLM's names) into {@code server_metrics.jsonl} and reads the
 * queue the simulator's engine model puts there: two running, the rest waiting. The engine's TTFT histogram covers
 * exactly the run's requests, and each is shorter than the client's TTFT of the same request.
 */
@Timeout(120)
final class ServerMetricsIT
{
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int SLOTS = 2;
    private static final int CONCURRENCY = 6;
    private static final int REQUESTS = 24;
    private static final int TOKENS = 20;

    @TempDir
    Path dir;

    @RegisterExtension
    final SimServerExtension sim = new SimServerExtension();

    private RunResult run(final SimServer server, final String metrics) throws Exception
    {
        final RunOptionsBuilder o = RunOptions.builder();
        o.url(server.baseUrl());
        o.outputDir(dir);
        o.progress(false);
        o.maxTokens(TOKENS);
        o.ignoreEos(true);
        o.inputTokens(16);
        o.concurrency(CONCURRENCY);
        o.requests((long)REQUESTS);
        o.serverMetrics(metrics);
        o.serverMetricsIntervalMs(100);
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        return new BenchmarkRunner().run(o.build(), new PrintStream(out, true, StandardCharsets.UTF_8));
    }

    private static SimConfig twoSlots()
    {
        return new SimConfig().batchSlots(SLOTS).prefillBaseMs(5).prefillPerInputTokenMs(0).decodeBaseMs(8)
            .decodePerSeqMs(0).jitter(0).tokensPerChunk(1);
    }

    @Test
    void shouldScrapeTheSimulatorAndSeeItsQueueWhenTheLoadExceedsItsBatchSlots() throws Exception
    {
        // The scraper runs in Linux's idle class, which gets no CPU while other work saturates every core: under
        // `stress-ng --cpu 2` it made only the opening and closing scrapes. This test is about what the scrapes see,
        // not about their priority, so it runs them at normal priority (the property the stage's comparisons use).
        final String priority = System.setProperty(BackgroundPriority.PROPERTY, BackgroundPriority.NORMAL);
        final RunResult r;
        try (SimServer server = SimServer.start(twoSlots()))
        {
            r = run(server, null);
        }
        finally
        {
            if (priority == null)
            {
                System.clearProperty(BackgroundPriority.PROPERTY);
            }
            else
            {
                System.setProperty(BackgroundPriority.PROPERTY, priority);
            }
        }

        final List<String> lines = Files.readAllLines(dir.resolve(ServerMetricsScraper.FILE));
        assertTrue(lines.size() >= 3, "an opening scrape, some every 100 ms, a closing one: " + lines.size());
        for (final String line : lines)
        {
            final JsonNode l = JSON.readTree(line);
            assertTrue(l.get("ok").asBoolean(), line);
            assertEquals("vllm", l.get("engine").asText());
            assertTrue(l.get("common").get("running").asDouble() <= SLOTS, line);
        }
        final ServerMetricsSummary s = r.serverMetrics();
        assertEquals(lines.size(), s.scrapes());
        assertEquals(0, s.failures());
        assertTrue(s.coversWindow());
        assertEquals(SLOTS, s.gauges().get(EngineNames.Field.RUNNING).max());
        final ServerMetricsSummary.Gauge waiting = s.gauges().get(EngineNames.Field.WAITING);
        // Not "at most in flight minus slots": a scrape that falls between a request's end and the next one's
        // admission sees a slot free and one more waiting (a clean-clone run of 2026-12-03 saw 5 of 6).
        assertTrue(waiting.max() > 0 && waiting.max() <= CONCURRENCY, "six in flight, two slots: " + waiting);
        assertTrue(waiting.mean() > 0, waiting.toString());
        assertEquals((double)REQUESTS * TOKENS, s.deltas().get(EngineNames.Field.GENERATION_TOKENS),
            "the preflight's tokens fell before the opening scrape");
        final ServerMetricsSummary.Latency engine = s.latencies().get(EngineNames.Latency.TTFT);
        assertEquals(REQUESTS, engine.count());
        final Distribution client = r.distributions().get(Metric.TTFT);
        assertTrue(engine.meanMs() > 0 && engine.meanMs() < client.mean(),
            "the engine's TTFT starts after the client sent and ends before the client read: " + engine + " vs " +
                client.mean());

        final JsonNode record = JSON.readTree(dir.resolve("record.json").toFile());
        final JsonNode scraping = record.get("measurement").get("server_metrics");
        assertEquals(s.scrapes(), scraping.get("scrapes").asLong());
        assertEquals(100, scraping.get("interval_ms").asInt());
        assertTrue(scraping.get("url").asText().endsWith("/metrics"));
        final JsonNode report = record.get("report").get("server");
        assertEquals("vllm", report.get("engine").asText());
        assertEquals("vllm:num_requests_waiting", report.get("waiting").get("source").asText());
        assertTrue(report.get("waiting").get("max").asDouble() > 0);
        final JsonNode ttft = report.get("latency").get("ttft");
        assertEquals(client.mean(), ttft.get("client_mean_ms").asDouble(), 1e-9);
        assertTrue(ttft.get("outside_engine_share").asDouble() > 0, ttft.toString());
    }

    @Test
    void shouldScrapeNothingWhenOff() throws Exception
    {
        final RunResult r;
        final SimServer server = sim.start(twoSlots());
        r = run(server, "off");

        assertNull(r.serverMetrics());
        assertFalse(Files.exists(dir.resolve(ServerMetricsScraper.FILE)));
        final JsonNode record = JSON.readTree(dir.resolve("record.json").toFile());
        assertTrue(record.get("measurement").get("server_metrics").isNull());
        assertTrue(record.get("report").get("server").isNull());
        assertEquals(REQUESTS, r.counts().ok());
    }
}
