package io.tokenclock.telemetry;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.LongSupplier;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;

import io.tokenclock.clock.NanoClock;
import io.tokenclock.secrets.Redaction;
import io.tokenclock.text.UntrustedText;
import io.tokenclock.util.WholeFile;

/**
 * Scrapes the server's {@code /metrics} on a daemon thread of its own, never an event loop's or the collector's:
 * one scrape when started (the opening bracket of the window), then every interval (deadlines chained; a scrape that
 * overran its interval moves the next to the following tick rather than scraping back to back), and one last scrape
 * after {@link #stop()} (the closing bracket). Each scrape is stamped on the run's clock and written as one line of
 * {@value #FILE} (format: docs/RESULTS.md), flushed at once, so that a killed run keeps every scrape but the one in
 * progress. A failed scrape (no answer, an HTTP status other than 200) is written and counted too; scraping goes on.
 * <p>
 * Thread-safety: {@link #start}, {@link #stop}, {@link #summary} and {@link #close} from one supervising thread;
 * the figures are kept under this object's lock.
 */
public final class ServerMetricsScraper implements AutoCloseable
{
    /** The file written in the run directory. */
    public static final String FILE = "server_metrics.jsonl";
    /** The shortest interval allowed, ms. */
    public static final long MIN_INTERVAL_MS = 100;
    /** The default interval, ms. */
    public static final long DEFAULT_INTERVAL_MS = 1000;
    /** The longest connect and read timeout of one scrape, ms (Prometheus' own default scrape timeout is 10 s). */
    public static final int TIMEOUT_MS = 5000;

    /** What scraping did and cost. */
    record Counts(String url, long intervalMs, long scrapes, long failures, long bytes, long cpuNs, long parseErrors,
        String lastError)
    {
    }

    private static final JsonFactory JSON = new JsonFactory();
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    private final String url;
    private final long intervalNs;
    private final NanoClock clock;
    private final MetricsFetcher fetcher;
    private final LongSupplier windowOpenNs;
    private final Runnable atThreadStart;
    private final OutputStream out;
    private final ByteArrayOutputStream line = new ByteArrayOutputStream(64 << 10);
    private final CountDownLatch firstScrape = new CountDownLatch(1);
    private final Thread thread;
    private final List<ServerMetricsSummary.Point> points = new ArrayList<>();
    private volatile boolean stopping;

    private ServerMetricsSummary.Point baseline;
    private ServerMetricsSummary.Point latest;
    private long scrapes;
    private long failures;
    private long bytes;
    private long cpuNs;
    private long parseErrors;
    private String lastError;
    private boolean writable = true;

    /**
     * Opens {@code file} (replacing it); scraping starts with {@link #start}.
     *
     * @param url           the metrics URL, as the record shows it.
     * @param intervalMs    the scrape interval, ms, at least {@value #MIN_INTERVAL_MS}.
     * @param clock         the run's clock: every stamp.
     * @param fetcher       what fetches a page.
     * @param file          where the lines go.
     * @param windowOpenNs  when the measured window opened on the run's clock, 0 while it has not: a scrape that ends
     *                      before it is the opening bracket.
     * @param atThreadStart run first on the scraping thread (e.g. to lower its scheduling priority), or null.
     */
    public ServerMetricsScraper(final String url, final long intervalMs, final NanoClock clock,
        final MetricsFetcher fetcher, final Path file, final LongSupplier windowOpenNs, final Runnable atThreadStart)
        throws IOException
    {
        if (intervalMs < MIN_INTERVAL_MS)
        {
            throw new IllegalArgumentException("scrape interval must be >= " + MIN_INTERVAL_MS + " ms: " + intervalMs);
        }
        this.url = url;
        this.intervalNs = TimeUnit.MILLISECONDS.toNanos(intervalMs);
        this.clock = clock;
        this.fetcher = fetcher;
        this.windowOpenNs = windowOpenNs;
        this.atThreadStart = atThreadStart;
        this.out = WholeFile.replace(file);
        this.thread = new Thread(this::run, "tokenclock-server-metrics");
        this.thread.setDaemon(true);
    }

    /**
     * @return the connect and read timeout of one scrape at this interval: twice the interval, at least 1 s and at most
     * {@value #TIMEOUT_MS} ms, so that a server whose metrics hang delays neither the run's start nor its end for long.
     */
    public static int timeoutMs(final long intervalMs)
    {
        return (int)Math.max(1000, Math.min(TIMEOUT_MS, 2 * intervalMs));
    }

    /**
     * Starts the thread and waits for its first scrape (at most {@code firstScrapeTimeoutMs}), so that the opening
     * bracket is taken before the window opens.
     */
    public void start(final long firstScrapeTimeoutMs) throws InterruptedException
    {
        thread.start();
        firstScrape.await(firstScrapeTimeoutMs, TimeUnit.MILLISECONDS);
    }

    /**
     * Scrapes {@code times} times back to back on the calling thread, with everything a scrape does (fetch, parse,
     * map, write, count), and without the scraping thread: for the self-warm-up, so that the code of a scrape reaches
     * C2 there. A run scrapes once a second, so a method it calls once a scrape crossed the JIT's threshold inside
     * the window (the exposition parser's line method, compiled there for 150-180 ms).
     */
    public void scrapeNow(final int times)
    {
        for (int i = 0; i < times; i++)
        {
            scrapeOnce();
        }
    }

