package io.tokenclock.telemetry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.OutputStream;
import java.net.ProtocolException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import io.tokenclock.clock.ManualNanoClock;
import io.tokenclock.clock.SystemNanoClock;
import io.tokenclock.testing.ScriptedSseServer;

/**
 * The scraper against a loopback HTTP server standing in for an engine, and against fetchers that fail. Bounded: the
 * shortest interval (100 ms) and a handful of scrapes, awaited on latches, never on sleeps.
 */
@Timeout(30)
final class ServerMetricsScraperTest
{
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final long HOUR_MS = 3_600_000;

    @TempDir
    Path dir;

    @RegisterExtension
    final ScriptedSseServer server = new ScriptedSseServer();

    /** Serves page {@code n} (from 1) of a vLLM exposition whose gauges and histogram grow with n. */
    private static String page(final int n)
    {
        return "# TYPE vllm:num_requests_running gauge\nvllm:num_requests_running{model_name=\"m\"} " + n + "\n" +
            "vllm:num_requests_waiting{model_name=\"m\"} " + (2 * n) + "\n" +
            "vllm:generation_tokens_total{model_name=\"m\"} " + (100 * n) + "\n" +
            "vllm:time_to_first_token_seconds_bucket{le=\"0.1\",model_name=\"m\"} " + n + "\n" +
            "vllm:time_to_first_token_seconds_bucket{le=\"+Inf\",model_name=\"m\"} " + n + "\n" +
            "vllm:time_to_first_token_seconds_sum{model_name=\"m\"} " + (0.05 * n) + "\n" +
            "vllm:time_to_first_token_seconds_count{model_name=\"m\"} " + n + "\n" +
            "this line is malformed\n";
    }

    private URI serve(final CountDownLatch requests, final int failFirst) throws IOException
    {
        final AtomicInteger served = new AtomicInteger();
        server.on("/metrics", x ->
        {
            final int n = served.incrementAndGet();
            final byte[] body = (n <= failFirst ? "no such page" : page(n - failFirst))
                .getBytes(StandardCharsets.UTF_8);
            x.sendResponseHeaders(n <= failFirst ? 404 : 200, body.length);
            try (OutputStream out = x.getResponseBody())
            {
                out.write(body);
            }
            requests.countDown();
        });
        server.start();
        return URI.create(server.baseUrl() + "/metrics");
    }

    private List<JsonNode> lines() throws IOException
    {
        final List<JsonNode> lines = new ArrayList<>();
        for (final String line : Files.readAllLines(dir.resolve(ServerMetricsScraper.FILE)))
        {
            lines.add(JSON.readTree(line));
        }
        return lines;
    }

