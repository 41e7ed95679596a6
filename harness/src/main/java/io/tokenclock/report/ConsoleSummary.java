package io.tokenclock.report;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import io.tokenclock.config.RunOptions;
import io.tokenclock.config.Scenario;
import io.tokenclock.config.TailQuantile;
import io.tokenclock.metrics.Counter;
import io.tokenclock.metrics.Distribution;
import io.tokenclock.metrics.Formulas;
import io.tokenclock.metrics.Metric;
import io.tokenclock.record.MeasurementSection;
import io.tokenclock.recording.ErrorClass;
import io.tokenclock.result.RunResult;
import io.tokenclock.text.UntrustedText;
import io.tokenclock.transport.StampingReport;

/**
 * The summary table printed at the end of a run. When the server reported its own timings (llama.cpp's
 * {@code timings}), the engine's TTFT and TPOT follow the client's, row under row.
 */
public final class ConsoleSummary
{
    private static final Metric[] LATENCIES = {
        Metric.TTFT, Metric.STREAM_SETUP, Metric.ENGINE_TTFT, Metric.TTFT_FROM_SCHEDULE, Metric.TTFOT, Metric.TTST,
        Metric.INTER_CHUNK_LATENCY, Metric.TOKEN_ITL, Metric.TPOT, Metric.ENGINE_TPOT, Metric.E2E,
        Metric.E2E_FROM_SCHEDULE, Metric.SEND_LAG
    };

    private ConsoleSummary()
    {
    }

    /** Prints the summary of {@code r} to {@code out}. Cold path; not thread-safe with other writers of {@code out}. */
    public static void print(final RunResult r, final PrintStream out)
    {
        title(r, out);
        load(r, out);
        latencies(r, out);
        segments(r, out);
        otherFigures(r, out);
        errors(r, out);
        final List<String> client = new ArrayList<>();
        clientHealth(r, out, client);
        clientReadiness(r, out, client);
        notes(r, out);
        warnings(r, client, out);
        CostEnergyReport.print(r, out);
        ServerMetricsReport.print(r, out);
        out.println();
        out.println("results: " + r.target().outputDir().toAbsolutePath().normalize() +
            " (record.json, requests.jsonl)");
    }

    /** Which run, against what, and whether the record is whole and the server's certificate checked. */
    private static void title(final RunResult r, final PrintStream out)
    {
        out.println();
        out.printf(Locale.ROOT, "tokenclock %s  %s  model %s%n", r.target().runId(),
            r.target().endpoint().shownCompletionUrl(),
            UntrustedText.oneLine(r.target().model()));
        if (r.partial())
        {
            out.println("PARTIAL: " + UntrustedText.escaped(r.partialReason(), Integer.MAX_VALUE));
        }
        if (r.target().endpoint().tls() && r.options().target().insecure())
        {
            out.println("warning: TLS certificates were NOT verified (--insecure)");
        }
    }

    /** The load, the measured requests by outcome, the throughput over the window and the goodput. */
    private static void load(final RunResult r, final PrintStream out)
    {
        final var o = r.options();
        out.printf(Locale.ROOT, "load: %s  measured %d requests (%d ok, %d error, %d cancelled), warmup %d%n",
            loadDescription(o), r.counts().total(), r.counts().ok(), r.counts().errors(), r.counts().cancelled(),
                r.counts().get(Counter.WARMUP_REQUESTS));
        printScenario(out, o);
        if (o.target().api().streamed())
        {
            out.printf(Locale.ROOT, "window %.2f s   requests/s %.2f   output tokens/s %.1f   input tokens/s %.1f%n",
                r.windowSeconds(), rate(r.counts().ok(), r), rate(r.counts().get(Counter.OUTPUT_TOKENS), r),
                rate(r.counts().get(Counter.INPUT_TOKENS), r));
        }
        else
        {
            // an answer read whole generates no token: its throughput is in inputs and their tokens
            out.printf(Locale.ROOT, "window %.2f s   requests/s %.2f   inputs/s %.1f   input tokens/s %.1f   " +
                "(%s: %d inputs per request)%n", r.windowSeconds(), rate(r.counts().ok(), r),
                rate(r.counts().get(Counter.INPUTS), r), rate(r.counts().get(Counter.INPUT_TOKENS), r),
                o.target().api().word(), o.workload().embedBatch());
        }
        GoodputSection.print(r, out);
        QualitySection.print(r, out);
    }

