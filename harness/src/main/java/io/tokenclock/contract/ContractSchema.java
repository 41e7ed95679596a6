package io.tokenclock.contract;

import static io.tokenclock.contract.Schema.anyValue;
import static io.tokenclock.contract.Schema.bool;
import static io.tokenclock.contract.Schema.integer;
import static io.tokenclock.contract.Schema.jsonObject;
import static io.tokenclock.contract.Schema.listOf;
import static io.tokenclock.contract.Schema.number;
import static io.tokenclock.contract.Schema.object;
import static io.tokenclock.contract.Schema.oneOf;
import static io.tokenclock.contract.Schema.string;
import static io.tokenclock.contract.Schema.stringMap;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import com.fasterxml.jackson.databind.JsonNode;

import io.tokenclock.api.Api;
import io.tokenclock.config.RunOption;

/**
 * Every key a contract file may hold, its type and its range; and the checks that span keys of the document itself (a
 * written load.mode against the keys, a prompt must fit the context window, a flushed cache needs a flush endpoint).
 * The rules between the options the keys become are {@code config.RunRules}'s alone. docs/CONTRACT.md lists the same
 * keys for people.
 */
public final class ContractSchema
{
    private static final Schema DIST = new DistributionSchema();
    private static final double HUGE = 1e12;
    private static final String STAGE_KINDS =
        "load.stages: concurrency stages belong to a closed loop, rate stages to an open loop";
    private static final Schema SLO = object()
        .field("ttft_ms", number(0, true, 1e12))
        .field("tpot_ms", number(0, true, 1e12))
        .field("itl_ms", number(0, true, 1e12))
        .field("itl_percentile", number(0, true, 100))
        .field("e2e_ms", number(0, true, 1e12));
    /** One built-in quality check: its type and that type's parameters. */
    private static final Schema CHECK = object()
        .requiredField("type", oneOf("exact", "normalized", "contains", "regex", "numeric", "json", "json_schema",
            "finish_stop", "command"))
        .field("pattern", string())
        .field("tolerance", number(0, false, 1e300))
        .field("relative", number(0, false, 1e300))
        .field("schema", jsonObject())
        .field("schema_file", string())
        .field("argv", listOf(string(), 1))
        .field("pass_env", listOf(string(), 0))
        .field("timeout_s", number(0, true, 1e12));
    /** The LLM judge: a second OpenAI-compatible endpoint. */
    private static final Schema JUDGE = object()
        .requiredField("url", string())
        .requiredField("model", string())
        .field("revision", string())
        .field("rubric", string())
        .field("rubric_file", string())
        // its range (the OpenAI API's) is config.RunRules's, as for model.decoding.temperature
        .field("temperature", number(-HUGE, false, HUGE))
        .field("max_tokens", integer(1, 100_000_000))
        .field("seed", integer(Long.MIN_VALUE, Long.MAX_VALUE))
        .field("samples", integer(1, 1000))
        .field("aggregation", oneOf("majority", "all", "any"))
        .field("abstain", oneOf("fail", "exclude"))
        .field("on_error", oneOf("fail", "exclude"))
        .field("api_key_env", string())
        .field("timeout_s", number(0, true, 1e12))
        .field("concurrency", integer(1, 1024));

