package io.tokenclock.contract;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import io.tokenclock.config.RunOptions;
import io.tokenclock.config.RunOptionsBuilder;
import io.tokenclock.config.Scenario;
import io.tokenclock.config.TailQuantile;
import io.tokenclock.goodput.Slo;
import io.tokenclock.load.ArrivalProcess;
import io.tokenclock.load.ConcurrencySchedule;
import io.tokenclock.load.RateSchedule;
import io.tokenclock.quality.Check;
import io.tokenclock.quality.Checks;
import io.tokenclock.quality.JudgeSpec;
import io.tokenclock.transport.Stamping;
import io.tokenclock.transport.Endpoint;
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
        if (root.has("seed"))
        {
            o.seed(root.get("seed").asLong());
        }
        applyTarget(root.path("target"), o);
        applyModel(root.path("model"), o);
        final Path baseDir = contract.path().toAbsolutePath().getParent();
        applyWorkload(root.path("workload"), baseDir, o);
        applyLoad(root.path("load"), o);
        applyState(root.path("state"), o);
        applyRest(root, baseDir, o);
        CostPowerContract.apply(root, baseDir, o);
        return o;
    }

    /** {@code target}: the URL, endpoint, headers and readiness wait. */
    private static void applyTarget(final JsonNode target, final RunOptionsBuilder o)
    {
        o.url(target.get("url").asText());
        if (target.has("endpoint"))
        {
            o.api(target.get("endpoint").asText().equalsIgnoreCase("completions") ?
                Endpoint.Api.COMPLETIONS : Endpoint.Api.CHAT);
        }
        for (final Map.Entry<String, JsonNode> h : iterable(target.path("headers")))
        {
            o.header(h.getKey(), h.getValue().asText());
        }
        if (target.has("api_key_env"))
        {
            o.apiKeyEnv(target.get("api_key_env").asText());
        }
        if (target.has("wait_ready_s"))
        {
            o.waitReadyS(target.get("wait_ready_s").asDouble());
        }

    }

    /** {@code model}: the name, tokenizer and decoding. */
    private static void applyModel(final JsonNode model, final RunOptionsBuilder o)
    {
        if (model.has("name"))
        {
            o.model(model.get("name").asText());
        }
        if (model.has("tokenizer"))
        {
            o.tokenizer(model.get("tokenizer").asText());
        }
        final JsonNode decoding = model.path("decoding");
        if (decoding.has("max_tokens"))
        {
            o.maxTokens(decoding.get("max_tokens").asInt());
        }
        if (decoding.has("temperature"))
        {
            o.temperature(decoding.get("temperature").asDouble());
        }
        if (decoding.has("ignore_eos"))
        {
            o.ignoreEos(decoding.get("ignore_eos").asBoolean());
        }
        if (decoding.has("extra_body"))
        {
            o.extraBody(decoding.get("extra_body").toString());
        }

    }

    /** {@code workload}: prompts, lengths, segments, sessions, agents, prefixes, cancellation, dataset. */
    private static void applyWorkload(final JsonNode workload, final Path baseDir, final RunOptionsBuilder o)
    {
        if (workload.has("prompt"))
        {
            o.prompt(workload.get("prompt").asText());
        }
        o.inputLengths(WorkloadSpecs.lengths(workload.get("input_tokens"), baseDir));
        o.outputLengths(WorkloadSpecs.lengths(workload.get("output_tokens"), baseDir));
        o.lengthCorrelation(workload.path("correlation").asDouble(0.0));
        o.segments(workload.has("segments") ? WorkloadSpecs.segments(workload.get("segments"), baseDir) : null);
        o.agent(workload.has("agent") ? WorkloadSpecs.agent(workload.get("agent"), baseDir) : null);
        final JsonNode sessions = workload.path("sessions");
        if (sessions.isObject())
        {
            o.sessionTurns(WorkloadSpecs.lengths(sessions.get("turns"), baseDir));
            o.sticky(sessions.path("sticky").asBoolean(false));
            o.thinkTimeMs(WorkloadSpecs.lengths(sessions.get("think_time_ms"), baseDir));
        }
        final JsonNode prefix = workload.path("prefix");
        if (prefix.isObject())
        {
            o.prefixes(new SharedPrefixes(prefix.path("system_tokens").asInt(0),
                prefix.path("groups").asInt(0), prefix.path("group_tokens").asInt(0),
                prefix.path("sharing").asDouble(prefix.path("groups").asInt(0) > 0 ? 1.0 : 0.0)));
        }
        final JsonNode cancellation = workload.path("cancellation");
        if (cancellation.has("rate"))
        {
            o.cancelRate(cancellation.get("rate").asDouble());
        }
        if (cancellation.has("after_ms"))
        {
            o.cancelAfterMs(cancellation.get("after_ms").asDouble());
        }
        if (cancellation.has("after_tokens"))
        {
            o.cancelAfterTokens(cancellation.get("after_tokens").asInt());
        }
        final JsonNode dataset = workload.path("dataset");
        if (dataset.has("path"))
        {
            o.dataset(Path.of(dataset.get("path").asText()));
            o.datasetFormat(dataset.path("format").asText("jsonl").toLowerCase(Locale.ROOT));
            if (dataset.has("block_size"))
            {
                o.blockSize(dataset.get("block_size").asInt());
            }
        }

    }

    /** {@code state}: warm-up, cache, cold start, repetitions. */
    private static void applyState(final JsonNode state, final RunOptionsBuilder o)
    {
        if (state.path("warmup").has("requests"))
        {
            o.warmupRequests(state.path("warmup").get("requests").asLong());
        }
        if (state.path("warmup").has("duration_s"))
        {
            o.warmupDurationS(state.path("warmup").get("duration_s").asDouble());
        }
        o.cachePolicy(state.path("cache").asText("preserve").toLowerCase(Locale.ROOT));
        if (state.has("cold_start"))
        {
            o.coldStart(state.get("cold_start").asBoolean());
        }
        if (state.has("repetitions"))
        {
            o.repetitions(state.get("repetitions").asInt());
        }
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
        final JsonNode output = root.path("output");
        if (output.has("dir"))
        {
            o.outputDir(Path.of(output.get("dir").asText()));
        }
        if (output.has("save_text"))
        {
            o.saveText(output.get("save_text").asBoolean());
        }
    }

    /** {@code quality}: the SLO, the success criterion, the checks and the judge (files read now, before the run). */
    private static void applyQuality(final JsonNode quality, final Path baseDir, final RunOptionsBuilder o)
    {
        final Slo slo = WorkloadSpecs.slo(quality.path("slo"));
        if (slo != null)
        {
            o.slo(slo);
        }
        if (quality.has("success"))
        {
            o.qualitySuccess(quality.get("success").asText());
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
        if (measurement.has("io_threads"))
        {
            o.ioThreads(measurement.get("io_threads").asInt());
        }
        if (measurement.has("stamping"))
        {
            o.stamping(Stamping.of(measurement.get("stamping").asText()));
        }
        if (measurement.has("hiccup_warn_fraction"))
        {
            o.hiccupWarnFraction(measurement.get("hiccup_warn_fraction").asDouble());
        }
        if (measurement.has("server_metrics"))
        {
            final JsonNode metrics = measurement.get("server_metrics");
            // YAML 1.1 reads a bare off as false.
            o.serverMetrics(metrics.isBoolean() && !metrics.booleanValue() ? RunOptions.SERVER_METRICS_OFF :
                metrics.asText());
        }
        if (measurement.has("server_metrics_interval_ms"))
        {
            o.serverMetricsIntervalMs(measurement.get("server_metrics_interval_ms").asLong());
        }
    }

    private static void applyLoad(final JsonNode load, final RunOptionsBuilder o)
    {
        if (load.has("fixed_schedule"))
        {
            o.fixedSchedule(load.get("fixed_schedule").asBoolean());
        }
        if (load.has("concurrency"))
        {
            o.concurrency(load.get("concurrency").asInt());
        }
        if (load.has("users"))
        {
            o.users(load.get("users").asInt());
        }
        if (load.has("rate"))
        {
            o.rate(load.get("rate").asDouble());
        }
        if (load.has("arrival"))
        {
            o.arrival(ArrivalProcess.Kind.valueOf(load.get("arrival").asText().toUpperCase(Locale.ROOT)));
        }
        if (load.has("burstiness"))
        {
            o.burstiness(load.get("burstiness").asDouble());
        }
        if (load.has("max_concurrency"))
        {
            o.maxConcurrency(load.get("max_concurrency").asInt());
        }
        if (load.has("requests"))
        {
            o.requests(load.get("requests").asLong());
        }
        if (load.has("duration_s"))
        {
            o.durationS(load.get("duration_s").asDouble());
        }
        if (load.has("scenario"))
        {
            o.scenario(Scenario.parse(load.get("scenario").asText()));
        }
        if (load.has("min_samples_for"))
        {
            o.minSamplesFor(tailQuantile("load.min_samples_for", load.get("min_samples_for").asText()));
        }
        applyTimeouts(load, o);
        applyShape(load, o);
        if (load.has("drain_timeout_s"))
        {
            o.drainTimeoutS(load.get("drain_timeout_s").asDouble());
        }
        if (load.path("end_of_window").asText("grace").equals("cancel"))
        {
            o.drainTimeoutS(0);
        }
    }

    private static TailQuantile tailQuantile(final String key, final String value)
    {
        try
        {
            return TailQuantile.parse(value);
        }
        catch (final IllegalArgumentException ex)
        {
            throw new IllegalArgumentException(key + ": " + ex.getMessage());
        }
    }

    /** The per-request limits the contract keeps under {@code load}. */
    private static void applyTimeouts(final JsonNode load, final RunOptionsBuilder o)
    {
        if (load.has("request_timeout_s"))
        {
            o.timeoutS(load.get("request_timeout_s").asDouble());
        }
        if (load.has("connect_timeout_s"))
        {
            o.connectTimeoutS(load.get("connect_timeout_s").asDouble());
        }
        if (load.has("first_byte_timeout_s"))
        {
            o.firstByteTimeoutS(load.get("first_byte_timeout_s").asDouble());
        }
        if (load.has("idle_timeout_s"))
        {
            o.idleTimeoutS(load.get("idle_timeout_s").asDouble());
        }
    }

    /** The ramp (of the rate, or of the concurrency in a closed loop) and the stages. */
    private static void applyShape(final JsonNode load, final RunOptionsBuilder o)
    {
        final JsonNode ramp = load.path("ramp");
        if (ramp.isObject())
        {
            final RateSchedule.Ramp r = new RateSchedule.Ramp(ramp.path("from").asDouble(0), ramp.get("to").asDouble(),
                ramp.get("duration_s").asDouble(), ramp.path("shape").asText("linear").equals("exponential"));
            if (load.has("concurrency") || load.path("stages").path(0).has("concurrency"))
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
        return node::fields;
    }
}
