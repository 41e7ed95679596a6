package io.tokenclock.contract;

import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import io.tokenclock.config.RunOptions;
import io.tokenclock.load.ArrivalProcess;
import io.tokenclock.load.RateSchedule;
import io.tokenclock.transport.Endpoint;

/**
 * Turns a valid contract into {@link RunOptions}. Command-line flags given beside {@code --config} override single
 * fields afterwards; the record keeps the contract as written and the exact command, so both are visible.
 */
public final class ContractOptions
{
    private ContractOptions()
    {
    }

    /** Fills {@code o} from the contract; {@code o} keeps its values wherever the contract is silent. */
    public static RunOptions apply(final ContractFile contract, final RunOptions o)
    {
        if (!contract.isValid())
        {
            throw new IllegalArgumentException(contract.errors().get(0));
        }
        final ObjectNode root = contract.tree();
        o.contract = contract.redactedTree();
        o.contractPath = contract.path();
        if (root.has("seed"))
        {
            o.seed = root.get("seed").asLong();
        }
        final JsonNode target = root.path("target");
        o.url = target.get("url").asText();
        if (target.has("endpoint"))
        {
            o.api = target.get("endpoint").asText().equalsIgnoreCase("completions") ?
                Endpoint.Api.COMPLETIONS : Endpoint.Api.CHAT;
        }
        for (final Map.Entry<String, JsonNode> h : iterable(target.path("headers")))
        {
            o.headers.put(h.getKey(), h.getValue().asText());
        }
        if (target.has("api_key_env"))
        {
            o.apiKeyEnv = target.get("api_key_env").asText();
        }
        if (target.has("wait_ready_s"))
        {
            o.waitReadyS = target.get("wait_ready_s").asDouble();
        }

        final JsonNode model = root.path("model");
        if (model.has("name"))
        {
            o.model = model.get("name").asText();
        }
        if (model.has("tokenizer"))
        {
            o.tokenizer = model.get("tokenizer").asText();
        }
        final JsonNode decoding = model.path("decoding");
        if (decoding.has("max_tokens"))
        {
            o.maxTokens = decoding.get("max_tokens").asInt();
        }
        if (decoding.has("temperature"))
        {
            o.temperature = decoding.get("temperature").asDouble();
        }
        if (decoding.has("ignore_eos"))
        {
            o.ignoreEos = decoding.get("ignore_eos").asBoolean();
        }
        if (decoding.has("extra_body"))
        {
            o.extraBody = decoding.get("extra_body").toString();
        }

        final JsonNode workload = root.path("workload");
        if (workload.has("prompt"))
        {
            o.prompt = workload.get("prompt").asText();
        }
        o.inputLengths = workload.has("input_tokens") ? workload.get("input_tokens").deepCopy() : null;
        o.outputLengths = workload.has("output_tokens") ? workload.get("output_tokens").deepCopy() : null;
        o.lengthCorrelation = workload.path("correlation").asDouble(0.0);
        o.segments = workload.has("segments") ? workload.get("segments").deepCopy() : null;
        o.agent = workload.has("agent") ? workload.get("agent").deepCopy() : null;
        final JsonNode sessions = workload.path("sessions");
        if (sessions.isObject())
        {
            o.sessionTurns = sessions.has("turns") ? sessions.get("turns").deepCopy() : null;
            o.sticky = sessions.path("sticky").asBoolean(false);
            o.thinkTimeMs = sessions.has("think_time_ms") ? sessions.get("think_time_ms").deepCopy() : null;
        }
        final JsonNode prefix = workload.path("prefix");
        if (prefix.isObject())
        {
            o.prefixes = new io.tokenclock.workload.SharedPrefixes(prefix.path("system_tokens").asInt(0),
                prefix.path("groups").asInt(0), prefix.path("group_tokens").asInt(0),
                prefix.path("sharing").asDouble(prefix.path("groups").asInt(0) > 0 ? 1.0 : 0.0));
        }
        final JsonNode cancellation = workload.path("cancellation");
        o.cancelRate = cancellation.path("rate").asDouble(o.cancelRate);
        o.cancelAfterMs = cancellation.path("after_ms").asDouble(o.cancelAfterMs);
        o.cancelAfterTokens = cancellation.path("after_tokens").asInt(o.cancelAfterTokens);
        final JsonNode dataset = workload.path("dataset");
        if (dataset.has("path"))
        {
            o.dataset = Path.of(dataset.get("path").asText());
            o.datasetFormat = dataset.path("format").asText("jsonl").toLowerCase(Locale.ROOT);
            o.blockSize = dataset.path("block_size").asInt(o.blockSize);
        }
        o.fixedSchedule = root.path("load").path("fixed_schedule").asBoolean(false);

        applyLoad(root.path("load"), o);
        final JsonNode state = root.path("state");
        o.warmupRequests = state.path("warmup").path("requests").asLong(o.warmupRequests);
        o.warmupDurationS = state.path("warmup").path("duration_s").asDouble(o.warmupDurationS);
        o.cachePolicy = state.path("cache").asText("preserve").toLowerCase(Locale.ROOT);
        o.coldStart = state.path("cold_start").asBoolean(o.coldStart);
        o.repetitions = state.path("repetitions").asInt(o.repetitions);
        if (state.has("flush"))
        {
            o.flushUrl = state.path("flush").path("url").asText();
            o.flushMethod = state.path("flush").path("method").asText("post").toUpperCase(Locale.ROOT);
        }
        final JsonNode measurement = root.path("measurement");
        o.ioThreads = measurement.path("io_threads").asInt(o.ioThreads);
        o.hiccupWarnFraction = measurement.path("hiccup_warn_fraction").asDouble(o.hiccupWarnFraction);
        final JsonNode slo = root.path("quality").path("slo");
        if (slo.isObject())
        {
            o.slo = io.tokenclock.recording.Slo.ofMillis(number(slo, "ttft_ms"), number(slo, "tpot_ms"),
                number(slo, "e2e_ms"));
        }
        final JsonNode output = root.path("output");
        if (output.has("dir"))
        {
            o.outputDir = Path.of(output.get("dir").asText());
        }
        o.saveText = output.path("save_text").asBoolean(o.saveText);
        return o;
    }