    /** The whole document. */
    public static final Schema ROOT = object()
        .field("name", string())
        .field("description", string())
        .field("seed", integer(0, Long.MAX_VALUE))
        .requiredField("target", object()
            .requiredField("url", string())
            .field("endpoint", oneOf(Arrays.stream(Api.values()).map(Api::word).toArray(String[]::new)))
            .field("headers", stringMap())
            .field("api_key_env", string())
            .field("wait_ready_s", number(0, false, HUGE)))
        .field("model", object()
            .field("name", string())
            .field("revision", string())
            .field("tokenizer", string())
            .field("context_limit", integer(1, 100_000_000))
            .field("decoding", object()
                .field("max_tokens", integer(0, 100_000_000))
                // its range (the OpenAI API's) is config.RunRules's, as for --temperature
                .field("temperature", number(-HUGE, false, HUGE))
                .field("ignore_eos", bool())
                .field("reasoning_effort", string())
                .field("thinking_tokens", integer(0, 100_000_000))
                .field("extra_body", jsonObject())))
        .field("runtime", object()
            .field("engine", string())
            .field("version", string())
            .field("precision", string())
            .field("quantization", string())
            .field("parallelism", anyValue())
            .field("scheduler", anyValue())
            .field("cache", anyValue())
            .field("notes", string()))
        .field("hardware", object()
            .field("accelerators", string())
            .field("accelerator_count", integer(0, 1_000_000))
            .field("accelerator_memory", string())
            .field("topology", string())
            .field("power_cap_w", number(0, true, HUGE))
            .field("host", string())
            .field("notes", string()))
        .field("workload", object()
            .field("input_tokens", DIST)
            .field("output_tokens", DIST)
            .field("correlation", number(-1, false, 1))
            .field("prompt", string())
            .field("segments", listOf(object()
                .requiredField("name", string())
                .requiredField("weight", number(0, true, 1))
                .requiredField("input_tokens", DIST)
                .field("output_tokens", DIST)
                .field("correlation", number(-1, false, 1))
                .field("extra_body", jsonObject())
                .field("slo", SLO), 1))
            .field("sessions", object()
                .field("turns", DIST)
                .field("think_time_ms", DIST)
                .field("chain", oneOf("history", "previous_response_id"))
                .field("sticky", bool()))
            .field("agent", object()
                .field("tools", listOf(jsonObject(), 1))
                .field("max_steps", integer(1, 1000))
                .field("max_retries", integer(0, 100))
                .field("tool_command", listOf(string(), 1))
                .field("tool_pass_env", listOf(string(), 0))
                .field("tool_timeout_ms", number(0, true, HUGE))
                .field("tool_results_file", string())
                .field("tool_latency_ms", DIST)
                .field("tool_result_tokens", DIST))
            .field("embed_batch", integer(1, 100_000))
            .field("rerank_shape", oneOf("documents", "texts"))
            .field("images", object()
                .field("count", integer(0, 64))
                .field("size", string())
                .field("format", oneOf("png", "jpeg")))
            .field("prefix", object()
                .field("system_tokens", integer(0, 10_000_000))
                .field("groups", integer(0, 1_000_000))
                .field("group_tokens", integer(1, 10_000_000))
                .field("sharing", number(0, false, 1)))
            .field("cancellation", object()
                .requiredField("rate", number(0, false, 1))
                .field("after_ms", number(0, true, HUGE))
                .field("after_tokens", integer(1, 100_000_000)))
            .field("dataset", object()
                .requiredField("path", string())
                .field("format", oneOf("jsonl", "sharegpt", "mooncake"))
                .field("block_size", integer(1, 1_000_000))))
        .field("load", object()
            .field("mode", oneOf("open", "closed", "users"))
            .field("users", integer(1, 1_000_000))
            .field("concurrency", integer(1, 1_000_000))
            .field("rate", number(0, true, HUGE))
            .field("arrival", oneOf("constant", "poisson", "gamma"))
            .field("burstiness", number(0, true, HUGE))
            .field("max_concurrency", integer(1, 1_000_000))
            .field("fixed_schedule", bool())
            .field("ramp", object()
                .field("from", number(0, false, HUGE))
                .requiredField("to", number(0, true, HUGE))
                .requiredField("duration_s", number(0, true, HUGE))
                .field("shape", oneOf("linear", "exponential")))
            .field("stages", listOf(object()
                .field("rate", number(0, true, HUGE))
                .field("concurrency", integer(1, 1_000_000))
                .requiredField("duration_s", number(0, true, HUGE)), 1))
            .field("requests", integer(1, Long.MAX_VALUE))
            .field("scenario", oneOf("offline", "server", "single-stream"))
            .field("min_samples_for", string())
            .field("duration_s", number(0, true, HUGE))
            .field("request_timeout_s", number(0, true, HUGE))
            .field("connect_timeout_s", number(0, false, HUGE))
            .field("first_byte_timeout_s", number(0, false, HUGE))
            .field("idle_timeout_s", number(0, false, HUGE))
            .field("drain_timeout_s", number(0, false, HUGE))
            .field("end_of_window", oneOf("grace", "cancel")))
        .field("state", object()
            .field("warmup", object()
                .field("requests", integer(0, Long.MAX_VALUE))
                .field("duration_s", number(0, false, HUGE)))
            .field("cache", oneOf("preserve", "flush", "preload"))
            .field("cold_start", bool())
            .field("flush", object()
                .requiredField("url", string())
                .field("method", oneOf("post", "get")))
            .field("repetitions", integer(1, 1000))
            .field("notes", string()))
        .field("measurement", object()
            .field("formulas", oneOf("tokenclock-metrics/1"))
            .field("io_threads", integer(0, 1024))
            .field("stamping", oneOf("user", "kernel"))
            .field("hiccup_warn_fraction", number(0, true, HUGE))
            .field("hiccup_interval_us", integer(1, Long.MAX_VALUE)) // its range is the run rules'
            // Server telemetry (issue 13): the metrics URL or off (YAML reads a bare off as false: any value, checked
            // by RunRules), and the scrape interval.
            .field("server_metrics", anyValue())
            .field("server_metrics_interval_ms", integer(100, 3_600_000)))
        .field("quality", object()
            .field("success", oneOf("none", "completed", "finish_stop"))
            .field("checks", listOf(CHECK, 1))
            .field("judge", JUDGE)
            .field("slo", SLO)
            .field("notes", string()))
        .field("output", object()
            .field("dir", string())
            .field("save_text", bool()))
        .field("cost", CostPowerContract.COST)
        .field("power", CostPowerContract.POWER);

