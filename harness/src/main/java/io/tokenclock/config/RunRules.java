package io.tokenclock.config;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

import com.fasterxml.jackson.databind.JsonNode;

import io.tokenclock.api.Api;
import io.tokenclock.energy.PowerSourceSpec;
import io.tokenclock.goodput.Slo;
import io.tokenclock.load.ArrivalProcess;
import io.tokenclock.load.ConcurrencySchedule;
import io.tokenclock.metrics.Distribution;
import io.tokenclock.quality.Check;
import io.tokenclock.transport.Endpoint;
import io.tokenclock.transport.HeaderRules;
import io.tokenclock.transport.PacketTapChoice;
import io.tokenclock.transport.RequestLimits;
import io.tokenclock.transport.TlsTrust;
import io.tokenclock.workload.CancellationRule;
import io.tokenclock.workload.RequestBodyFactory;
import io.tokenclock.workload.ImageSpec;
import io.tokenclock.workload.SessionChain;
import io.tokenclock.workload.dataset.SessionTrace;

import static io.tokenclock.config.RunOption.AGENT;
import static io.tokenclock.config.RunOption.API;
import static io.tokenclock.config.RunOption.ARRIVAL;
import static io.tokenclock.config.RunOption.BLOCK_SIZE;
import static io.tokenclock.config.RunOption.BURSTINESS;
import static io.tokenclock.config.RunOption.CACHE_POLICY;
import static io.tokenclock.config.RunOption.CANCEL_AFTER_MS;
import static io.tokenclock.config.RunOption.CANCEL_AFTER_TOKENS;
import static io.tokenclock.config.RunOption.CANCEL_RATE;
import static io.tokenclock.config.RunOption.CA_CERT;
import static io.tokenclock.config.RunOption.COLD_START;
import static io.tokenclock.config.RunOption.CONCURRENCY;
import static io.tokenclock.config.RunOption.CONCURRENCY_RAMP;
import static io.tokenclock.config.RunOption.CONCURRENCY_STAGES;
import static io.tokenclock.config.RunOption.CONNECT_TIMEOUT_S;
import static io.tokenclock.config.RunOption.DATASET;
import static io.tokenclock.config.RunOption.DATASET_FORMAT;
import static io.tokenclock.config.RunOption.DURATION_S;
import static io.tokenclock.config.RunOption.EMBED_BATCH;
import static io.tokenclock.config.RunOption.EXTRA_BODY;
import static io.tokenclock.config.RunOption.FIRST_BYTE_TIMEOUT_S;
import static io.tokenclock.config.RunOption.FIXED_SCHEDULE;
import static io.tokenclock.config.RunOption.HEADERS;
import static io.tokenclock.config.RunOption.IDLE_TIMEOUT_S;
import static io.tokenclock.config.RunOption.IMAGE_COUNT;
import static io.tokenclock.config.RunOption.IMAGE_FORMAT;
import static io.tokenclock.config.RunOption.IMAGE_SIZE;
import static io.tokenclock.config.RunOption.INPUT_LENGTHS;
import static io.tokenclock.config.RunOption.INPUT_TOKENS;
import static io.tokenclock.config.RunOption.INSECURE;
import static io.tokenclock.config.RunOption.JUDGE;
import static io.tokenclock.config.RunOption.MAX_CONCURRENCY;
import static io.tokenclock.config.RunOption.MAX_EVENT_BYTES;
import static io.tokenclock.config.RunOption.MAX_OUTPUT_BYTES;
import static io.tokenclock.config.RunOption.MAX_TOKENS;
import static io.tokenclock.config.RunOption.MIN_SAMPLES_FOR;
import static io.tokenclock.config.RunOption.OUTPUT_LENGTHS;
import static io.tokenclock.config.RunOption.PACKET_TAP;
import static io.tokenclock.config.RunOption.POWER;
import static io.tokenclock.config.RunOption.PREFIXES;
import static io.tokenclock.config.RunOption.PROMPT;
import static io.tokenclock.config.RunOption.QUALITY_CHECKS;
import static io.tokenclock.config.RunOption.RAMP;
import static io.tokenclock.config.RunOption.RATE;
import static io.tokenclock.config.RunOption.REASONING_EFFORT;
import static io.tokenclock.config.RunOption.REPETITIONS;
import static io.tokenclock.config.RunOption.REQUESTS;
import static io.tokenclock.config.RunOption.RERANK_SHAPE;
import static io.tokenclock.config.RunOption.RETRIES_429;
import static io.tokenclock.config.RunOption.SCENARIO;
import static io.tokenclock.config.RunOption.SEED;
import static io.tokenclock.config.RunOption.SEGMENTS;
import static io.tokenclock.config.RunOption.SERVER_METRICS;
import static io.tokenclock.config.RunOption.SESSION_CHAIN;
import static io.tokenclock.config.RunOption.SHARD;
import static io.tokenclock.config.RunOption.SLO;
import static io.tokenclock.config.RunOption.STAGES;
import static io.tokenclock.config.RunOption.TEMPERATURE;
import static io.tokenclock.config.RunOption.THINKING_TOKENS;
import static io.tokenclock.config.RunOption.TIMEOUT_S;
import static io.tokenclock.config.RunOption.TRACE_SPEEDUP;
import static io.tokenclock.config.RunOption.URL;
import static io.tokenclock.config.RunOption.USERS;

