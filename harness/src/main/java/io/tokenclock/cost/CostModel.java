package io.tokenclock.cost;

import java.util.Locale;

/**
 * Prices a run: a pure function of the price model, what the run consumed and how many tasks succeeded. Formulas and
 * a worked example: docs/COST_ENERGY.md.
 * <ul>
 * <li>API: run total = uncached input tokens x input price + cached input tokens x cached price + output tokens x
 * output price (each per million) + attempted requests x the per-request fee; the tokens of failed and cancelled
 * requests included (what they consumed is billed). Wasted = what those requests' own tokens and fees cost.</li>
 * <li>Self-hosted: run total = (accelerator price x count + host price) per hour x idle-reserve factor x the window
 * in hours. Wasted = the run total x the failed and cancelled requests' share of all tokens processed (input plus
 * output).</li>
 * </ul>
 * Stateless and thread-safe.
 */
public final class CostModel
{
    private static final double PER_MILLION = 1e-6;
    private static final double SECONDS_PER_HOUR = 3600;

    private CostModel()
    {
    }

    /** @return what the run cost under {@code price}. */
    public static CostReport price(final PriceModel price, final Usage usage, final Successes successes)
    {
        return switch (price)
        {
            case PriceModel.Api api -> api(api, usage, successes);
            case PriceModel.SelfHosted hosted -> selfHosted(hosted, usage, successes);
        };
    }

    private static CostReport api(final PriceModel.Api p, final Usage u, final Successes successes)
    {
        final boolean cachedKnown = u.cachedInputTokens() >= 0;
        final long cached = Math.max(0, u.cachedInputTokens());
        final long uncached = u.inputTokens() + u.wastedInputTokens() - cached;
        final long output = u.outputTokens() + u.wastedOutputTokens();
        final double total = uncached * p.inputPerMTokens() * PER_MILLION +
            cached * p.cachedInputPerMTokens() * PER_MILLION + output * p.outputPerMTokens() * PER_MILLION +
            u.attempted() * p.perRequest();
        final double wasted = u.wastedInputTokens() * p.inputPerMTokens() * PER_MILLION +
            u.wastedOutputTokens() * p.outputPerMTokens() * PER_MILLION + u.wastedRequests() * p.perRequest();
        final String boundary = "API bill of the measured requests (warm-up excluded): input, cached input and " +
            "output tokens at the declared prices per million, plus the fee per attempted request; failed and " +
            "cancelled requests are billed for the tokens they consumed" + (cachedKnown ? "" :
            "; cached-input tokens are not recorded by this harness, so every input token is priced as uncached " +
                "(an upper bound when the provider caches prompts)");
        final String arithmetic = String.format(Locale.ROOT, "%d uncached input x %s/1M + %d cached input x %s/1M " +
            "+ %d output x %s/1M + %d requests x %s = %s %s", uncached, g(p.inputPerMTokens()), cached,
            g(p.cachedInputPerMTokens()), output, g(p.outputPerMTokens()), u.attempted(), g(p.perRequest()),
            g(total), p.currency());
        return report(p, u, successes, total, wasted, boundary, "for API: the failed and cancelled requests' " +
            "own input tokens (those the server had taken on), the output tokens streamed to them, and their " +
            "per-request fees (" + u.wastedTokenSources() + ")", arithmetic);
    }

    private static CostReport selfHosted(final PriceModel.SelfHosted p, final Usage u, final Successes successes)
    {
        final double total = p.perHour() * u.windowSeconds() / SECONDS_PER_HOUR;
        final long wastedTokens = u.wastedInputTokens() + u.wastedOutputTokens();
        final double wasted = u.allTokens() > 0 ? total * wastedTokens / u.allTokens() : 0;
        final String boundary = "self-hosted deployment over the measured window (warm-up, and idle time before " +
            "and after the window, excluded): accelerators and host at the declared prices per hour, times the " +
            "idle-reserve factor; no per-token prices";
        final String arithmetic = String.format(Locale.ROOT, "(%d x %s + %s) per hour x %s idle reserve x %s s / " +
            "3600 s = %s %s", p.accelerators(), g(p.acceleratorPerHour()), g(p.hostPerHour()),
            g(p.idleReserveFactor()), g(u.windowSeconds()), g(total), p.currency());
        return report(p, u, successes, total, wasted, boundary, String.format(Locale.ROOT, "for self-hosted: the " +
            "run total times the failed and cancelled requests' share of all tokens processed, input and output " +
            "(%d of %d; %s)", wastedTokens, u.allTokens(), u.wastedTokenSources()), arithmetic);
    }

    private static CostReport report(
        final PriceModel p, final Usage u, final Successes successes, final double total, final double wasted,
        final String boundary, final String wastedBasis, final String arithmetic)
    {
        return new CostReport(p.currency(), boundary, p.describe(), total, ratio(total, u.attempted()),
            ratio(total, u.outputTokens()), ratio(total, successes.count()), successes, wasted, wastedBasis,
            arithmetic);
    }

    /** @return {@code amount / count}, or null when there is nothing to divide by. */
    static Double ratio(final double amount, final long count)
    {
        return count > 0 ? amount / count : null;
    }

    private static String g(final double v)
    {
        return v == Math.rint(v) && Math.abs(v) < 1e15 ? String.valueOf((long)v) :
            String.format(Locale.ROOT, "%.6g", v).replaceAll("0+$", "").replaceAll("\\.$", "");
    }
}
