package io.tokenclock.telemetry;

import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * What the server's {@code /metrics} said about the measured window, and what scraping it cost. Gauges (running,
 * waiting, KV-cache usage, the engine's own cache hit rate) are summarised over the scrapes that ended inside the
 * window; counters and latency histograms are differences between the two scrapes that bracket it (the last one that
 * ended at or before the window opened, the first one that ended at or after it closed), so they may include up to one
 * interval on either side. Immutable and thread-safe.
 *
 * @param url             the metrics URL scraped (as given; the record redacts it).
 * @param intervalMs      the scrape interval, ms.
 * @param scrapes         scrapes made, failed ones included.
 * @param failures        scrapes that failed: no answer, an HTTP status other than 200, or too large.
 * @param bytes           bytes of the pages read.
 * @param cpuNs           CPU time of the scraping thread (fetch, parse, map, write), ns; -1 if unmeasurable.
 * @param parseErrors     lines skipped as malformed, all scrapes.
 * @param lastError       the last failure, one line, or null.
 * @param engine          the engine the names identify (vllm, sglang, llama.cpp, tgi, unknown), or null if no scrape
 *                        succeeded.
 * @param fromNs          end of the opening bracket scrape on the run's clock, or 0.
 * @param toNs            end of the closing bracket scrape on the run's clock, or 0.
 * @param coversWindow    whether the bracket holds the whole window.
 * @param scrapesInWindow successful scrapes that ended inside the window (gauges are over them; over every
 *                        successful scrape when none did).
 * @param gauges          running, waiting, KV usage and cache hit rate, each exported one.
 * @param deltas          counters over the bracket: prefix-cache hits and queries, prompt and generation tokens.
 * @param sources         the sample name each gauge and counter came from.
 * @param latencies       the engine's latency histograms over the bracket.
 */