    private static void applyLoad(final JsonNode load, final RunOptions o)
    {
        if (load.has("concurrency"))
        {
            o.concurrency = load.get("concurrency").asInt();
        }
        if (load.has("users"))
        {
            o.users = load.get("users").asInt();
        }
        if (load.has("rate"))
        {
            o.rate = load.get("rate").asDouble();
        }
        if (load.has("arrival"))
        {
            o.arrival = ArrivalProcess.Kind.valueOf(load.get("arrival").asText().toUpperCase(Locale.ROOT));
        }
        o.burstiness = load.path("burstiness").asDouble(o.burstiness);
        if (load.has("max_concurrency"))
        {
            o.maxConcurrency = load.get("max_concurrency").asInt();
        }
        if (load.has("requests"))
        {
            o.requests = load.get("requests").asLong();
        }
        if (load.has("duration_s"))
        {
            o.durationS = load.get("duration_s").asDouble();
        }
        o.timeoutS = load.path("request_timeout_s").asDouble(o.timeoutS);
        o.connectTimeoutS = load.path("connect_timeout_s").asDouble(o.connectTimeoutS);
        o.firstByteTimeoutS = load.path("first_byte_timeout_s").asDouble(o.firstByteTimeoutS);
        o.idleTimeoutS = load.path("idle_timeout_s").asDouble(o.idleTimeoutS);
        final JsonNode ramp = load.path("ramp");
        if (ramp.isObject())
        {
            final RateSchedule.Ramp r = new RateSchedule.Ramp(ramp.path("from").asDouble(0), ramp.get("to").asDouble(),
                ramp.get("duration_s").asDouble(), ramp.path("shape").asText("linear").equals("exponential"));
            if (load.has("concurrency") || load.path("stages").path(0).has("concurrency"))
            {
                o.concurrencyRamp = r;
            }
            else
            {
                o.ramp = r;
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
            o.concurrencyStages = new io.tokenclock.load.ConcurrencySchedule(c, d);
        }
        else
        {
            for (final JsonNode stage : stages)
            {
                o.stages.add(new RateSchedule.Stage(stage.get("rate").asDouble(),
                    stage.get("duration_s").asDouble()));
            }
        }
        o.drainTimeoutS = load.path("drain_timeout_s").asDouble(o.drainTimeoutS);
        if (load.path("end_of_window").asText("grace").equals("cancel"))
        {
            o.drainTimeoutS = 0;
        }
    }

    private static Double number(final JsonNode node, final String field)
    {
        return node.hasNonNull(field) ? node.get(field).asDouble() : null;
    }

    private static Iterable<Map.Entry<String, JsonNode>> iterable(final JsonNode node)
    {
        return node::fields;
    }
}
