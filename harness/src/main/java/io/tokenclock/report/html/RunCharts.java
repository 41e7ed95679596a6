package io.tokenclock.report.html;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

import org.HdrHistogram.Histogram;

import com.fasterxml.jackson.databind.JsonNode;

import io.tokenclock.report.RecordWriter;

/** The charts of runs: percentile plots (one run or several overlaid), figures over time, the server's gauges. */
final class RunCharts
{
    /** The percentile grid: x = 1/(1-p) = 10^(k/20), from the median's neighbourhood (x = 1) to p99.999. */
    private static final int GRID = 101;
    /** Up to this many bins, each bin's point is drawn too (a line of two points hides them). */
    private static final int FEW_BINS = 40;

    private RunCharts()
    {
    }

    /** @return the grid up to the first point past {@code samples}: beyond it every percentile is the maximum. */
    static double[] grid(final long samples)
    {
        int n = 1;
        while (n < GRID && Math.pow(10, (n - 1) / 20.0) < samples)
        {
            n++;
        }
        final double[] x = new double[n];
        for (int k = 0; k < n; k++)
        {
            x[k] = Math.pow(10, k / 20.0);
        }
        return x;
    }

    /** TTFT (with stream setup), TPOT, ITL and e2e against 1/(1-p), one line per run. */
    static void percentiles(final Page page, final List<String> labels, final List<RunSeries> runs)
    {
        percentiles(page, labels, runs, false);
    }

    /**
     * The same, the lines coloured on a sequential palette when {@code ordered} (runs at increasing values of one
     * variable, e.g. a sweep's loads).
     */
    static void percentiles(final Page page, final List<String> labels, final List<RunSeries> runs,
        final boolean ordered)
    {
        page.h2("Percentiles");
        page.p("HdrHistogram's percentile plot: x is 1/(1-p) on a log axis, so p90, p99 and p99.9 are evenly " +
            "spaced and the tail is as wide as the body. Measured requests that ended ok; a line stops where its " +
            "samples do.");
        plot(page, "TTFT", labels, runs, s -> s.ttft, true, ordered);
        plot(page, "TPOT", labels, runs, s -> s.tpot, false, ordered);
        plot(page, "ITL (inter-chunk gap)", labels, runs, s -> s.itl, false, ordered);
        plot(page, "End-to-end latency", labels, runs, s -> s.e2e, false, ordered);
    }

    private static void plot(final Page page, final String title, final List<String> labels,
        final List<RunSeries> runs, final Function<RunSeries, Histogram> metric, final boolean withSetup,
        final boolean ordered)
    {
        long most = 0;
        for (final RunSeries s : runs)
        {
            most = Math.max(most, metric.apply(s).getTotalCount());
        }
        if (most == 0 && !title.startsWith("End"))
        {
            return; // a metric no run has (TTFT, TPOT, ITL of embeddings and rerank): no empty chart
        }
        most = Math.max(1, most);
        final double[] x = grid(most);
        final Chart c = Chart.of(page.id(title), title + " by percentile", "percentile", "ms").percentileAxis()
            .logY().x(x);
        if (ordered)
        {
            c.sequential();
        }
        for (int i = 0; i < runs.size(); i++)
        {
            final String label = runs.size() == 1 ? title : labels.get(i);
            add(c, label, metric.apply(runs.get(i)), x);
            if (withSetup && runs.size() == 1)
            {
                add(c, "stream setup (to headers)", runs.get(i).streamSetup, x);
            }
        }
        page.chart(c, title + " (ms) at each percentile" + (withSetup && runs.size() == 1 &&
            runs.get(0).streamSetup.getTotalCount() > 0 ? ", with the stream setup (send to response headers) " +
            "beside it" : ""));
    }

    private static void add(final Chart c, final String label, final Histogram h, final double[] x)
    {
        if (h.getTotalCount() == 0)
        {
            return;
        }
        final List<Double> y = new ArrayList<>(x.length);
        for (final double v : x)
        {
            final double p = 100 * (1 - 1 / v);
            y.add(v > 2 * h.getTotalCount() ? null : Math.max(0.001, h.getValueAtPercentile(p) / 1e6));
        }
        c.series(label, y);
    }

    /** @return the x of each time bin, s from the first request's intended start. */
    private static double[] binStarts(final RunSeries s)
    {
        final double[] x = new double[s.bins];
        for (int b = 0; b < s.bins; b++)
        {
            x[b] = b * s.binSeconds();
        }
        return x;
    }