    private ContractSchema()
    {
    }

    private static void checkSegments(final JsonNode workload, final JsonNode model, final List<String> errors)
    {
        for (final String single : List.of("input_tokens", "output_tokens", "prompt", "dataset", "correlation"))
        {
            if (workload.has(single))
            {
                errors.add("workload." + single + ": set per segment when workload.segments is given");
            }
        }
        double sum = 0;
        final Set<String> names = new HashSet<>();
        final JsonNode segments = workload.get("segments");
        for (int k = 0; k < segments.size(); k++)
        {
            final JsonNode segment = segments.get(k);
            sum += segment.get("weight").asDouble();
            if (!names.add(segment.get("name").asText()))
            {
                errors.add("workload.segments[" + k + "].name: \"" + segment.get("name").asText() + "\" is used twice");
            }
            if (model.has("context_limit"))
            {
                final long in = DistributionSchema.maxLength(segment.get("input_tokens"));
                final long out = segment.has("output_tokens") ?
                    DistributionSchema.maxLength(segment.get("output_tokens")) :
                    model.path("decoding").path("max_tokens").asLong(RunOption.MAX_TOKENS.defaultValue());
                if (in > 0 && out >= 0 && in + out > model.get("context_limit").asLong())
                {
                    errors.add("workload.segments[" + k + "].input_tokens: longest input " + in + " + longest " +
                        "output " + out + " exceeds model.context_limit " + model.get("context_limit").asLong());
                }
            }
        }
        if (Math.abs(sum - 1.0) > 1e-6)
        {
            errors.add("workload.segments: weights are shares of traffic and must sum to 1, got " + sum);
        }
    }

    /**
     * Checks that span several keys of the document itself; runs only when the structure is valid. The rules that bind
     * the options the keys become (an open loop's rate, a scenario's load, a fixed schedule's trace) are not here but
     * in {@code config.RunRules}, which checks a contract through the same builder a run uses ({@link ContractFile}).
     */
    static void crossCheck(final JsonNode root, final Path baseDir, final List<String> errors)
    {
        final JsonNode load = root.path("load");
        checkUsers(root, load, errors);
        if (load.has("mode"))
        {
            checkWrittenMode(load, errors);
        }
        checkLoadKeys(load, errors);
        checkWorkload(root, baseDir, errors);
        checkModelAndState(root, baseDir, errors);
        checkQuality(root.path("quality"), errors);
        CostPowerContract.check(root, errors);
    }

    /**
     * @return whether the keys make a closed loop's shape (a concurrency, or stages of concurrency): what a ramp beside
     * them ramps ({@link ContractOptions}).
     */
    static boolean closedLoopKeys(final JsonNode load)
    {
        return load.has("concurrency") || load.path("stages").path(0).has("concurrency");
    }

