package io.tokenclock.report;

import java.util.Locale;

import io.tokenclock.results.record.ReportSection;
import io.tokenclock.results.record.RunRecord;
import io.tokenclock.text.UntrustedText;

/** The COST and ENERGY sections of the record block ({@link RecordBlock}), rendered from a record. Cold path. */
final class CostEnergyBlock
{
    private CostEnergyBlock()
    {
    }

    /** Appends the COST and ENERGY sections of {@code record}, each only when the record has it. */
    static void render(final RunRecord record, final StringBuilder sb)
    {
        final ReportSection.Cost cost = record.report() == null ? null : record.report().cost();
        if (cost != null)
        {
            sb.append("\nCOST\n");
            line(sb, "prices", String.valueOf(cost.prices()));
            line(sb, "run total", String.format(Locale.ROOT, "%s %.6g (%s)", cost.currency(), cost.runTotal(),
                cost.arithmetic()));
            line(sb, "per request", number(cost.perRequest()));
            line(sb, "per output token", number(cost.perOutputToken()));
            line(sb, "per successful task", number(cost.perSuccessfulTask()) + " (" + cost.successBasis() + ")");
            line(sb, "wasted", number(cost.wasted()) + " (" + cost.wastedBasis() + ")");
            line(sb, "boundary", String.valueOf(cost.boundary()));
        }
        final ReportSection.Energy energy = record.report() == null ? null : record.report().energy();
        if (energy != null)
        {
            sb.append("\nENERGY\n");
            final String boundary = record.measurement() == null ? null : record.measurement().powerBoundary();
            line(sb, "boundary", boundary == null ? "none measured" : boundary);
            if (energy.joules() != null)
            {
                line(sb, "energy", String.format(Locale.ROOT, "%.1f J +- %.1f J over %.2f s, %.1f W average",
                    energy.joules(), zero(energy.uncertaintyJoules()), energy.windowS(),
                    zero(energy.averageWatts())));
                line(sb, "per request", number(energy.perRequestJ()) + " J");
                line(sb, "per output token", number(energy.perOutputTokenJ()) + " J");
                line(sb, "per successful task", number(energy.perSuccessfulTaskJ()) + " J (" +
                    energy.successBasis() + ")");
                line(sb, "tokens per joule", number(energy.tokensPerJoule()));
            }
            if (energy.unavailable() != null)
            {
                energy.unavailable().forEach(u -> line(sb, "unavailable", String.valueOf(u)));
            }
        }
    }

    /** @return {@code v} to 4 significant digits, or "-" when the record has none (null, or not finite). */
    private static String number(final Double v)
    {
        return v == null || !Double.isFinite(v) ? "-" : String.format(Locale.ROOT, "%.4g", v);
    }

    private static double zero(final Double v)
    {
        return v == null ? 0.0 : v;
    }

    /** As {@link RecordBlock}'s lines: the value escaped, never raw on a terminal. */
    private static void line(final StringBuilder sb, final String key, final String value)
    {
        sb.append("  ").append(String.format(Locale.ROOT, "%-21s", key))
            .append(UntrustedText.escaped(value, Integer.MAX_VALUE)).append('\n');
    }
}
