package io.tokenclock.sweep;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import io.tokenclock.json.Json;
import io.tokenclock.util.WholeFile;

/**
 * {@code sweep.json}: a sweep's points, knees, maximum goodput and SLO search (format: docs/RESULTS.md). The points
 * are the saturation curve's data as a report draws it: one object per point, in increasing load. A figure with no
 * value (NaN) is written as null; run directories are relative to the sweep's directory. {@code api} names the API
 * swept: a point of one that answers whole (embeddings, rerank) has no TTFT, TPOT, output-token or per-token-energy
 * member at all (they do not exist for it; absent, never 0 or null), and has {@code inputs_per_s} and
 * {@code input_tokens_per_s} instead; its latency knee is on {@code e2e_p99_ms}. Thread-safe: stateless.
 */
public final class SweepJson
{
    /** The format's name and version, written as {@code format}. */
    public static final String FORMAT = "tokenclock-sweep/1";
    /** The file's name in the sweep's directory. */
    public static final String FILE = "sweep.json";

    private static final ObjectMapper JSON = Json.MAPPER;

    private SweepJson()
    {
    }

    /** Writes {@code DIR/sweep.json}, replacing it whole ({@link WholeFile}). */
    public static void write(final SweepReport r, final Path dir) throws IOException
    {
        Files.createDirectories(dir);
        WholeFile.write(dir.resolve(FILE), Json.PRETTY.writeValueAsBytes(tree(r, dir)));
    }

    /** @return the document, run directories relative to {@code dir}. */
    static ObjectNode tree(final SweepReport r, final Path dir)
    {
        final ObjectNode n = JSON.createObjectNode();
        n.put("format", FORMAT);
        n.put("api", r.analysis().api().word());
        n.put("mode", r.plan().mode());
        n.put("loop", r.plan().loop().key());
        n.put("offered_unit", r.plan().loop().unit());
        n.put("point_duration_s", r.plan().pointDurationS());
        n.put("achieved_definition", SweepPoint.ACHIEVED_DEFINITION);
        n.put("slo", r.slo());
        n.put("slo_attainment", r.plan().sloAttainment());
        n.put("goodput_definition", r.slo() == null ? "no SLO: every request that ended ok counts as good" :
            "requests that ended ok within every SLO bound, per second of the window");
        n.putObject("stop_rule").put("error_fraction", r.plan().stopRule().errorFraction())
            .put("slo_miss_fraction", r.plan().stopRule().sloMissFraction());
        n.put("partial", r.partialReason());
        n.put("stopped_early", r.stoppedEarly());
        if (r.ceiling() == null)
        {
            n.putNull("ceiling");
        }
        else
        {
            point(n.putObject("ceiling"), r.ceiling(), dir, r.analysis().api().streamed());
        }
        final ArrayNode points = n.putArray("points");
        r.points().forEach(p -> point(points.addObject(), p, dir, r.analysis().api().streamed()));
        if (r.refused() == null)
        {
            n.putNull("refused_point");
        }
        else
        {
            n.putObject("refused_point").put("offered", r.refused().offered())
                .put("run_dir", relative(dir, r.refused().runDir().toString()))
                .put("refusal", relative(dir, r.refused().refusal().toString()));
        }
        knees(n.putObject("knee"), r.analysis());
        final SweepPoint best = r.analysis().maxGoodput();
        if (best == null)
        {
            n.putNull("max_goodput");
        }
        else
        {
            n.putObject("max_goodput").put("offered", best.offered()).put("goodput_rps", best.goodputRps())
                .put("run_dir", relative(dir, best.runDir()));
        }
        number(n, "max_rate_meeting_slo", r.maxRateMeetingSlo());
        search(n, r.search(), dir, r.analysis().api().streamed());
        return n;
    }