/**
 * Every rule a run's options must satisfy, in one place, checked by {@link RunOptionsBuilder#build()} whether the
 * options came from flags, a contract file or code. A broken rule is one {@link IllegalArgumentException} line that
 * names the flag or contract key the user wrote ({@link RunOptionsBuilder#name}). The few defaults that depend on
 * other options are filled here too, each said in its rule: a concurrency ramp becomes the first stages of the
 * concurrency schedule, stages give the rate its first value, a run with no end gets 100 requests, a burstiness
 * other than 1 with no arrival process named means gamma (Poisson is gamma of shape 1), a {@link Scenario} fills the
 * load it presets, and {@code --min-samples-for} sets the request count. A contradiction is an error, never resolved
 * silently.
 */
public final class RunRules
{
    private RunRules()
    {
    }

    /** Measured requests of a run that names neither a count nor a duration. */
    static final long DEFAULT_REQUESTS = 100;

    static void check(final RunOptionsBuilder b)
    {
        ranges(b, RunOption.all());
        target(b);
        scenario(b);
        minSamples(b);
        offline(b);
        loadShape(b);
        loadMode(b);
        openLoopOnly(b);
        loadValues(b);
        workload(b);
        api(b);
        decoding(b);
        state(b);
        measurement(b);
        quality(b);
        power(b);
        shard(b);
    }

    /**
     * Each option's own range or words, from its entry in {@link RunOption}'s table ({@link RunOption#check}): one
     * rule and one message per option, whether a flag, a contract key or code gave the value. The contract's schema
     * holds its keys to the same entries, so a flag and its key never disagree.
     *
     * @param b     the options being built.
     * @param table the options to check, as {@link RunOption#all()}.
     */
    public static void ranges(final RunOptionsBuilder b, final List<RunOption<?>> table)
    {
        for (final RunOption<?> option : table)
        {
            option.check(b.name(option), b.get(option));
        }
    }

    /**
     * A shard's part must be a part of the same run: its load splits by request, user or concurrency, and nothing
     * of it depends on another shard's timing (a cold start is one request before all others; concurrency stages
     * change on one clock).
     */
    private static void shard(final RunOptionsBuilder b)
    {
        final ShardSpec s = b.get(SHARD);
        if (!s.sharded())
        {
            return;
        }
        if (b.get(COLD_START))
        {
            throw fail(b.name(COLD_START) + " sends one request alone before the run: it cannot be split into " +
                "shards (run it unsharded)");
        }
        if (b.get(CONCURRENCY_STAGES) != null || b.get(CONCURRENCY_RAMP) != null)
        {
            throw fail("concurrency stages and ramps cannot be split into shards: give one --concurrency");
        }
        if (b.get(RATE) == null && !b.get(FIXED_SCHEDULE) && b.get(USERS) == null && b.get(CONCURRENCY) != null &&
            b.get(CONCURRENCY) < s.stripe().count())
        {
            throw fail(b.name(CONCURRENCY) + " " + b.get(CONCURRENCY) + " is below the shard count " +
                s.stripe().count() + ": every shard needs at least one stream");
        }
        if (b.get(REPETITIONS) > 1)
        {
            throw fail(b.name(REPETITIONS) + " repeats a whole run: a shard is part of one (repeat the job)");
        }
        if (!(s.startToleranceS() > 0))
        {
            throw fail("--start-tolerance must be > 0 s: " + s.startToleranceS());
        }
    }

    /** Checks that compare with a reference need one: only a dataset's entries carry references. */
    private static void quality(final RunOptionsBuilder b)
    {
        for (final Check c : b.get(QUALITY_CHECKS))
        {
            if (c.needsReference() && b.get(DATASET) == null)
            {
                throw fail(b.name(QUALITY_CHECKS) + ": " + c.name() + " compares each output with its reference, " +
                    "which only dataset entries carry: set " + b.name(DATASET) + " (a jsonl dataset with " +
                    "\"reference\")");
            }
        }
    }

    private static void target(final RunOptionsBuilder b)
    {
        if (b.get(URL) == null || b.get(URL).isBlank())
        {
            throw fail(b.name(URL) + " is required (e.g. --url http://127.0.0.1:8000/v1)");
        }
        Endpoint.parse(b.get(URL), b.get(API));
        HeaderRules.check(b.get(HEADERS));
        RequestLimits.of(b.get(CONNECT_TIMEOUT_S), b.get(FIRST_BYTE_TIMEOUT_S), b.get(IDLE_TIMEOUT_S), b.get(TIMEOUT_S),
            b.get(MAX_EVENT_BYTES), b.get(MAX_OUTPUT_BYTES), b.get(RETRIES_429));
        new TlsTrust(b.get(CA_CERT), b.get(INSECURE));
    }

