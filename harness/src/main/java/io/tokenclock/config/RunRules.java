package io.tokenclock.config;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.EnumSet;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

import com.fasterxml.jackson.databind.JsonNode;

import io.tokenclock.energy.PowerSourceSpec;
import io.tokenclock.load.ArrivalProcess;
import io.tokenclock.load.ConcurrencySchedule;
import io.tokenclock.metrics.Distribution;
import io.tokenclock.quality.Check;
import io.tokenclock.transport.Endpoint;
import io.tokenclock.transport.HeaderRules;
import io.tokenclock.transport.RequestLimits;
import io.tokenclock.transport.TlsTrust;
import io.tokenclock.workload.CancellationRule;
import io.tokenclock.workload.RequestBodyFactory;
import io.tokenclock.workload.dataset.Datasets;

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
final class RunRules
{
    /** The scrape interval's bounds, ms: 100 ms at the fastest, an hour at the slowest. */
    static final long MIN_SCRAPE_INTERVAL_MS = 100;
    static final long MAX_SCRAPE_INTERVAL_MS = 3_600_000;

    private RunRules()
    {
    }

    /** Measured requests of a run that names neither a count nor a duration. */
    static final long DEFAULT_REQUESTS = 100;

    static void check(final RunOptionsBuilder b)
    {
        target(b);
        scenario(b);
        minSamples(b);
        offline(b);
        loadShape(b);
        loadMode(b);
        loadValues(b);
        workload(b);
        decoding(b);
        state(b);
        measurement(b);
        quality(b);
        power(b);
        shard(b);
    }

    /**
     * A shard's part must be a part of the same run: its load splits by request, user or concurrency, and nothing
     * of it depends on another shard's timing (a cold start is one request before all others; concurrency stages
     * change on one clock).
     */
    private static void shard(final RunOptionsBuilder b)
    {
        final ShardSpec s = b.shard;
        if (!s.sharded())
        {
            return;
        }
        if (b.coldStart)
        {
            throw fail(b.name("coldStart") + " sends one request alone before the run: it cannot be split into " +
                "shards (run it unsharded)");
        }
        if (b.concurrencyStages != null || b.concurrencyRamp != null)
        {
            throw fail("concurrency stages and ramps cannot be split into shards: give one --concurrency");
        }
        if (b.rate == null && !b.fixedSchedule && b.users == null && b.concurrency != null &&
            b.concurrency < s.stripe().count())
        {
            throw fail(b.name("concurrency") + " " + b.concurrency + " is below the shard count " +
                s.stripe().count() + ": every shard needs at least one stream");
        }
        if (b.repetitions > 1)
        {
            throw fail(b.name("repetitions") + " repeats a whole run: a shard is part of one (repeat the job)");
        }
        if (!(s.startToleranceS() > 0))
        {
            throw fail("--start-tolerance must be > 0 s: " + s.startToleranceS());
        }
    }

    /** Checks that compare with a reference need one: only a dataset's entries carry references. */
    private static void quality(final RunOptionsBuilder b)
    {
        for (final Check c : b.qualityChecks)
        {
            if (c.needsReference() && b.dataset == null)
            {
                throw fail(b.name("qualityChecks") + ": " + c.name() + " compares each output with its reference, " +
                    "which only dataset entries carry: set " + b.name("dataset") + " (a jsonl dataset with " +
                    "\"reference\")");
            }
        }
    }

    private static void target(final RunOptionsBuilder b)
    {
        if (b.url == null || b.url.isBlank())
        {
            throw fail(b.name("url") + " is required (e.g. --url http://127.0.0.1:8000/v1)");
        }
        Endpoint.parse(b.url, b.api);
        HeaderRules.check(b.headers);
        nonNegative(b, "waitReadyS", b.waitReadyS, "seconds");
        if (!(b.connectTimeoutS >= 0) || !(b.firstByteTimeoutS >= 0) || !(b.idleTimeoutS >= 0))
        {
            throw fail(b.name("connectTimeoutS") + ", " + b.name("firstByteTimeoutS") + " and " +
                b.name("idleTimeoutS") + " must be >= 0 (0: no limit)");
        }
        if (!(b.timeoutS > 0))
        {
            throw fail(b.name("timeoutS") + " must be > 0: " + b.timeoutS);
        }
        RequestLimits.of(b.connectTimeoutS, b.firstByteTimeoutS, b.idleTimeoutS, b.timeoutS,
            b.maxEventBytes, b.maxOutputBytes, b.retries429);
        new TlsTrust(b.caCert, b.insecure);
    }

