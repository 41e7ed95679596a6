package io.tokenclock.report;

import java.io.PrintStream;
import java.util.List;
import java.util.Locale;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import io.tokenclock.cost.CostModel;
import io.tokenclock.cost.CostReport;
import io.tokenclock.cost.Successes;
import io.tokenclock.cost.Usage;
import io.tokenclock.energy.EnergyMeasurement;
import io.tokenclock.energy.Integral;
import io.tokenclock.energy.PowerMeter;
import io.tokenclock.result.RunResult;

/**
 * The record's {@code report.cost} and {@code report.energy}, {@code measurement.power_boundary}, and the summary's
 * COST and ENERGY lines. Formulas and a worked example: docs/COST_ENERGY.md. No price model means no cost section
 * (null), and no power source no energy section (null): neither has a default. Stateless and thread-safe.
 */
public final class CostEnergyReport
{
    /** How {@code uncertainty_joules} is estimated, for the record. */
    static final String UNCERTAINTY_METHOD = "sum over channels of: energy counter: at each window edge the larger " +
        "part of the bracketing interval's energy, plus the counter's resolution; power samples: half the power step " +
        "times the interval for each whole interval, the whole step times the part kept at the two edges (power " +
        "monotone between samples); instrument calibration error is not included";

    private static final ObjectMapper JSON = new ObjectMapper();

    private CostEnergyReport()
    {
    }

    /**
     * The successes a run's cost and energy are divided by: the outputs that passed the quality rule when the run has
     * one that judges outputs (basis {@code quality}), else the completed requests (basis {@code completed}).
     */
    static Successes successes(final RunResult r)
    {
        return r.quality() != null ? Successes.quality(r.quality().success()) : Successes.completed(r.counts().ok());
    }

    /** @return what the measured requests consumed, as the price model needs it. */
    static Usage usage(final RunResult r)
    {
        final RunResult.Counts c = r.counts();
        return new Usage(c.total(), c.ok(), c.errors() + c.cancelled(), c.inputTokens(), c.outputTokens(), -1,
            c.wastedInputTokens(), c.wastedOutputTokens() + c.failedOutputTokens(), r.windowSeconds(),
            c.wastedInputTokensFromTokenizer());
    }

    /** @return the run's cost, or null when no price model was given. */
    static CostReport cost(final RunResult r)
    {
        final var price = r.options().cost().price();
        return price == null ? null : CostModel.price(price, usage(r), successes(r));
    }

    /**
     * Sets {@code report.cost}, {@code report.energy} and {@code measurement.power_boundary} of a record, and adds
     * the missing power boundary to {@code gaps} when energy was asked for and none could be measured.
     */
    static void addTo(final ObjectNode record, final RunResult r, final List<String> gaps)
    {
        final ObjectNode report = (ObjectNode)record.get("report");
        final CostReport cost = cost(r);
        report.set("cost", cost == null ? null : costNode(cost).set("wasted_tokens", wastedTokens(usage(r))));
        final EnergyMeasurement e = r.energy();
        report.set("energy", e == null ? null : energyNode(e, usage(r), successes(r), goodput(r)));
        final String boundary = e == null ? null : e.powerBoundary();
        ((ObjectNode)record.get("measurement")).put("power_boundary", boundary);
        if (e != null && e.joules() != null && !e.synthetic().isEmpty())
        {
            gaps.add("report.energy: the power readings are synthetic, not measured (" + e.synthetic().get(0) +
                "): use a meter's own file or a live source (contract: power, or --power)");
        }
        if (!r.options().power().sources().isEmpty() && boundary == null)
        {
            gaps.add("measurement.power_boundary (contract: power, or --power): energy was asked for but no " +
                "source could be read" + (e == null || e.unavailable().isEmpty() ? "" : " (" + e.unavailable()
                .get(0) + ")"));
        }
    }

    /**
     * What {@code goodput_per_watt} counts: the requests that met the SLO when one is set, else the successes.
     *
     * @param count how many.
     * @param basis {@code slo}, or the successes' basis.
     */
    record Goodput(long count, String basis)
    {
    }

    private static Goodput goodput(final RunResult r)
    {
        return r.goodput() != null ? new Goodput(r.goodput().good(), "goodput") :
            new Goodput(successes(r).count(), successes(r).basis().word());
    }

    /** Where the wasted tokens were counted: the server's usage, or the harness's tokenizer (docs/COST_ENERGY.md). */
    private static ObjectNode wastedTokens(final Usage u)
    {
        return JSON.createObjectNode()
            .put("input_from_server", u.wastedInputTokens() - u.wastedInputTokensFromTokenizer())
            .put("input_from_tokenizer", u.wastedInputTokensFromTokenizer())
            .put("output_streamed", u.wastedOutputTokens());
    }

