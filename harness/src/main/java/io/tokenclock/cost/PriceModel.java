package io.tokenclock.cost;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * What a run's work costs: an API's token prices, or a self-hosted deployment's hourly prices. Declared by the user
 * (contract key {@code cost}, flag {@code --price}); there is no default, and without one the record has no cost
 * section. Formulas: docs/COST_ENERGY.md.
 * <p>
 * Immutable and thread-safe.
 */
public sealed interface PriceModel permits PriceModel.Api, PriceModel.SelfHosted
{
    /** @return the currency every price is in, as the user wrote it (e.g. {@code EUR}). */
    String currency();

    /** @return the prices in one line, for the record and the summary. */
    String describe();

    /**
     * API prices: per million tokens of each kind, plus a fee per request.
     *
     * @param currency              the prices' currency.
     * @param inputPerMTokens       per million input (prompt) tokens not served from the provider's cache.
     * @param outputPerMTokens      per million output (completion) tokens.
     * @param cachedInputPerMTokens per million input tokens served from the provider's cache.
     * @param perRequest            per request sent.
     */
    record Api(String currency, double inputPerMTokens, double outputPerMTokens, double cachedInputPerMTokens,
        double perRequest) implements PriceModel
    {
        public Api
        {
            currency = checkedCurrency(currency);
            price("input_per_mtok", inputPerMTokens);
            price("output_per_mtok", outputPerMTokens);
            price("cached_input_per_mtok", cachedInputPerMTokens);
            price("per_request", perRequest);
        }

        @Override
        public String describe()
        {
            return String.format(Locale.ROOT, "API: %s %s per 1M input tokens, %s per 1M cached input tokens, %s " +
                "per 1M output tokens, %s per request", currency, num(inputPerMTokens), num(cachedInputPerMTokens),
                num(outputPerMTokens), num(perRequest));
        }
    }

    /**
     * A self-hosted deployment's prices, paid for the run's window whatever the load.
     *
     * @param currency           the prices' currency.
     * @param acceleratorPerHour one accelerator for one hour.
     * @param accelerators       how many accelerators serve the model.
     * @param hostPerHour        the host (CPU, memory, network, power) for one hour, accelerators excluded.
     * @param idleReserveFactor  capacity paid for per unit used (>= 1): 1.25 when a quarter more is held idle in
     *                           reserve for peaks, failover or scale-up lag.
     */
    record SelfHosted(String currency, double acceleratorPerHour, int accelerators, double hostPerHour,
        double idleReserveFactor) implements PriceModel
    {
        public SelfHosted
        {
            currency = checkedCurrency(currency);
            price("accelerator_per_hour", acceleratorPerHour);
            price("host_per_hour", hostPerHour);
            if (accelerators < 0)
            {
                throw new IllegalArgumentException("accelerators must be >= 0: " + accelerators);
            }
            if (!(idleReserveFactor >= 1) || Double.isInfinite(idleReserveFactor))
            {
                throw new IllegalArgumentException("idle_reserve_factor must be a finite number >= 1 (1: no " +
                    "reserve): " + idleReserveFactor);
            }
        }

        /** @return what the deployment costs per hour of window, the idle reserve included. */
        public double perHour()
        {
            return (acceleratorPerHour * accelerators + hostPerHour) * idleReserveFactor;
        }

        @Override
        public String describe()
        {
            return String.format(Locale.ROOT, "self-hosted: %d x accelerator at %s %s per hour + host at %s per " +
                "hour, idle-reserve factor %s", accelerators, currency, num(acceleratorPerHour), num(hostPerHour),
                num(idleReserveFactor));
        }
    }

    /**
     * Parses {@code --price}: {@code api:CURRENCY,input=X,output=Y[,cached_input=Z][,per_request=F]} or
     * {@code self-hosted:CURRENCY,accelerator_per_hour=X,accelerators=N[,host_per_hour=Y][,idle_reserve_factor=F]};
     * keys as the contract's (docs/COST_ENERGY.md).
     *
     * @throws IllegalArgumentException one line naming what is wrong.
     */
    static PriceModel parse(final String text)
    {
        final int colon = text.indexOf(':');
        final String kind = colon < 0 ? text : text.substring(0, colon);
        final String[] parts = colon < 0 ? new String[0] : text.substring(colon + 1).split(",");
        if (parts.length == 0 || parts[0].isBlank() || parts[0].contains("="))
        {
            throw new IllegalArgumentException("--price must be api:CURRENCY,input=X,output=Y[,cached_input=Z]" +
                "[,per_request=F] or self-hosted:CURRENCY,accelerator_per_hour=X,accelerators=N[,host_per_hour=Y]" +
                "[,idle_reserve_factor=F], got: " + text);
        }
        final Map<String, Double> values = new LinkedHashMap<>();
        for (int i = 1; i < parts.length; i++)
        {
            final int eq = parts[i].indexOf('=');
            if (eq <= 0)
            {
                throw new IllegalArgumentException("--price: expected KEY=VALUE, got: " + parts[i]);
            }
            values.put(parts[i].substring(0, eq).trim(), number(parts[i].substring(eq + 1).trim()));
        }
        return switch (kind.trim().toLowerCase(Locale.ROOT))
        {
            case "api" -> rejectUnknown(values, new Api(parts[0].trim(), take(values, "input", true),
                take(values, "output", true), take(values, "cached_input", false), take(values, "per_request", false)));
            case "self-hosted", "self_hosted" -> selfHosted(parts[0].trim(), values);
            default -> throw new IllegalArgumentException("--price: the model must be api or self-hosted, got: " +
                kind);
        };
    }

    private static PriceModel selfHosted(final String currency, final Map<String, Double> values)
    {
        final double count = take(values, "accelerators", true);
        if (count != Math.rint(count))
        {
            throw new IllegalArgumentException("--price: accelerators must be a whole number: " + count);
        }
        final double reserve = values.containsKey("idle_reserve_factor") ? take(values, "idle_reserve_factor", true) :
            1.0;
        final PriceModel m = new SelfHosted(currency, take(values, "accelerator_per_hour", true), (int)count,
            take(values, "host_per_hour", false), reserve);
        return rejectUnknown(values, m);
    }

    private static double take(final Map<String, Double> values, final String key, final boolean required)
    {
        final Double v = values.remove(key);
        if (v == null && required)
        {
            throw new IllegalArgumentException("--price: " + key + "= is required");
        }
        return v == null ? 0 : v;
    }

    private static PriceModel rejectUnknown(final Map<String, Double> left, final PriceModel m)
    {
        if (!left.isEmpty())
        {
            throw new IllegalArgumentException("--price: unknown key " + left.keySet().iterator().next());
        }
        return m;
    }

    private static double number(final String text)
    {
        try
        {
            return Double.parseDouble(text);
        }
        catch (final NumberFormatException ex)
        {
            throw new IllegalArgumentException("--price: not a number: " + text);
        }
    }

    private static String checkedCurrency(final String currency)
    {
        if (currency == null || currency.isBlank() || !currency.strip().equals(currency) || currency.length() > 16)
        {
            throw new IllegalArgumentException("currency must be a short name such as EUR or USD: " + currency);
        }
        return currency;
    }

    private static void price(final String name, final double value)
    {
        if (!(value >= 0) || Double.isInfinite(value))
        {
            throw new IllegalArgumentException(name + " must be a finite price >= 0: " + value);
        }
    }

    private static String num(final double v)
    {
        return v == Math.rint(v) && Math.abs(v) < 1e15 ? String.valueOf((long)v) : String.valueOf(v);
    }
}