    /** A scenario presets the loop, its arrivals and the percentile it sizes the run for; it refuses other loads. */
    private static void scenario(final RunOptionsBuilder b)
    {
        if (b.scenario == null)
        {
            return;
        }
        final String preset = b.name("scenario") + " " + b.scenario.flagValue();
        if (b.users != null || b.fixedSchedule || !b.stages.isEmpty() || b.ramp != null ||
            b.concurrencyStages != null || b.concurrencyRamp != null)
        {
            throw fail(preset + " sets the load itself: drop " + b.name("users") + ", " + b.name("fixedSchedule") +
                ", stages and ramps");
        }
        switch (b.scenario)
        {
            case SINGLE_STREAM ->
            {
                if (b.rate != null || (b.concurrency != null && b.concurrency != 1))
                {
                    throw fail(preset + " sends one request at a time: drop " + b.name("rate") + " and " +
                        b.name("concurrency"));
                }
                b.concurrency = 1;
            }
            case SERVER ->
            {
                if (b.concurrency != null || b.rate == null)
                {
                    throw fail(preset + " offers Poisson arrivals at a rate: set " + b.name("rate") + " R, not " +
                        b.name("concurrency"));
                }
                if ((b.isGiven("arrival") && b.arrival != ArrivalProcess.Kind.POISSON) || b.burstiness != 1.0)
                {
                    throw fail(preset + " arrivals are Poisson: drop " + b.name("arrival") + " and " +
                        b.name("burstiness"));
                }
                b.arrival = ArrivalProcess.Kind.POISSON;
            }
            case OFFLINE ->
            {
                if (b.concurrency != null || b.rate != null || b.durationS != null)
                {
                    throw fail(preset + " puts every measured request in flight at once: set " + b.name("requests") +
                        ", not " + b.name("concurrency") + ", " + b.name("rate") + " or " + b.name("durationS"));
                }
            }
        }
        if (b.minSamplesFor == null && b.scenario != Scenario.OFFLINE)
        {
            b.minSamplesFor = new TailQuantile(b.scenario.judgedQuantile());
        }
    }

    /**
     * Sizes the measured request count for a percentile: the fewest requests whose two-sided 95% order-statistic
     * interval of it has an upper end (p99: 368). A run ended by time could fall short, so the two exclude each other.
     */
    private static void minSamples(final RunOptionsBuilder b)
    {
        if (b.minSamplesFor == null)
        {
            return;
        }
        final long needed = Distribution.samplesForUpperEnd(b.minSamplesFor.quantile());
        final String sized = b.isGiven("minSamplesFor") || b.scenario == null ?
            b.name("minSamplesFor") + " " + b.minSamplesFor.label() :
            b.name("scenario") + " " + b.scenario.flagValue() + " (sized for its " + b.minSamplesFor.label() + ")";
        if (b.durationS != null || b.fixedSchedule || !b.stages.isEmpty() || b.concurrencyStages != null)
        {
            throw fail(sized + " ends the run after " + needed + " measured requests: drop " + b.name("durationS") +
                ", stages and " + b.name("fixedSchedule"));
        }
        if (b.requests != null && b.requests < needed)
        {
            throw fail(b.name("requests") + " " + b.requests + " is fewer than the " + needed + " requests a " +
                b.minSamplesFor.label() + " needs for its 95% interval (" + sized + ")");
        }
        if (b.requests == null)
        {
            b.requests = needed;
        }
    }

    /** Offline: the closed loop's concurrency is the measured request count, so that all are in flight at once. */
    private static void offline(final RunOptionsBuilder b)
    {
        if (b.scenario != Scenario.OFFLINE)
        {
            return;
        }
        if (b.requests == null)
        {
            b.requests = DEFAULT_REQUESTS;
        }
        if (b.requests > Integer.MAX_VALUE)
        {
            throw fail(b.name("scenario") + " offline holds every request in flight: " + b.name("requests") +
                " must be at most " + Integer.MAX_VALUE);
        }
        b.concurrency = (int)(long)b.requests;
    }