    /** Each check and the judge carry what their type needs; one source for a schema and for a rubric. */
    private static void checkQuality(final JsonNode quality, final List<String> errors)
    {
        final JsonNode checks = quality.path("checks");
        for (int k = 0; k < checks.size(); k++)
        {
            final JsonNode c = checks.get(k);
            final String type = c.path("type").asText();
            final String at = "quality.checks[" + k + "]";
            // "exactly one" is seen on the document only: the typed check takes schema over schema_file
            if (type.equals("json_schema") && c.has("schema") == c.has("schema_file"))
            {
                errors.add(at + ": json_schema needs exactly one of schema and schema_file");
            }
            // here, where the check's index is known: the typed CommandCheck's refusal cannot say which check
            if (type.equals("command") && !c.has("argv"))
            {
                errors.add(at + ".argv: required for a command check (the program and its arguments; no shell)");
            }
        }
        final JsonNode judge = quality.path("judge");
        // "exactly one" is seen on the document only: the typed JudgeSpec reads rubric_file over rubric
        if (judge.isObject() && judge.has("rubric") == judge.has("rubric_file"))
        {
            errors.add("quality.judge: needs exactly one of rubric (text) and rubric_file (a path)");
        }
    }

    /**
     * User-centric load is spelled out in a contract (flags default the sessions): load.users with sessions (chat) or
     * an agent, and chat sessions with their turns. What users exclude is the run's rules'.
     */
    private static void checkUsers(final JsonNode root, final JsonNode load, final List<String> errors)
    {
        final JsonNode w = root.path("workload");
        final boolean sessionsOrAgent = w.has("sessions") || w.has("agent");
        if ((load.has("users") || load.path("mode").asText().equals("users") || sessionsOrAgent) &&
            !(load.has("users") && sessionsOrAgent))
        {
            errors.add("load.users: user-centric load needs load.users and workload.sessions (chat) or " +
                "workload.agent (tool-using agents)");
        }
        if (w.has("sessions") && !w.has("agent") && !w.path("sessions").has("turns"))
        {
            errors.add("workload.sessions.turns: required for multi-turn chat sessions");
        }
    }

    /**
     * A load.mode written beside the keys must be the loop they make. Unwritten, the keys alone make the loop, as
     * flags do, and the run's rules judge it.
     */
    private static void checkWrittenMode(final JsonNode load, final List<String> errors)
    {
        final String mode = load.get("mode").asText();
        if (load.has("scenario"))
        {
            // the scenario sets the loop (the run's rules check the rest)
            final String scenario = load.get("scenario").asText();
            final String loop = scenario.equals("server") ? "open" : "closed";
            if (!mode.equals(loop))
            {
                errors.add("load.mode: scenario " + scenario + " is a" + (loop.equals("open") ? "n " : " ") + loop +
                    " loop; drop load.mode or make it " + loop);
            }
            return;
        }
        if (load.has("users") && !mode.equals("users"))
        {
            errors.add("load.mode: load.users is user-centric load; drop load.mode or make it users");
        }
        if (load.has("users") || mode.equals("users"))
        {
            return;
        }
        final boolean rateStages = load.path("stages").path(0).has("rate");
        final boolean fixed = load.path("fixed_schedule").asBoolean(false);
        if (mode.equals("open"))
        {
            if (load.path("stages").path(0).has("concurrency"))
            {
                errors.add(STAGE_KINDS);
            }
            if (load.has("concurrency"))
            {
                errors.add("load.concurrency: an open loop has no fixed concurrency; cap it with load.max_concurrency");
            }
            if (!load.has("rate") && !rateStages && !fixed)
            {
                errors.add("load.rate: required for an open loop (load.mode: open)");
            }
        }
        else if (rateStages)
        {
            errors.add(STAGE_KINDS);
        }
        else if (fixed)
        {
            errors.add("load.fixed_schedule: arrivals come from the trace; drop mode closed");
        }
        else if (!closedLoopKeys(load))
        {
            errors.add(load.has("ramp") ?
                "load.ramp: a closed-loop ramp of concurrency leads into load.concurrency or load.stages" :
                "load.concurrency: required for a closed loop (load.mode: closed)");
        }
    }