    /** @return the load offered, in words: each kind of load by what drives it (a user load has no rate). */
    static String loadDescription(final RunOptions o)
    {
        final String cap = o.load().maxConcurrency() != null ? ", max concurrency " + o.load().maxConcurrency() : "";
        if (o.load().users() != null)
        {
            return "user sessions, " + o.load().users() + " simulated users (each sends its next turn after the " +
                "answer and a think time)" + (o.load().sticky() ? ", one connection each" : "");
        }
        if (o.load().fixedSchedule())
        {
            return "trace replay at the trace's own timestamps" + cap;
        }
        if (o.closedLoop())
        {
            return "closed loop, concurrency " + o.load().concurrency();
        }
        return String.format(Locale.ROOT, "open loop, %s %.3g req/s%s",
            o.load().arrival().name().toLowerCase(Locale.ROOT), o.load().rate(), cap);
    }

    /** The latency table: one row per latency metric that has samples, with its p99's interval. */
    private static void latencies(final RunResult r, final PrintStream out)
    {
        out.println();
        out.printf(Locale.ROOT, "%-22s %8s %9s %9s %9s %9s %9s %9s %9s %9s  %s%n",
            "metric (ms)", "n", "mean", "stdev", "p50", "p90", "p95", "p99", "p99.9", "max", "p99 95% interval");
        for (final Metric m : LATENCIES)
        {
            final Distribution d = r.distributions().get(m);
            if (d.count() == 0)
            {
                continue;
            }
            out.printf(Locale.ROOT, "%-22s %8d %9.3f %9.3f %9.3f %9.3f %9.3f %9.3f %9.3f %9.3f  %s%n",
                m.key(), d.count(), d.mean(), d.stdev(), d.p50(), d.p90(), d.p95(), d.p99(), d.p999(), d.max(),
                interval(d.p99Low(), d.p99High()));
        }
        p999Note(r, out);
        sizedNote(r, out);
    }

    /**
     * The 95% interval of the percentile the run was sized for ({@code --min-samples-for}, or a scenario's), one
     * line for the latency rows: the figure the request count was chosen to bound; the record keeps each row's.
     */
    private static void sizedNote(final RunResult r, final PrintStream out)
    {
        final StringBuilder rows = new StringBuilder();
        String label = null;
        for (final Metric m : LATENCIES)
        {
            final Distribution d = r.distributions().get(m);
            if (d.count() > 0 && d.sized() != null)
            {
                label = d.sized().label();
                rows.append(rows.isEmpty() ? "" : ", ").append(m.key()).append(' ')
                    .append(String.format(Locale.ROOT, "%.3f ", d.sized().value()))
                    .append(interval(d.sized().low(), d.sized().high()));
            }
        }
        if (label != null)
        {
            out.println(label + " and its 95% interval (the run was sized for it): " + rows);
        }
    }

    /**
     * The p99.9's bound in one line: most runs are too short for it to have an upper end, and the table has no room for
     * a second interval column; the record keeps each row's ({@code p99_9_ci95}).
     */
    private static void p999Note(final RunResult r, final PrintStream out)
    {
        final StringBuilder bounded = new StringBuilder();
        boolean any = false;
        boolean unbounded = false;
        for (final Metric m : LATENCIES)
        {
            final Distribution d = r.distributions().get(m);
            if (d.count() > 0 && !Double.isNaN(d.p999High()))
            {
                bounded.append(bounded.isEmpty() ? "" : ", ").append(m.key()).append(' ')
                    .append(interval(d.p999Low(), d.p999High()));
            }
            any |= d.count() > 0;
            unbounded |= d.count() > 0 && Double.isNaN(d.p999High());
        }
        if (any)
        {
            out.println(bounded.isEmpty() ? "p99.9: no row has the " + Distribution.samplesForUpperEnd(0.999) +
                " samples its 95% interval needs for an upper end: the true p99.9 may be above the one shown" :
                "p99.9 95% interval: " + bounded +
                    (unbounded ? "; the other rows have too few samples for an upper end" : ""));
        }
    }

