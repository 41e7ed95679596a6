package io.tokenclock.contract;

import static io.tokenclock.contract.Schema.integer;
import static io.tokenclock.contract.Schema.listOf;
import static io.tokenclock.contract.Schema.number;
import static io.tokenclock.contract.Schema.object;
import static io.tokenclock.contract.Schema.oneOf;
import static io.tokenclock.contract.Schema.string;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;

import io.tokenclock.config.RunOptionsBuilder;
import io.tokenclock.cost.PriceModel;
import io.tokenclock.energy.PowerSourceSpec;

/**
 * The contract's {@code cost} (a price model) and {@code power} (a list of power sources): their shape, the checks
 * across their keys, and how they feed the builder. Keys: docs/COST_ENERGY.md and docs/CONTRACT.md. There is no key
 * for a TDP, a PSU rating or any other proxy of energy: only measured energy is reported.
 */
final class CostPowerContract
{
    private static final double HUGE = 1e12;

    /** {@code cost}: a currency and exactly one of {@code api} and {@code self_hosted}. */
    static final Schema COST = object()
        .requiredField("currency", string())
        .field("api", object()
            .requiredField("input_per_mtok", number(0, false, HUGE))
            .requiredField("output_per_mtok", number(0, false, HUGE))
            .field("cached_input_per_mtok", number(0, false, HUGE))
            .field("per_request", number(0, false, HUGE)))
        .field("self_hosted", object()
            .requiredField("accelerator_per_hour", number(0, false, HUGE))
            .requiredField("accelerators", integer(0, 1_000_000))
            .field("host_per_hour", number(0, false, HUGE))
            .field("idle_reserve_factor", number(1, false, HUGE)));

    /** {@code power}: a list of sources. */
    static final Schema POWER = listOf(object()
        .requiredField("source", oneOf(Arrays.stream(PowerSourceSpec.Kind.values()).map(PowerSourceSpec.Kind::word)
            .toList()))
        .field("devices", listOf(integer(0, 1_000_000), 1))
        .field("interval_ms", integer(PowerSourceSpec.MIN_INTERVAL_MS, PowerSourceSpec.MAX_INTERVAL_MS))
        .field("root", string())
        .field("command", string())
        .field("url", string())
        .field("path", string())
        .field("align", oneOf(Arrays.stream(PowerSourceSpec.Align.values()).map(PowerSourceSpec.Align::word)
            .toList()))
        .field("offset_s", number(-HUGE, false, HUGE)), 1);

    private CostPowerContract()
    {
    }

    /** The checks across keys; runs only when the structure is valid. */
    static void check(final JsonNode root, final List<String> errors)
    {
        final JsonNode cost = root.path("cost");
        if (cost.isObject() && cost.has("api") == cost.has("self_hosted"))
        {
            errors.add("cost: give exactly one price model, api or self_hosted");
        }
        final JsonNode power = root.path("power");
        for (int i = 0; i < power.size(); i++)
        {
            final JsonNode s = power.get(i);
            final String kind = s.path("source").asText();
            final String needed = kind.equals("dcgm") ? "url" : kind.equals("meter") ? "path" : null;
            if (needed != null && !s.has(needed))
            {
                errors.add("power[" + i + "]." + needed + ": required for source " + kind);
            }
            for (final String key : List.of("devices", "root", "command", "url", "path", "align", "offset_s"))
            {
                if (s.has(key) && !belongs(key, kind))
                {
                    errors.add("power[" + i + "]." + key + ": does not apply to source " + kind);
                }
            }
        }
    }

    private static boolean belongs(final String key, final String kind)
    {
        return switch (key)
        {
            case "devices" -> kind.equals("nvml") || kind.equals("nvidia-smi");
            case "root" -> kind.equals("rapl");
            case "command" -> kind.equals("nvidia-smi");
            case "url" -> kind.equals("dcgm");
            default -> kind.equals("meter");
        };
    }

    /**
     * Feeds {@code cost} and {@code power} into {@code o}.
     *
     * @param baseDir the contract's directory: a meter's relative path is resolved against it.
     */
    static void apply(final JsonNode root, final Path baseDir, final RunOptionsBuilder o)
    {
        final JsonNode cost = root.path("cost");
        if (cost.isObject())
        {
            o.price(price(cost));
        }
        final JsonNode power = root.path("power");
        if (power.isArray())
        {
            final List<PowerSourceSpec> sources = new ArrayList<>();
            for (final JsonNode s : power)
            {
                sources.add(source(s, baseDir));
            }
            o.power(sources);
        }
    }

    private static PriceModel price(final JsonNode cost)
    {
        final String currency = cost.get("currency").asText();
        final JsonNode api = cost.path("api");
        if (api.isObject())
        {
            return new PriceModel.Api(currency, api.get("input_per_mtok").asDouble(),
                api.get("output_per_mtok").asDouble(), api.path("cached_input_per_mtok").asDouble(0),
                api.path("per_request").asDouble(0));
        }
        final JsonNode hosted = cost.path("self_hosted");
        return new PriceModel.SelfHosted(currency, hosted.get("accelerator_per_hour").asDouble(),
            hosted.get("accelerators").asInt(), hosted.path("host_per_hour").asDouble(0),
            hosted.path("idle_reserve_factor").asDouble(1));
    }

    private static PowerSourceSpec source(final JsonNode s, final Path baseDir)
    {
        final PowerSourceSpec.Kind kind = PowerSourceSpec.Kind.of(s.get("source").asText());
        final List<Integer> devices = new ArrayList<>();
        s.path("devices").forEach(d -> devices.add(d.asInt()));
        final String location = switch (kind)
        {
            case RAPL -> s.path("root").asText(PowerSourceSpec.defaultLocation(kind));
            case NVIDIA_SMI -> s.path("command").asText(PowerSourceSpec.defaultLocation(kind));
            case DCGM -> s.path("url").asText(null);
            case METER -> baseDir == null ? s.path("path").asText() :
                baseDir.resolve(s.path("path").asText()).normalize().toString();
            case NVML -> null;
        };
        return new PowerSourceSpec(kind, location, devices, s.path("interval_ms").asLong(kind ==
            PowerSourceSpec.Kind.DCGM ? 1000 : PowerSourceSpec.DEFAULT_INTERVAL_MS),
            PowerSourceSpec.Align.of(s.path("align").asText("wall")), s.path("offset_s").asDouble(0));
    }
}
