package io.tokenclock.config;

import java.nio.file.Path;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.node.ObjectNode;

import io.tokenclock.api.Api;
import io.tokenclock.cost.PriceModel;
import io.tokenclock.energy.PowerSourceSpec;
import io.tokenclock.goodput.Slo;
import io.tokenclock.load.ArrivalProcess;
import io.tokenclock.load.ConcurrencySchedule;
import io.tokenclock.load.RateSchedule;
import io.tokenclock.quality.QualityRule;
import io.tokenclock.transport.Stamping;
import io.tokenclock.transport.Endpoint;
import io.tokenclock.transport.RequestLimits;
import io.tokenclock.transport.TlsTrust;
import io.tokenclock.workload.ImageFormat;
import io.tokenclock.workload.ImageSpec;
import io.tokenclock.workload.RerankShape;
import io.tokenclock.workload.SessionChain;
import io.tokenclock.workload.SharedPrefixes;
import io.tokenclock.workload.dataset.SessionTrace;

/**
 * Every option of a run, validated, immutable, and grouped as the benchmarking protocol groups them: target (N),
 * model (M), workload (W), load (A), state (S), measurement (E, H), quality (Q) and output. Built only by
 * {@link RunOptionsBuilder#build()}, which both the contract file and the command-line flags feed and which holds every
 * rule. Each component is declared once, with its flag, contract key, default and unit, in {@link RunOption}'s table
 * (the builder fills the records by component name); docs/CLI.md and docs/CONTRACT.md document them.
 * <p>
 * Thread-safe: nothing in it changes after it is built (collections are unmodifiable copies, JSON trees deep copies
 * that no one else holds).
 */
public final class RunOptions
{
    /** Open-loop safety cap on requests in flight when --max-concurrency is not given. */
    public static final int DEFAULT_OPEN_LOOP_CAP = 10_000;
    /** The async-profiler modes {@code --profile} accepts. */
    public static final List<String> PROFILE_MODES = List.of("cpu", "wall", "alloc", "lock");
    /** The value of {@code --server-metrics} that turns scraping off. */
    public static final String SERVER_METRICS_OFF = "off";


    /**
     * Where requests go and how each is limited: the client/server boundary (N).
     *
     * @param url               The API base URL, e.g. {@code http://127.0.0.1:8000/v1}.
     * @param api               Chat or text completions.
     * @param headers           Extra request headers (credentials never written out).
     * @param apiKeyEnv         The environment variable holding the API key.
     * @param preflight         List the models and send one request before the run.
     * @param waitReadyS        How long to wait for a server that is starting or loading, s.
     * @param caCert            A PEM file of CAs to trust for https instead of the JDK's, or null.
     * @param insecure          Accept any server certificate (recorded and shown).
     * @param connectTimeoutS   Opening a connection, s (0: none).
     * @param firstByteTimeoutS Send to the first byte of the response, s (0: none).
     * @param idleTimeoutS      The longest silence mid-response, s (0: none).
     * @param timeoutS          A whole request, s.
     * @param retries429        How many times a request answered 429 is sent again after its Retry-After.
     * @param maxEventBytes     The longest SSE event kept, bytes.
     * @param maxOutputBytes    The most answer text kept per request, bytes.
     */
    public record Target(String url, Api api, Map<String, String> headers, String apiKeyEnv, boolean preflight,
        double waitReadyS, Path caCert, boolean insecure, double connectTimeoutS, double firstByteTimeoutS,
        double idleTimeoutS, double timeoutS, int retries429, int maxEventBytes, int maxOutputBytes)
    {
        public Target
        {
            headers = Collections.unmodifiableMap(new LinkedHashMap<>(headers));
        }
    }

    /**
     * The model and how it decodes (M).
     *
     * @param name            The model to ask for, or null for the first the server lists.
     * @param tokenizer       cl100k_base, o200k_base, words, or a tokenizer.json path; or null.
     * @param maxTokens       max_tokens of every request (0 leaves it to the server).
     * @param ignoreEos       Ask the server to ignore end-of-sequence.
     * @param temperature     Sampling temperature, or null for the server's.
     * @param reasoningEffort The reasoning effort asked for (Responses, chat), or null.
     * @param thinkingTokens  The Messages API's extended-thinking budget, tokens (0: none).
     * @param extraBody       JSON merged into every request body, or null.
     */
    public record Model(String name, String tokenizer, int maxTokens, boolean ignoreEos, Double temperature,
        String reasoningEffort, int thinkingTokens, String extraBody)
    {
    }