    /** The segment table, when the workload has segments or stages. */
    private static void segments(final RunResult r, final PrintStream out)
    {
        if (r.groups().isEmpty())
        {
            return;
        }
        out.println();
        if (!r.options().target().api().streamed())
        {
            wholeAnswerSegments(r, out);
            return;
        }
        out.printf(Locale.ROOT, "%-16s %6s %6s %9s %9s %9s %9s %9s%n", "segment", "ok", "fail", "ttft p50",
            "ttft p99", "tpot p50", "e2e p50", "tok/s");
        for (final RunResult.GroupResult g : r.groups())
        {
            final Distribution ttft = g.distributions().get(Metric.TTFT);
            out.printf(Locale.ROOT, "%-16s %6d %6d %9.3f %9.3f %9.3f %9.3f %9.1f%n", abbreviate(g.name(), 16),
                g.ok(), g.errors() + g.cancelled(), ttft.p50(), ttft.p99(),
                g.distributions().get(Metric.TPOT).p50(), g.distributions().get(Metric.E2E).p50(),
                Formulas.rate(g.outputTokens(), g.windowSeconds()));
        }
        out.println();
    }

    /** The segment table of an API that answers whole: its latency is its end to end, its rate in input tokens. */
    private static void wholeAnswerSegments(final RunResult r, final PrintStream out)
    {
        out.printf(Locale.ROOT, "%-16s %6s %6s %9s %9s %11s%n", "segment", "ok", "fail", "e2e p50", "e2e p99",
            "in tok/s");
        for (final RunResult.GroupResult g : r.groups())
        {
            final Distribution e2e = g.distributions().get(Metric.E2E);
            out.printf(Locale.ROOT, "%-16s %6d %6d %9.3f %9.3f %11.1f%n", abbreviate(g.name(), 16), g.ok(),
                g.errors() + g.cancelled(), e2e.p50(), e2e.p99(), Formulas.rate(g.inputTokens(), g.windowSeconds()));
        }
        out.println();
    }

    /** Per-request decode rate, agent tasks, the cold start and the work cancelled requests wasted, when present. */
    private static void otherFigures(final RunResult r, final PrintStream out)
    {
        final Distribution tps = r.distributions().get(Metric.OUTPUT_TPS_PER_REQUEST);
        if (tps.count() > 0)
        {
            out.printf(Locale.ROOT, "%-22s %8d %9.1f %9.1f %9.1f %9.1f %9.1f %9.1f %9.1f %9.1f%n",
                "output tok/s per req", tps.count(), tps.mean(), tps.stdev(), tps.p50(), tps.p90(), tps.p95(),
                tps.p99(), tps.p999(), tps.max());
        }
        if (r.tasks() != null && r.tasks().tasks() > 0)
        {
            final var t = r.tasks();
            out.printf(Locale.ROOT, "agent tasks: %d finished, %d succeeded, %d step-limited, %d failed; task " +
                "latency p50 %d ms p99 %d ms; steps p50 %d max %d; model %.1f s vs tools %.1f s%n", t.tasks(),
                t.succeeded(), t.stepLimited(), t.failedRequests(), t.latencyMs().getValueAtPercentile(50),
                t.latencyMs().getValueAtPercentile(99), t.steps().getValueAtPercentile(50), t.steps().getMaxValue(),
                t.modelSeconds(), t.toolSeconds());
        }
        if (r.coldStart() != null && !r.options().target().api().streamed())
        {
            out.printf(Locale.ROOT, "cold start (first request, alone, excluded above): %s  e2e %.3f ms%n",
                r.coldStart().status(), r.coldStart().e2eMs());
        }
        else if (r.coldStart() != null)
        {
            out.printf(Locale.ROOT, "cold start (first request, alone, excluded above): %s  TTFT %.3f ms  TPOT %.3f " +
                "ms  e2e %.3f ms%n", r.coldStart().status(), r.coldStart().ttftMs(), r.coldStart().tpotMs(),
                r.coldStart().e2eMs());
        }
        if (r.counts().get(Counter.WASTED_OUTPUT_TOKENS) > 0)
        {
            out.printf(Locale.ROOT, "cancelled requests had received %d output tokens (wasted work)%n",
                r.counts().get(Counter.WASTED_OUTPUT_TOKENS));
        }
    }

