package io.tokenclock.contract;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Supplier;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import io.tokenclock.config.RunOption;
import io.tokenclock.config.RunOptions;
import io.tokenclock.config.RunOptionsBuilder;
import io.tokenclock.config.TailQuantile;
import io.tokenclock.goodput.Slo;
import io.tokenclock.load.ConcurrencySchedule;
import io.tokenclock.load.RateSchedule;
import io.tokenclock.quality.Check;
import io.tokenclock.quality.Checks;
import io.tokenclock.quality.JudgeSpec;
import io.tokenclock.workload.SharedPrefixes;

/**
 * Feeds a valid contract into a {@link RunOptionsBuilder}, each value named by its contract key. Command-line flags
 * given beside {@code --config} override single
 * fields afterwards; the record keeps the contract as written and the exact command, so both are visible.
 */
public final class ContractOptions
{
    private ContractOptions()
    {
    }

    /** Fills {@code o} from the contract; {@code o} keeps its values wherever the contract is silent. */
    public static RunOptionsBuilder apply(final ContractFile contract, final RunOptionsBuilder o)
    {
        if (!contract.isValid())
        {
            throw new IllegalArgumentException(contract.errors().get(0));
        }
        o.from(RunOptionsBuilder.Source.CONTRACT);
        final ObjectNode root = contract.tree();
        o.contract(contract.redactedTree());
        o.contractPath(contract.path());
        applyByType(root, o);
        applyTarget(root.path("target"), o);
        final Path baseDir = contract.path().toAbsolutePath().getParent();
        applyWorkload(root.path("workload"), baseDir, o);
        applyLoad(root.path("load"), o);
        applyState(root.path("state"), o);
        applyRest(root, baseDir, o);
        CostPowerContract.apply(root, baseDir, o);
        return o;
    }

    /**
     * Every key that {@link RunOption}'s table reads by type ({@link RunOption#readByType()}): a number, a string (a
     * map, such as {@code extra_body}, as its JSON text), a boolean, a path or an enum's word. The keys with more to
     * them (distributions, ramps, stages, headers, defaults of their own) are read by the methods below.
     */
    private static void applyByType(final JsonNode root, final RunOptionsBuilder o)
    {
        for (final RunOption<?> option : RunOption.all())
        {
            if (option.readByType())
            {
                JsonNode node = root;
                for (final String part : option.key().split("\\."))
                {
                    node = node.path(part);
                }
                if (!node.isMissingNode())
                {
                    set(o, option, node);
                }
            }
        }
    }

    private static <T> void set(final RunOptionsBuilder o, final RunOption<T> option, final JsonNode node)
    {
        o.set(option, option.words().isEmpty() ? option.cast(value(option.type(), node)) :
            option.parseWord(node.asText()));
    }

    /** @return the contract's value as {@code type}; the schema has checked its kind and range. */
    private static Object value(final Class<?> type, final JsonNode node)
    {
        if (type == Integer.class)
        {
            return node.asInt();
        }
        if (type == Long.class)
        {
            return node.asLong();
        }
        if (type == Double.class)
        {
            return node.asDouble();
        }
        if (type == Boolean.class)
        {
            return node.asBoolean();
        }
        if (type == Path.class)
        {
            return Path.of(node.asText());
        }
        return node.isTextual() ? node.asText() : node.toString();
    }

    /** {@code target}: the headers, one by one. */
    private static void applyTarget(final JsonNode target, final RunOptionsBuilder o)
    {
        for (final Map.Entry<String, JsonNode> h : iterable(target.path("headers")))
        {
            o.header(h.getKey(), h.getValue().asText());
        }
    }

    /** {@code workload}: prompts, lengths, segments, sessions, agents, prefixes, cancellation, dataset. */
    private static void applyWorkload(final JsonNode workload, final Path baseDir, final RunOptionsBuilder o)
    {
        o.inputLengths(WorkloadSpecs.lengths(workload.get("input_tokens"), baseDir));
        o.outputLengths(WorkloadSpecs.lengths(workload.get("output_tokens"), baseDir));
        o.segments(workload.has("segments") ? WorkloadSpecs.segments(workload.get("segments"), baseDir) : null);
        o.agent(workload.has("agent") ? WorkloadSpecs.agent(workload.get("agent"), baseDir) : null);
        final JsonNode sessions = workload.path("sessions");
        if (sessions.isObject())
        {
            o.sessionTurns(WorkloadSpecs.lengths(sessions.get("turns"), baseDir));
            o.thinkTimeMs(WorkloadSpecs.lengths(sessions.get("think_time_ms"), baseDir));
        }
        final JsonNode prefix = workload.path("prefix");
        if (prefix.isObject())
        {
            o.prefixes(new SharedPrefixes(prefix.path("system_tokens").asInt(0),
                prefix.path("groups").asInt(0), prefix.path("group_tokens").asInt(0),
                prefix.path("sharing").asDouble(prefix.path("groups").asInt(0) > 0 ? 1.0 : 0.0)));
        }
    }

