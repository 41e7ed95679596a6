package io.tokenclock.report.html;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Consumer;

import org.HdrHistogram.Histogram;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import io.tokenclock.peers.PerRequest;
import io.tokenclock.report.RequestLines;

/**
 * What the report draws of one run, read from its {@code requests.jsonl} (and {@code server_metrics.jsonl}) and
 * reduced in Java to a size that does not grow with the run: exact HdrHistograms of the measured requests (read
 * back at a fixed grid of percentiles), and per-time-bin figures of every request, warm-up included, in at most
 * {@link #MAX_BINS} bins. Two passes over the file, one line in memory at a time.
 */
final class RunSeries
{
    /**
     * Per-second bins, widened (to whole seconds) only when a run is longer than this many seconds; a run under
     * {@link #SHORT_RUN_S} seconds gets twenty bins.
     */
    static final int MAX_BINS = 1_200;
    private static final long SECOND_NS = 1_000_000_000L;
    private static final long TEN_MS_NS = 10_000_000L;
    /** Runs shorter than this many seconds get twenty bins rather than one per second. */
    private static final int SHORT_RUN_S = 20;

    final Histogram ttft = new Histogram(3);
    final Histogram streamSetup = new Histogram(3);
    final Histogram tpot = new Histogram(3);
    final Histogram itl = new Histogram(3);
    final Histogram e2e = new Histogram(3);
    long lines;
    long t0Ns = Long.MAX_VALUE;
    private long t1Ns = Long.MIN_VALUE;
    long binNs = SECOND_NS;
    int bins;
    double[] ok;
    double[] tokens;
    double[] inFlight;
    LogBuckets ttftBins;
    LogBuckets itlBins;
    LogBuckets sendLagBins;
    final Map<String, double[]> errors = new TreeMap<>();
    /** Whether the requests have a place in time (a run; a peer's file only with start times). */
    boolean timed = true;
    /** Each scrape of the server: seconds from t0, running, waiting, KV-cache usage (%), or nulls. */
    final List<Double[]> server = new ArrayList<>();

    private RunSeries()
    {
    }

    /** Reads {@code dir}'s requests.jsonl and server_metrics.jsonl; a missing file gives empty series. */
    static RunSeries read(final Path dir) throws IOException
    {
        final RunSeries s = new RunSeries();
        final Path requests = dir.resolve("requests.jsonl");
        if (Files.isReadable(requests))
        {
            eachLine(requests, s::span);
            s.allocate();
            eachLine(requests, s::add);
        }
        else
        {
            s.allocate();
        }
        final Path metrics = dir.resolve("server_metrics.jsonl");
        if (Files.isReadable(metrics) && s.lines > 0)
        {
            eachLine(metrics, s::scrape);
        }
        return s;
    }

    /**
     * The series of a peer's file from its per-request data, each request set out as a line of requests.jsonl would
     * be (sent at its start, first token after its TTFT, chunks at its gaps, ended at its e2e), so that a peer's file
     * draws as a run does. Without start times the requests have no place in time: the percentile plots draw, the
     * figures over time do not.
     */
    static RunSeries of(final PerRequest p)
    {
        final RunSeries s = new RunSeries();
        s.timed = p.startS() != null;
        final double t0S = p.startS() == null ? 0 : min(p.startS());
        for (int i = 0; i < p.size(); i++)
        {
            s.span(line(p, i, t0S)); // two passes, one line at a time, as a run's file is read
        }
        s.allocate();
        for (int i = 0; i < p.size(); i++)
        {
            s.add(line(p, i, t0S));
        }
        return s;
    }