    @Test
    void shouldWriteEveryScrapeStampedOnTheRunsClockAndSummariseTheWindowBetweenItsBrackets() throws Exception
    {
        final CountDownLatch threeInWindow = new CountDownLatch(4);
        final URI url = serve(threeInWindow, 0);
        final AtomicLong windowOpen = new AtomicLong();
        final ServerMetricsSummary s;
        try (ServerMetricsScraper scraper = new ServerMetricsScraper(url.toString(), 100, SystemNanoClock.INSTANCE,
            MetricsFetcher.http(url, null, true, 2000), dir.resolve(ServerMetricsScraper.FILE), windowOpen::get,
            null))
        {
            scraper.start(5000);
            final long start = System.nanoTime();
            windowOpen.set(start);
            assertTrue(threeInWindow.await(10, TimeUnit.SECONDS));
            final long end = System.nanoTime();
            scraper.stop();
            s = scraper.summary(start, end);
        }

        final List<JsonNode> lines = lines();
        assertEquals(s.scrapes(), lines.size());
        assertTrue(lines.size() >= 5, "opening, three in the window, closing: " + lines.size());
        for (int i = 0; i < lines.size(); i++)
        {
            final JsonNode l = lines.get(i);
            assertTrue(l.get("ok").asBoolean(), l.toString());
            assertEquals(200, l.get("http_status").asInt());
            assertTrue(l.get("start_ns").asLong() <= l.get("end_ns").asLong());
            assertEquals("vllm", l.get("engine").asText());
            assertEquals(i + 1.0, l.get("common").get("running").asDouble());
            assertEquals(i + 1.0, l.get("series").get("vllm:num_requests_running{model_name=\"m\"}").asDouble());
            assertTrue(l.get("common").get("kv_usage").isNull(), "not exported: null");
            assertEquals(1, l.get("parse_errors").asInt());
            assertTrue(l.get("first_parse_error").asText().startsWith("line 9: "), l.toString());
        }
        assertEquals(0, s.failures());
        assertEquals(lines.size(), s.parseErrors());
        assertTrue(s.coversWindow());
        // The opening bracket is the last scrape that ended before the window opened: the first one, unless this
        // thread was held off its core for a scrape interval (100 ms) after start() returned, as on a loaded machine.
        int opening = 0;
        while (opening + 1 < lines.size() && lines.get(opening + 1).get("end_ns").asLong() <= windowOpen.get())
        {
            opening++;
        }
        assertEquals(lines.get(opening).get("end_ns").asLong(), s.fromNs(), "the opening bracket");
        assertEquals(lines.get(lines.size() - 1).get("end_ns").asLong(), s.toNs(), "the closing scrape");
        final int last = lines.size();
        final int bracketed = last - 1 - opening;
        assertEquals(bracketed, s.latencies().get(EngineNames.Latency.TTFT).count(), 1e-9, "bracket difference");
        assertEquals(50.0, s.latencies().get(EngineNames.Latency.TTFT).meanMs(), 1e-6);
        assertEquals(100.0 * bracketed, s.deltas().get(EngineNames.Field.GENERATION_TOKENS), 1e-9);
        final ServerMetricsSummary.Gauge running = s.gauges().get(EngineNames.Field.RUNNING);
        // Scrapes 2 and 3 ended inside the window; the fourth may have ended just after it was closed.
        assertTrue(running.samples() >= 2 && running.samples() <= last - 1, running.toString());
        assertTrue(running.mean() > 1.0, "the opening scrape (1) is outside the window: " + running);
        assertEquals(2 * running.max(), s.gauges().get(EngineNames.Field.WAITING).max());
        assertTrue(s.bytes() > 0);
    }

    @Test
    void shouldCountFailedScrapesAndGoOnScraping() throws Exception
    {
        final CountDownLatch requests = new CountDownLatch(3);
        final URI url = serve(requests, 2);
        final ServerMetricsSummary s;
        try (ServerMetricsScraper scraper = new ServerMetricsScraper(url.toString(), 100, SystemNanoClock.INSTANCE,
            MetricsFetcher.http(url, null, true, 2000), dir.resolve(ServerMetricsScraper.FILE), () -> 0, null))
        {
            scraper.start(5000);
            assertTrue(requests.await(10, TimeUnit.SECONDS));
            scraper.stop();
            s = scraper.summary(0, Long.MAX_VALUE);
        }

        final List<JsonNode> lines = lines();
        assertFalse(lines.get(0).get("ok").asBoolean());
        assertEquals(404, lines.get(0).get("http_status").asInt());
        assertEquals("HTTP 404", lines.get(0).get("error").asText());
        assertNull(lines.get(0).get("series"), "a failed scrape has no series");
        assertTrue(lines.get(2).get("ok").asBoolean());
        assertEquals(2, s.failures());
        assertEquals(lines.size(), s.scrapes());
        assertEquals("vllm", s.engine());
        assertEquals("HTTP 404", s.lastError());
    }

    @Test
    void shouldTakeAnOpeningScrapeAtStartAndAClosingOneAtStop() throws Exception
    {
        final ManualNanoClock clock = new ManualNanoClock(1_000);
        final AtomicInteger fetches = new AtomicInteger();
        final MetricsFetcher fetcher = () ->
        {
            clock.advance(10);
            return new MetricsFetcher.Response(200, page(fetches.incrementAndGet()).getBytes(StandardCharsets.UTF_8));
        };
        final ServerMetricsSummary s;
        try (ServerMetricsScraper scraper = new ServerMetricsScraper("http://x/metrics", HOUR_MS, clock, fetcher,
            dir.resolve(ServerMetricsScraper.FILE), () -> 1_015, null))
        {
            scraper.start(5000);
            assertEquals(1, fetches.get(), "the opening scrape is in when start returns");
            scraper.stop();
            s = scraper.summary(1_015, 1_018);
        }

        assertEquals(2, fetches.get(), "an hour's interval: only the closing scrape followed");
        assertEquals(1_010, s.fromNs());
        assertEquals(1_020, s.toNs());
        assertTrue(s.coversWindow());
        assertEquals(0, s.scrapesInWindow());
        assertEquals(2, s.gauges().get(EngineNames.Field.RUNNING).samples(), "no scrape in the window: all of them");
        assertEquals(1, s.latencies().get(EngineNames.Latency.TTFT).count());
        final List<JsonNode> lines = lines();
        assertEquals(1_000, lines.get(0).get("start_ns").asLong());
        assertEquals(1_010, lines.get(0).get("end_ns").asLong());
    }