    /** A scenario presets the loop, its arrivals and the percentile it sizes the run for; it refuses other loads. */
    private static void scenario(final RunOptionsBuilder b)
    {
        if (b.get(SCENARIO) == null)
        {
            return;
        }
        final String preset = b.name(SCENARIO) + " " + b.get(SCENARIO).flagValue();
        if (b.get(USERS) != null || b.get(FIXED_SCHEDULE) || !b.get(STAGES).isEmpty() || b.get(RAMP) != null ||
            b.get(CONCURRENCY_STAGES) != null || b.get(CONCURRENCY_RAMP) != null)
        {
            throw fail(preset + " sets the load itself: drop " + b.name(USERS) + ", " + b.name(FIXED_SCHEDULE) +
                ", stages and ramps");
        }
        switch (b.get(SCENARIO))
        {
            case SINGLE_STREAM ->
            {
                if (b.get(RATE) != null || (b.get(CONCURRENCY) != null && b.get(CONCURRENCY) != 1))
                {
                    throw fail(preset + " sends one request at a time: drop " + b.name(RATE) + " and " +
                        b.name(CONCURRENCY));
                }
                b.put(CONCURRENCY, 1);
            }
            case SERVER ->
            {
                if (b.get(CONCURRENCY) != null || b.get(RATE) == null)
                {
                    throw fail(preset + " offers Poisson arrivals at a rate: set " + b.name(RATE) + " R, not " +
                        b.name(CONCURRENCY));
                }
                if ((b.isGiven(ARRIVAL) && b.get(ARRIVAL) != ArrivalProcess.Kind.POISSON) || b.get(BURSTINESS) != 1.0)
                {
                    throw fail(preset + " arrivals are Poisson: drop " + b.name(ARRIVAL) + " and " +
                        b.name(BURSTINESS));
                }
                b.put(ARRIVAL, ArrivalProcess.Kind.POISSON);
            }
            case OFFLINE ->
            {
                if (b.get(CONCURRENCY) != null || b.get(RATE) != null || b.get(DURATION_S) != null)
                {
                    throw fail(preset + " puts every measured request in flight at once: set " + b.name(REQUESTS) +
                        ", not " + b.name(CONCURRENCY) + ", " + b.name(RATE) + " or " + b.name(DURATION_S));
                }
            }
        }
        if (b.get(MIN_SAMPLES_FOR) == null && b.get(SCENARIO) != Scenario.OFFLINE)
        {
            b.put(MIN_SAMPLES_FOR, new TailQuantile(b.get(SCENARIO).judgedQuantile()));
        }
    }

    /**
     * Sizes the measured request count for a percentile: the fewest requests whose two-sided 95% order-statistic
     * interval of it has an upper end (p99: 368). A run ended by time could fall short, so the two exclude each other.
     */
    private static void minSamples(final RunOptionsBuilder b)
    {
        if (b.get(MIN_SAMPLES_FOR) == null)
        {
            return;
        }
        final long needed = Distribution.samplesForUpperEnd(b.get(MIN_SAMPLES_FOR).quantile());
        final String sized = b.isGiven(MIN_SAMPLES_FOR) || b.get(SCENARIO) == null ?
            b.name(MIN_SAMPLES_FOR) + " " + b.get(MIN_SAMPLES_FOR).label() :
            b.name(SCENARIO) + " " + b.get(SCENARIO).flagValue() + " (sized for its " +
                b.get(MIN_SAMPLES_FOR).label() + ")";
        if (b.get(DURATION_S) != null || b.get(FIXED_SCHEDULE) || !b.get(STAGES).isEmpty() ||
            b.get(CONCURRENCY_STAGES) != null)
        {
            throw fail(sized + " ends the run after " + needed + " measured requests: drop " + b.name(DURATION_S) +
                ", stages and " + b.name(FIXED_SCHEDULE));
        }
        if (b.get(REQUESTS) != null && b.get(REQUESTS) < needed)
        {
            throw fail(b.name(REQUESTS) + " " + b.get(REQUESTS) + " is fewer than the " + needed + " requests a " +
                b.get(MIN_SAMPLES_FOR).label() + " needs for its 95% interval (" + sized + ")");
        }
        if (b.get(REQUESTS) == null)
        {
            b.put(REQUESTS, needed);
        }
    }

    /** Offline: the closed loop's concurrency is the measured request count, so that all are in flight at once. */
    private static void offline(final RunOptionsBuilder b)
    {
        if (b.get(SCENARIO) != Scenario.OFFLINE)
        {
            return;
        }
        if (b.get(REQUESTS) == null)
        {
            b.put(REQUESTS, DEFAULT_REQUESTS);
        }
        if (b.get(REQUESTS) > Integer.MAX_VALUE)
        {
            throw fail(b.name(SCENARIO) + " offline holds every request in flight: " + b.name(REQUESTS) +
                " must be at most " + Integer.MAX_VALUE);
        }
        b.put(CONCURRENCY, (int)(long)b.get(REQUESTS));
    }