    private static ObjectNode line(final PerRequest p, final int i, final double t0S)
    {
        final double[] gaps = p.gapsMs() == null || i >= p.gapsMs().size() ? new double[0] : p.gapsMs().get(i);
        final double ttft = p.ttftMs()[i];
        final double e2e = p.e2eMs() != null && i < p.e2eMs().length ? p.e2eMs()[i] : Double.NaN;
        final double out = p.outputTokens() != null && i < p.outputTokens().length &&
            !Double.isNaN(p.outputTokens()[i]) ? p.outputTokens()[i] : 0;
        double span = 0;
        for (final double g : gaps)
        {
            span += g;
        }
        final double spanMs = gaps.length > 0 ? span : e2e - ttft;
        final ObjectNode n = JsonNodeFactory.instance.objectNode().put("phase", "measure").put("status", "ok")
            .put("ttft_ms", ttft).put("output_tokens", out);
        if (!Double.isNaN(e2e))
        {
            n.put("e2e_ms", e2e);
        }
        if (out >= 2 && spanMs >= 0)
        {
            n.put("tpot_ms", spanMs / (out - 1));
        }
        // A peer's clock is its own: its start times place the requests relative to each other, from 1 s in.
        final long sent = p.startS() == null ? 0 : SECOND_NS + Math.round((p.startS()[i] - t0S) * 1e9);
        final ArrayNode chunks = n.putArray("chunk_ns");
        long at = sent + Math.round(ttft * 1e6);
        chunks.add(at);
        for (final double g : gaps)
        {
            at += Math.round(g * 1e6);
            chunks.add(at);
        }
        if (sent > 0)
        {
            n.put("sent_ns", sent).put("scheduled_ns", sent).put("first_token_ns", sent + Math.round(ttft * 1e6))
                .put("end_ns", Double.isNaN(e2e) ? at : sent + Math.round(e2e * 1e6));
        }
        else
        {
            n.remove("chunk_ns");
            n.set("chunk_ns", gapsAsStamps(ttft, gaps));
        }
        return n;
    }

    /** @return chunk stamps from 1 s in (their gaps are all the ITL histogram reads), for a request with no start. */
    private static ArrayNode gapsAsStamps(final double ttftMs, final double[] gaps)
    {
        final ArrayNode a = JsonNodeFactory.instance.arrayNode();
        long at = SECOND_NS + Math.round(ttftMs * 1e6);
        a.add(at);
        for (final double g : gaps)
        {
            at += Math.round(g * 1e6);
            a.add(at);
        }
        return a;
    }

    private static double min(final double[] v)
    {
        double m = Double.POSITIVE_INFINITY;
        for (final double x : v)
        {
            m = Math.min(m, x);
        }
        return m;
    }

    private static void eachLine(final Path file, final Consumer<JsonNode> each) throws IOException
    {
        RequestLines.each(file, each::accept);
    }

    private void span(final JsonNode r)
    {
        lines++;
        final long start = r.path("scheduled_ns").asLong(0) > 0 ? r.path("scheduled_ns").asLong() :
            r.path("sent_ns").asLong(0);
        if (start > 0)
        {
            t0Ns = Math.min(t0Ns, start);
        }
        t1Ns = Math.max(t1Ns, r.path("end_ns").asLong(0));
    }

    private void allocate()
    {
        if (t0Ns == Long.MAX_VALUE || t1Ns < t0Ns)
        {
            t0Ns = 0;
            t1Ns = 0;
        }
        final long spanNs = t1Ns - t0Ns;
        if (spanNs < SHORT_RUN_S * SECOND_NS)
        {
            // A run of a few seconds would be one or two points: twenty bins, in whole 10 ms.
            binNs = Math.max(TEN_MS_NS, spanNs / 20 / TEN_MS_NS * TEN_MS_NS);
        }
        else
        {
            binNs = spanNs / SECOND_NS < MAX_BINS ? SECOND_NS : (spanNs / MAX_BINS / SECOND_NS + 1) * SECOND_NS;
        }
        bins = (int)(spanNs / binNs) + 1;
        ok = new double[bins];
        tokens = new double[bins];
        inFlight = new double[bins];
        ttftBins = new LogBuckets(bins);
        itlBins = new LogBuckets(bins);
        sendLagBins = new LogBuckets(bins);
    }

    /** @return the bin of stamp {@code ns}, or -1 for a stamp not taken. */
    int bin(final long ns)
    {
        return ns <= 0 || ns < t0Ns ? -1 : (int)Math.min(bins - 1, (ns - t0Ns) / binNs);
    }