    /** TTFT and ITL per time bin (p50 and p99), the window's edges marked: the charts people read first. */
    static void latencyOverTime(final Page page, final JsonNode record, final RunSeries s)
    {
        if (!RecordWriter.streamed(record))
        {
            return; // an answer read whole (embeddings, rerank) has no token: no TTFT or ITL to chart
        }
        page.h2("TTFT and ITL over time");
        page.p("Every request, warm-up included, in bins of " + Html.num(s.binSeconds()) + " s from the first " +
            "request's intended start; the measured window's edges are marked. Per-bin percentiles come from " +
            "2%-wide buckets.");
        final double[] x = binStarts(s);
        final Double from = s.seconds(record.path("report").path("window").path("start_ns").asLong(0));
        final Double to = s.seconds(record.path("report").path("window").path("end_ns").asLong(0));
        quantiles(page, "TTFT over time", s.ttftBins, x, from, to, "by the first token's arrival");
        quantiles(page, "ITL over time", s.itlBins, x, from, to, "gaps between chunks, by the later chunk");
    }

    /** Throughput, in flight, send lag and errors by class per time bin, the window's edges marked. */
    static void overTime(final Page page, final JsonNode record, final RunSeries s)
    {
        page.h2("Throughput, load and errors over time");
        final double w = s.binSeconds();
        final double[] x = binStarts(s);
        final Double from = s.seconds(record.path("report").path("window").path("start_ns").asLong(0));
        final Double to = s.seconds(record.path("report").path("window").path("end_ns").asLong(0));
        page.chart(marked(Chart.of(page.id("throughput"), "Throughput: output tokens", "s", "tokens/s"), x, from,
            to).series("output tokens/s", perSecond(s.tokens, w)), "Output tokens per second, at each chunk's arrival");
        page.chart(marked(Chart.of(page.id("completions"), "Throughput: requests", "s", "requests/s"), x, from, to)
            .series("requests ok/s", perSecond(s.ok, w)), "Requests that ended ok per second, by their end");
        page.chart(marked(Chart.of(page.id("in-flight"), "In flight", "s", "requests"), x, from, to)
            .series("in flight (mean)", box(s.inFlight)), "Mean requests in flight in each bin (send to end)");
        quantiles(page, "Send lag over time", s.sendLagBins, x, from, to, "sent minus intended start, by the " +
            "intended start: the client falling behind its schedule");
        if (s.errors.isEmpty())
        {
            page.p("Errors by class: no request failed.");
            return;
        }
        final Chart errors = marked(Chart.of(page.id("errors"), "Errors by class", "s", "per s"), x, from, to);
        for (final Map.Entry<String, double[]> e : s.errors.entrySet())
        {
            errors.series(e.getKey(), perSecond(e.getValue(), w));
        }
        page.chart(errors, "Requests that failed, per class, by their end");
    }

    private static Chart marked(final Chart c, final double[] x, final Double from, final Double to)
    {
        if (x.length <= FEW_BINS)
        {
            c.points();
        }
        return c.x(x).mark(from, "window start").mark(to, "window end");
    }

    private static void quantiles(final Page page, final String title, final LogBuckets b, final double[] x,
        final Double from, final Double to, final String how)
    {
        final List<Double> p50 = new ArrayList<>();
        final List<Double> p99 = new ArrayList<>();
        for (int i = 0; i < b.bins(); i++)
        {
            p50.add(b.quantileMs(i, 0.5));
            p99.add(b.quantileMs(i, 0.99));
        }
        page.chart(marked(Chart.of(page.id(title), title, "s", "ms"), x, from, to).series("p50", p50)
            .series("p99", p99), title + ": p50 and p99 per bin, " + how);
    }

    private static List<Double> perSecond(final double[] counts, final double w)
    {
        final List<Double> y = new ArrayList<>(counts.length);
        for (final double c : counts)
        {
            y.add(c / w);
        }
        return y;
    }

    private static List<Double> box(final double[] v)
    {
        final List<Double> y = new ArrayList<>(v.length);
        for (final double d : v)
        {
            y.add(d);
        }
        return y;
    }

    /** The server's running and waiting gauges and KV-cache usage per scrape, with the client's in-flight count. */
    static void server(final Page page, final RunSeries s)
    {
        final double[] x = new double[s.server.size()];
        final List<Double> running = new ArrayList<>();
        final List<Double> waiting = new ArrayList<>();
        final List<Double> kv = new ArrayList<>();
        final List<Double> client = new ArrayList<>();
        for (int i = 0; i < x.length; i++)
        {
            final Double[] row = s.server.get(i);
            x[i] = row[0];
            running.add(row[1]);
            waiting.add(row[2]);
            kv.add(row[3]);
            final int bin = (int)Math.min(s.bins - 1, Math.max(0, Math.floor(row[0] / s.binSeconds())));
            client.add(s.bins > 0 ? s.inFlight[bin] : null);
        }
        final Chart c = Chart.of(page.id("server"), "Server queue and the client's in flight", "s", "requests")
            .x(x).series("server running", running).series("server waiting", waiting)
            .series("KV-cache usage %", kv).series("client in flight (mean of its bin)", client);
        page.chart(c, "The server's own gauges at each scrape of its /metrics, beside the client's count");
    }
}