    /** Ramps and stages: folds a concurrency ramp into the schedule, and checks they shape the right kind of loop. */
    private static void loadShape(final RunOptionsBuilder b)
    {
        if (b.concurrencyRamp != null)
        {
            if (b.concurrencyStages == null && (b.concurrency == null || b.durationS == null))
            {
                throw fail("a concurrency ramp leads into a measured window: set " + b.name("concurrency") + " and " +
                    b.name("durationS") + " (or " + b.name("concurrencyStages") + ")");
            }
            final ConcurrencySchedule measured = b.concurrencyStages != null ? b.concurrencyStages :
                new ConcurrencySchedule(new int[] {b.concurrency}, new double[] {b.durationS});
            b.concurrencyStages = ConcurrencySchedule.withRamp((int)Math.round(Math.max(1,
                b.concurrencyRamp.fromRate())), (int)Math.round(b.concurrencyRamp.toRate()),
                b.concurrencyRamp.durationS(), b.concurrencyRamp.exponential(), measured);
            b.concurrencyRamp = null;
            b.concurrency = null;
        }
        if (b.concurrencyStages != null)
        {
            if (b.rate != null || !b.stages.isEmpty() || b.ramp != null || b.users != null || b.fixedSchedule)
            {
                throw fail("concurrency stages shape a closed loop: drop " + b.name("rate") + ", " + b.name("stages") +
                    ", " + b.name("ramp") + ", " + b.name("users") + " and " + b.name("fixedSchedule"));
            }
            b.concurrency = b.concurrencyStages.maxConcurrency();
            b.durationS = b.concurrencyStages.totalS();
        }
        if (!b.stages.isEmpty() && b.rate == null)
        {
            b.rate = b.stages.get(0).ratePerSecond();
        }
        if ((b.ramp != null || !b.stages.isEmpty()) && b.concurrency != null)
        {
            throw fail("ramps and stages shape an open loop's rate; they do not apply to " + b.name("concurrency"));
        }
        if (b.ramp != null && b.stages.isEmpty() && b.durationS == null)
        {
            throw fail("a ramp leads into the measured window: set " + b.name("durationS") + " (or stages)");
        }
    }

    /** Exactly one kind of load: closed loop, open loop, simulated users, or a trace's own schedule. */
    private static void loadMode(final RunOptionsBuilder b)
    {
        if (b.concurrency != null && b.rate != null)
        {
            throw fail(b.name("concurrency") + " (closed loop) and " + b.name("rate") + " (open loop) exclude each " +
                "other; cap an open loop with " + b.name("maxConcurrency"));
        }
        if (b.users != null)
        {
            if (b.users < 1)
            {
                throw fail(b.name("users") + " must be >= 1: " + b.users);
            }
            if (b.concurrency != null || b.rate != null || b.fixedSchedule || b.dataset != null || b.prompt != null ||
                b.api != Endpoint.Api.CHAT)
            {
                throw fail(b.name("users") + " runs multi-turn chat sessions: it excludes " + b.name("concurrency") +
                    ", " + b.name("rate") + ", " + b.name("fixedSchedule") + ", " + b.name("dataset") + ", " +
                    b.name("prompt") + " and " + b.name("api") + " completions");
            }
        }
        else if (b.fixedSchedule)
        {
            if (b.dataset == null || !"mooncake".equals(b.datasetFormat))
            {
                throw fail(b.name("fixedSchedule") + " replays a trace's timestamps: it needs a Mooncake trace (" +
                    b.name("dataset") + " with " + b.name("datasetFormat") + " mooncake)");
            }
            if (b.concurrency != null || b.rate != null)
            {
                throw fail(b.name("fixedSchedule") + " takes its arrivals from the trace: drop " +
                    b.name("concurrency") + " and " + b.name("rate") + " (cap in-flight requests with " +
                    b.name("maxConcurrency") + ")");
            }
        }
        else if (b.concurrency == null && b.rate == null)
        {
            throw fail("set " + b.name("concurrency") + " N (closed loop) or " + b.name("rate") +
                " R requests/s (open loop)");
        }
    }