    /** Errors by class, and what the 429s among them mean when they were not retried. */
    private static void errors(final RunResult r, final PrintStream out)
    {
        if (r.counts().errorsByClass().isEmpty())
        {
            return;
        }
        out.print("errors:");
        for (final Map.Entry<String, Long> e : r.counts().errorsByClass().entrySet())
        {
            out.printf(Locale.ROOT, "  %s %d", e.getKey(), e.getValue());
        }
        out.println();
        final long refused = r.counts().errorsByClass().getOrDefault(ErrorClass.CLIENT_LIMIT.label(), 0L);
        if (refused > 0)
        {
            out.printf(Locale.ROOT, "CLIENT LIMIT: %d requests could not open a connection: this client ran out of " +
                "file descriptors (ulimit -n), so the client, not the server, was the limit; raise the limit or set " +
                "--max-concurrency%n", refused);
        }
        final long limited = r.counts().errorsByClass().getOrDefault(ErrorClass.HTTP_429.label(), 0L);
        if (limited > 0 && r.options().target().retries429() == 0)
        {
            out.printf(Locale.ROOT, "rate limited: %d responses 429, %.1f per second of window (Retry-After, " +
                "when given, is in requests.jsonl; tokenclock does not retry: each 429 is an error)%n", limited,
                rate(limited, r));
        }
    }

    /**
     * The warnings, ranked, one line per problem: first stamps the client's late reading compromised (chunks that took
     * a later chunk's stamp, above {@code StampingReport.SHARED_CHUNKS_BOUND}), then the client's own interference (it
     * may have shaped every figure; its hiccups, safepoints and JIT in one line), then a run too short for its p99s
     * (one line for every metric). The record keeps the details: {@code measurement.stamping}, {@code
     * report.tail_warnings} per metric, the client's figures.
     */
    private static void warnings(final RunResult r, final List<String> client, final PrintStream out)
    {
        // first: the one that says the stamps themselves were compromised, with the count and the remedy
        StampingSection.compromised(r.provenance().stamping(), r.clientHealth().stampingSaturation())
            .ifPresent(line -> out.println("warning: " + line));
        if (!client.isEmpty())
        {
            out.println("warning: the client machine may be shaping these figures: " + String.join("; ", client) +
                " (record.json report.harness)");
        }
        final String tail = TailWarnings.consoleLine(r.distributions());
        if (tail != null)
        {
            out.println("warning: " + tail);
        }
    }

    /**
     * The client's own hiccups, GC and CPU cost; a warning (into {@code warnings}) when its hiccups approach the gaps.
     */
    private static void clientHealth(final RunResult r, final PrintStream out, final List<String> warnings)
    {
        final var health = r.clientHealth();
        final Distribution hiccups = health.hiccupsMs();
        if (hiccups.count() > 0)
        {
            out.printf(Locale.ROOT, "client: hiccups p50 %.3f  p99 %.3f  max %.3f ms   GC %d pauses, " +
                "%d ms total, %d ms max%s%n", hiccups.p50(), hiccups.p99(), hiccups.max(), health.gcCount(),
                health.gcTotalMs(), health.gcMaxMs(), health.gcConcurrentCycles() == 0 ? "" : String.format(
                Locale.ROOT, "; %d concurrent cycles, %d ms", health.gcConcurrentCycles(), health.gcConcurrentMs()));
            final Distribution icl = r.distributions().get(Metric.INTER_CHUNK_LATENCY);
            if (icl.count() > 0 && hiccups.p99() >= r.options().measurement().hiccupWarnFraction() * icl.p50())
            {
                warnings.add(String.format(Locale.ROOT, "its own hiccups (p99 %.3f ms) reach %.0f%% of the " +
                    "inter-chunk latency p50 (%.3f ms)", hiccups.p99(), 100.0 * hiccups.p99() / icl.p50(), icl.p50()));
            }
        }
        stamping(r.provenance().stamping(), out);
        final long chunks = r.counts().get(Counter.CHUNKS);
        if (chunks > 0)
        {
            out.printf(Locale.ROOT, "client cost: CPU user %.2f s + system %.2f s (%.1f + %.1f us per chunk), peak " +
                "heap %d MiB%n", health.cpuUserNs() / 1e9, health.cpuSystemNs() / 1e9,
                health.cpuUserNs() / 1e3 / chunks, health.cpuSystemNs() / 1e3 / chunks,
                health.peakHeapBytes() >> 20);
            final MeasurementSection.ClientCpuByThread byThread = ClientCpuSection.of(health.cpuByThread(), chunks);
            if (byThread != null)
            {
                out.println(ClientCpuSection.line(byThread));
            }
        }
    }

