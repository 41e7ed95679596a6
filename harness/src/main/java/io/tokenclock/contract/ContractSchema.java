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
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import com.fasterxml.jackson.databind.JsonNode;

import io.tokenclock.config.RunOption;
import io.tokenclock.quality.Checks;
import io.tokenclock.quality.JudgeSpec;

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
        .requiredField("type", oneOf(Checks.TYPES))
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
        .field("aggregation", oneOf(JudgeSpec.AGGREGATIONS))
        .field("abstain", oneOf(JudgeSpec.TREATMENTS))
        .field("on_error", oneOf(JudgeSpec.TREATMENTS))
        .field("api_key_env", string())
        .field("timeout_s", number(0, true, 1e12))
        .field("concurrency", integer(1, 1024));

    /** The whole document: {@link #of} the table. */
    public static final Schema ROOT = of(RunOption.all());

    private ContractSchema()
    {
    }

    /**
     * The contract's schema for {@code table}: the document's structure and every key of a shape of its own
     * (distributions, lists, maps) are written here ({@link #structure}); each key of a plain value (a number, a
     * string, a boolean, a path, an enum's word) is made from its entry in {@code config.RunOption}'s table, with the
     * entry's range or words, so that a flag and its key hold one rule. A key this file already declares keeps its
     * own schema (a YAML {@code off} read as false, a map given as JSON text).
     *
     * @param table the options, as {@link RunOption#all()} (a test passes others).
     * @return the whole document's schema.
     */
    public static Schema of(final List<RunOption<?>> table)
    {
        final Schema.ObjectSchema root = structure();
        for (final RunOption<?> option : table)
        {
            final Schema leaf = leaf(option);
            if (option.key() != null && leaf != null)
            {
                place(root, option.key(), leaf);
            }
        }
        return root;
    }

    /** Puts {@code leaf} at the dotted key, opening sections the structure does not name, unless one is declared. */
    private static void place(final Schema.ObjectSchema root, final String key, final Schema leaf)
    {
        final String[] parts = key.split("\\.");
        Schema.ObjectSchema at = root;
        for (int i = 0; i < parts.length - 1 && at != null; i++)
        {
            at = at.section(parts[i]);
        }
        if (at == null)
        {
            throw new IllegalStateException(key + ": a table's key inside a value that is no map");
        }
        if (!at.declares(parts[parts.length - 1]))
        {
            at.field(parts[parts.length - 1], leaf);
        }
    }

    /** @return the schema of a plain option's value, from its type and its range or words; null for other shapes. */
    public static Schema leaf(final RunOption<?> option)
    {
        final Class<?> type = option.type();
        final RunOption.Range range = option.range();
        if (!option.words().isEmpty())
        {
            return oneOf(option.words().toArray(String[]::new));
        }
        if (type == Boolean.class)
        {
            return bool();
        }
        if (type == String.class || type == Path.class)
        {
            return string();
        }
        if (type == Integer.class || type == Long.class)
        {
            final boolean wide = type == Long.class;
            return range == null ? integer(wide ? Long.MIN_VALUE : Integer.MIN_VALUE,
                wide ? Long.MAX_VALUE : Integer.MAX_VALUE) :
                Schema.integer(range.min(), range.minExclusive(), Math.min(range.max(),
                wide ? Long.MAX_VALUE : Integer.MAX_VALUE));
        }
        if (type == Double.class)
        {
            return range == null ? number(-Double.MAX_VALUE, false, Double.MAX_VALUE) :
                number(range.min(), range.minExclusive(), range.max());
        }
        return null;
    }

    /** The document's structure, and the keys whose shape the table does not hold. */
    private static Schema.ObjectSchema structure()
    {
        return object()
            .field("name", string())
            .field("description", string())
            .requiredField("target", object()
                .requires("url")
                .field("headers", stringMap()))
            .field("model", object()
                .field("revision", string())
                .field("context_limit", integer(1, 100_000_000))
                .field("decoding", object()
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
            .field("workload", workload())
            .field("load", load())
            .field("state", object()
                .field("flush", object()
                    .requires("url")
                    .field("method", oneOf("post", "get")))
                .field("notes", string()))
            .field("measurement", object()
                .field("formulas", oneOf("tokenclock-metrics/1"))
                // Server telemetry (issue 13): the metrics URL or off (YAML reads a bare off as false: any value,
                // checked by RunRules).
                .field("server_metrics", anyValue()))
            .field("quality", object()
                .field("checks", listOf(CHECK, 1))
                .field("judge", JUDGE)
                .field("slo", SLO)
                .field("notes", string()))
            .field("cost", CostPowerContract.COST)
            .field("power", CostPowerContract.POWER);
    }

    /** {@code workload}: distributions, segments, sessions, agents, prefixes, cancellation and datasets. */
    private static Schema.ObjectSchema workload()
    {
        return object()
            .field("input_tokens", DIST)
            .field("output_tokens", DIST)
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
                .field("think_time_ms", DIST))
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
            .field("prefix", object()
                .field("system_tokens", integer(0, 10_000_000))
                .field("groups", integer(0, 1_000_000))
                .field("group_tokens", integer(1, 10_000_000))
                .field("sharing", number(0, false, 1)))
            .field("cancellation", object()
                .requires("rate"))
            .field("dataset", object()
                .requires("path"));
    }

    /** {@code load}: the loop's written mode, its ramp and stages, and how a window ends. */
    private static Schema.ObjectSchema load()
    {
        return object()
            .field("mode", oneOf("open", "closed", "users"))
            .field("ramp", object()
                .field("from", number(0, false, HUGE))
                .requiredField("to", number(0, true, HUGE))
                .requiredField("duration_s", number(0, true, HUGE))
                .field("shape", oneOf("linear", "exponential")))
            .field("stages", listOf(object()
                .field("rate", number(0, true, HUGE))
                .field("concurrency", integer(1, 1_000_000))
                .requiredField("duration_s", number(0, true, HUGE)), 1))
            .field("min_samples_for", string())
            .field("end_of_window", oneOf("grace", "cancel"));
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