    private static void point(final ObjectNode n, final SweepPoint p, final Path dir, final boolean streamed)
    {
        n.put("loop", p.loop().key());
        n.put("offered", p.offered());
        number(n, "achieved_rps", p.achievedRps());
        if (streamed)
        {
            number(n, "ttft_p50_ms", p.ttftP50Ms());
            number(n, "ttft_p99_ms", p.ttftP99Ms());
            number(n, "tpot_p50_ms", p.tpotP50Ms());
            number(n, "tpot_p99_ms", p.tpotP99Ms());
        }
        number(n, "e2e_p50_ms", p.e2eP50Ms());
        number(n, "e2e_p99_ms", p.e2eP99Ms());
        if (streamed)
        {
            number(n, "output_tokens_per_s", p.outputTokensPerS());
            number(n, "output_tps_per_user", p.tpsPerUser());
        }
        else
        {
            number(n, "inputs_per_s", p.inputsPerS());
            number(n, "input_tokens_per_s", p.inputTokensPerS());
        }
        number(n, "window_s", p.windowS());
        n.put("ok_in_window", p.okInWindow());
        n.put("short_window", p.shortWindow());
        number(n, "goodput_rps", p.goodputRps());
        number(n, "good_fraction", p.goodFraction());
        n.put("samples", p.samples());
        n.put("ok", p.ok());
        n.put("errors", p.errors());
        n.put("cancelled", p.cancelled());
        n.put("queue_source", p.queue().source());
        number(n, "running", p.queue().running());
        number(n, "waiting", p.queue().waiting());
        number(n, "in_flight", p.queue().inFlight());
        if (streamed)
        {
            number(n, "energy_j_per_token", p.energyJPerToken());
        }
        n.put("run_dir", relative(dir, p.runDir()));
    }

    private static void knees(final ObjectNode n, final SweepAnalysis a)
    {
        final LatencyKnee k = a.latencyKnee();
        final ObjectNode latency = n.putObject("latency_factor");
        latency.put("metric", a.kneeMetricKey()).put("factor", k.factor());
        number(latency, "baseline_ms", k.baselineMs());
        number(latency, "threshold_ms", k.thresholdMs());
        number(latency, "offered", k.offered());
        number(latency, "last_within", k.lastWithin());
        number(latency, "first_above", k.firstAbove());
        n.put("advice", a.advice());
        final ArrayNode warnings = n.putArray("warnings");
        a.warnings().forEach(warnings::add);
        latency.put("baseline_samples", a.baselineSamples());
        final TwoSegmentFit f = a.throughputFit();
        if (f == null)
        {
            n.putNull("throughput_fit");
            return;
        }
        final ObjectNode fit = n.putObject("throughput_fit");
        fit.put("metric", "achieved_rps");
        number(fit, "offered", f.breakpoint());
        number(fit, "throughput_at_knee", f.throughputAtBreakpoint());
        number(fit, "intercept", f.intercept());
        number(fit, "slope_below", f.slopeBelow());
        number(fit, "slope_above", f.slopeAbove());
        number(fit, "sse", f.sse());
        fit.put("points", f.points());
        fit.put("saturated", f.saturated());
    }

    private static void search(final ObjectNode root, final SweepReport.Search s, final Path dir,
        final boolean streamed)
    {
        if (s == null)
        {
            root.putNull("search");
            return;
        }
        final ObjectNode n = root.putObject("search");
        n.put("start_rate", s.settings().startRate()).put("tolerance", s.settings().tolerance())
            .put("max_runs", s.settings().maxRuns());
        n.put("converged", s.result().converged()).put("reason", s.result().reason());
        number(n, "max_rate", s.result().maxRate());
        number(n, "first_failing_rate", s.result().firstFail());
        n.put("runs_made", s.result().runs());
        final ArrayNode verdicts = n.putArray("verdicts");
        for (final SloSearch.Verdict v : s.result().verdicts())
        {
            final ObjectNode o = verdicts.addObject().put("rate", v.rate()).put("meets_slo", v.pass())
                .put("disagreed", v.disagreed());
            v.runs().forEach(o.putArray("runs")::add);
        }
        final ArrayNode runs = n.putArray("runs");
        for (final SweepReport.SearchRun run : s.runs())
        {
            final ObjectNode o = runs.addObject();
            o.put("meets_slo", run.meetsSlo());
            point(o, run.point(), dir, streamed);
        }
    }

    private static void number(final ObjectNode n, final String key, final double v)
    {
        if (Double.isFinite(v))
        {
            n.put(key, v);
        }
        else
        {
            n.putNull(key);
        }
    }

    private static String relative(final Path dir, final String runDir)
    {
        final Path base = dir.toAbsolutePath().normalize();
        final Path run = Path.of(runDir).toAbsolutePath().normalize();
        return run.startsWith(base) ? base.relativize(run).toString() : runDir;
    }
}