    /**
     * Ramps and stages: folds a concurrency ramp into the schedule, and checks they shape the right kind of loop (not
     * users, nor a trace's own schedule, whose arrivals are their own).
     */
    private static void loadShape(final RunOptionsBuilder b)
    {
        if (b.get(CONCURRENCY_RAMP) != null)
        {
            if (b.get(CONCURRENCY_STAGES) == null && (b.get(CONCURRENCY) == null || b.get(DURATION_S) == null))
            {
                throw fail("a concurrency ramp leads into a measured window: set " + b.name(CONCURRENCY) + " and " +
                    b.name(DURATION_S) + " (or " + b.name(CONCURRENCY_STAGES) + ")");
            }
            final ConcurrencySchedule measured = b.get(CONCURRENCY_STAGES) != null ? b.get(CONCURRENCY_STAGES) :
                new ConcurrencySchedule(new int[] {b.get(CONCURRENCY)}, new double[] {b.get(DURATION_S)});
            b.put(CONCURRENCY_STAGES, ConcurrencySchedule.withRamp((int)Math.round(Math.max(1,
                b.get(CONCURRENCY_RAMP).fromRate())), (int)Math.round(b.get(CONCURRENCY_RAMP).toRate()),
                b.get(CONCURRENCY_RAMP).durationS(), b.get(CONCURRENCY_RAMP).exponential(), measured));
            b.put(CONCURRENCY_RAMP, null);
            b.put(CONCURRENCY, null);
        }
        if (b.get(CONCURRENCY_STAGES) != null)
        {
            if (b.get(RATE) != null || !b.get(STAGES).isEmpty() || b.get(RAMP) != null || b.get(USERS) != null ||
                b.get(FIXED_SCHEDULE))
            {
                throw fail("concurrency stages shape a closed loop: drop " + b.name(RATE) + ", " + b.name(STAGES) +
                    ", " + b.name(RAMP) + ", " + b.name(USERS) + " and " + b.name(FIXED_SCHEDULE));
            }
            b.put(CONCURRENCY, b.get(CONCURRENCY_STAGES).maxConcurrency());
            b.put(DURATION_S, b.get(CONCURRENCY_STAGES).totalS());
        }
        if ((b.get(USERS) != null || b.get(FIXED_SCHEDULE)) && (b.get(RAMP) != null || !b.get(STAGES).isEmpty()))
        {
            throw fail((b.get(USERS) != null ? b.name(USERS) + " makes the arrivals from each user's turns" :
                b.name(FIXED_SCHEDULE) + " takes its arrivals from the trace") + ": drop " + b.name(RAMP) + " and " +
                b.name(STAGES));
        }
        if (!b.get(STAGES).isEmpty() && b.get(RATE) == null)
        {
            b.put(RATE, b.get(STAGES).get(0).ratePerSecond());
        }
        if ((b.get(RAMP) != null || !b.get(STAGES).isEmpty()) && b.get(CONCURRENCY) != null)
        {
            throw fail("ramps and stages shape an open loop's rate; they do not apply to " + b.name(CONCURRENCY));
        }
        if (b.get(RAMP) != null && b.get(STAGES).isEmpty() && b.get(DURATION_S) == null)
        {
            throw fail("a ramp leads into the measured window: set " + b.name(DURATION_S) + " (or stages)");
        }
    }

    /** Exactly one kind of load: closed loop, open loop, simulated users, or a trace's own schedule. */
    private static void loadMode(final RunOptionsBuilder b)
    {
        if (b.get(CONCURRENCY) != null && b.get(RATE) != null)
        {
            throw fail(b.name(CONCURRENCY) + " (closed loop) and " + b.name(RATE) + " (open loop) exclude each " +
                "other; cap an open loop with " + b.name(MAX_CONCURRENCY));
        }
        if (b.get(USERS) != null)
        {
            if (b.get(CONCURRENCY) != null || b.get(RATE) != null || b.get(FIXED_SCHEDULE) ||
                b.get(DATASET) != null || b.get(PROMPT) != null ||
                !b.get(API).conversational())
            {
                throw fail(b.name(USERS) + " runs multi-turn sessions: it excludes " + b.name(CONCURRENCY) +
                    ", " + b.name(RATE) + ", " + b.name(FIXED_SCHEDULE) + ", " + b.name(DATASET) + ", " +
                    b.name(PROMPT) + " and " + b.name(API) + " completions, embeddings or rerank");
            }
        }
        else if (b.get(FIXED_SCHEDULE))
        {
            if (b.get(DATASET) == null || b.get(DATASET_FORMAT) == null ||
                !SessionTrace.FORMATS.contains(b.get(DATASET_FORMAT)))
            {
                throw fail(b.name(FIXED_SCHEDULE) + " replays a trace's timestamps: it needs a trace (" +
                    b.name(DATASET) + " with " + b.name(DATASET_FORMAT) + " mooncake, tracelab or weka)");
            }
            if (b.get(CONCURRENCY) != null || b.get(RATE) != null)
            {
                throw fail(b.name(FIXED_SCHEDULE) + " takes its arrivals from the trace: drop " +
                    b.name(CONCURRENCY) + " and " + b.name(RATE) + " (cap in-flight requests with " +
                    b.name(MAX_CONCURRENCY) + ")");
            }
        }
        else if (b.get(CONCURRENCY) == null && b.get(RATE) == null)
        {
            throw fail("set " + b.name(CONCURRENCY) + " N (closed loop) or " + b.name(RATE) +
                " R requests/s (open loop)");
        }
    }