    private static void loadValues(final RunOptionsBuilder b)
    {
        atLeastOne(b, "concurrency", b.concurrency);
        atLeastOne(b, "maxConcurrency", b.maxConcurrency);
        if (b.rate != null && (!(b.rate > 0) || b.rate.isInfinite()))
        {
            throw fail(b.name("rate") + " must be a positive number of requests/s: " + b.rate);
        }
        if (!(b.burstiness > 0) || Double.isInfinite(b.burstiness))
        {
            throw fail(b.name("burstiness") + " must be > 0: " + b.burstiness);
        }
        if (b.burstiness != 1.0 && b.arrival != ArrivalProcess.Kind.GAMMA)
        {
            if (b.isGiven("arrival"))
            {
                throw fail(b.name("burstiness") + " applies to gamma arrivals only (" + b.name("arrival") +
                    " is " + b.arrival.name().toLowerCase(Locale.ROOT) + ")");
            }
            b.arrival = ArrivalProcess.Kind.GAMMA;
        }
        if (b.requests != null && b.requests < 1)
        {
            throw fail(b.name("requests") + " must be >= 1: " + b.requests);
        }
        if (b.durationS != null && !(b.durationS > 0))
        {
            throw fail(b.name("durationS") + " must be > 0 seconds: " + b.durationS);
        }
        if (b.requests == null && b.durationS == null && !b.fixedSchedule && b.stages.isEmpty())
        {
            b.requests = DEFAULT_REQUESTS;
        }
        nonNegative(b, "drainTimeoutS", b.drainTimeoutS, "seconds");
        nonNegative(b, "graceS", b.graceS, "seconds");
        if (b.preconnect != null && b.preconnect < 0)
        {
            throw fail(b.name("preconnect") + " must be >= 0, got " + b.preconnect);
        }
    }