    /** How the reads were stamped, and with kernel stamps the client's own receive delay (kernel to user stamp). */
    private static void stamping(final StampingReport s, final PrintStream out)
    {
        final StampingReport.ReceiveDelay d = s.receiveDelay();
        if (d != null && d.count() > 0)
        {
            out.printf(Locale.ROOT, "stamping: kernel, %d reads (%d fell back to user stamps, %d backlog reads, " +
                "%d sharing the previous read's stamp); client receive delay p50 %.1f  p99 %.1f  p99.9 %.1f  " +
                "max %.1f us%n", s.reads(), s.fallbackReads(), s.backlogReads(), s.sharedStamps(), d.p50Ns() / 1e3,
                d.p99Ns() / 1e3, d.p999Ns() / 1e3, d.maxNs() / 1e3);
        }
        else if (s.fallbackReason() != null)
        {
            out.printf(Locale.ROOT, "stamping: user (kernel stamps were asked: %s)%n", s.fallbackReason());
        }
        final StampingReport.PacketTap tap = s.packetTap();
        if (tap != null && tap.open())
        {
            out.printf(Locale.ROOT, "stamping: packet tap on %s: %d reads took their own segment's arrival (%d kept " +
                "the socket's), %d packets, %d dropped%n", tap.interfaceName(), tap.reads(), tap.missed(),
                tap.packets(), tap.drops());
        }
        else if (tap != null && tap.error() != null)
        {
            out.println("stamping: no packet tap on " + tap.interfaceName() + " (" + tap.error() + ")");
        }
        final StampingReport.SendDelay send = s.sendDelay();
        if (send != null && send.requests() > 0)
        {
            out.printf(Locale.ROOT, "stamping: client send delay (user send stamp to the kernel's) p50 %.1f  p99 " +
                "%.1f  max %.1f us over %d requests (%d without a send stamp)%n", send.p50Ns() / 1e3,
                send.p99Ns() / 1e3, send.maxNs() / 1e3, send.requests(), send.unstamped());
        }
    }

    /**
     * How ready the client was at t0, then warnings when safepoints or the JIT took, during load, as long as the
     * chunk gaps being measured; and the profile written, if any.
     */
    private static void clientReadiness(final RunResult r, final PrintStream out, final List<String> warnings)
    {
        final var health = r.clientHealth();
        final var ready = health.readiness();
        final var safepoints = health.safepointsDuringLoad();
        out.printf(Locale.ROOT, "client ready before t0: self-warm-up %d requests, %d chunks in %.1f s; %d " +
            "connections pre-opened; JIT during load %d ms (AOT cache %s); %s%n", ready.warmupRequests(),
            ready.warmupChunks(), ready.warmupS(), ready.preconnected(), health.jitMsDuringLoad(), ready.aotCache(),
            safepoints == null ? "safepoints not readable" : String.format(Locale.ROOT,
                "%d safepoints during load, %.1f ms stopped", safepoints.safepoints(), safepoints.totalNs() / 1e6));
        final Distribution gaps = r.distributions().get(Metric.INTER_CHUNK_LATENCY);
        if (gaps.count() > 0 && safepoints != null && safepoints.totalNs() / 1e6 >= gaps.p50())
        {
            warnings.add(String.format(Locale.ROOT, "its threads were stopped at safepoints for %.1f ms during " +
                "load (GC pauses included), at least one inter-chunk latency (p50 %.3f ms): chunks arriving then " +
                "were stamped late", safepoints.totalNs() / 1e6, gaps.p50()));
        }
        if (gaps.count() > 0 && health.jitMsDuringLoad() >= JIT_WARN_GAPS * gaps.p50())
        {
            warnings.add(String.format(Locale.ROOT, "the JIT compiled for %d ms during load, over %d inter-chunk " +
                "latencies (p50 %.3f ms), %s", health.jitMsDuringLoad(), JIT_WARN_GAPS, gaps.p50(),
                ready.compilerThreadsIdle() > 0 ? "in the idle scheduling class (code ran slower until compiled)" :
                    "competing with the stamping thread"));
        }
        if (!health.profileFiles().isEmpty())
        {
            out.println("profile (" + health.profileEvent() + "): " + String.join(", ", health.profileFiles()));
        }
    }