    @Test
    void shouldScrapeNowOnTheCallingThreadWithEverythingAScrapeDoesAndNoScrapingThread() throws Exception
    {
        final ManualNanoClock clock = new ManualNanoClock(1_000);
        final List<String> threads = new ArrayList<>();
        final MetricsFetcher fetcher = () ->
        {
            threads.add(Thread.currentThread().getName());
            clock.advance(10);
            return new MetricsFetcher.Response(200, page(threads.size()).getBytes(StandardCharsets.UTF_8));
        };
        final ServerMetricsSummary s;
        try (ServerMetricsScraper scraper = new ServerMetricsScraper("http://x/metrics", HOUR_MS, clock, fetcher,
            dir.resolve(ServerMetricsScraper.FILE), () -> 0, () -> threads.add("the thread-start hook")))
        {
            scraper.scrapeNow(3);
            s = scraper.summary(0, 1);
        }

        assertEquals(List.of(Thread.currentThread().getName(), Thread.currentThread().getName(),
            Thread.currentThread().getName()), threads, "three fetches on this thread, and no scraping thread");
        assertEquals(3, s.scrapes());
        assertEquals("vllm", s.engine(), "each page parsed and mapped");
        final List<JsonNode> lines = lines();
        assertEquals(3, lines.size());
        assertEquals(1_020, lines.get(2).get("start_ns").asLong());
    }

    @Test
    void shouldRecordAServerThatDoesNotAnswer() throws Exception
    {
        final MetricsFetcher refused = () ->
        {
            throw new IOException("Connection refused\nsecond line");
        };
        final ServerMetricsSummary s;
        try (ServerMetricsScraper scraper = new ServerMetricsScraper("http://x/metrics", HOUR_MS,
            SystemNanoClock.INSTANCE, refused, dir.resolve(ServerMetricsScraper.FILE), () -> 0, null))
        {
            scraper.start(5000);
            scraper.stop();
            s = scraper.summary(0, 1);
        }

        assertEquals(2, s.scrapes());
        assertEquals(2, s.failures());
        assertNull(s.engine());
        assertEquals("IOException: Connection refused second line", s.lastError());
        assertTrue(s.gauges().isEmpty());
        final JsonNode line = lines().get(0);
        assertTrue(line.get("http_status").isNull());
        assertEquals(0, line.get("bytes").asInt());
    }

    @Test
    void shouldRedactAUrlNamedInAFailure()
    {
        assertEquals("IOException: Server returned 401 for URL: http://<redacted>@h/metrics?token=<redacted> now",
            ServerMetricsScraper.oneLine(new IOException("Server returned 401 for URL: " +
                "http://u:pw@h/metrics?token=t0k\nnow")));
    }

    @Test
    void shouldEscapeWhatAServerThatSpeaksNoHttpSentInAFailure()
    {
        assertEquals("ProtocolException: Invalid status line: \"\\u0000\u00ff\\u001b]0;pwned\\u0007\"",
            ServerMetricsScraper.oneLine(new ProtocolException("Invalid status line: \"\0\377\033]0;pwned" +
                "\007\"")));
    }

    @Test
    void shouldRunTheThreadStartHookOnTheScrapingThread() throws Exception
    {
        final List<String> threads = new ArrayList<>();
        try (ServerMetricsScraper scraper = new ServerMetricsScraper("http://x/metrics", HOUR_MS,
            SystemNanoClock.INSTANCE, () -> new MetricsFetcher.Response(200, new byte[0]),
            dir.resolve(ServerMetricsScraper.FILE), () -> 0, () -> threads.add(Thread.currentThread().getName())))
        {
            scraper.start(5000);
        }

        assertEquals(List.of("tokenclock-server-metrics"), threads);
    }

    @Test
    void shouldRefuseAnIntervalUnder100Ms()
    {
        assertThrows(IllegalArgumentException.class, () -> new ServerMetricsScraper("http://x/metrics", 99,
            SystemNanoClock.INSTANCE, () -> null, dir.resolve(ServerMetricsScraper.FILE), () -> 0, null));
    }
}