    /** Asks for the closing scrape and waits for the thread to end (bounded by the scrape's timeouts). */
    public void stop() throws InterruptedException
    {
        stopping = true;
        LockSupport.unpark(thread);
        if (thread.isAlive())
        {
            thread.join(2L * TIMEOUT_MS + 1000);
        }
    }

    /** @return the figures of the window {@code [windowStartNs, windowEndNs]}; complete once {@link #stop} returned. */
    public synchronized ServerMetricsSummary summary(final long windowStartNs, final long windowEndNs)
    {
        return ServerMetricsSummary.of(new Counts(url, TimeUnit.NANOSECONDS.toMillis(intervalNs), scrapes, failures,
            bytes, THREADS.isThreadCpuTimeSupported() ? cpuNs : -1, parseErrors, lastError), points, baseline, latest,
            windowStartNs, windowEndNs);
    }

    /** Stops scraping if it still runs, and closes the file. */
    @Override
    public void close() throws IOException
    {
        try
        {
            stop();
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
        }
        synchronized (this)
        {
            writable = false;
            out.close();
        }
    }

    private void run()
    {
        if (atThreadStart != null)
        {
            atThreadStart.run();
        }
        long deadlineNs = System.nanoTime();
        while (true)
        {
            final boolean last = stopping;
            scrapeOnce();
            firstScrape.countDown();
            if (last)
            {
                return;
            }
            deadlineNs += intervalNs;
            final long now = System.nanoTime();
            if (deadlineNs - now <= 0)
            {
                deadlineNs += ((now - deadlineNs) / intervalNs + 1) * intervalNs;
            }
            long remaining;
            while (!stopping && (remaining = deadlineNs - System.nanoTime()) > 0)
            {
                LockSupport.parkNanos(this, remaining);
            }
        }
    }

    private void scrapeOnce()
    {
        final long cpuStart = cpuNow();
        final long startNs = clock.nanoTime();
        MetricsFetcher.Response response = null;
        String error = null;
        try
        {
            response = fetcher.fetch();
        }
        catch (final IOException | RuntimeException ex)
        {
            error = oneLine(ex);
        }
        final long endNs = clock.nanoTime();
        Scrape scrape = null;
        CommonFields fields = null;
        if (response != null && response.status() == 200)
        {
            scrape = Exposition.parse(response.body(), 0, response.body().length);
            fields = EngineNames.map(scrape);
        }
        else if (response != null)
        {
            error = "HTTP " + response.status();
        }
        final long parsedCpu = cpuNow() - cpuStart;
        final Result result = new Result(startNs, endNs, response, error, scrape, fields, parsedCpu);
        synchronized (this)
        {
            write(result);
            count(result, cpuNow() - cpuStart);
        }
    }

    /** One scrape, as written and counted. */
    private record Result(long startNs, long endNs, MetricsFetcher.Response response, String error, Scrape scrape,
        CommonFields fields, long cpuNs)
    {
        boolean ok()
        {
            return fields != null;
        }
    }

    private void count(final Result r, final long cpu)
    {
        scrapes++;
        cpuNs += Math.max(0, cpu);
        bytes += r.response() == null ? 0 : r.response().body().length;
        if (!r.ok())
        {
            failures++;
            lastError = r.error();
            return;
        }
        parseErrors += r.scrape().errorCount();
        final ServerMetricsSummary.Point p = new ServerMetricsSummary.Point(r.endNs(), r.fields());
        // Only the gauges are kept per scrape; the histograms of the two bracketing scrapes are enough.
        points.add(new ServerMetricsSummary.Point(r.endNs(), new CommonFields(r.fields().engine(),
            r.fields().values(), r.fields().sources(), Map.of(), Map.of())));
        final long open = windowOpenNs.getAsLong();
        if (open == 0 || r.endNs() <= open)
        {
            baseline = p;
        }
        latest = p;
    }

    private void write(final Result r)
    {
        if (!writable)
        {
            return;
        }
        try
        {
            line.reset();
            try (JsonGenerator g = JSON.createGenerator(line))
            {
                ScrapeLine.write(g, r.startNs(), r.endNs(), r.response(), r.error(), r.scrape(), r.fields(),
                    r.cpuNs());
            }
            line.write('\n');
            line.writeTo(out);
            out.flush();
        }
        catch (final IOException ex)
        {
            writable = false;
            lastError = "writing " + FILE + ": " + oneLine(ex);
        }
    }

    private static long cpuNow()
    {
        return THREADS.isCurrentThreadCpuTimeSupported() ? THREADS.getCurrentThreadCpuTime() : 0;
    }

    /** @return the failure in one line, any URL in it redacted (the JDK names the URL in some messages). */
    static String oneLine(final Throwable ex)
    {
        final String message = ex.getMessage() == null ? ex.getClass().getSimpleName() :
            ex.getClass().getSimpleName() + ": " + ex.getMessage();
        // the JDK quotes what the server sent in some messages (a status line that is no HTTP): escaped
        return UntrustedText.oneLine(Redaction.urlsIn(message));
    }
}