    /** Notes on retried 429s, truncated streams and a collector that fell behind, when there were any. */
    private static void notes(final RunResult r, final PrintStream out)
    {
        final var o = r.options();
        if (r.counts().get(Counter.RETRIES_429) > 0)
        {
            out.printf(Locale.ROOT, "retries: %d sends repeated after a 429 (--retry-429 %d, after Retry-After); " +
                "TTFT counts from the last send, TTFT from schedule from the first intended start%n",
                r.counts().get(Counter.RETRIES_429), o.target().retries429());
        }
        if (r.counts().get(Counter.UNKNOWN_EVENTS) > 0)
        {
            out.printf(Locale.ROOT, "note: %d events of a type the %s grammar does not know were counted and " +
                "skipped (unknown_events in requests.jsonl; none failed a request)%n",
                r.counts().get(Counter.UNKNOWN_EVENTS), r.target().endpoint().api().word());
        }
        if (r.counts().get(Counter.STALE_CONNECTION_RESENDS) > 0)
        {
            out.printf(Locale.ROOT, "note: %d requests sent again on a new connection: the server closed the " +
                "kept-alive one before answering (none lost; TTFT counts from the new send)%n",
                r.counts().get(Counter.STALE_CONNECTION_RESENDS));
        }
        if (r.counts().get(Counter.TRUNCATED) > 0)
        {
            out.printf(Locale.ROOT, "note: %d measured streams ended with neither a finish_reason nor [DONE] " +
                "(truncated; %s)%n", r.counts().get(Counter.TRUNCATED), o.quality().acceptTruncated() ?
                    "taken as ok by --accept-truncated" :
                    "counted as errors; --accept-truncated takes them as ok");
        }
        if (r.counts().get(Counter.RING_FULL_WAITS) > 0)
        {
            out.printf(Locale.ROOT, "note: the collector fell behind %d times (records waited, none lost)%n",
                r.counts().get(Counter.RING_FULL_WAITS));
        }
    }

    /** Warn when compilation during load exceeds this many inter-chunk latencies (p50) of CPU. */
    private static final int JIT_WARN_GAPS = 10;

    private static String abbreviate(final String s, final int width)
    {
        return s.length() <= width ? s : s.substring(0, width - 1) + "~";
    }

    private static double rate(final double count, final RunResult r)
    {
        return Formulas.rate(count, r.windowSeconds());
    }

    /** @return "[low, high]" of an order-statistic interval, "none" for a side the samples cannot bound. */
    static String interval(final double low, final double high)
    {
        return "[" + (Double.isNaN(low) ? "none" : String.format(Locale.ROOT, "%.3f", low)) + ", " +
            (Double.isNaN(high) ? "none" : String.format(Locale.ROOT, "%.3f", high)) + "]";
    }

    /** The scenario preset and the percentile the request count was sized for, when the run names them. */
    private static void printScenario(final PrintStream out, final RunOptions o)
    {
        final Scenario scenario = o.load().scenario();
        final TailQuantile sizedFor = o.load().minSamplesFor();
        if (scenario == null && sizedFor == null)
        {
            return;
        }
        out.printf(Locale.ROOT, "scenario: %s%s%n", scenario == null ? "none" : scenario.flagValue(),
            sizedFor == null ? "" : String.format(Locale.ROOT, "; %d requests sized for the %s's 95%% interval",
                Distribution.samplesForUpperEnd(sizedFor.quantile()), sizedFor.label()));
    }
}