    static ObjectNode costNode(final CostReport c)
    {
        final ObjectNode n = JSON.createObjectNode();
        n.put("currency", c.currency());
        n.put("boundary", c.boundary());
        n.put("prices", c.prices());
        n.put("run_total", c.runTotal());
        n.put("per_request", c.perRequest());
        n.put("per_output_token", c.perOutputToken());
        n.put("per_successful_task", c.perSuccessfulTask());
        n.put("successes", c.successes().count());
        n.put("success_basis", c.successes().basis().word());
        n.put("wasted", c.wasted());
        n.put("wasted_basis", c.wastedBasis());
        n.put("arithmetic", c.arithmetic());
        return n;
    }

    static ObjectNode energyNode(final EnergyMeasurement e, final Usage u, final Successes successes,
        final Goodput goodput)
    {
        final ObjectNode n = JSON.createObjectNode();
        n.put("boundary", e.boundary());
        n.set("boundary_sources", JSON.valueToTree(e.boundarySources()));
        n.put("joules", e.joules());
        n.put("uncertainty_joules", e.uncertaintyJoules());
        n.put("window_s", e.windowSeconds());
        n.put("average_watts", e.averageWatts());
        final Double j = e.joules();
        n.put("per_request_j", per(j, u.attempted()));
        n.put("per_output_token_j", per(j, u.outputTokens()));
        n.put("per_successful_task_j", per(j, successes.count()));
        n.put("successes", successes.count());
        n.put("success_basis", successes.basis().word());
        n.put("tokens_per_joule", j == null || !(j > 0) ? null : u.outputTokens() / j);
        n.put("goodput_per_watt", j == null || !(j > 0) ? null : goodput.count() / j);
        n.put("goodput_basis", goodput.basis());
        n.put("uncertainty_method", UNCERTAINTY_METHOD);
        final ArrayNode parts = n.putArray("components");
        for (final EnergyMeasurement.Part p : e.parts())
        {
            final Integral i = p.integral();
            parts.addObject().put("channel", p.channel()).put("component", p.component().word())
                .put("in_boundary", p.inBoundary()).put("method", i.method()).put("joules", i.joules())
                .put("uncertainty_joules", i.uncertaintyJoules()).put("samples", i.samples())
                .put("mean_interval_ms", i.meanIntervalMs()).put("max_interval_ms", i.maxIntervalMs());
        }
        final ArrayNode unavailable = n.putArray("unavailable");
        e.unavailable().forEach(unavailable::add);
        final ArrayNode sources = n.putArray("sources");
        e.sources().forEach(sources::add);
        final ArrayNode synthetic = n.putArray("synthetic");
        e.synthetic().forEach(synthetic::add);
        n.put("samples_file", PowerMeter.FILE);
        return n;
    }

    private static Double per(final Double joules, final long count)
    {
        return joules == null || count <= 0 ? null : joules / count;
    }

    /** Prints the summary's COST and ENERGY lines; nothing when neither was asked for. */
    public static void print(final RunResult r, final PrintStream out)
    {
        final CostReport c = cost(r);
        if (c != null)
        {
            out.printf(Locale.ROOT, "COST    %s %.6g for the run (%s); %s per request, %s per output token, %s per " +
                "successful task (%d %s), %s wasted on failed and cancelled requests%n", c.currency(), c.runTotal(),
                c.prices(), g(c.perRequest()), g(c.perOutputToken()), g(c.perSuccessfulTask()), c.successes().count(),
                c.successes().basis().word(), g(c.wasted()));
        }
        final EnergyMeasurement e = r.energy();
        if (e == null)
        {
            return;
        }
        if (e.joules() != null)
        {
            final JsonNode n = energyNode(e, usage(r), successes(r), goodput(r));
            out.printf(Locale.ROOT, "ENERGY  %.1f J +- %.1f J over %.2f s (%.1f W average), boundary %s; %s J per " +
                "request, %s J per output token, %s J per successful task, %s tokens/J, %s good requests/J%n",
                e.joules(), e.uncertaintyJoules(), e.windowSeconds(), e.averageWatts(), e.powerBoundary(),
                g(n.path("per_request_j").numberValue()), g(n.path("per_output_token_j").numberValue()),
                g(n.path("per_successful_task_j").numberValue()), g(n.path("tokens_per_joule").numberValue()),
                g(n.path("goodput_per_watt").numberValue()));
        }
        for (final String line : e.unavailable())
        {
            out.println("ENERGY  " + line);
        }
        for (final String line : e.synthetic())
        {
            out.println("ENERGY  not a measurement: " + line);
        }
    }

    private static String g(final Number v)
    {
        return v == null ? "-" : String.format(Locale.ROOT, "%.4g", v.doubleValue());
    }
}