    /**
     * Arrivals and a cap on requests in flight are an open loop's: a closed loop starts each request as another ends
     * and holds its concurrency in flight, users send each next turn after an answer and hold one request each in
     * flight ({@link RunOptions#maxInFlight()}), and a trace brings its own arrivals, though its requests in flight may
     * still be capped. Judged on what the user or the contract wrote: a value carried over ({@code toBuilder()}) or an
     * arrival inferred from a burstiness ({@link #loadValues}) is not given.
     */
    private static void openLoopOnly(final RunOptionsBuilder b)
    {
        final String why;
        final List<RunOption<?>> refused;
        String instead = "";
        if (b.get(USERS) != null)
        {
            why = b.name(USERS) + " makes the arrivals from each user's turns and holds one request per user in flight";
            refused = List.of(ARRIVAL, BURSTINESS, MAX_CONCURRENCY);
        }
        else if (b.get(FIXED_SCHEDULE))
        {
            why = b.name(FIXED_SCHEDULE) + " takes its arrivals from the trace";
            refused = List.of(ARRIVAL, BURSTINESS);
            instead = " (cap in-flight requests with " + b.name(MAX_CONCURRENCY) + ")";
        }
        else if (b.get(RATE) == null)
        {
            why = closedLoopName(b) + " (a closed loop) starts each request as another ends and holds its " +
                "concurrency in flight";
            refused = List.of(ARRIVAL, BURSTINESS, MAX_CONCURRENCY);
            instead = ", or set " + b.name(RATE) + " R instead";
        }
        else
        {
            return;
        }
        final List<String> given = refused.stream().filter(b::isGiven).map(b::name).toList();
        if (!given.isEmpty())
        {
            final boolean many = given.size() > 1;
            throw fail(why + ": " + String.join(", ", given.subList(0, given.size() - 1)) + (many ? " and " : "") +
                given.get(given.size() - 1) + (many ? " apply" : " applies") + " only to an open loop at a rate (" +
                b.name(RATE) + "); drop " + (many ? "them" : "it") + instead);
        }
    }

    /** @return what made the closed loop, as the user wrote it: a scenario, concurrency stages or a concurrency. */
    private static String closedLoopName(final RunOptionsBuilder b)
    {
        if (b.get(SCENARIO) != null)
        {
            return b.name(SCENARIO) + " " + b.get(SCENARIO).flagValue();
        }
        // stages a ramp was folded into, or stages set to none (a sweep's point), were not written as stages
        return b.get(CONCURRENCY_STAGES) != null && b.isGiven(CONCURRENCY_STAGES) ? b.name(CONCURRENCY_STAGES) :
            b.name(CONCURRENCY);
    }

    private static void loadValues(final RunOptionsBuilder b)
    {
        if (b.get(BURSTINESS) != 1.0 && b.get(ARRIVAL) != ArrivalProcess.Kind.GAMMA)
        {
            if (b.isGiven(ARRIVAL))
            {
                throw fail(b.name(BURSTINESS) + " applies to gamma arrivals only (" + b.name(ARRIVAL) +
                    " is " + b.get(ARRIVAL).name().toLowerCase(Locale.ROOT) + ")");
            }
            b.put(ARRIVAL, ArrivalProcess.Kind.GAMMA);
        }
        if (b.get(REQUESTS) == null && b.get(DURATION_S) == null && !b.get(FIXED_SCHEDULE) && b.get(STAGES).isEmpty())
        {
            b.put(REQUESTS, DEFAULT_REQUESTS);
        }
    }

    /**
     * A trace's own rules: a session trace (TraceLab, Weka, or a Mooncake trace replayed on its schedule) runs on its
     * own schedule, or N sessions at a time, never at a rate; a Weka trace gives its own block size; and the speed-up
     * divides a trace's timestamps and delays, so it needs a trace that has them.
     */
    private static void trace(final RunOptionsBuilder b)
    {
        final String format = b.get(DATASET) == null ? null : b.get(DATASET_FORMAT);
        final boolean sessionFormat = "tracelab".equals(format) || "weka".equals(format);
        if (sessionFormat && b.get(RATE) != null)
        {
            throw fail("a " + format + " trace replays its sessions on their own schedule: use " +
                b.name(FIXED_SCHEDULE) + ", or " + b.name(CONCURRENCY) + " N for N sessions at a time, not " +
                b.name(RATE));
        }
        if ("weka".equals(format) && b.get(BLOCK_SIZE) != null)
        {
            throw fail("a weka trace gives its own block_size: drop " + b.name(BLOCK_SIZE));
        }
        final double speedup = b.get(TRACE_SPEEDUP);
        final boolean traced = format != null && SessionTrace.FORMATS.contains(format);
        if (speedup != 1.0 && (!traced || b.get(RATE) != null))
        {
            throw fail(b.name(TRACE_SPEEDUP) + " divides a trace's timestamps and delays: it needs a trace (" +
                b.name(DATASET) + " with " + b.name(DATASET_FORMAT) + " mooncake, tracelab or weka) replayed with " +
                b.name(FIXED_SCHEDULE) + " or " + b.name(CONCURRENCY));
        }
    }