    /** {@code state}: warm-up, cache, cold start, repetitions. */
    private static void applyState(final JsonNode state, final RunOptionsBuilder o)
    {
        o.cachePolicy(state.path("cache").asText("preserve").toLowerCase(Locale.ROOT));
        if (state.has("flush"))
        {
            o.flushUrl(state.path("flush").path("url").asText());
            o.flushMethod(state.path("flush").path("method").asText("post").toUpperCase(Locale.ROOT));
        }
    }

    /** {@code measurement}, {@code quality} and {@code output}. */
    private static void applyRest(final JsonNode root, final Path baseDir, final RunOptionsBuilder o)
    {
        applyMeasurement(root.path("measurement"), o);
        applyQuality(root.path("quality"), baseDir, o);
    }

    /** {@code quality}: the SLO, the success criterion, the checks and the judge (files read now, before the run). */
    private static void applyQuality(final JsonNode quality, final Path baseDir, final RunOptionsBuilder o)
    {
        final Slo slo = WorkloadSpecs.slo(quality.path("slo"));
        if (slo != null)
        {
            o.slo(slo);
        }
        if (quality.has("checks"))
        {
            final List<Check> checks = new ArrayList<>();
            quality.get("checks").forEach(c -> checks.add(Checks.fromSpec(c, baseDir)));
            o.qualityChecks(checks);
        }
        if (quality.has("judge"))
        {
            o.judge(JudgeSpec.fromSpec(quality.get("judge"), baseDir));
        }
    }

    private static void applyMeasurement(final JsonNode measurement, final RunOptionsBuilder o)
    {
        if (measurement.has("server_metrics"))
        {
            final JsonNode metrics = measurement.get("server_metrics");
            // YAML 1.1 reads a bare off as false.
            o.serverMetrics(metrics.isBoolean() && !metrics.booleanValue() ? RunOptions.SERVER_METRICS_OFF :
                metrics.asText());
        }
    }

    private static void applyLoad(final JsonNode load, final RunOptionsBuilder o)
    {
        if (load.has("min_samples_for"))
        {
            o.minSamplesFor(keyed(RunOption.MIN_SAMPLES_FOR, () -> TailQuantile.parse(
                load.get("min_samples_for").asText())));
        }
        applyShape(load, o);
        if (load.path("end_of_window").asText("grace").equals("cancel"))
        {
            o.drainTimeoutS(0);
        }
    }

    /** @return the value {@code make} builds for {@code option}; a refusal of the value's own type names its key. */
    private static <T> T keyed(final RunOption<?> option, final Supplier<T> make)
    {
        try
        {
            return make.get();
        }
        catch (final IllegalArgumentException ex)
        {
            throw new IllegalArgumentException(option.key() + ": " + ex.getMessage());
        }
    }

    /** The ramp (of the rate, or of the concurrency in a closed loop) and the stages. */
    private static void applyShape(final JsonNode load, final RunOptionsBuilder o)
    {
        final JsonNode ramp = load.path("ramp");
        if (ramp.isObject())
        {
            final RateSchedule.Ramp r = keyed(RunOption.RAMP, () -> new RateSchedule.Ramp(ramp.path("from").asDouble(0),
                ramp.get("to").asDouble(), ramp.get("duration_s").asDouble(),
                ramp.path("shape").asText("linear").equals("exponential")));
            if (ContractSchema.closedLoopKeys(load))
            {
                o.concurrencyRamp(r);
            }
            else
            {
                o.ramp(r);
            }
        }
        final JsonNode stages = load.path("stages");
        if (stages.size() > 0 && stages.get(0).has("concurrency"))
        {
            final int[] c = new int[stages.size()];
            final double[] d = new double[stages.size()];
            for (int j = 0; j < c.length; j++)
            {
                c[j] = stages.get(j).get("concurrency").asInt();
                d[j] = stages.get(j).get("duration_s").asDouble();
            }
            o.concurrencyStages(new ConcurrencySchedule(c, d));
        }
        else
        {
            for (final JsonNode stage : stages)
            {
                o.stage(new RateSchedule.Stage(stage.get("rate").asDouble(),
                    stage.get("duration_s").asDouble()));
            }
        }
    }

    private static Iterable<Map.Entry<String, JsonNode>> iterable(final JsonNode node)
    {
        return node.properties();
    }
}