    /**
     * What a contract says once where flags let one value replace another: each stage has one kind and all stages the
     * same, stages set the rate or the concurrency alone, and end_of_window cancel leaves no drain time. Which loads
     * the open-loop keys (arrival, burstiness, max_concurrency) apply to is {@code config.RunRules}' rule, as for
     * their flags.
     */
    private static void checkLoadKeys(final JsonNode load, final List<String> errors)
    {
        for (final JsonNode stage : load.path("stages"))
        {
            if (stage.has("rate") == stage.has("concurrency"))
            {
                errors.add("load.stages: each stage needs rate (open loop) or concurrency (closed loop)");
                break;
            }
            if (stage.has("concurrency") != load.path("stages").path(0).has("concurrency"))
            {
                errors.add(STAGE_KINDS);
                break;
            }
        }
        final String staged = load.path("stages").path(0).has("rate") ? "rate" : "concurrency";
        if (load.has("stages") && load.has(staged))
        {
            errors.add("load." + staged + ": the stages set the " + staged + "; drop load." + staged);
        }
        if (load.path("end_of_window").asText("grace").equals("cancel") &&
            load.path("drain_timeout_s").asDouble(0) > 0)
        {
            errors.add("load.drain_timeout_s: end_of_window cancel cancels in-flight requests at once; drop it");
        }
    }

    /** Datasets, segments, prefixes and prompts (a cancellation's rule is config.RunRules', as for its flags). */
    private static void checkWorkload(final JsonNode root, final Path baseDir, final List<String> errors)
    {
        final JsonNode dataset = root.path("workload").path("dataset");
        final JsonNode workload = root.path("workload");
        if (dataset.path("path").isTextual() && baseDir != null &&
            !Files.isReadable(baseDir.resolve(dataset.get("path").asText())))
        {
            errors.add("workload.dataset.path: cannot read " + baseDir.resolve(dataset.get("path").asText()));
        }
        if (workload.has("segments"))
        {
            checkSegments(workload, root.path("model"), errors);
        }
        if (workload.has("prefix") && (workload.has("dataset") || workload.has("prompt")))
        {
            errors.add("workload.prefix: applies to synthetic prompts, not to a dataset or a fixed prompt");
        }
        // Here, not in the typed SharedPrefixes: only the document tells a missing key from 0, and SharedPrefixes is
        // built while the contract is read, before config.RunRules could name the key.
        if (workload.path("prefix").path("groups").asInt(0) > 0 && !workload.path("prefix").has("group_tokens"))
        {
            errors.add("workload.prefix.group_tokens: required with groups");
        }
        if (workload.has("prompt") && workload.has("input_tokens"))
        {
            errors.add("workload: give either prompt or input_tokens, not both");
        }
    }

    /** The context limit, cache policy, length files and max_tokens against the workload. */
    private static void checkModelAndState(final JsonNode root, final Path baseDir, final List<String> errors)
    {
        final JsonNode workload = root.path("workload");
        final JsonNode model = root.path("model");
        if (model.has("context_limit"))
        {
            final long limit = model.get("context_limit").asLong();
            final long in = workload.has("input_tokens") ? DistributionSchema.maxLength(workload.get("input_tokens")) :
                0;
            final long out = workload.has("output_tokens") ?
                DistributionSchema.maxLength(workload.get("output_tokens")) :
                model.path("decoding").path("max_tokens").asLong(RunOption.MAX_TOKENS.defaultValue());
            if (in > 0 && out >= 0 && in + out > limit)
            {
                errors.add("workload.input_tokens: longest input " + in + " + longest output " + out +
                    " exceeds model.context_limit " + limit);
            }
        }
        if (root.path("state").path("cache").asText("preserve").equals("flush") && !root.path("state").has("flush"))
        {
            errors.add("state.flush.url: required when state.cache is flush (e.g. vLLM's POST /reset_prefix_cache)");
        }
        for (final String side : List.of("input_tokens", "output_tokens"))
        {
            final JsonNode file = workload.path(side).path("file");
            if (file.isTextual() && baseDir != null && !Files.isReadable(baseDir.resolve(file.asText())))
            {
                errors.add("workload." + side + ".file: cannot read " + baseDir.resolve(file.asText()));
            }
        }
        if ((workload.has("output_tokens") || workload.path("segments").findValue("output_tokens") != null) &&
            model.path("decoding").has("max_tokens"))
        {
            errors.add("model.decoding.max_tokens: set by workload.output_tokens per request; give only one");
        }
    }
}