    private static void workload(final RunOptionsBuilder b)
    {
        if (b.get(DATASET) != null && (b.get(PROMPT) != null || b.get(INPUT_LENGTHS) != null))
        {
            throw fail(b.name(DATASET) + " replaces " + b.name(PROMPT) + " and " + b.name(INPUT_LENGTHS) +
                "; give only one");
        }
        if (!CancellationRule.saysWhen(b.get(CANCEL_RATE), b.get(CANCEL_AFTER_MS), b.get(CANCEL_AFTER_TOKENS)))
        {
            throw fail(b.name(CANCEL_RATE) + " " + b.get(CANCEL_RATE) + " cancels requests: say when, with " +
                b.name(CANCEL_AFTER_MS) + " > 0 or " + b.name(CANCEL_AFTER_TOKENS) + " >= 1");
        }
        new CancellationRule(b.get(CANCEL_RATE), b.get(CANCEL_AFTER_MS), b.get(CANCEL_AFTER_TOKENS), b.get(SEED));
        trace(b);
    }

    /**
     * What each API can be asked for: the Messages API requires an output cap (a trace's rows give theirs);
     * tool-using agents speak chat's tool calls; reasoning effort is a chat and Responses field, a thinking budget the
     * Messages API's, below its output cap; a chain of previous response ids is the Responses API's, in sessions.
     */
    private static void api(final RunOptionsBuilder b)
    {
        final Api api = b.get(API);
        final boolean traceLengths = b.get(DATASET) != null && SessionTrace.FORMATS.contains(b.get(DATASET_FORMAT));
        if (api == Api.MESSAGES && b.get(MAX_TOKENS) == 0 && b.get(OUTPUT_LENGTHS) == null && !traceLengths)
        {
            throw fail(b.name(API) + " messages: the Messages API requires max_tokens: give " + b.name(MAX_TOKENS) +
                " N (N >= 1), output lengths, or a trace (each of its rows gives its output length)");
        }
        if (b.get(AGENT) != null && api != Api.CHAT)
        {
            throw fail(b.name(AGENT) + " runs tool-using agents over chat's tool calls: it needs " + b.name(API) +
                " chat, not " + api.word());
        }
        if (b.get(REASONING_EFFORT) != null && api != Api.CHAT && api != Api.RESPONSES)
        {
            throw fail(b.name(REASONING_EFFORT) + " is a chat and Responses API field: with " + b.name(API) + " " +
                api.word() + (api == Api.MESSAGES ? " ask for thinking with " + b.name(THINKING_TOKENS) : ""));
        }
        if (b.get(THINKING_TOKENS) != 0)
        {
            if (api != Api.MESSAGES)
            {
                throw fail(b.name(THINKING_TOKENS) + " is the Messages API's: it needs " + b.name(API) + " messages" +
                    (api == Api.COMPLETIONS ? "" : " (" + api.word() + " asks with " + b.name(REASONING_EFFORT) +
                        ")"));
            }
            if (b.get(THINKING_TOKENS) < 1 || b.get(MAX_TOKENS) > 0 && b.get(THINKING_TOKENS) >= b.get(MAX_TOKENS))
            {
                throw fail(b.name(THINKING_TOKENS) + " must be >= 1 and below " + b.name(MAX_TOKENS) + " " +
                    b.get(MAX_TOKENS) + " (the API's rule): " + b.get(THINKING_TOKENS));
            }
        }
        if (b.get(SESSION_CHAIN) == SessionChain.PREVIOUS_RESPONSE_ID && (api != Api.RESPONSES ||
            b.get(USERS) == null))
        {
            throw fail(b.name(SESSION_CHAIN) + " previous_response_id chains the turns of sessions on the Responses " +
                "API: it needs " + b.name(API) + " responses and " + b.name(USERS));
        }
        batched(b, api);
        images(b, api);
    }

    /**
     * What an API that answers whole (embeddings, rerank) can be asked for: inputs per request, rerank's shape; not
     * what exists only for a stream (a token to cancel after, an SLO on TTFT, TPOT or ITL), nor a trace: a trace's
     * rows are an LLM's turns, with output lengths, sessions whose later turns carry the answers before them and wait
     * for them to end, and hash ids whose reuse is a prefix cache's; an embeddings answer has no text to carry and
     * its usage no cached tokens, so a replay would be its arrivals with every figure the trace is for missing.
     */
    private static void batched(final RunOptionsBuilder b, final Api api)
    {
        if (!api.batched() && b.get(EMBED_BATCH) != 1)
        {
            throw fail(b.name(EMBED_BATCH) + " puts several texts in an embeddings or rerank request: it needs " +
                b.name(API) + " embeddings or rerank, not " + api.word());
        }
        if (api != Api.RERANK && b.get(RERANK_SHAPE) != RERANK_SHAPE.defaultValue())
        {
            throw fail(b.name(RERANK_SHAPE) + " shapes a rerank request: it needs " + b.name(API) + " rerank, not " +
                api.word());
        }
        if (api.streamed())
        {
            return;
        }
        final String format = b.get(DATASET_FORMAT);
        if (b.get(DATASET) != null && SessionTrace.FORMATS.contains(format))
        {
            throw fail(b.name(API) + " " + api.word() + " with " + b.name(DATASET_FORMAT) + " " + format + ": a " +
                "trace replays an LLM's turns (output lengths, answers carried into the next turn, a prefix cache's " +
                "reuse), and " + api.word() + " answers whole with none of them: replay it on chat, completions, " +
                "responses or messages, or give " + api.word() + " texts (" + b.name(INPUT_TOKENS) + ", or " +
                b.name(DATASET) + " of jsonl or sharegpt)");
        }
        if (b.get(CANCEL_AFTER_TOKENS) > 0)
        {
            throw fail(b.name(CANCEL_AFTER_TOKENS) + " counts streamed tokens: " + b.name(API) + " " + api.word() +
                " streams none (cancel by time: " + b.name(CANCEL_AFTER_MS) + ")");
        }
        final Slo slo = b.get(SLO);
        if (slo != null && (slo.ttftNs() > 0 || slo.tpotNs() > 0 || slo.itlNs() > 0))
        {
            throw fail(b.name(SLO) + ": " + b.name(API) + " " + api.word() + " answers whole, with no TTFT, TPOT or " +
                "ITL to bound: bound its end to end (--slo-e2e-ms, quality.slo.e2e_ms)");
        }
    }