    /**
     * What is sent: prompts, lengths, datasets, sessions, cancellation (W).
     *
     * @param seed              Seed of prompts, lengths and arrivals.
     * @param inputTokens       Fixed prompt length, tokens.
     * @param prompt            One fixed prompt, or null.
     * @param inputLengths      Input length distribution, tokens, or null for the fixed length.
     * @param outputLengths     Output length distribution, tokens, or null for the model's {@code max_tokens}.
     * @param lengthCorrelation Gaussian-copula correlation of input and output lengths, in [-1, 1].
     * @param segments          Traffic segments, or null.
     * @param dataset           A dataset or trace to replay instead of synthetic prompts, or null.
     * @param datasetFormat     The dataset's format.
     * @param blockSize         Tokens per hash id of a trace, or null for the format's own.
     * @param prefixes          Shared prompt prefixes, or null.
     * @param cancelRate        Fraction of requests the client cancels.
     * @param cancelAfterMs     Cancel after this long, ms (0: not by time).
     * @param cancelAfterTokens Cancel after this many tokens (0: not by tokens).
     * @param sessionTurns      Turns per session (distribution), for user-centric load.
     * @param thinkTimeMs       Think time between turns, ms (distribution).
     * @param sessionChain      How a session's next turn carries the conversation (history, or a previous response).
     * @param embedBatch        Embeddings: texts per request; rerank: documents per query.
     * @param rerankShape       Rerank's request shape: documents (vLLM, Cohere, Jina, llama.cpp) or texts (TEI).
     * @param imageCount        Synthetic images added to every prompt; 0 for none.
     * @param imageSize         The synthetic images' size, {@code WxH} in pixels.
     * @param imageFormat       How the synthetic images are encoded.
     * @param agent             Tool-using agents, or null.
     */
    public record Workload(long seed, int inputTokens, String prompt, LengthSpec inputLengths,
        LengthSpec outputLengths, double lengthCorrelation, List<SegmentSpec> segments, Path dataset,
        String datasetFormat, Integer blockSize, SharedPrefixes prefixes, double cancelRate, double cancelAfterMs,
        int cancelAfterTokens, LengthSpec sessionTurns, LengthSpec thinkTimeMs, SessionChain sessionChain,
        int embedBatch, RerankShape rerankShape, int imageCount, String imageSize, ImageFormat imageFormat,
        AgentSpec agent)
    {
        public Workload
        {
            segments = segments == null ? null : List.copyOf(segments);
        }

        /** @return whether the dataset is a trace (mooncake, tracelab, weka), with timestamps a speed-up divides. */
        public boolean trace()
        {
            return dataset != null && datasetFormat != null && SessionTrace.FORMATS.contains(datasetFormat);
        }

        /** @return the synthetic images every prompt carries, or null for none ({@code --image-count} 0). */
        public ImageSpec images()
        {
            if (imageCount <= 0)
            {
                return null;
            }
            final int[] size = ImageSpec.parseSize(imageSize);
            return new ImageSpec(imageCount, size[0], size[1], imageFormat);
        }
    }

    /**
     * When it is sent: the arrival process or concurrency, stages, and the run's length (A).
     *
     * @param concurrency       Closed loop: requests kept in flight, or null.
     * @param rate              Open loop: arrivals per second, or null.
     * @param arrival           The open loop's arrival process.
     * @param burstiness        Gamma shape of the arrival gaps (1: Poisson).
     * @param maxConcurrency    Open loop: cap on requests in flight, or null.
     * @param users             User-centric load: simulated users running multi-turn sessions, or null.
     * @param sticky            Keep each simulated user on one connection.
     * @param ramp              Open loop: a ramp of the rate before the measured stages, or null.
     * @param concurrencyStages Closed loop: stages of concurrency (a ramp included), or null.
     * @param stages            Open loop: stages of constant rate; empty for one --rate.
     * @param requests          Measured requests, or null when the duration ends the run.
     * @param durationS         The measured window, s, or null.
     * @param fixedSchedule     Replay a trace's own timestamps as the schedule.
     * @param traceSpeedup      A trace's timestamps and delays are divided by it.
     * @param drainTimeoutS     How long requests in flight may finish after the window, s.
     * @param graceS            After Ctrl-C or SIGTERM, how long requests in flight may finish, s.
     * @param scenario          The MLPerf-style preset the load came from, or null.
     * @param minSamplesFor     The percentile whose 95% interval the measured request count was sized for, or null.
     */
    public record Load(Integer concurrency, Double rate, ArrivalProcess.Kind arrival, double burstiness,
        Integer maxConcurrency, Integer users, boolean sticky, RateSchedule.Ramp ramp,
        ConcurrencySchedule concurrencyStages, List<RateSchedule.Stage> stages, Long requests, Double durationS,
        boolean fixedSchedule, double traceSpeedup, double drainTimeoutS, double graceS, Scenario scenario,
        TailQuantile minSamplesFor)
    {
        public Load
        {
            stages = List.copyOf(stages);
        }
    }