    private void add(final JsonNode r)
    {
        final boolean okStatus = "ok".equals(r.path("status").asText());
        final long sent = r.path("sent_ns").asLong(0);
        final long end = r.path("end_ns").asLong(0);
        final long scheduled = r.path("scheduled_ns").asLong(0);
        final long first = r.path("first_token_ns").asLong(0);
        if (okStatus && "measure".equals(r.path("phase").asText()))
        {
            measured(r);
        }
        if (okStatus)
        {
            bump(ok, bin(end));
        }
        else
        {
            bump(errors.computeIfAbsent(r.path("error").asText("error"), k -> new double[bins]), bin(end));
        }
        if (first > 0 && sent > 0)
        {
            ttftBins.add(bin(first), first - sent);
        }
        if (scheduled > 0 && sent > 0)
        {
            sendLagBins.add(bin(scheduled), Math.max(0, sent - scheduled));
        }
        occupancy(sent, end);
        chunks(r);
    }

    private static void bump(final double[] series, final int bin)
    {
        if (bin >= 0)
        {
            series[bin]++;
        }
    }

    /** The exact distributions: measured requests that ended ok, as record.json's. */
    private void measured(final JsonNode r)
    {
        record(ttft, r.path("ttft_ms"));
        record(streamSetup, r.path("stream_setup_ms"));
        record(tpot, r.path("tpot_ms"));
        record(e2e, r.path("e2e_ms"));
        final JsonNode chunks = r.path("chunk_ns");
        for (int i = 1; i < chunks.size(); i++)
        {
            itl.recordValue(Math.max(0, chunks.get(i).asLong() - chunks.get(i - 1).asLong()));
        }
    }

    private static void record(final Histogram h, final JsonNode ms)
    {
        if (ms.isNumber() && ms.asDouble() >= 0)
        {
            h.recordValue(Math.round(ms.asDouble() * 1e6));
        }
    }

    /** Adds the request's time in flight to each bin it overlaps, as a fraction of the bin: mean concurrency. */
    private void occupancy(final long sent, final long end)
    {
        if (sent <= 0 || end < sent)
        {
            return;
        }
        for (int b = bin(sent), last = bin(end); b >= 0 && b <= last; b++)
        {
            final long lo = Math.max(sent, t0Ns + b * binNs);
            final long hi = Math.min(end, t0Ns + (b + 1) * binNs);
            inFlight[b] += Math.max(0, hi - lo) / (double)binNs;
        }
    }

    /** Output tokens at each chunk's arrival (its own count, else the request's mean per chunk) and every gap. */
    private void chunks(final JsonNode r)
    {
        final JsonNode chunks = r.path("chunk_ns");
        final JsonNode perChunk = r.path("chunk_tokens");
        final int n = chunks.size();
        final double mean = n > 0 ? r.path("output_tokens").asDouble(n) / n : 0;
        for (int i = 0; i < n; i++)
        {
            final long at = chunks.get(i).asLong();
            final int b = bin(at);
            if (b >= 0)
            {
                tokens[b] += perChunk.isArray() && perChunk.size() == n ? perChunk.get(i).asDouble() : mean;
            }
            if (i > 0)
            {
                itlBins.add(b, at - chunks.get(i - 1).asLong());
            }
        }
    }

    private void scrape(final JsonNode s)
    {
        final long at = s.path("end_ns").asLong(0);
        final JsonNode common = s.path("common");
        if (!s.path("ok").asBoolean(false) || at < t0Ns || !common.isObject())
        {
            return;
        }
        final JsonNode kv = common.path("kv_usage");
        server.add(new Double[] {(at - t0Ns) / 1e9, number(common.path("running")), number(common.path("waiting")),
            kv.isNumber() ? kv.asDouble() * 100 : null});
    }

    private static Double number(final JsonNode n)
    {
        return n.isNumber() ? n.asDouble() : null;
    }

    /** @return seconds from t0 of stamp {@code ns}, or null when it was not taken. */
    Double seconds(final long ns)
    {
        return ns <= 0 || ns < t0Ns ? null : (ns - t0Ns) / 1e9;
    }

    double binSeconds()
    {
        return binNs / 1e9;
    }
}