    /**
     * Synthetic images: only on an API with a conversation (chat, Responses, Messages), with synthetic prompts, a
     * dataset or user sessions (each turn its own images: workload.SessionWorkload), not agents, at a size that
     * parses. A session trace refuses them when it is opened (runner.Workloads: only the file says whether a Mooncake
     * trace has sessions).
     */
    private static void images(final RunOptionsBuilder b, final Api api)
    {
        // every flag is given without a contract, its default too: what is asked is a value other than the default
        final boolean size = !IMAGE_SIZE.defaultValue().equals(b.get(IMAGE_SIZE));
        final boolean format = IMAGE_FORMAT.defaultValue() != b.get(IMAGE_FORMAT);
        if ((b.get(IMAGE_COUNT) != 0 || size || format) && !api.takesImages())
        {
            final RunOption<?> flag = b.get(IMAGE_COUNT) != 0 ? IMAGE_COUNT : size ? IMAGE_SIZE : IMAGE_FORMAT;
            throw fail(b.name(flag) + " adds images to a prompt: " + b.name(API) + " " + api.word() + " takes none " +
                "(chat, responses and messages do)");
        }
        try
        {
            ImageSpec.parseSize(b.get(IMAGE_SIZE));
        }
        catch (final IllegalArgumentException ex)
        {
            throw fail(b.name(IMAGE_SIZE) + " " + ex.getMessage());
        }
        if (b.get(IMAGE_COUNT) > 0 && b.get(AGENT) != null)
        {
            throw fail(b.name(IMAGE_COUNT) + " adds images to prompts, dataset lines and user turns: agents (" +
                b.name(AGENT) + ") take none yet");
        }
    }

    /** A documented range of a decoding field of the OpenAI API. */
    private record Range(double min, double max, boolean integer)
    {
        String shown()
        {
            final String lo = min == Math.rint(min) ? String.valueOf((long)min) : String.valueOf(min);
            final String hi = max == Math.rint(max) ? String.valueOf((long)max) : String.valueOf(max);
            if (integer)
            {
                return max == Double.POSITIVE_INFINITY ? "an integer >= " + lo : "an integer in [" + lo + ", " + hi +
                    "]";
            }
            return "in [" + lo + ", " + hi + "], the OpenAI API's range";
        }
    }

    /**
     * The ranges the OpenAI API documents for the decoding fields tokenclock sends ({@code temperature}) or a request
     * body may set through {@code extra_body}: a value outside is refused before the run rather than sent (a server
     * may reject it on every request, or, worse, clamp it silently). Fields not listed here (an engine's own, such as
     * {@code top_k}) are the server's to judge. A count is bounded by what its flag holds ({@code --max-tokens} is an
     * int), a {@code seed} by a 64-bit integer: {@code 1e400} is a number to JSON but none to either, and would be
     * sent as {@code "Infinity"}.
     */
    private static final Map<String, Range> DECODING_RANGES = Map.of(
        "temperature", new Range(0, 2, false),
        "top_p", new Range(0, 1, false),
        "presence_penalty", new Range(-2, 2, false),
        "frequency_penalty", new Range(-2, 2, false),
        "n", new Range(1, Integer.MAX_VALUE, true),
        "max_tokens", new Range(1, Integer.MAX_VALUE, true),
        "max_completion_tokens", new Range(1, Integer.MAX_VALUE, true),
        "top_logprobs", new Range(0, 20, true),
        "seed", new Range(Long.MIN_VALUE, Long.MAX_VALUE, true));

    /** The decoding values the run sends, wherever they were given, against {@link #DECODING_RANGES}. */
    private static void decoding(final RunOptionsBuilder b)
    {
        if (b.get(TEMPERATURE) != null)
        {
            inRange(b.name(TEMPERATURE), DECODING_RANGES.get("temperature"), b.get(TEMPERATURE),
                String.valueOf(b.get(TEMPERATURE)));
        }
        final String extraBody = b.name(EXTRA_BODY);
        extraBody(extraBody + (extraBody.startsWith("--") ? " " : "."), b.get(EXTRA_BODY));
        if (b.get(SEGMENTS) != null)
        {
            for (int i = 0; i < b.get(SEGMENTS).size(); i++)
            {
                extraBody(b.name(SEGMENTS) + "[" + i + "].extra_body.", b.get(SEGMENTS).get(i).extraBody());
            }
        }
        if (b.get(JUDGE) != null)
        {
            inRange("quality.judge.temperature", DECODING_RANGES.get("temperature"), b.get(JUDGE).temperature(),
                String.valueOf(b.get(JUDGE).temperature()));
        }
    }