    /**
     * The state before the window: warm-up, cache, cold start, readiness, repetitions (S).
     *
     * @param warmupRequests  Warm-up requests before the window.
     * @param warmupDurationS Warm-up time before the window, s.
     * @param coldStart       Send request 0 alone first and report it as the cold start.
     * @param cachePolicy     Cache state policy: preserve, flush or preload.
     * @param flushUrl        Where the flush policy sends its request, or null.
     * @param flushMethod     The flush request's method.
     * @param repetitions     Repeat the whole run this many times.
     * @param repetitionIndex Which repetition this run is (1-based), or 0 for a single run.
     * @param selfWarmup      Warm the harness's own request path before the run.
     * @param preconnect      Connections to open before t0, or null for the expected concurrency.
     */
    public record State(long warmupRequests, double warmupDurationS, boolean coldStart, String cachePolicy,
        String flushUrl, String flushMethod, int repetitions, int repetitionIndex, boolean selfWarmup,
        Integer preconnect)
    {
    }

    /**
     * How the client measures itself: event loops, busy-polling, profiling, health warnings (E, H).
     *
     * @param ioThreads          Event loops (0: one per core).
     * @param busyPoll           Precision mode: the event loops busy-poll epoll instead of sleeping in it.
     * @param profile            async-profiler mode (cpu, wall, alloc, lock), or null.
     * @param profileOut         Where profiles go, or null for the run directory.
     * @param hiccupWarnFraction Warn when the hiccup p99 reaches this fraction of ITL p50.
     * @param serverMetrics      The server's Prometheus metrics URL, {@code off}, or null for the target's origin +
     *                           {@code /metrics} ({@link RunOptions#serverMetricsUrl()}).
     * @param serverMetricsIntervalMs How often the server's metrics are scraped, ms.
     * @param stamping           Where each read's stamp comes from: the kernel (the default) or user space.
     * @param hiccupIntervalUs   How often the hiccup monitor asks to wake, us, or null for the stamping's default
     *                           ({@code runner.Monitors#hiccupIntervalNs}).
     * @param packetTap          A network interface for the packet tap ({@code transport.kernel.PacketTap}), or null.
     */
    public record Measurement(int ioThreads, boolean busyPoll, String profile, Path profileOut,
        double hiccupWarnFraction, String serverMetrics, long serverMetricsIntervalMs, Stamping stamping,
        Long hiccupIntervalUs, String packetTap)
    {
    }

    /**
     * What counts as a good request: the SLO, the quality rule and the acceptance of truncated streams (Q).
     *
     * @param slo             The run's service-level objective for goodput, or null.
     * @param acceptTruncated Take streams that end with neither finish_reason nor [DONE] as ok.
     * @param rule            The quality rule outputs are judged by after the window ({@link QualityRule#NONE} for
     *                        none).
     */
    public record Quality(Slo slo, boolean acceptTruncated, QualityRule rule)
    {
        /** @return whether the run reports goodput: it has an SLO, or a quality rule that judges outputs. */
        public boolean goodput()
        {
            return slo != null || rule.judgesOutputs();
        }
    }

    /**
     * Where the results go and what identifies them.
     *
     * @param outputDir    The run directory, or null for results/RUN_ID.
     * @param runId        The run's id, or null for one from the start time.
     * @param force        Replace a run directory that already holds a run.
     * @param saveText     Keep every answer's text in requests.jsonl.
     * @param progress     Draw the live progress line (only when stderr is a terminal).
     * @param jfrEvents    Commit a JFR event per finished request ({@code --jfr-events}), recorded in requests.jfr.
     * @param htmlReport   Write report.html and the CSV files when the run ends (off with {@code --no-report}).
     * @param verbose      Print the client's internals and every warning after the summary ({@code --verbose}).
     * @param commandLine  The command line that produced these options (never holds a credential).
     * @param contract     The contract file as written (redacted), or null.
     * @param contractPath The contract file's path, or null.
     */
    public record Output(Path outputDir, String runId, boolean force, boolean saveText, boolean progress,
        boolean jfrEvents, boolean htmlReport, boolean verbose, List<String> commandLine, ObjectNode contract,
        Path contractPath)
    {
        public Output
        {
            commandLine = List.copyOf(commandLine);
            contract = contract == null ? null : contract.deepCopy();
        }
    }

    /**
     * What the run's work costs (docs/COST_ENERGY.md).
     *
     * @param price the declared price model, or null: no cost section, never a default.
     */
    public record Cost(PriceModel price)
    {
    }

