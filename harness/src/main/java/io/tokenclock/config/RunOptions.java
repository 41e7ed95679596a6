package io.tokenclock.config;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

import io.tokenclock.load.ArrivalProcess;
import io.tokenclock.transport.Endpoint;

/**
 * Every option of a run, with its default. Filled by the CLI (one field per flag, documented in docs/CLI.md) or by
 * code (the demo, tests). {@link #validate()} turns impossible combinations into one-line
 * {@link IllegalArgumentException}s that the CLI prints as usage errors.
 */
public final class RunOptions implements Cloneable
{
    public String url;
    public String model;
    public Endpoint.Api api = Endpoint.Api.CHAT;
    public int maxTokens = 256;
    public boolean ignoreEos;
    public Double temperature;
    public String extraBody;
    public Map<String, String> headers = new LinkedHashMap<>();
    public String apiKeyEnv = "OPENAI_API_KEY";

    public Integer concurrency;
    public Double rate;
    public ArrivalProcess.Kind arrival = ArrivalProcess.Kind.POISSON;
    public double burstiness = 1.0;
    public Integer maxConcurrency;
    /** User-centric load: simulated users running multi-turn sessions, or null. */
    public Integer users;
    /** Turns per session and think time in ms (contract distribution syntax), for user-centric load. */
    public com.fasterxml.jackson.databind.JsonNode sessionTurns;
    public com.fasterxml.jackson.databind.JsonNode thinkTimeMs;
    /** Keep each simulated user on one connection. */
    public boolean sticky;
    /** Tool-using agents (with {@link #users}): tools, max_steps, tool_latency_ms, tool_result_tokens; or null. */
    public com.fasterxml.jackson.databind.JsonNode agent;
    /** Open loop: a ramp of the rate before the measured stages, or null. */
    public io.tokenclock.load.RateSchedule.Ramp ramp;
    /** Closed loop: a ramp of the concurrency before the measured window (rates read as concurrencies), or null. */
    public io.tokenclock.load.RateSchedule.Ramp concurrencyRamp;
    /** Closed loop: stages of concurrency, each reported on its own; null for one --concurrency. */
    public io.tokenclock.load.ConcurrencySchedule concurrencyStages;
    /** Open loop: stages of constant rate, each reported on its own; empty for one constant --rate. */
    public java.util.List<io.tokenclock.load.RateSchedule.Stage> stages = new java.util.ArrayList<>();

    public Long requests;
    public Double durationS;
    public long warmupRequests;
    public double warmupDurationS;

    public long seed = 42;
    public int inputTokens = 128;
    public String prompt;

    public Path outputDir;
    public String runId;
    public double timeoutS = 600;
    /** Opening a connection, s (0: none). */
    public double connectTimeoutS = io.tokenclock.transport.RequestLimits.DEFAULT.connectNs() / 1e9;
    /** Send to the first byte of the response, s (0: none). */
    public double firstByteTimeoutS;
    /** The longest silence mid-response, s (0: none). */
    public double idleTimeoutS;
    /** How many times a request answered 429 is sent again after its Retry-After (0: never; each 429 an error). */
    public int retries429;
    /** The longest SSE event kept, bytes; a longer one makes its request oversize. */
    public int maxEventBytes = io.tokenclock.transport.RequestLimits.DEFAULT.maxEventBytes();
    /** The most answer text kept per request, bytes; more makes it oversize. */
    public int maxOutputBytes = io.tokenclock.transport.RequestLimits.DEFAULT.maxOutputBytes();
    public double drainTimeoutS = 60;
    /** A PEM file of CAs to trust for https instead of the JDK's default ones, or null. */
    public Path caCert;
    /** Accept any server certificate (recorded and shown). */
    public boolean insecure;
    /** Take streams that end with neither finish_reason nor [DONE] as ok (they are counted as truncated anyway). */
    public boolean acceptTruncated;
    /** How long to wait for a server that is starting or loading (502/503/504, refused connections), s. */
    public double waitReadyS;
    /** After Ctrl-C or SIGTERM, how long requests in flight may finish before they are cancelled, s. */
    public double graceS = 5;
    /** Replace a run directory that already holds a run, instead of refusing. */
    public boolean force;
    public int ioThreads;
    public boolean preflight = true;
    public boolean saveText;
    /** Draw the live progress line on stderr (the command line sets it only when stderr is a terminal). */
    public boolean progress;
    /** async-profiler mode (cpu, wall, alloc, lock), or null for none. */
    public String profile;
    /** Where profiles go; default: the run's output directory. */
    public Path profileOut;
    /** Warn when the client's hiccup p99 reaches this fraction of the measured inter-chunk latency p50. */
    public double hiccupWarnFraction = 0.1;