    private static void extraBody(final String prefix, final String json)
    {
        // the one parse of an extra body, which refuses what is no JSON object with its own line
        final JsonNode body = RequestBodyFactory.parseExtraBody(json);
        if (body == null)
        {
            return;
        }
        finite(prefix, "", body);
        DECODING_RANGES.forEach((field, range) ->
        {
            final JsonNode v = body.get(field);
            if (v != null && !v.isNull())
            {
                if (!v.isNumber())
                {
                    throw fail(prefix + field + " must be a number: " + v);
                }
                // an integer beyond 64 bits reads as a rounded double: refused by its exact value instead
                final boolean beyondLong = v.isIntegralNumber() ? !v.canConvertToLong() :
                    Math.abs(v.asDouble()) >= 0x1p63;
                inRange(prefix + field, range, beyondLong ? Double.POSITIVE_INFINITY : v.asDouble(), v.toString());
            }
        });
    }

    /**
     * Refuses a number no JSON reader on the server could take back: {@code 1e400} parses to infinity (and Jackson
     * would write it as the string {@code "Infinity"}), wherever it sits in the body.
     */
    private static void finite(final String prefix, final String at, final JsonNode node)
    {
        if (node.isNumber() && (node.isDouble() || node.isFloat()) && !Double.isFinite(node.doubleValue()))
        {
            throw fail(prefix + at + " must be a finite number: " + node.doubleValue());
        }
        if (node.isObject())
        {
            node.properties().forEach(e -> finite(prefix, at.isEmpty() ? e.getKey() : at + "." + e.getKey(),
                e.getValue()));
        }
        for (int i = 0; node.isArray() && i < node.size(); i++)
        {
            finite(prefix, at + "[" + i + "]", node.get(i));
        }
    }

    private static void inRange(final String name, final Range range, final double value, final String shown)
    {
        if (!(value >= range.min() && value <= range.max()) || range.integer() && value != Math.rint(value))
        {
            throw fail(name + " must be " + range.shown() + ": " + shown);
        }
    }

    private static void state(final RunOptionsBuilder b)
    {
        if ("preload".equals(b.get(CACHE_POLICY)) && b.get(PREFIXES) == null)
        {
            throw fail(b.name(CACHE_POLICY) + " preload replays the shared prefixes first: declare " +
                b.name(PREFIXES));
        }
    }

    private static void measurement(final RunOptionsBuilder b)
    {
        try
        {
            PacketTapChoice.parse(b.get(PACKET_TAP));
        }
        catch (final IllegalArgumentException e)
        {
            throw fail(e.getMessage());
        }
        serverMetrics(b);
    }

    /** A metrics URL that is {@code off} or an http(s) URL with a host. */
    private static void serverMetrics(final RunOptionsBuilder b)
    {
        if (b.get(SERVER_METRICS) == null || RunOptions.SERVER_METRICS_OFF.equalsIgnoreCase(b.get(SERVER_METRICS)))
        {
            return;
        }
        try
        {
            final URI uri = new URI(b.get(SERVER_METRICS).trim());
            final String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
            if ((scheme.equals("http") || scheme.equals("https")) && uri.getHost() != null)
            {
                return;
            }
        }
        catch (final URISyntaxException ex)
        {
            // reported below
        }
        // The URL is not echoed: it may carry a credential in its query or user info.
        throw fail(b.name(SERVER_METRICS) + " must be an http(s) URL with a host, or off");
    }

    /** At most one source per accelerator interface and one RAPL: two would count the same joules twice. */
    private static void power(final RunOptionsBuilder b)
    {
        final Set<PowerSourceSpec.Kind> seen = EnumSet.noneOf(PowerSourceSpec.Kind.class);
        PowerSourceSpec.Kind accelerators = null;
        for (final PowerSourceSpec s : b.get(POWER))
        {
            final boolean gpu = s.kind() == PowerSourceSpec.Kind.NVML || s.kind() == PowerSourceSpec.Kind.NVIDIA_SMI ||
                s.kind() == PowerSourceSpec.Kind.DCGM;
            if (gpu && accelerators != null && accelerators != s.kind())
            {
                throw fail(b.name(POWER) + ": " + accelerators.word() + " and " + s.kind().word() + " both measure " +
                    "the accelerators, and would count their energy twice: give one");
            }
            accelerators = gpu ? s.kind() : accelerators;
            if (s.kind() == PowerSourceSpec.Kind.RAPL && !seen.add(s.kind()))
            {
                throw fail(b.name(POWER) + ": rapl is given twice");
            }
        }
    }

    private static IllegalArgumentException fail(final String message)
    {
        return new IllegalArgumentException(message);
    }
}
