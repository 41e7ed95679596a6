package io.tokenclock.report;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;


import io.tokenclock.cost.CostModel;
import io.tokenclock.cost.CostReport;
import io.tokenclock.cost.Successes;
import io.tokenclock.cost.Usage;
import io.tokenclock.energy.EnergyMeasurement;
import io.tokenclock.energy.Integral;
import io.tokenclock.energy.PowerMeter;
import io.tokenclock.metrics.Counter;
import io.tokenclock.results.record.ReportSection;
import io.tokenclock.run.RunResult;

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

    /**
     * @return what the measured requests consumed, as the price model needs it: the cached input tokens are those the
     * server's usage reported ({@code report.cache.cached_tokens}), unknown (-1) when no request reported them.
     */
    static Usage usage(final RunResult r)
    {
        final RunResult.Counts c = r.counts();
        return new Usage(c.total(), c.ok(), c.errors() + c.cancelled(), c.get(Counter.INPUT_TOKENS),
            c.get(Counter.OUTPUT_TOKENS),
            c.get(Counter.CACHE_REPORTING_REQUESTS) > 0 ? c.get(Counter.CACHED_TOKENS) : -1,
            c.get(Counter.WASTED_INPUT_TOKENS),
            c.get(Counter.WASTED_OUTPUT_TOKENS) + c.get(Counter.FAILED_OUTPUT_TOKENS), r.windowSeconds(),
            c.get(Counter.WASTED_INPUT_TOKENS_FROM_TOKENIZER));
    }

    /** @return the run's cost, or null when no price model was given. */
    static CostReport cost(final RunResult r)
    {
        final var price = r.options().cost().price();
        return price == null ? null : CostModel.price(price, usage(r), successes(r));
    }

    /** @return the record's {@code report.cost}, or null when no price model was given. */
    static ReportSection.Cost costSection(final RunResult r)
    {
        final CostReport c = cost(r);
        return c == null ? null : new ReportSection.Cost(c.currency(), c.boundary(), c.prices(), c.runTotal(),
            c.perRequest(), c.perOutputToken(), c.perSuccessfulTask(), c.successes().count(),
            c.successes().basis().word(), c.wasted(), c.wastedBasis(), c.arithmetic(), wastedTokens(usage(r)));
    }

    /** @return the record's {@code report.energy}, or null when no power source was given. */
    static ReportSection.Energy energySection(final RunResult r)
    {
        return r.energy() == null ? null : energy(r.energy(), usage(r), successes(r), goodput(r));
    }

    /** Adds the missing power boundary to {@code gaps} when energy was asked for and none could be measured. */
    static void gaps(final RunResult r, final List<String> gaps)
    {
        final EnergyMeasurement e = r.energy();
        final String boundary = e == null ? null : e.powerBoundary();
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
    private static ReportSection.WastedTokens wastedTokens(final Usage u)
    {
        return new ReportSection.WastedTokens(u.wastedInputTokens() - u.wastedInputTokensFromTokenizer(),
            u.wastedInputTokensFromTokenizer(), u.wastedOutputTokens());
    }

    static ReportSection.Energy energy(final EnergyMeasurement e, final Usage u, final Successes successes,
        final Goodput goodput)
    {
        final Double j = e.joules();
        final List<ReportSection.EnergyComponent> parts = new ArrayList<>();
        for (final EnergyMeasurement.Part p : e.parts())
        {
            final Integral i = p.integral();
            parts.add(new ReportSection.EnergyComponent(p.channel(), p.component().word(), p.inBoundary(), i.method(),
                i.joules(), i.uncertaintyJoules(), i.samples(), i.meanIntervalMs(), i.maxIntervalMs()));
        }
        final boolean some = j != null && j > 0;
        return new ReportSection.Energy(e.boundary(), e.boundarySources(), j, e.uncertaintyJoules(),
            e.windowSeconds(), e.averageWatts(), per(j, u.attempted()), per(j, u.outputTokens()),
            per(j, successes.count()), successes.count(), successes.basis().word(),
            some ? u.outputTokens() / j : null, some ? goodput.count() / j : null, goodput.basis(),
            UNCERTAINTY_METHOD, parts, List.copyOf(e.unavailable()), List.copyOf(e.sources()),
            List.copyOf(e.synthetic()), PowerMeter.FILE);
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
            final ReportSection.Energy n = energy(e, usage(r), successes(r), goodput(r));
            out.printf(Locale.ROOT, "ENERGY  %.1f J +- %.1f J over %.2f s (%.1f W average), boundary %s; %s J per " +
                "request, %s J per output token, %s J per successful task, %s tokens/J, %s good requests/J%n",
                e.joules(), e.uncertaintyJoules(), e.windowSeconds(), e.averageWatts(), e.powerBoundary(),
                g(n.perRequestJ()), g(n.perOutputTokenJ()), g(n.perSuccessfulTaskJ()), g(n.tokensPerJoule()),
                g(n.goodputPerWatt()));
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