    /** The contract file as written (YAML parsed to a tree), or null when the run came from flags alone. */
    public com.fasterxml.jackson.databind.node.ObjectNode contract;
    public Path contractPath;
    /** Tokenizer spec ({@code cl100k_base}, {@code o200k_base}, {@code words}, or a tokenizer.json path), or null. */
    public String tokenizer;
    /** Input and output token-length distributions (contract syntax), or null for the flags' fixed lengths. */
    public com.fasterxml.jackson.databind.JsonNode inputLengths;
    public com.fasterxml.jackson.databind.JsonNode outputLengths;
    /** Traffic segments (contract syntax: name, weight, input_tokens, output_tokens, correlation, extra_body). */
    public com.fasterxml.jackson.databind.JsonNode segments;
    /** Gaussian-copula correlation of input and output lengths, in [-1, 1]. */
    public double lengthCorrelation;
    /** A dataset or trace to replay instead of synthetic prompts, its format, and trace options. */
    public Path dataset;
    public String datasetFormat = "jsonl";
    /** Replay a trace's own timestamps as the schedule (open loop). */
    public boolean fixedSchedule;
    /** Tokens per Mooncake {@code hash_ids} block. */
    public int blockSize = 512;
    /** Shared prompt prefixes (system block, prefix groups), or null. */
    public io.tokenclock.workload.SharedPrefixes prefixes;
    /** The run's service-level objective for goodput, or null. Segments may declare their own. */
    public io.tokenclock.recording.Slo slo;
    /** Cancellation rule: fraction of requests, and after how long or how many tokens (0: not that way). */
    public double cancelRate;
    public double cancelAfterMs;
    public int cancelAfterTokens;
    /** Send request 0 alone first and report it on its own as the cold start. */
    public boolean coldStart;
    /** Repeat the whole run this many times, each in its own directory, and report run-to-run variance. */
    public int repetitions = 1;
    /** Which repetition this run is (1-based), or 0 for a single run. */
    public int repetitionIndex;
    /** Cache state policy: preserve, flush or preload. */
    public String cachePolicy = "preserve";
    public String flushUrl;
    public String flushMethod = "POST";

    /** The command line that produced these options, for the record (never holds a credential). */
    public java.util.List<String> commandLine = java.util.List.of();

    /** Run the harness's own request path against the embedded simulator before the run (see the runner's {@code Readiness}). */
    public boolean selfWarmup = !"false".equals(System.getProperty("tokenclock.selfWarmup"));
    /** Set on the self-warm-up's own runs: they write no record and warm nothing themselves. */
    public boolean selfWarmupRun;
    /** Connections to open before t0, or null for the expected concurrency (the runner's {@code Readiness}). */
    public Integer preconnect;
    /** Precision mode: the event loops busy-poll epoll instead of sleeping in it. */
    public boolean busyPoll;

    /** The async-profiler modes {@code --profile} accepts. */
    public static final java.util.List<String> PROFILE_MODES = java.util.List.of("cpu", "wall", "alloc", "lock");

    /** Open-loop safety cap on requests in flight when --max-concurrency is not given. */
    public static final int DEFAULT_OPEN_LOOP_CAP = 10_000;

    public boolean closedLoop()
    {
        return rate == null && !fixedSchedule && users == null;
    }

    /** @return the highest arrival rate an open loop reaches (its rate, stages and ramp), requests/s. */
    public double peakRate()
    {
        double peak = rate != null ? rate : 0;
        for (final io.tokenclock.load.RateSchedule.Stage s : stages)
        {
            peak = Math.max(peak, s.ratePerSecond());
        }
        return ramp != null ? Math.max(peak, Math.max(ramp.fromRate(), ramp.toRate())) : peak;
    }

    /**
     * @return the open loop's rate over time (ramp, then stages, or one stage of the constant rate for the duration),
     * or null when there is none: a closed loop, a fixed schedule, or a constant rate without ramp or stages.
     */
    public io.tokenclock.load.RateSchedule rateSchedule()
    {
        if (closedLoop() || fixedSchedule || (ramp == null && stages.isEmpty()))
        {
            return null;
        }
        final java.util.List<io.tokenclock.load.RateSchedule.Stage> measured = !stages.isEmpty() ? stages :
            java.util.List.of(new io.tokenclock.load.RateSchedule.Stage(rate, durationS));
        return new io.tokenclock.load.RateSchedule(ramp, measured);
    }