    /**
     * Where the run's energy is measured (docs/COST_ENERGY.md).
     *
     * @param sources the power sources; empty: no energy section.
     */
    public record Power(List<PowerSourceSpec> sources)
    {
        public Power
        {
            sources = List.copyOf(sources);
        }
    }

    private final Target target;
    private final Model model;
    private final Workload workload;
    private final Load load;
    private final State state;
    private final Measurement measurement;
    private final Quality quality;
    private final Output output;
    private final Cost cost;
    private final Power power;
    private final ShardSpec shard;

    RunOptions(
        final Target target, final Model model, final Workload workload, final Load load, final State state,
        final Measurement measurement, final Quality quality, final Output output, final Cost cost, final Power power,
        final ShardSpec shard)
    {
        this.shard = shard;
        this.cost = cost;
        this.power = power;
        this.target = target;
        this.model = model;
        this.workload = workload;
        this.load = load;
        this.state = state;
        this.measurement = measurement;
        this.quality = quality;
        this.output = output;
    }

    public Target target()
    {
        return target;
    }

    public Model model()
    {
        return model;
    }

    public Workload workload()
    {
        return workload;
    }

    public Load load()
    {
        return load;
    }

    public State state()
    {
        return state;
    }

    public Measurement measurement()
    {
        return measurement;
    }

    public Quality quality()
    {
        return quality;
    }

    public Output output()
    {
        return output;
    }

    public Cost cost()
    {
        return cost;
    }

    public Power power()
    {
        return power;
    }

    /** @return which part of the run this process makes, and its common start ({@link ShardSpec#WHOLE} if all). */
    public ShardSpec shard()
    {
        return shard;
    }

    /** @return a builder for new options, every field at its default. */
    public static RunOptionsBuilder builder()
    {
        return new RunOptionsBuilder();
    }

    /** @return a builder holding these options, to derive others from them (a repetition, a sweep's point). */
    public RunOptionsBuilder toBuilder()
    {
        return new RunOptionsBuilder(this);
    }

    /** @return whether the load is a closed loop: no rate, no trace schedule, no simulated users. */
    public boolean closedLoop()
    {
        return load.rate() == null && !load.fixedSchedule() && load.users() == null;
    }

    /** @return the highest arrival rate an open loop reaches (its rate, stages and ramp), requests/s. */
    public double peakRate()
    {
        double peak = load.rate() != null ? load.rate() : 0;
        for (final RateSchedule.Stage s : load.stages())
        {
            peak = Math.max(peak, s.ratePerSecond());
        }
        final RateSchedule.Ramp ramp = load.ramp();
        return ramp != null ? Math.max(peak, Math.max(ramp.fromRate(), ramp.toRate())) : peak;
    }

    /**
     * @return the open loop's rate over time (ramp, then stages, or one stage of the constant rate for the duration),
     * or null when there is none: a closed loop, a fixed schedule, or a constant rate without ramp or stages.
     */
    public RateSchedule rateSchedule()
    {
        if (closedLoop() || load.fixedSchedule() || (load.ramp() == null && load.stages().isEmpty()))
        {
            return null;
        }
        final List<RateSchedule.Stage> measured = !load.stages().isEmpty() ? load.stages() :
            List.of(new RateSchedule.Stage(load.rate(), load.durationS()));
        return new RateSchedule(load.ramp(), measured);
    }

    /** @return the cap on requests in flight. */
    public int maxInFlight()
    {
        if (load.users() != null)
        {
            return load.users();
        }
        if (closedLoop())
        {
            return shard.stripe().share(load.concurrency());
        }
        return load.maxConcurrency() != null ? Math.max(1, shard.stripe().share(load.maxConcurrency())) :
            DEFAULT_OPEN_LOOP_CAP;
    }

    /** @return the per-request limits of this run. */
    public RequestLimits limits()
    {
        return RequestLimits.of(target.connectTimeoutS(), target.firstByteTimeoutS(), target.idleTimeoutS(),
            target.timeoutS(), target.maxEventBytes(), target.maxOutputBytes(), target.retries429());
    }

    /**
     * @return the URL of the server's Prometheus metrics to scrape during the run: {@code --server-metrics}, or by
     * default the target's origin + {@code /metrics}; null when scraping is off.
     */
    public String serverMetricsUrl()
    {
        final String given = measurement.serverMetrics();
        if (given == null)
        {
            return Endpoint.parse(target.url(), target.api()).origin() + "/metrics";
        }
        return SERVER_METRICS_OFF.equalsIgnoreCase(given) ? null : given;
    }

    /** @return which server certificates this run trusts. */
    public TlsTrust tlsTrust()
    {
        return new TlsTrust(target.caCert(), target.insecure());
    }
}
