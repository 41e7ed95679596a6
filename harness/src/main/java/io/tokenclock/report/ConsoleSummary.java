package io.tokenclock.report;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import io.tokenclock.config.RunOptions;
import io.tokenclock.config.Scenario;
import io.tokenclock.config.TailQuantile;
import io.tokenclock.goodput.GoodputCounts;
import io.tokenclock.metrics.Counter;
import io.tokenclock.metrics.Distribution;
import io.tokenclock.metrics.Formulas;
import io.tokenclock.metrics.Metric;
import io.tokenclock.results.record.MeasurementSection;
import io.tokenclock.recording.ErrorClass;
import io.tokenclock.run.RunResult;
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

    /** The rows the table's legend names: the ones a reader may not know from their key (docs/METRICS.md). */
    private static final Map<Metric, String> LEGEND = new EnumMap<>(Metric.class);
    /** The legend's lines wrap before this column. */
    private static final int LEGEND_WIDTH = 118;

    static
    {
        LEGEND.put(Metric.STREAM_SETUP, "send to response headers");
        LEGEND.put(Metric.ENGINE_TTFT, "the server's own TTFT");
        LEGEND.put(Metric.TTFT_FROM_SCHEDULE, "TTFT from the intended start (send lag included)");
        LEGEND.put(Metric.TTFOT, "time to first output token (not reasoning)");
        LEGEND.put(Metric.TTST, "time to second token (first gap)");
        LEGEND.put(Metric.INTER_CHUNK_LATENCY, "every gap between chunks (ITL)");
        LEGEND.put(Metric.TOKEN_ITL, "each gap shared among its chunk's tokens");
        LEGEND.put(Metric.ENGINE_TPOT, "the server's own TPOT");
        LEGEND.put(Metric.E2E_FROM_SCHEDULE, "e2e from the intended start");
        LEGEND.put(Metric.SEND_LAG, "sent minus intended start");
    }

    private ConsoleSummary()
    {
    }

    /**
     * Prints the summary of {@code r} to {@code out}: the run and its load in two lines, the latency table with its
     * legend, then what matters in at most three lines (throughput and goodput, errors, the most serious warning);
     * the client's internals and every other warning only with {@code --verbose} (the record keeps them all). Cold
     * path; not thread-safe with other writers of {@code out}.
     */
    public static void print(final RunResult r, final PrintStream out)
    {
        final boolean verbose = r.options().output().verbose();
        title(r, out);
        latencies(r, out);
        segments(r, out);
        otherFigures(r, out);
        out.println();
        headline(r, out);
        errors(r, out);
        final List<String> warnings = warnings(r);
        if (!warnings.isEmpty())
        {
            out.println("warning: " + warnings.get(0) + (warnings.size() > 1 && !verbose ? " (" +
                (warnings.size() - 1) + " more: --verbose)" : ""));
        }
        CostEnergyReport.print(r, out);
        if (verbose)
        {
            warnings.stream().skip(1).forEach(w -> out.println("warning: " + w));
            details(r, out);
        }
        out.println();
        out.println("results: " + r.target().outputDir().toAbsolutePath().normalize() +
            " (record.json, requests.jsonl)");
    }

    /** What {@code --verbose} adds: the client's health and stamping, notes, goodput's misses, the server's view. */
    private static void details(final RunResult r, final PrintStream out)
    {
        p999Note(r, out);
        clientHealth(r, out);
        clientReadiness(r, out);
        notes(r, out);
        GoodputSection.misses(r, out);
        QualitySection.print(r, out);
        ServerMetricsReport.print(r, out);
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
        load(r, out);
    }

    /** The load and the measured requests by outcome, in one line. */
    private static void load(final RunResult r, final PrintStream out)
    {
        out.printf(Locale.ROOT, "load: %s  measured %d requests (%d ok, %d error, %d cancelled), warmup %d%n",
            loadDescription(r.options()), r.counts().total(), r.counts().ok(), r.counts().errors(),
            r.counts().cancelled(), r.counts().get(Counter.WARMUP_REQUESTS));
        printScenario(out, r.options());
    }

    /**
     * The first line of what matters: throughput over the window and, when the run has an SLO or a quality rule,
     * goodput against it.
     */
    private static void headline(final RunResult r, final PrintStream out)
    {
        final GoodputCounts g = r.goodput();
        if (!r.options().target().api().streamed())
        {
            // an answer read whole generates no token: its throughput is in inputs and their tokens
            out.printf(Locale.ROOT, "throughput: %.2f req/s, %.1f inputs/s, %.1f input tok/s over a %.2f s window " +
                "(%s: %d inputs per request)%s%n", rate(r.counts().ok(), r), rate(r.counts().get(Counter.INPUTS), r),
                rate(r.counts().get(Counter.INPUT_TOKENS), r), r.windowSeconds(), r.options().target().api().word(),
                r.options().workload().embedBatch(), g == null ? "" : "; goodput " + GoodputSection.summary(r));
            return;
        }
        out.printf(Locale.ROOT, "throughput: %.2f req/s, %.1f output tok/s, %.1f input tok/s over a %.2f s window" +
            "%s%n", rate(r.counts().ok(), r), rate(r.counts().get(Counter.OUTPUT_TOKENS), r),
            rate(r.counts().get(Counter.INPUT_TOKENS), r), r.windowSeconds(), g == null ? "" : "; goodput " +
                GoodputSection.summary(r));
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

    /**
     * The latency table: one row per latency metric that has samples, with its p99's interval, then the per-request
     * decode rate, then a legend of the rows a reader may not know.
     */
    private static void latencies(final RunResult r, final PrintStream out)
    {
        out.println();
        if (r.distributions().get(Metric.E2E).count() == 0 && r.distributions().get(Metric.TTFT).count() == 0)
        {
            out.println("no measured request ended ok: there is no latency to show");
            return;
        }
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
        final Distribution tps = r.distributions().get(Metric.OUTPUT_TPS_PER_REQUEST);
        if (tps.count() > 0)
        {
            out.printf(Locale.ROOT, "%-22s %8d %9.1f %9.1f %9.1f %9.1f %9.1f %9.1f %9.1f %9.1f%n",
                "output tok/s per req", tps.count(), tps.mean(), tps.stdev(), tps.p50(), tps.p90(), tps.p95(),
                tps.p99(), tps.p999(), tps.max());
        }
        legend(r, out);
        sizedNote(r, out);
    }

    /**
     * One line naming the rows of the table that are not self-explanatory, by their definitions in docs/METRICS.md;
     * a row is named only when it was printed.
     */
    private static void legend(final RunResult r, final PrintStream out)
    {
        final List<String> names = new ArrayList<>();
        for (final Metric m : LATENCIES)
        {
            final String words = LEGEND.get(m);
            if (words != null && r.distributions().get(m).count() > 0)
            {
                names.add(m.key() + " = " + words);
            }
        }
        if (r.distributions().get(Metric.OUTPUT_TPS_PER_REQUEST).count() > 0)
        {
            names.add("output tok/s per req = each request's decode rate, 1000 / tpot");
        }
        if (names.isEmpty())
        {
            return;
        }
        names.add("definitions: docs/METRICS.md");
        final StringBuilder line = new StringBuilder("rows:");
        for (final String name : names)
        {
            if (line.length() + name.length() + 2 > LEGEND_WIDTH)
            {
                out.println(line);
                line.setLength(0);
                line.append("     ");
            }
            line.append(' ').append(name).append(';');
        }
        line.setLength(line.length() - 1);
        out.println(line);
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
        if (r.tasks() != null && r.tasks().tasks() > 0)
        {
            final var t = r.tasks();
            out.printf(Locale.ROOT, "agent tasks: %d finished, %d succeeded, %d step-limited, %d failed%s; task " +
                "latency p50 %d ms p99 %d ms; steps p50 %d max %d; model %.1f s vs tools %.1f s%n", t.tasks(),
                t.succeeded(), t.stepLimited(), t.failedRequests(), t.wrongAnswers() + t.unjudged() > 0 ?
                ", " + t.wrongAnswers() + " with a wrong final answer" + (t.unjudged() > 0 ? ", " + t.unjudged() +
                " unjudged" : "") : "", t.latencyMs().getValueAtPercentile(50),
                t.latencyMs().getValueAtPercentile(99), t.steps().getValueAtPercentile(50), t.steps().getMaxValue(),
                t.modelSeconds(), t.toolSeconds());
        }
        CacheSection.print(r, out);
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

    /** Errors by class in one line ("errors: none" when there were none). */
    private static void errors(final RunResult r, final PrintStream out)
    {
        final long failed = r.counts().errors() + r.counts().cancelled();
        if (r.counts().errorsByClass().isEmpty())
        {
            out.println(failed == 0 ? "errors: none" : String.format(Locale.ROOT, "errors: %d failed, %d " +
                "cancelled", r.counts().errors(), r.counts().cancelled()));
            return;
        }
        final StringBuilder line = new StringBuilder("errors:");
        for (final Map.Entry<String, Long> e : r.counts().errorsByClass().entrySet())
        {
            line.append(String.format(Locale.ROOT, " %s %d,", e.getKey(), e.getValue()));
        }
        line.setLength(line.length() - 1);
        out.println(line.append(String.format(Locale.ROOT, " (%.1f%% of %d measured)%s",
            100.0 * r.counts().errors() / Math.max(1, r.counts().total()), r.counts().total(),
            r.counts().cancelled() > 0 ? "; " + r.counts().cancelled() + " cancelled" : "")));
    }

    /**
     * Every warning of the run, most serious first, one phrase per problem: the client ran out of descriptors (the
     * client, not the server, was the limit); the client machine may have moved the stamps ({@link ClientShaping});
     * 429s not retried; a run too short for its p99s. The summary prints the first; {@code --verbose} the rest.
     */
    static List<String> warnings(final RunResult r)
    {
        final List<String> warnings = new ArrayList<>();
        final long refused = r.counts().errorsByClass().getOrDefault(ErrorClass.CLIENT_LIMIT.label(), 0L);
        if (refused > 0)
        {
            warnings.add(String.format(Locale.ROOT, "CLIENT LIMIT: %d requests could not open a connection: this " +
                "client ran out of file descriptors (ulimit -n), so the client, not the server, was the limit; " +
                "raise the limit or set --max-concurrency", refused));
        }
        ClientShaping.warning(r).ifPresent(warnings::add);
        final long limited = r.counts().errorsByClass().getOrDefault(ErrorClass.HTTP_429.label(), 0L);
        if (limited > 0 && r.options().target().retries429() == 0)
        {
            warnings.add(String.format(Locale.ROOT, "rate limited: %d responses 429, %.1f per second of window " +
                "(Retry-After, when given, is in requests.jsonl; tokenclock does not retry: each 429 is an error; " +
                "--retry-429 N retries)", limited, rate(limited, r)));
        }
        final String tail = TailWarnings.consoleLine(r.distributions());
        if (tail != null)
        {
            warnings.add(tail);
        }
        return warnings;
    }

    /** The client's own hiccups, GC and CPU cost ({@code --verbose}). */
    private static void clientHealth(final RunResult r, final PrintStream out)
    {
        final var health = r.clientHealth();
        final Distribution hiccups = health.hiccupsMs();
        if (hiccups.count() > 0)
        {
            out.printf(Locale.ROOT, "client: hiccups p50 %.3f  p99 %.3f  max %.3f ms   GC %d pauses, " +
                "%d ms total, %d ms max%s%n", hiccups.p50(), hiccups.p99(), hiccups.max(), health.gcCount(),
                health.gcTotalMs(), health.gcMaxMs(), health.gcConcurrentCycles() == 0 ? "" : String.format(
                Locale.ROOT, "; %d concurrent cycles, %d ms", health.gcConcurrentCycles(), health.gcConcurrentMs()));
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

    /** How ready the client was at t0, its JIT and safepoints during load, its profile ({@code --verbose}). */
    private static void clientReadiness(final RunResult r, final PrintStream out)
    {
        final var health = r.clientHealth();
        final var ready = health.readiness();
        final var safepoints = health.safepointsDuringLoad();
        out.printf(Locale.ROOT, "client ready before t0: self-warm-up %d requests, %d chunks in %.1f s; %d " +
            "connections pre-opened; JIT during load %d ms (AOT cache %s); %s%n", ready.warmupRequests(),
            ready.warmupChunks(), ready.warmupS(), ready.preconnected(), health.jitMsDuringLoad(), ready.aotCache(),
            safepoints == null ? "safepoints not readable" : String.format(Locale.ROOT,
                "%d safepoints during load, %.1f ms stopped", safepoints.safepoints(), safepoints.totalNs() / 1e6));
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