    /** @return the cap on requests in flight. */
    public int maxInFlight()
    {
        if (users != null)
        {
            return users;
        }
        if (closedLoop())
        {
            return concurrency;
        }
        return maxConcurrency != null ? maxConcurrency : DEFAULT_OPEN_LOOP_CAP;
    }

    /** @return a shallow copy, for one repetition of a run. */
    public RunOptions copy()
    {
        try
        {
            return (RunOptions)clone();
        }
        catch (final CloneNotSupportedException ex)
        {
            throw new IllegalStateException(ex);
        }
    }

    /** Checks the options; fills defaults that depend on others. */
    /** @return the per-request limits of this run. */
    public io.tokenclock.transport.RequestLimits limits()
    {
        return io.tokenclock.transport.RequestLimits.of(connectTimeoutS, firstByteTimeoutS, idleTimeoutS, timeoutS,
            maxEventBytes, maxOutputBytes, retries429);
    }

    /** @return which server certificates this run trusts. */
    public io.tokenclock.transport.TlsTrust tlsTrust()
    {
        return new io.tokenclock.transport.TlsTrust(caCert, insecure);
    }

    public RunOptions validate()
    {
        if (url == null || url.isBlank())
        {
            throw new IllegalArgumentException("--url is required (e.g. --url http://127.0.0.1:8000/v1)");
        }
        Endpoint.parse(url, api);
        tlsTrust();
        limits();
        io.tokenclock.transport.HeaderRules.check(headers);
        if (preconnect != null && preconnect < 0)
        {
            throw new IllegalArgumentException("--preconnect must be >= 0, got " + preconnect);
        }
        if (concurrencyRamp != null)
        {
            if (concurrencyStages == null && (concurrency == null || durationS == null))
            {
                throw new IllegalArgumentException("a concurrency ramp leads into a measured window: set " +
                    "--concurrency and --duration (or --concurrency-stage)");
            }
            final io.tokenclock.load.ConcurrencySchedule measured = concurrencyStages != null ? concurrencyStages :
                new io.tokenclock.load.ConcurrencySchedule(new int[] {concurrency}, new double[] {durationS});
            concurrencyStages = io.tokenclock.load.ConcurrencySchedule.withRamp(
                (int)Math.round(Math.max(1, concurrencyRamp.fromRate())), (int)Math.round(concurrencyRamp.toRate()),
                concurrencyRamp.durationS(), concurrencyRamp.exponential(), measured);
            concurrencyRamp = null;
            concurrency = null;
        }
        if (concurrencyStages != null)
        {
            if (rate != null || !stages.isEmpty() || ramp != null || users != null || fixedSchedule)
            {
                throw new IllegalArgumentException("concurrency stages shape a closed loop: drop --rate, --stage, " +
                    "--ramp, --users and --fixed-schedule");
            }
            concurrency = concurrencyStages.maxConcurrency();
            durationS = concurrencyStages.totalS();
        }
        if (!stages.isEmpty() && rate == null)
        {
            rate = stages.get(0).ratePerSecond();
        }
        if ((ramp != null || !stages.isEmpty()) && concurrency != null)
        {
            throw new IllegalArgumentException("ramps and stages shape an open loop's rate; they do not apply to " +
                "--concurrency");
        }
        if (ramp != null && stages.isEmpty() && durationS == null)
        {
            throw new IllegalArgumentException("a ramp leads into the measured window: set --duration (or stages)");
        }
        if (concurrency != null && rate != null)
        {
            throw new IllegalArgumentException(
                "--concurrency (closed loop) and --rate (open loop) exclude each other; cap an open loop with " +
                "--max-concurrency");
        }
        if (users != null)
        {
            if (users < 1)
            {
                throw new IllegalArgumentException("--users must be >= 1: " + users);
            }
            if (concurrency != null || rate != null || fixedSchedule || dataset != null || prompt != null ||
                api != io.tokenclock.transport.Endpoint.Api.CHAT)
            {
                throw new IllegalArgumentException("--users runs multi-turn chat sessions: it excludes " +
                    "--concurrency, " +
                    "--rate, --fixed-schedule, --dataset, --prompt and --endpoint completions");
            }
        }
        else if (fixedSchedule)
        {
            if (dataset == null || !"mooncake".equals(datasetFormat))
            {
                throw new IllegalArgumentException("--fixed-schedule replays a trace's timestamps: it needs " +
                    "--dataset FILE --dataset-format mooncake");
            }
            if (concurrency != null || rate != null)
            {
                throw new IllegalArgumentException("--fixed-schedule takes its arrivals from the trace: drop " +
                    "--concurrency and --rate (cap in-flight requests with --max-concurrency)");
            }
        }
        else if (concurrency == null && rate == null)
        {
            throw new IllegalArgumentException("set --concurrency N (closed loop) or --rate R requests/s (open loop)");
        }
        positive(concurrency, "--concurrency");
        positive(maxConcurrency, "--max-concurrency");
        if (rate != null && (!(rate > 0) || rate.isInfinite()))
        {
            throw new IllegalArgumentException("--rate must be a positive number of requests/s: " + rate);
        }
        if (!(burstiness > 0) || Double.isInfinite(burstiness))
        {
            throw new IllegalArgumentException("--burstiness must be > 0: " + burstiness);
        }
        if (burstiness != 1.0 && arrival != ArrivalProcess.Kind.GAMMA)
        {
            if (arrival == ArrivalProcess.Kind.POISSON)
            {
                arrival = ArrivalProcess.Kind.GAMMA;
            }
            else
            {
                throw new IllegalArgumentException("--burstiness applies to --arrival gamma only");
            }
        }
        if (requests != null && requests < 1)
        {
            throw new IllegalArgumentException("--requests must be >= 1: " + requests);
        }
        if (durationS != null && !(durationS > 0))
        {
            throw new IllegalArgumentException("--duration must be > 0 seconds: " + durationS);
        }
        if (requests == null && durationS == null && !fixedSchedule && stages.isEmpty())
        {
            requests = 100L;
        }
        if (dataset != null && !io.tokenclock.workload.dataset.Datasets.FORMATS.contains(datasetFormat))
        {
            throw new IllegalArgumentException("--dataset-format must be one of " +
                io.tokenclock.workload.dataset.Datasets.FORMATS + ": " + datasetFormat);
        }
        if (dataset != null && (prompt != null || inputLengths != null))
        {
            throw new IllegalArgumentException("--dataset replaces --prompt and input length distributions");
        }
        new io.tokenclock.workload.CancellationRule(cancelRate, cancelAfterMs, cancelAfterTokens, seed);
        if ("preload".equals(cachePolicy) && prefixes == null)
        {
            throw new IllegalArgumentException("cache preload replays the shared prefixes first: declare " +
                "workload.prefix");
        }
        if (repetitions < 1 || repetitions > 1000)
        {
            throw new IllegalArgumentException("--repetitions must be in [1, 1000]: " + repetitions);
        }
        if (blockSize < 1)
        {
            throw new IllegalArgumentException("block size must be >= 1: " + blockSize);
        }
        if (warmupRequests < 0 || warmupDurationS < 0)
        {
            throw new IllegalArgumentException("--warmup-requests and --warmup-duration must not be negative");
        }
        if (maxTokens < 0)
        {
            throw new IllegalArgumentException("--max-tokens must be >= 0 (0 leaves it to the server): " + maxTokens);
        }
        if (inputTokens < 1)
        {
            throw new IllegalArgumentException("--input-tokens must be >= 1: " + inputTokens);
        }
        if (!(waitReadyS >= 0) || Double.isInfinite(waitReadyS))
        {
            throw new IllegalArgumentException("--wait-ready must be a finite number of seconds >= 0: " + waitReadyS);
        }
        if (!(graceS >= 0) || Double.isInfinite(graceS))
        {
            throw new IllegalArgumentException("--grace must be a finite number of seconds >= 0: " + graceS);
        }
        if (!(connectTimeoutS >= 0) || !(firstByteTimeoutS >= 0) || !(idleTimeoutS >= 0))
        {
            throw new IllegalArgumentException("--connect-timeout, --first-byte-timeout and --idle-timeout must be " +
                ">= 0 (0: no limit)");
        }
        if (!(timeoutS > 0) || drainTimeoutS < 0)
        {
            throw new IllegalArgumentException("--timeout must be > 0 and --drain-timeout >= 0");
        }
        if (profile != null && !PROFILE_MODES.contains(profile.toLowerCase(java.util.Locale.ROOT)))
        {
            throw new IllegalArgumentException("--profile must be one of " + PROFILE_MODES + ": " + profile);
        }
        if (!(hiccupWarnFraction > 0))
        {
            throw new IllegalArgumentException("--hiccup-warn-fraction must be > 0: " + hiccupWarnFraction);
        }
        if (ioThreads < 0)
        {
            throw new IllegalArgumentException("--io-threads must be >= 0 (0: one per core)");
        }
        return this;
    }

    private static void positive(final Integer value, final String flag)
    {
        if (value != null && value < 1)
        {
            throw new IllegalArgumentException(flag + " must be >= 1: " + value);
        }
    }
}
