package io.tokenclock.runner;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import java.util.function.LongSupplier;

import io.tokenclock.clock.NanoClock;
import io.tokenclock.config.RunOptions;
import io.tokenclock.telemetry.MetricsFetcher;
import io.tokenclock.telemetry.ServerMetricsScraper;
import io.tokenclock.telemetry.ServerMetricsSummary;

/**
 * The run's scraping of the server's {@code /metrics} ({@code --server-metrics}), or nothing when it is off or the
 * run is the harness's own self-warm-up. Started just before the load generator (after its first scrape, the
 * window's opening bracket, is in), stopped after the drain (with a closing scrape), summarised over the window.
 * The scraping thread runs in the idle scheduling class, like the request stage: it never preempts a stamping thread.
 */
final class ServerTelemetry implements AutoCloseable
{
    private final ServerMetricsScraper scraper;
    private final int timeoutMs;

    private ServerTelemetry(final ServerMetricsScraper scraper, final int timeoutMs)
    {
        this.scraper = scraper;
        this.timeoutMs = timeoutMs;
    }

    static ServerTelemetry open(final RunOptions options, final NanoClock clock, final Path outputDir,
        final LongSupplier windowOpenNs) throws IOException
    {
        final String url = options.serverMetricsUrl();
        if (url == null)
        {
            return new ServerTelemetry(null, 0);
        }
        final long intervalMs = options.measurement().serverMetricsIntervalMs();
        final int timeoutMs = ServerMetricsScraper.timeoutMs(intervalMs);
        final MetricsFetcher fetcher = MetricsFetcher.http(URI.create(url.trim()),
            url.trim().regionMatches(true, 0, "https:", 0, 6) ? options.tlsTrust().jdkContext() : null,
            !options.target().insecure(), timeoutMs);
        return new ServerTelemetry(new ServerMetricsScraper(url, intervalMs, clock, fetcher,
            outputDir.resolve(ServerMetricsScraper.FILE), windowOpenNs, BackgroundPriority::lowerCurrentThread),
            timeoutMs);
    }

    /** Starts scraping; returns once the first scrape is in, or after one scrape's timeout. */
    void start() throws InterruptedException
    {
        if (scraper != null)
        {
            scraper.start(timeoutMs + 500L);
        }
    }

    /** Scrapes {@code times} times back to back on the calling thread, when it scrapes at all (the warm-up's). */
    void scrapeNow(final int times)
    {
        if (scraper != null)
        {
            scraper.scrapeNow(times);
        }
    }

    /** Takes the closing scrape and stops. */
    void stop() throws InterruptedException
    {
        if (scraper != null)
        {
            scraper.stop();
        }
    }

    /** @return what the server's metrics said of the window, or null when there is no scraping. */
    ServerMetricsSummary summary(final long windowStartNs, final long windowEndNs)
    {
        return scraper == null ? null : scraper.summary(windowStartNs, windowEndNs);
    }

    @Override
    public void close() throws IOException
    {
        if (scraper != null)
        {
            scraper.close();
        }
    }
}
