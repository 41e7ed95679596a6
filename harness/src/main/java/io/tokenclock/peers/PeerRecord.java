package io.tokenclock.peers;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

import com.fasterxml.jackson.databind.JsonNode;

import io.tokenclock.metrics.Counter;
import io.tokenclock.results.record.Dist;
import io.tokenclock.results.record.LoadSection;
import io.tokenclock.results.record.MeasurementSection;
import io.tokenclock.results.record.ReportSection;
import io.tokenclock.results.record.RunRecord;

/**
 * Builds the typed record of a peer's run: what its file says, in tokenclock's sections, and nothing it does not say
 * (null; a count or a timeout it does not state is 0). Its measurement section names the peer's own endpoints, token
 * count and percentile method, so that {@code compare} sees where they differ from tokenclock's.
 */
final class PeerRecord
{
    /** The percentile method of a recomputed distribution. */
    static final String HDR = "HdrHistogram, values in ns, 3 significant digits";
    /** NumPy's default, used by vLLM, SGLang and AIPerf. */
    static final String LINEAR = "linear interpolation between order statistics (NumPy's default)";
    /** How far below 0 a summary time may print and still read as 0, ms. */
    static final double ROUNDING_MS = 0.01;

    private PeerRecord()
    {
    }

    /**
     * The peer's clock endpoints and rules.
     *
     * @param boundary       what its latencies span (start and end of e2e).
     * @param firstTokenRule which chunk ends its TTFT.
     * @param tokenCounts    how it counts output tokens.
     * @param clock          its clock.
     */
    record Timing(String boundary, String firstTokenRule, String tokenCounts, String clock)
    {
    }

    /**
     * What a peer's run says of itself.
     *
     * @param tool          the peer.
     * @param version       its version, or null.
     * @param model         the model, or null.
     * @param tokenizer     the tokenizer, or null.
     * @param startedAt     when it started, as the file gives it, or null.
     * @param load          its load.
     * @param counts        its counts.
     * @param throughput    its rates.
     * @param distributions the record's distributions: recomputed when {@code recomputed}, else the peer's own.
     * @param recomputed    whether they were recomputed from per-request samples.
     * @param percentiles   the peer's own percentile method (used when not recomputed).
     */
    record Spec(String tool, String version, String model, String tokenizer, String startedAt, LoadSection load,
        ReportSection.Counts counts, ReportSection.Throughput throughput, Map<String, Dist> distributions,
        boolean recomputed, String percentiles)
    {
    }

    static RunRecord of(final Spec s, final Timing t, final double durationS)
    {
        final String formulas = s.recomputed() ? "tokenclock-metrics/1 over " + s.tool() + "'s per-request samples" :
            s.tool() + " (its own definitions: docs/RESULTS.md, \"Peers' results\")";
        final MeasurementSection m = new MeasurementSection(t.boundary(), null, null, null, t.clock(), null, null,
            t.firstTokenRule(), t.tokenCounts(), formulas, s.recomputed() ? HDR : s.percentiles(), null, null, null,
            null, null, null, null, null, null, null, null);
        final ReportSection report = new ReportSection(new ReportSection.Window(0, 0, durationS, durationS),
            s.counts(), Map.of(), s.throughput(), s.distributions(), List.of(), null, null, null, null, Map.of(), null,
            null, null, null, null, null, null);
        return new RunRecord(new RunRecord.Header(0, s.recomputed() ? "tokenclock-metrics/1" : s.tool(),
            s.tool() + (s.version() == null ? "" : " " + s.version())), null, false, null, s.startedAt(), List.of(),
            new RunRecord.Model(s.model(), List.of(), null, s.tokenizer(), null, null, null), null, null, null,
            s.load(), null, m, report, null,
            new RunRecord.Grade("imported",
                List.of("not a tokenclock record: read from " + s.tool() + "'s result file")));
    }

    /** @return a load section with only what a peer states: the mode, the rate or concurrency, the request count. */
    static LoadSection load(final Double rate, final Integer concurrency, final Long requests, final Double durationS)
    {
        final boolean open = rate != null && !rate.isInfinite();
        return new LoadSection(open ? "open" : concurrency != null ? "closed" : "burst", null, null, concurrency,
            open ? rate : null, null, null, concurrency, requests, durationS, 0, 0, null, 0, null, null, null, 0, 0, 0,
            0, 0, null);
    }

    /** @return a peer's summary of one metric as a distribution: whatever of its figures the file gives. */
    static Dist summary(final String unit, final long count, final Double mean, final Double stdev, final Double p50,
        final Double p90, final Double p95, final Double p99, final Double min, final Double max)
    {
        return new Dist(unit, count, min, mean, stdev, p50, p90, p95, p99, null, max, null, null, null);
    }

    /**
     * @return a time of a peer's own summary at {@code key}, ms, or null when absent: finite, and not below 0 beyond
     * {@value #ROUNDING_MS} ms (SGLang prints a median TPOT of -0.00 when its requests end within a chunk; that reads
     * as 0); anything else is an error.
     */
    static Double summaryTime(final PeerFile f, final JsonNode n, final String key, final String at)
    {
        final Double v = f.optional(n, key, at + key);
        if (v != null && v < 0)
        {
            if (v < -ROUNDING_MS)
            {
                throw f.error(at + key, "a time from 0", n.get(key));
            }
            return 0.0;
        }
        return v;
    }

    /** @return a duration in seconds at {@code key}: finite, from 0; anything else is an error. */
    static double duration(final PeerFile f, final JsonNode n, final String key, final String at)
    {
        final double v = f.number(n, key, at + key);
        if (v < 0)
        {
            throw f.error(at + key, "a duration from 0", n.get(key));
        }
        return v;
    }

    /**
     * Notes the scalar keys of {@code n} that {@code unread} says this build does not read ({@code --metadata}'s, or
     * a newer version's), with their values, so that nothing the file says is dropped without a word.
     */
    static void unread(final JsonNode n, final Predicate<String> unread, final List<String> notes)
    {
        final List<String> keys = new ArrayList<>();
        n.properties().forEach(e ->
        {
            if (unread.test(e.getKey()))
            {
                final String v = e.getValue().isValueNode() ? e.getValue().asText() : "...";
                keys.add(e.getKey() + "=" + (v.length() > 40 ? v.substring(0, 37) + "..." : v));
            }
        });
        if (!keys.isEmpty())
        {
            notes.add("keys not read (--metadata, or a newer version's): " + String.join(", ", keys));
        }
    }

    /** @return the counts a peer states: completed and failed. */
    static ReportSection.Counts counts(final long ok, final long failed, final long outputTokens,
        final long inputTokens)
    {
        return new ReportSection.Counts(ok + failed, Map.of(Counter.OK, ok, Counter.ERRORS, failed,
            Counter.OUTPUT_TOKENS, outputTokens, Counter.INPUT_TOKENS, inputTokens), 0);
    }
}