    private static void workload(final RunOptionsBuilder b)
    {
        if (b.dataset != null && !Datasets.FORMATS.contains(b.datasetFormat))
        {
            throw fail(b.name("datasetFormat") + " must be one of " + Datasets.FORMATS + ": " + b.datasetFormat);
        }
        if (b.dataset != null && (b.prompt != null || b.inputLengths != null))
        {
            throw fail(b.name("dataset") + " replaces " + b.name("prompt") + " and " + b.name("inputLengths") +
                "; give only one");
        }
        new CancellationRule(b.cancelRate, b.cancelAfterMs, b.cancelAfterTokens, b.seed);
        if (b.blockSize < 1)
        {
            throw fail(b.name("blockSize") + " must be >= 1: " + b.blockSize);
        }
        if (b.maxTokens < 0)
        {
            throw fail(b.name("maxTokens") + " must be >= 0 (0 leaves it to the server): " + b.maxTokens);
        }
        if (b.inputTokens < 1)
        {
            throw fail(b.name("inputTokens") + " must be >= 1: " + b.inputTokens);
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
     * {@code top_k}) are the server's to judge.
     */
    private static final Map<String, Range> DECODING_RANGES = Map.of(
        "temperature", new Range(0, 2, false),
        "top_p", new Range(0, 1, false),
        "presence_penalty", new Range(-2, 2, false),
        "frequency_penalty", new Range(-2, 2, false),
        "n", new Range(1, Double.POSITIVE_INFINITY, true),
        "max_tokens", new Range(1, Double.POSITIVE_INFINITY, true),
        "max_completion_tokens", new Range(1, Double.POSITIVE_INFINITY, true),
        "top_logprobs", new Range(0, 20, true));

    /** The decoding values the run sends, wherever they were given, against {@link #DECODING_RANGES}. */
    private static void decoding(final RunOptionsBuilder b)
    {
        if (b.temperature != null)
        {
            inRange(b.name("temperature"), DECODING_RANGES.get("temperature"), b.temperature,
                String.valueOf(b.temperature));
        }
        final String extraBody = b.name("extraBody");
        extraBody(extraBody + (extraBody.startsWith("--") ? " " : "."), b.extraBody);
        if (b.segments != null)
        {
            for (int i = 0; i < b.segments.size(); i++)
            {
                extraBody(b.name("segments") + "[" + i + "].extra_body.", b.segments.get(i).extraBody());
            }
        }
        if (b.judge != null)
        {
            inRange("quality.judge.temperature", DECODING_RANGES.get("temperature"), b.judge.temperature(),
                String.valueOf(b.judge.temperature()));
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
        DECODING_RANGES.forEach((field, range) ->
        {
            final JsonNode v = body.get(field);
            if (v != null && !v.isNull())
            {
                if (!v.isNumber())
                {
                    throw fail(prefix + field + " must be a number: " + v);
                }
                inRange(prefix + field, range, v.asDouble(), v.toString());
            }
        });
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
        if ("preload".equals(b.cachePolicy) && b.prefixes == null)
        {
            throw fail(b.name("cachePolicy") + " preload replays the shared prefixes first: declare " +
                b.name("prefixes"));
        }
        if (b.repetitions < 1 || b.repetitions > 1000)
        {
            throw fail(b.name("repetitions") + " must be in [1, 1000]: " + b.repetitions);
        }
        if (b.warmupRequests < 0 || b.warmupDurationS < 0)
        {
            throw fail(b.name("warmupRequests") + " and " + b.name("warmupDurationS") + " must not be negative");
        }
    }

    private static void measurement(final RunOptionsBuilder b)
    {
        if (b.profile != null && !RunOptions.PROFILE_MODES.contains(b.profile.toLowerCase(Locale.ROOT)))
        {
            throw fail(b.name("profile") + " must be one of " + RunOptions.PROFILE_MODES + ": " + b.profile);
        }
        if (!(b.hiccupWarnFraction > 0))
        {
            throw fail(b.name("hiccupWarnFraction") + " must be > 0: " + b.hiccupWarnFraction);
        }
        if (b.ioThreads < 0)
        {
            throw fail(b.name("ioThreads") + " must be >= 0 (0: one per core)");
        }
        serverMetrics(b);
    }

    /** The scrape interval's range, and a metrics URL that is {@code off} or an http(s) URL with a host. */
    private static void serverMetrics(final RunOptionsBuilder b)
    {
        if (b.serverMetricsIntervalMs < MIN_SCRAPE_INTERVAL_MS || b.serverMetricsIntervalMs > MAX_SCRAPE_INTERVAL_MS)
        {
            throw fail(b.name("serverMetricsIntervalMs") + " must be in [" + MIN_SCRAPE_INTERVAL_MS + ", " +
                MAX_SCRAPE_INTERVAL_MS + "] ms: " + b.serverMetricsIntervalMs);
        }
        if (b.serverMetrics == null || RunOptions.SERVER_METRICS_OFF.equalsIgnoreCase(b.serverMetrics))
        {
            return;
        }
        try
        {
            final URI uri = new URI(b.serverMetrics.trim());
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
        throw fail(b.name("serverMetrics") + " must be an http(s) URL with a host, or off");
    }

    /** At most one source per accelerator interface and one RAPL: two would count the same joules twice. */
    private static void power(final RunOptionsBuilder b)
    {
        final Set<PowerSourceSpec.Kind> seen = EnumSet.noneOf(PowerSourceSpec.Kind.class);
        PowerSourceSpec.Kind accelerators = null;
        for (final PowerSourceSpec s : b.power)
        {
            final boolean gpu = s.kind() == PowerSourceSpec.Kind.NVML || s.kind() == PowerSourceSpec.Kind.NVIDIA_SMI ||
                s.kind() == PowerSourceSpec.Kind.DCGM;
            if (gpu && accelerators != null && accelerators != s.kind())
            {
                throw fail(b.name("power") + ": " + accelerators.word() + " and " + s.kind().word() + " both measure " +
                    "the accelerators, and would count their energy twice: give one");
            }
            accelerators = gpu ? s.kind() : accelerators;
            if (s.kind() == PowerSourceSpec.Kind.RAPL && !seen.add(s.kind()))
            {
                throw fail(b.name("power") + ": rapl is given twice");
            }
        }
    }

    private static void atLeastOne(final RunOptionsBuilder b, final String field, final Integer value)
    {
        if (value != null && value < 1)
        {
            throw fail(b.name(field) + " must be >= 1: " + value);
        }
    }

    private static void nonNegative(final RunOptionsBuilder b, final String field, final double value,
        final String unit)
    {
        if (!(value >= 0) || Double.isInfinite(value))
        {
            throw fail(b.name(field) + " must be a finite number of " + unit + " >= 0: " + value);
        }
    }

    private static IllegalArgumentException fail(final String message)
    {
        return new IllegalArgumentException(message);
    }
}