public record ServerMetricsSummary(String url, long intervalMs, long scrapes, long failures, long bytes, long cpuNs,
    long parseErrors, String lastError, String engine, long fromNs, long toNs, boolean coversWindow,
    int scrapesInWindow, Map<EngineNames.Field, Gauge> gauges, Map<EngineNames.Field, Double> deltas,
    Map<EngineNames.Field, String> sources, Map<EngineNames.Latency, Latency> latencies)
{
    /** The gauges summarised over the window's scrapes. */
    static final List<EngineNames.Field> GAUGES = List.of(EngineNames.Field.RUNNING, EngineNames.Field.WAITING,
        EngineNames.Field.KV_USAGE, EngineNames.Field.CACHE_HIT_RATE, EngineNames.Field.SPEC_ACCEPT_LENGTH,
        EngineNames.Field.SPEC_ACCEPT_RATE);
    /** The counters taken as differences over the bracket. */
    static final List<EngineNames.Field> COUNTERS = List.of(EngineNames.Field.PREFIX_CACHE_HITS,
        EngineNames.Field.PREFIX_CACHE_QUERIES, EngineNames.Field.PROMPT_TOKENS, EngineNames.Field.GENERATION_TOKENS,
        EngineNames.Field.SPEC_DRAFTS, EngineNames.Field.SPEC_DRAFT_TOKENS, EngineNames.Field.SPEC_ACCEPTED_TOKENS);

    /**
     * One gauge over the window.
     *
     * @param samples scrapes that exported it.
     * @param mean    their mean (each scrape weighs the same: scrapes are evenly spaced).
     * @param max     their maximum.
     */
    public record Gauge(int samples, double mean, double max)
    {
    }

    /**
     * One engine latency over the bracket, from its histogram's difference.
     *
     * @param source the histogram's family name.
     * @param count  observations in the bracket.
     * @param meanMs their mean (sum over count), ms.
     * @param p50Ms  the median as {@code histogram_quantile} estimates it (error up to a bucket's width), ms.
     * @param p99Ms  the 99th percentile, likewise, ms.
     */
    public record Latency(String source, double count, double meanMs, double p50Ms, double p99Ms)
    {
    }

    public ServerMetricsSummary
    {
        gauges = copy(gauges, EngineNames.Field.class);
        deltas = copy(deltas, EngineNames.Field.class);
        sources = copy(sources, EngineNames.Field.class);
        latencies = copy(latencies, EngineNames.Latency.class);
    }

    /**
     * @return the prefix-cache hit rate over the bracket from the hit and query counters, or NaN when they are not
     * exported or nothing was queried.
     */
    public double prefixCacheHitRate()
    {
        return ratio(EngineNames.Field.PREFIX_CACHE_HITS, EngineNames.Field.PREFIX_CACHE_QUERIES);
    }

    /**
     * @return the speculative decoder's acceptance rate over the bracket, accepted draft tokens over proposed ones
     * (vLLM's counters), or NaN when they are not exported or nothing was drafted.
     */
    public double specAcceptanceRate()
    {
        return ratio(EngineNames.Field.SPEC_ACCEPTED_TOKENS, EngineNames.Field.SPEC_DRAFT_TOKENS);
    }

    /**
     * @return the mean accepted length over the bracket, 1 + accepted draft tokens / drafts (the bonus token the
     * target model adds to every verified draft included, as vLLM defines it), or NaN when not exported or nothing
     * was drafted.
     */
    public double specMeanAcceptedLength()
    {
        return 1 + ratio(EngineNames.Field.SPEC_ACCEPTED_TOKENS, EngineNames.Field.SPEC_DRAFTS);
    }

    /**
     * A ratio of two counters' differences, only over a bracket that holds the whole window: one that opened late or
     * closed early (a first scrape slower than the wait for it, a failed closing scrape) misses some of the window's
     * requests, and its ratio is theirs, not the window's (a trace's 48% hit rate read as 0% when the opening scrape
     * came after the requests that hit). The counters' differences themselves stay, with {@code covers_window} false.
     */
    private double ratio(final EngineNames.Field numerator, final EngineNames.Field denominator)
    {
        if (!coversWindow)
        {
            return Double.NaN;
        }
        final Double n = deltas.get(numerator);
        final Double d = deltas.get(denominator);
        return n == null || d == null || !(d > 0) ? Double.NaN : n / d;
    }

    /** One successful scrape's gauges, as the scraper keeps it for the window's summary. */
    record Point(long endNs, CommonFields fields)
    {
    }

    /**
     * @param points   every successful scrape, in order.
     * @param baseline the opening bracket scrape, or null.
     * @param closing  the last successful scrape, or null.
     */
    static ServerMetricsSummary of(final ServerMetricsScraper.Counts counts, final List<Point> points,
        final Point baseline, final Point closing, final long windowStartNs, final long windowEndNs)
    {
        final Map<EngineNames.Field, Gauge> gauges = new EnumMap<>(EngineNames.Field.class);
        final Map<EngineNames.Field, String> sources = new EnumMap<>(EngineNames.Field.class);
        int inWindow = 0;
        for (final Point p : points)
        {
            inWindow += p.endNs() >= windowStartNs && p.endNs() <= windowEndNs ? 1 : 0;
        }
        for (final EngineNames.Field f : GAUGES)
        {
            int n = 0;
            double sum = 0;
            double max = Double.NEGATIVE_INFINITY;
            for (final Point p : points)
            {
                final double v = p.fields().value(f);
                final boolean counted = inWindow == 0 || (p.endNs() >= windowStartNs && p.endNs() <= windowEndNs);
                if (counted && !Double.isNaN(v))
                {
                    n++;
                    sum += v;
                    max = Math.max(max, v);
                    sources.putIfAbsent(f, p.fields().sources().get(f));
                }
            }
            if (n > 0)
            {
                gauges.put(f, new Gauge(n, sum / n, max));
            }
        }
        final Map<EngineNames.Field, Double> deltas = new EnumMap<>(EngineNames.Field.class);
        final Map<EngineNames.Latency, Latency> latencies = new EnumMap<>(EngineNames.Latency.class);
        if (baseline != null && closing != null && closing != baseline)
        {
            bracket(baseline.fields(), closing.fields(), deltas, sources, latencies);
        }
        final boolean covers = baseline != null && closing != null && baseline.endNs() <= windowStartNs &&
            closing.endNs() >= windowEndNs;
        return new ServerMetricsSummary(counts.url(), counts.intervalMs(), counts.scrapes(), counts.failures(),
            counts.bytes(), counts.cpuNs(), counts.parseErrors(), counts.lastError(),
            closing == null ? null : closing.fields().engine(), baseline == null ? 0 : baseline.endNs(),
            closing == null ? 0 : closing.endNs(), covers, inWindow, gauges, deltas, sources, latencies);
    }

    private static void bracket(final CommonFields from, final CommonFields to,
        final Map<EngineNames.Field, Double> deltas, final Map<EngineNames.Field, String> sources,
        final Map<EngineNames.Latency, Latency> latencies)
    {
        for (final EngineNames.Field f : COUNTERS)
        {
            final double d = to.value(f) - from.value(f);
            // A counter that went down was reset (the server restarted): no figure rather than a wrong one.
            if (d >= 0 && to.sources().get(f).equals(from.sources().get(f)))
            {
                deltas.put(f, d);
                sources.put(f, to.sources().get(f));
            }
        }
        for (final Map.Entry<EngineNames.Latency, BucketHistogram> e : to.latencies().entrySet())
        {
            final String source = to.latencySources().get(e.getKey());
            final BucketHistogram d = source.equals(from.latencySources().get(e.getKey())) ?
                e.getValue().minus(from.latencies().get(e.getKey())) : null;
            if (d != null)
            {
                latencies.put(e.getKey(), new Latency(source, d.count(), d.mean() * 1e3, d.quantile(0.5) * 1e3,
                    d.quantile(0.99) * 1e3));
            }
        }
    }

    private static <K extends Enum<K>, V> Map<K, V> copy(final Map<K, V> map, final Class<K> type)
    {
        final EnumMap<K, V> copy = new EnumMap<>(type);
        copy.putAll(map);
        return Collections.unmodifiableMap(copy);
    }
}
