package io.tokenclock.config;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;

import com.fasterxml.jackson.databind.node.ObjectNode;

import io.tokenclock.api.Api;
import io.tokenclock.cost.PriceModel;
import io.tokenclock.energy.PowerSourceSpec;
import io.tokenclock.goodput.Slo;
import io.tokenclock.load.ArrivalProcess;
import io.tokenclock.load.ConcurrencySchedule;
import io.tokenclock.load.RateSchedule;
import io.tokenclock.quality.Check;
import io.tokenclock.quality.JudgeSpec;
import io.tokenclock.transport.PacketTapChoice;
import io.tokenclock.transport.RequestLimits;
import io.tokenclock.transport.Stamping;
import io.tokenclock.workload.ImageFormat;
import io.tokenclock.workload.RerankShape;
import io.tokenclock.workload.SessionChain;
import io.tokenclock.workload.SharedPrefixes;
import io.tokenclock.workload.dataset.Datasets;

/**
 * One option of a run, and the table of all of them: the only declaration of an option. An entry holds its field,
 * flag, contract key, type, default, unit, range or words (an enum's own, or a string's declared ones) and one doc
 * line, in the spirit of picocli's {@code ArgSpec} and JMH's {@code OptionParser}. Everything else is made from it:
 * <ul>
 * <li>the flags of {@code run} and {@code sweep}, with their {@code --help} text, value label and default, laid out
 * in the table's order ({@code cli.TableFlags}, through picocli's {@code OptionSpec} API);</li>
 * <li>the contract's key, as a leaf of {@code contract.ContractSchema} holding the same range or words, and read into
 * the builder by its type ({@code contract.ContractOptions});</li>
 * <li>the range check ({@link #check}, run for every entry by {@link RunRules#ranges}): one rule and one message
 * whoever gave the value, named as the user named it ({@link RunOptionsBuilder#name});</li>
 * <li>the options' record components ({@link RunOptionsBuilder#build()} fills each {@link RunOptions} group by
 * component name), and the table in docs/CLI.md, which {@code OptionDocsTest} holds to this one.</li>
 * </ul>
 * A new option is one entry here plus its use: the record component that code reads, and a rule in {@link RunRules}
 * only if it binds other options. Only a flag that needs code of its own (a value parsed into a structure, flags
 * folded together, a {@code --no-} switch) has an {@code @Option} in a {@code cli} mixin, and only a key of a shape of
 * its own (a distribution, a list, a map) is written in {@code ContractSchema}. E.g. {@code --io-threads}:
 * {@code measurement("ioThreads", Integer.class).flag("--io-threads").key("measurement.io_threads").defaultsTo(0)
 * .unit("threads").within(0, 1024).doc(...)} is the flag {@code --io-threads=N}, the key
 * {@code measurement.io_threads} and the one rule {@code --io-threads must be in [0, 1024]: 2000}.
 * <p>
 * Immutable and thread-safe; the table is built once, when the class loads.
 *
 * @param <T> the value's type (boxed; a primitive record component takes its unboxed value).
 */
public final class RunOption<T>
{
    private static final List<RunOption<?>> TABLE = new ArrayList<>();
    /** The most tokens a count may ask for (a prompt, an answer, a cancellation's point): 100 million. */
    private static final double MAX_TOKEN_COUNT = 100_000_000;
    /** The most streams or users one client drives: a million. */
    private static final double MAX_STREAMS = 1_000_000;

    // Target (N): where requests go and how each is limited.
    public static final RunOption<String> URL = target("url", String.class).flag("--url").key("target.url")
        .doc("The API base URL, e.g. `http://127.0.0.1:8000/v1`.");
    public static final RunOption<Api> API = target("api", Api.class).flag("--endpoint")
        .key("target.endpoint").defaultsTo(Api.CHAT).spelled(Api::word)
        .doc("The API: chat, completions, responses (OpenAI Responses), messages (Anthropic Messages), embeddings " +
            "or rerank (the last two answer whole: no TTFT, TPOT or ITL).");
    public static final RunOption<Map<String, String>> HEADERS =
        RunOption.<Map<String, String>>target("headers", Map.class).flag("--header").namedKey("target.headers")
        .defaultsTo(Map.of()).doc("Extra request headers (credentials never written out).");
    public static final RunOption<String> API_KEY_ENV = target("apiKeyEnv", String.class).flag("--api-key-env")
        .key("target.api_key_env").defaultsTo("OPENAI_API_KEY")
        .doc("Environment variable holding the API key (ANTHROPIC_API_KEY, in x-api-key, for the Messages API).");
    public static final RunOption<Boolean> PREFLIGHT = target("preflight", Boolean.class).flag("--no-preflight")
        .defaultsTo(true).doc("List the models and send one request before the run.");
    public static final RunOption<Double> WAIT_READY_S = target("waitReadyS", Double.class).flag("--wait-ready")
        .key("target.wait_ready_s").defaultsTo(0.0).unit("s").atLeast(0)
        .doc("Seconds to wait for a server that is starting or loading its model (503, 502, 504, refused " +
            "connections): /models, then one probe request, polled once a second.");
    public static final RunOption<Path> CA_CERT = target("caCert", Path.class).flag("--ca-cert")
        .label("FILE")
        .doc("Trust the CA certificates in this PEM file for https (instead of the JDK's default CAs).");
    public static final RunOption<Boolean> INSECURE = target("insecure", Boolean.class).flag("--insecure")
        .defaultsTo(false).doc("Accept any server certificate (recorded and shown).");
    public static final RunOption<Double> CONNECT_TIMEOUT_S = target("connectTimeoutS", Double.class)
        .flag("--connect-timeout").key("load.connect_timeout_s").defaultsTo(RequestLimits.DEFAULT.connectNs() / 1e9)
        .unit("s").atLeast(0)
        .doc("Seconds to open a connection (0: no limit); requests that run out are timeout_connect.");
    public static final RunOption<Double> FIRST_BYTE_TIMEOUT_S = target("firstByteTimeoutS", Double.class)
        .flag("--first-byte-timeout").key("load.first_byte_timeout_s").defaultsTo(0.0).unit("s").atLeast(0)
        .doc("Seconds from send to the first byte of the response (0: no limit); requests that run out are " +
            "timeout_first_byte.");
    public static final RunOption<Double> IDLE_TIMEOUT_S = target("idleTimeoutS", Double.class).flag("--idle-timeout")
        .key("load.idle_timeout_s").defaultsTo(0.0).unit("s").atLeast(0)
        .doc("Seconds of silence allowed mid-response (0: no limit); requests that run out are timeout_idle.");
    public static final RunOption<Double> TIMEOUT_S = target("timeoutS", Double.class).flag("--timeout")
        .key("load.request_timeout_s").defaultsTo(600.0).unit("s").above(0).doc("A whole request, s.");
    public static final RunOption<Integer> RETRIES_429 = target("retries429", Integer.class).flag("--retry-429")
        .defaultsTo(0).unit("retries").atLeast(0)
        .doc("Send a request answered 429 again after its Retry-After (1 s without one, at most 60 s), up to " +
            "N times; retries are counted apart (0: each 429 is an error).");
    public static final RunOption<Integer> MAX_EVENT_BYTES = target("maxEventBytes", Integer.class)
        .flag("--max-event-bytes").defaultsTo(RequestLimits.DEFAULT.maxEventBytes()).unit("bytes")
        .doc("The longest SSE event (or line) kept; a longer one ends its request as oversize.");
    public static final RunOption<Integer> MAX_OUTPUT_BYTES = target("maxOutputBytes", Integer.class)
        .flag("--max-output-bytes").defaultsTo(RequestLimits.DEFAULT.maxOutputBytes()).unit("bytes")
        .doc("The most answer text kept per request (content, reasoning and tool calls, each); more ends the " +
            "request as oversize.");

    // Model (M): the model and how it decodes.
    public static final RunOption<String> MODEL = model("model", String.class).component("name").flag("--model")
        .key("model.name").doc("The model to ask for, or null for the first the server lists.");
    public static final RunOption<String> TOKENIZER = model("tokenizer", String.class).flag("--tokenizer")
        .key("model.tokenizer").doc("cl100k_base, o200k_base, words, or a tokenizer.json path; or null.");
    public static final RunOption<Integer> MAX_TOKENS = model("maxTokens", Integer.class).flag("--max-tokens")
        .key("model.decoding.max_tokens").defaultsTo(256).unit("tokens").within(0, MAX_TOKEN_COUNT)
        .doc("max_tokens per request; 0 leaves it to the server.");
    public static final RunOption<Boolean> IGNORE_EOS = model("ignoreEos", Boolean.class).flag("--ignore-eos")
        .key("model.decoding.ignore_eos").defaultsTo(false)
        .doc("Send ignore_eos=true (vLLM, SGLang) to pin output length.");
    public static final RunOption<Double> TEMPERATURE = model("temperature", Double.class).flag("--temperature")
        .key("model.decoding.temperature").doc("Sampling temperature, or null for the server's.");
    public static final RunOption<String> REASONING_EFFORT = model("reasoningEffort", String.class)
        .flag("--reasoning-effort").key("model.decoding.reasoning_effort").label("EFFORT")
        .doc("Ask for reasoning at this effort (e.g. low, medium, high): the Responses API's `reasoning.effort`, " +
            "chat's `reasoning_effort`; or null.");
    public static final RunOption<Integer> THINKING_TOKENS = model("thinkingTokens", Integer.class)
        .flag("--thinking-tokens").key("model.decoding.thinking_tokens").defaultsTo(0).unit("tokens")
        .within(0, MAX_TOKEN_COUNT)
        .doc("Messages API: extended thinking with this budget (`thinking.budget_tokens`, below --max-tokens); " +
            "0: none.");
    public static final RunOption<String> EXTRA_BODY = model("extraBody", String.class).flag("--extra-body")
        .key("model.decoding.extra_body")
        .doc("JSON object merged into every request body.");

    // Workload (W): what is sent.
    public static final RunOption<Long> SEED = workload("seed", Long.class).flag("--seed").key("seed").defaultsTo(42L)
        .doc("Seed of prompts, lengths and arrivals.");
    public static final RunOption<Integer> INPUT_TOKENS = workload("inputTokens", Integer.class).flag("--input-tokens")
        .namedKey("workload.input_tokens").defaultsTo(128).unit("tokens").atLeast(1)
        .doc("Fixed prompt length, tokens.");
    public static final RunOption<String> PROMPT = workload("prompt", String.class).flag("--prompt")
        .key("workload.prompt").doc("One fixed prompt, or null.");
    public static final RunOption<LengthSpec> INPUT_LENGTHS = workload("inputLengths", LengthSpec.class)
        .namedKey("workload.input_tokens").unit("tokens")
        .doc("Input length distribution, tokens, or null for the fixed length.");
    public static final RunOption<LengthSpec> OUTPUT_LENGTHS = workload("outputLengths", LengthSpec.class)
        .namedKey("workload.output_tokens").unit("tokens")
        .doc("Output length distribution, tokens, or null for the model's `max_tokens`.");
    public static final RunOption<Double> LENGTH_CORRELATION = workload("lengthCorrelation", Double.class)
        .key("workload.correlation").defaultsTo(0.0).unit("rho").within(-1, 1)
        .doc("Gaussian-copula correlation of input and output lengths, in [-1, 1].");
    public static final RunOption<List<SegmentSpec>> SEGMENTS =
        RunOption.<List<SegmentSpec>>workload("segments", List.class).namedKey("workload.segments")
        .doc("Traffic segments, or null.");
    public static final RunOption<Path> DATASET = workload("dataset", Path.class).flag("--dataset")
        .key("workload.dataset.path").doc("A dataset or trace to replay instead of synthetic prompts, or null.");
    public static final RunOption<String> DATASET_FORMAT = workload("datasetFormat", String.class)
        .flag("--dataset-format").key("workload.dataset.format").defaultsTo("jsonl").oneOf(Datasets.FORMATS)
        .doc("jsonl (prompt or messages per line), sharegpt, or a trace: mooncake (Mooncake's and AIPerf's " +
            "mooncake_trace, sessions included), tracelab (TraceLab round traces), weka (Weka/AgentX cc-traces).");
    public static final RunOption<Integer> BLOCK_SIZE = workload("blockSize", Integer.class)
        .key("workload.dataset.block_size").unit("tokens").within(1, 1_000_000)
        .doc("Tokens per hash id of a trace, or null for the format's own (Mooncake 512, TraceLab 64; Weka traces " +
            "give theirs).");
    public static final RunOption<SharedPrefixes> PREFIXES = workload("prefixes", SharedPrefixes.class)
        .namedKey("workload.prefix").doc("Shared prompt prefixes, or null.");
    public static final RunOption<Double> CANCEL_RATE = workload("cancelRate", Double.class).flag("--cancel-rate")
        .key("workload.cancellation.rate").defaultsTo(0.0).unit("fraction").within(0, 1)
        .doc("Fraction of requests cancelled on purpose by the client (with --cancel-after-*).");
    public static final RunOption<Double> CANCEL_AFTER_MS = workload("cancelAfterMs", Double.class)
        .flag("--cancel-after-ms").key("workload.cancellation.after_ms").defaultsTo(0.0).unit("ms").atLeast(0)
        .doc("Cancel picked requests this long after send.");
    public static final RunOption<Integer> CANCEL_AFTER_TOKENS = workload("cancelAfterTokens", Integer.class)
        .flag("--cancel-after-tokens").key("workload.cancellation.after_tokens").defaultsTo(0).unit("tokens")
        .within(0, MAX_TOKEN_COUNT)
        .doc("Cancel picked requests once this many tokens (content chunks) arrived.");
    public static final RunOption<LengthSpec> SESSION_TURNS = workload("sessionTurns", LengthSpec.class)
        .flag("--turns").namedKey("workload.sessions.turns").unit("turns")
        .doc("Turns per session (distribution), for user-centric load.");
    public static final RunOption<LengthSpec> THINK_TIME_MS = workload("thinkTimeMs", LengthSpec.class)
        .flag("--think-ms").namedKey("workload.sessions.think_time_ms").unit("ms")
        .doc("Think time between turns, ms (distribution).");
    public static final RunOption<SessionChain> SESSION_CHAIN = workload("sessionChain", SessionChain.class)
        .flag("--session-chain").key("workload.sessions.chain").defaultsTo(SessionChain.HISTORY)
        .doc("How a session's next turn carries the conversation: history (resend every message) or " +
            "previous-response-id (Responses API: the new message and the last response's id).");
    public static final RunOption<Integer> EMBED_BATCH = workload("embedBatch", Integer.class).flag("--embed-batch")
        .key("workload.embed_batch").defaultsTo(1).unit("inputs").within(1, 100_000).within(1, 100_000)
        .doc("Embeddings: texts per request; rerank: documents per query. Each of the input length.");
    public static final RunOption<RerankShape> RERANK_SHAPE = workload("rerankShape", RerankShape.class)
        .flag("--rerank-shape").key("workload.rerank_shape").defaultsTo(RerankShape.DOCUMENTS)
        .doc("Rerank's request: documents (vLLM, Cohere, Jina, llama.cpp) or texts (Hugging Face TEI).");
    public static final RunOption<Integer> IMAGE_COUNT = workload("imageCount", Integer.class).flag("--image-count")
        .key("workload.images.count").defaultsTo(0).unit("images").within(0, 64).within(0, 64)
        .doc("Synthetic images added to every prompt, made from the seed (chat, responses, messages); 0: none.");
    public static final RunOption<String> IMAGE_SIZE = workload("imageSize", String.class).flag("--image-size")
        .key("workload.images.size").defaultsTo("512x512").label("WxH")
        .doc("The synthetic images' width x height, pixels.");
    public static final RunOption<ImageFormat> IMAGE_FORMAT = workload("imageFormat", ImageFormat.class)
        .flag("--image-format").key("workload.images.format").defaultsTo(ImageFormat.PNG)
        .doc("How the synthetic images are encoded: png or jpeg.");
    public static final RunOption<AgentSpec> AGENT = workload("agent", AgentSpec.class).flag("--agent-steps")
        .namedKey("workload.agent").doc("Tool-using agents, or null.");

    // Load (A): when it is sent.
    public static final RunOption<Integer> CONCURRENCY = loadShape("concurrency", Integer.class).flag("--concurrency")
        .key("load.concurrency").unit("requests").within(1, MAX_STREAMS)
        .doc("Closed loop: requests kept in flight, or null.");
    public static final RunOption<Double> RATE = loadShape("rate", Double.class).flag("--rate").key("load.rate")
        .unit("requests/s").above(0).doc("Open loop: arrivals per second, or null.");
    public static final RunOption<ArrivalProcess.Kind> ARRIVAL = loadShape("arrival", ArrivalProcess.Kind.class)
        .flag("--arrival").key("load.arrival").defaultsTo(ArrivalProcess.Kind.POISSON)
        .doc("The open loop's arrival process.");
    public static final RunOption<Double> BURSTINESS = loadShape("burstiness", Double.class).flag("--burstiness")
        .key("load.burstiness").defaultsTo(1.0).unit("shape k").above(0)
        .doc("Gamma shape of the arrival gaps (1: Poisson).");
    public static final RunOption<Integer> MAX_CONCURRENCY = loadShape("maxConcurrency", Integer.class)
        .flag("--max-concurrency").key("load.max_concurrency").unit("requests").within(1, MAX_STREAMS)
        .doc("Open loop or a fixed schedule: cap on requests in flight (none given: " +
            RunOptions.DEFAULT_OPEN_LOOP_CAP + ").");
    public static final RunOption<Integer> USERS = loadShape("users", Integer.class).flag("--users").key("load.users")
        .unit("users").within(1, MAX_STREAMS)
        .doc("User-centric load: simulated users running multi-turn sessions, or null.");
    public static final RunOption<Boolean> STICKY = loadShape("sticky", Boolean.class).flag("--sticky")
        .key("workload.sessions.sticky").defaultsTo(false).doc("Keep each simulated user on one connection.");
    public static final RunOption<RateSchedule.Ramp> RAMP = loadShape("ramp", RateSchedule.Ramp.class).flag("--ramp")
        .namedKey("load.ramp").doc("Open loop: a ramp of the rate before the measured stages, or null.");
    public static final RunOption<ConcurrencySchedule> CONCURRENCY_STAGES =
        loadShape("concurrencyStages", ConcurrencySchedule.class).flag("--concurrency-stage").namedKey("load.stages")
        .doc("Closed loop: stages of concurrency (a ramp included), or null.");
    public static final RunOption<List<RateSchedule.Stage>> STAGES =
        RunOption.<List<RateSchedule.Stage>>loadShape("stages", List.class).flag("--stage").namedKey("load.stages")
        .defaultsTo(List.of()).doc("Open loop: stages of constant rate; empty for one --rate.");
    public static final RunOption<Long> REQUESTS = loadShape("requests", Long.class).flag("--requests")
        .key("load.requests").unit("requests").atLeast(1)
        .doc("Measured requests to start (none given: 100, unless --duration, stages or a trace end the run).");
    public static final RunOption<Double> DURATION_S = loadShape("durationS", Double.class).flag("--duration")
        .key("load.duration_s").unit("s").above(0).doc("The measured window, s, or null.");
    public static final RunOption<Boolean> FIXED_SCHEDULE = loadShape("fixedSchedule", Boolean.class)
        .flag("--fixed-schedule").key("load.fixed_schedule").defaultsTo(false)
        .doc("Replay a trace (mooncake, tracelab, weka) on its own schedule: each request, or each session's first " +
            "turn, at its timestamp, each later turn by its delay (open loop).");
    public static final RunOption<Double> TRACE_SPEEDUP = loadShape("traceSpeedup", Double.class)
        .flag("--trace-speedup").key("load.trace_speedup").defaultsTo(1.0).unit("x").above(0)
        .doc("Replay a trace this many times faster: every timestamp and delay of the trace is divided by it.");
    public static final RunOption<Double> DRAIN_TIMEOUT_S = loadShape("drainTimeoutS", Double.class)
        .flag("--drain-timeout").key("load.drain_timeout_s").defaultsTo(60.0).unit("s").atLeast(0)
        .doc("Seconds to let in-flight requests finish after the last start; the rest are cancelled.");
    public static final RunOption<Double> GRACE_S = loadShape("graceS", Double.class).flag("--grace").defaultsTo(5.0)
        .unit("s").atLeast(0).doc("After Ctrl-C or SIGTERM, how long requests in flight may finish, s.");
    public static final RunOption<Scenario> SCENARIO = loadShape("scenario", Scenario.class).flag("--scenario")
        .key("load.scenario").spelled(Scenario::flagValue)
        .doc("An MLPerf-style load preset (Scenario), or null.");
    public static final RunOption<TailQuantile> MIN_SAMPLES_FOR = loadShape("minSamplesFor", TailQuantile.class)
        .flag("--min-samples-for").namedKey("load.min_samples_for")
        .doc("Size the measured request count for this percentile's 95% interval, or null.");

    // State (S): before the window.
    public static final RunOption<Long> WARMUP_REQUESTS = state("warmupRequests", Long.class).flag("--warmup-requests")
        .key("state.warmup.requests").defaultsTo(0L).unit("requests").atLeast(0)
        .doc("Requests run first and excluded from metrics.");
    public static final RunOption<Double> WARMUP_DURATION_S = state("warmupDurationS", Double.class)
        .flag("--warmup-duration").key("state.warmup.duration_s").defaultsTo(0.0).unit("s").atLeast(0)
        .doc("Seconds of warmup, excluded from metrics.");
    public static final RunOption<Boolean> COLD_START = state("coldStart", Boolean.class).flag("--cold-start")
        .key("state.cold_start").defaultsTo(false)
        .doc("Send the first request alone before the run and report it on its own as the cold start.");
    public static final RunOption<String> CACHE_POLICY = state("cachePolicy", String.class).namedKey("state.cache")
        .defaultsTo("preserve").oneOf(List.of("preserve", "flush", "preload"))
        .doc("Cache state policy: preserve, flush or preload.");
    public static final RunOption<String> FLUSH_URL = state("flushUrl", String.class).namedKey("state.flush.url")
        .doc("Where the flush policy sends its request, or null.");
    public static final RunOption<String> FLUSH_METHOD = state("flushMethod", String.class)
        .namedKey("state.flush.method").defaultsTo("POST").doc("The flush request's method.");
    public static final RunOption<Integer> REPETITIONS = state("repetitions", Integer.class).flag("--repetitions")
        .key("state.repetitions").defaultsTo(1).unit("runs").within(1, 1000)
        .doc("Repeat the whole run this many times.");
    public static final RunOption<Integer> REPETITION_INDEX = state("repetitionIndex", Integer.class).defaultsTo(0)
        .doc("Which repetition this run is (1-based), or 0 for a single run.");
    public static final RunOption<Boolean> SELF_WARMUP = state("selfWarmup", Boolean.class).flag("--no-self-warmup")
        .defaultsTo(true).doc("Warm the harness's own request path before the run (the system property " +
            "`tokenclock.selfWarmup=false` is the same as the flag).");
    public static final RunOption<Integer> PRECONNECT = state("preconnect", Integer.class).flag("--preconnect")
        .unit("connections").atLeast(0).doc("Connections to open before t0, or null for the expected concurrency.");

    // Measurement (E, H): how the client measures itself.
    public static final RunOption<Integer> IO_THREADS = measurement("ioThreads", Integer.class).flag("--io-threads")
        .key("measurement.io_threads").defaultsTo(0).unit("threads").within(0, 1024)
        .doc("Event loop threads (0: one per core).");
    public static final RunOption<Boolean> BUSY_POLL = measurement("busyPoll", Boolean.class).flag("--busy-poll")
        .defaultsTo(false)
        .doc("Precision mode: event loops busy-poll epoll instead of sleeping (no wake-up latency; costs a " +
            "core per --io-threads).");
    public static final RunOption<Stamping> STAMPING = measurement("stamping", Stamping.class).flag("--stamping")
        .key("measurement.stamping").defaultsTo(Stamping.KERNEL)
        .doc("Where each read's stamp comes from: the kernel (the default; user stamps in one line where it cannot) " +
            "or user space (Netty's event loop).");
    public static final RunOption<String> PACKET_TAP = measurement("packetTap", String.class).flag("--packet-tap")
        .defaultsTo(PacketTapChoice.DEFAULT.flagValue()).label("auto|off|IFACE")
        .doc("Stamp each read by a packet tap's arrival of its own last segment (AF_PACKET; kernel stamping only), " +
            "so that reads a stall merged keep their own arrivals: auto where the process may open a packet socket " +
            "(CAP_NET_RAW) and the target's interface is known, else one line says why; off; or an interface.");
    public static final RunOption<String> PROFILE = measurement("profile", String.class).flag("--profile")
        .oneOf(RunOptions.PROFILE_MODES).doc("async-profiler mode (cpu, wall, alloc, lock), or null.");
    public static final RunOption<Path> PROFILE_OUT = measurement("profileOut", Path.class).flag("--profile-out")
        .doc("Where profiles go, or null for the run directory.");
    public static final RunOption<Double> HICCUP_WARN_FRACTION = measurement("hiccupWarnFraction", Double.class)
        .flag("--hiccup-warn-fraction").key("measurement.hiccup_warn_fraction").defaultsTo(0.1).unit("fraction")
        .above(0)
        .doc("Warn when client hiccup p99 >= this fraction of inter-chunk latency p50.");
    public static final RunOption<Long> HICCUP_INTERVAL_US = measurement("hiccupIntervalUs", Long.class)
        .flag("--hiccup-interval-us").key("measurement.hiccup_interval_us").unit("us").within(100, 1_000_000)
        .doc("How often the client's hiccup monitor asks to wake, us (100 to 1000000); none given: 1000 " +
            "(jHiccup's) when reads are stamped in user space, 10000 when the kernel stamps them.");
    public static final RunOption<String> SERVER_METRICS = measurement("serverMetrics", String.class)
        .flag("--server-metrics").namedKey("measurement.server_metrics")
        .label("URL|off")
        .doc("Scrape the server's Prometheus metrics into server_metrics.jsonl during the run (default: the " +
            "--url's origin + /metrics; off: none).");
    public static final RunOption<Long> SERVER_METRICS_INTERVAL_MS = measurement("serverMetricsIntervalMs", Long.class)
        .flag("--server-metrics-interval-ms").key("measurement.server_metrics_interval_ms").defaultsTo(1000L)
        .unit("ms").within(100, 3_600_000)
        .doc("How often the server's metrics are scraped, ms (100 to 3600000).");

    // Quality (Q): RunOptions.Quality is built from these by hand (its rule joins three).
    public static final RunOption<Slo> SLO = define("slo", Slo.class).flag("--slo-ttft-ms").namedKey("quality.slo")
        .doc("The run's service-level objective for goodput, or null.");
    public static final RunOption<Boolean> ACCEPT_TRUNCATED = define("acceptTruncated", Boolean.class)
        .flag("--accept-truncated").defaultsTo(false)
        .doc("Count streams that end cleanly with neither a finish_reason nor [DONE] as ok, their tokens in " +
            "the metrics (they are counted as truncated either way).");
    public static final RunOption<String> QUALITY_SUCCESS = define("qualitySuccess", String.class)
        .key("quality.success").oneOf(List.of("none", "completed", "finish_stop"))
        .doc("The declared success criterion (`none`, `completed`, `finish_stop`), or null.");
    public static final RunOption<List<Check>> QUALITY_CHECKS =
        RunOption.<List<Check>>define("qualityChecks", List.class).flag("--quality-check").namedKey("quality.checks")
        .defaultsTo(List.of()).doc("The quality rule's built-in checks, in order; replaces any given before.");
    public static final RunOption<JudgeSpec> JUDGE = define("judge", JudgeSpec.class).namedKey("quality.judge")
        .doc("The quality rule's LLM judge, or null.");

    // Output: where the results go.
    public static final RunOption<Path> OUTPUT_DIR = output("outputDir", Path.class).flag("--output-dir")
        .key("output.dir")
        .doc("Where to write results (default: results/<run-id>).");
    public static final RunOption<String> RUN_ID = output("runId", String.class).flag("--run-id")
        .doc("The run's id, or null for one from the start time.");
    public static final RunOption<Boolean> FORCE = output("force", Boolean.class).flag("--force").defaultsTo(false)
        .doc("Replace a run directory that already holds a run.");
    public static final RunOption<Boolean> SAVE_TEXT = output("saveText", Boolean.class).flag("--save-text")
        .key("output.save_text").defaultsTo(false)
        .doc("Write each request's output text to requests.jsonl.");
    public static final RunOption<Boolean> PROGRESS = output("progress", Boolean.class).flag("--no-progress")
        .defaultsTo(false).doc("Draw the live progress line (only when stderr is a terminal).");
    public static final RunOption<Boolean> JFR_EVENTS = output("jfrEvents", Boolean.class).flag("--jfr-events")
        .defaultsTo(false)
        .doc("Commit a JFR event per finished request (TTFT, e2e, tokens, status) and record them with the " +
            "JVM's GC and thread events in requests.jfr.");
    public static final RunOption<Boolean> HTML_REPORT = output("htmlReport", Boolean.class).flag("--no-report")
        .defaultsTo(true).doc("Whether report.html is written when the run ends (`--no-report`: not; record.json, " +
            "requests.jsonl and the CSV files are written either way).");
    public static final RunOption<Boolean> VERBOSE = output("verbose", Boolean.class).flag("--verbose")
        .defaultsTo(false).doc("Print the client's internals after the summary (stamping, CPU by thread, JIT, " +
            "safepoints, the server's gauges) and every warning, not only the most serious one.");
    public static final RunOption<List<String>> COMMAND_LINE =
        RunOption.<List<String>>output("commandLine", List.class).defaultsTo(List.of())
        .doc("The command line that produced these options (never holds a credential).");
    public static final RunOption<ObjectNode> CONTRACT = output("contract", ObjectNode.class).flag("--config")
        .doc("The contract file as written (redacted), or null.");
    public static final RunOption<Path> CONTRACT_PATH = output("contractPath", Path.class).flag("--config")
        .doc("The contract file's path, or null.");

    // Folded into others by the rules, or groups of their own (cost, power, shard).
    public static final RunOption<RateSchedule.Ramp> CONCURRENCY_RAMP =
        define("concurrencyRamp", RateSchedule.Ramp.class).flag("--concurrency-ramp").namedKey("load.ramp")
        .doc("Closed loop: a ramp of the concurrency before the window; folded into the concurrency stages.");
    public static final RunOption<PriceModel> PRICE = define("price", PriceModel.class).flag("--price")
        .namedKey("cost").doc("The price model of the cost section, or null for none.");
    public static final RunOption<List<PowerSourceSpec>> POWER =
        RunOption.<List<PowerSourceSpec>>define("power", List.class).flag("--power").namedKey("power")
        .defaultsTo(List.of())
        .doc("The power sources of the energy section (replacing any given before); empty for none.");
    public static final RunOption<ShardSpec> SHARD = define("shard", ShardSpec.class).defaultsTo(ShardSpec.WHOLE)
        .doc("Makes this run one shard of several, with its common start (docs/CLI.md, \"Shards\").");


    private final String field;
    private final Class<?> type;
    private final Class<? extends Record> group;
    private final String component;
    private final String flag;
    private final String key;
    private final boolean readByType;
    private final T defaultValue;
    private final String unit;
    private final String label;
    private final Range range;
    private final List<String> words;
    private final Function<T, String> spelling;
    private final String doc;

    private RunOption(final Definition<T> d, final String doc)
    {
        this.field = d.field;
        this.type = d.type;
        this.group = d.group;
        this.component = d.component != null ? d.component : d.field;
        this.flag = d.flag;
        this.key = d.key;
        this.readByType = d.readByType;
        this.defaultValue = d.defaultValue;
        this.unit = d.unit;
        this.label = d.label;
        this.range = d.range;
        this.spelling = d.spelling;
        this.words = wordsOf(d);
        this.doc = doc;
    }

    /** @return every option, in the table's order (the order of docs/CLI.md's table). */
    public static List<RunOption<?>> all()
    {
        return Collections.unmodifiableList(TABLE);
    }

    /** @return the option whose flag is {@code flag}, or null (one flag may feed two fields: the first). */
    public static RunOption<?> byFlag(final String flag)
    {
        for (final RunOption<?> o : TABLE)
        {
            if (flag.equals(o.flag))
            {
                return o;
            }
        }
        return null;
    }

    /** @return the builder's name of the field, and the one {@link RunOptions}' record component carries. */
    public String field()
    {
        return field;
    }

    /** @return the value's class (raw for a generic type: {@code List}, {@code Map}). */
    public Class<?> type()
    {
        return type;
    }

    /** @return the {@link RunOptions} group record holding it, or null: the builder folds it into others. */
    public Class<? extends Record> group()
    {
        return group;
    }

    /** @return the name of its component in {@link #group()}'s record. */
    public String component()
    {
        return component;
    }

    /** @return its command-line flag, or null: it has none. */
    public String flag()
    {
        return flag;
    }

    /** @return its contract key, dotted from the root ({@code model.decoding.max_tokens}), or null: it has none. */
    public String key()
    {
        return key;
    }

    /**
     * @return whether the contract's value at {@link #key()} is read by {@link #type()} alone (a number, a string, a
     * boolean, a path or an enum's word); otherwise {@code contract.ContractOptions} reads the key by hand.
     */
    public boolean readByType()
    {
        return readByType;
    }

    /**
     * @return {@code value} as this option's type, for code that reads values by {@link #type()} (the contract).
     * @throws ClassCastException when it is of another type.
     */
    @SuppressWarnings("unchecked")
    public T cast(final Object value)
    {
        return (T)type.cast(value);
    }

    /** @return its default (immutable: a collection's is an empty immutable one). */
    public T defaultValue()
    {
        return defaultValue;
    }

    /**
     * @return the default as a flag's argument would spell it ({@code 600}, {@code chat}, {@code 0.1}), or null when
     * it has no such spelling: no default, a boolean switch, or a structured value.
     */
    public String defaultText()
    {
        final T value = defaultValue();
        if (value == null || value instanceof Boolean)
        {
            return null;
        }
        if (value instanceof Double d)
        {
            return d == Math.rint(d) && Math.abs(d) < 1e15 ? String.valueOf(d.longValue()) : String.valueOf(d);
        }
        if (value instanceof Enum<?>)
        {
            return word(value);
        }
        return value instanceof Number || value instanceof String ? String.valueOf(value) : null;
    }

    /** @return its unit ({@code s}, {@code ms}, {@code tokens}), or null: a word, a switch, or a count of nothing. */
    public String unit()
    {
        return unit;
    }

    /**
     * What {@code --help} shows for the flag's value: the entry's own label ({@code URL|off}), else one made from the
     * unit or the type: {@code S} for seconds, {@code MS}, {@code N} for a whole number, {@code X} for any other,
     * {@code PATH}, {@code TEXT}; null for a switch.
     *
     * @return the label of the flag's value.
     */
    public String label()
    {
        if (label != null || type == Boolean.class)
        {
            return label;
        }
        if (!words.isEmpty())
        {
            return String.join("|", words);
        }
        if ("s".equals(unit) || "ms".equals(unit))
        {
            return unit.toUpperCase(Locale.ROOT);
        }
        if (type == Integer.class || type == Long.class)
        {
            return "N";
        }
        return type == Double.class ? "X" : type == Path.class ? "PATH" : "TEXT";
    }

    /**
     * @return whether its value is plain: a number, a string, a path, a boolean or an enum's word (what a flag or a
     * contract's leaf can hold as it is, and the record copies); not a structure, a list or a map.
     */
    public boolean plain()
    {
        return type == String.class || type == Path.class || type == Integer.class || type == Long.class ||
            type == Double.class || type == Boolean.class || type.isEnum();
    }

    /** @return the numbers it may be, or null: any of its type (or not a number). */
    public Range range()
    {
        return range;
    }

    /**
     * @return the words it may be, in order: an enum's constants as {@link #word} spells them, or a string's declared
     * words ({@code jsonl}, {@code sharegpt}, {@code mooncake}); empty for any other option.
     */
    public List<String> words()
    {
        return words;
    }

    /** @return {@code value} as a flag or a contract spells it: an enum constant's word, else its text. */
    public String word(final T value)
    {
        if (spelling != null)
        {
            return spelling.apply(value);
        }
        return value instanceof Enum<?> e ? e.name().toLowerCase(Locale.ROOT) : String.valueOf(value);
    }

    /**
     * The one parser of a worded option's text, for its flag and its contract key alike: case, blanks, {@code -} and
     * {@code _} are alike ({@code previous-response-id} is {@code previous_response_id}).
     *
     * @param text what the user wrote.
     * @return the enum constant, or (a string option) the word as declared.
     * @throws IllegalArgumentException {@code must be a, b or c: text}, for the caller to prefix with the name.
     */
    public T parseWord(final String text)
    {
        final String wanted = comparable(text == null ? "" : text);
        final Object[] constants = type.isEnum() ? type.getEnumConstants() : words.toArray();
        for (final Object constant : constants)
        {
            if (comparable(word(cast(constant))).equals(wanted))
            {
                return cast(constant);
            }
        }
        throw new IllegalArgumentException("must be " + wordList() + ": " + text);
    }

    /**
     * The one range check of an option, whoever gave the value (a flag, a contract key, code): its rule, said once.
     *
     * @param name how the user named it ({@link RunOptionsBuilder#name}).
     * @param value its value; null (unset) passes.
     * @throws IllegalArgumentException {@code NAME must be RANGE[ UNIT]: VALUE}, or for words
     * {@code NAME must be a, b or c: VALUE}.
     */
    public void check(final String name, final Object value)
    {
        if (value == null)
        {
            return;
        }
        if (range != null && !range.holds(((Number)value).doubleValue()))
        {
            final boolean time = "s".equals(unit) || "ms".equals(unit) || "us".equals(unit);
            throw new IllegalArgumentException(name + " must be " + range.shown() + (time ? " " + unit : "") + ": " +
                value);
        }
        if (!words.isEmpty() && !type.isEnum() && !words.contains(String.valueOf(value)))
        {
            throw new IllegalArgumentException(name + " must be " + wordList() + ": " + value);
        }
    }

    /** @return {@code a, b or c}. */
    private String wordList()
    {
        final String all = String.join(", ", words);
        final int last = all.lastIndexOf(", ");
        return last < 0 ? all : all.substring(0, last) + " or " + all.substring(last + 2);
    }

    private static String comparable(final String word)
    {
        return word.strip().toLowerCase(Locale.ROOT).replace('-', '_');
    }

    @SuppressWarnings("unchecked")
    private static <T> List<String> wordsOf(final Definition<T> d)
    {
        if (d.words != null)
        {
            return d.words;
        }
        if (!d.type.isEnum())
        {
            return List.of();
        }
        final List<String> all = new ArrayList<>();
        for (final Object constant : d.type.getEnumConstants())
        {
            all.add(d.spelling != null ? d.spelling.apply((T)constant) :
                ((Enum<?>)constant).name().toLowerCase(Locale.ROOT));
        }
        return List.copyOf(all);
    }

    /** @return one line saying what it is. */
    public String doc()
    {
        return doc;
    }

    /**
     * @param fromContract whether the contract file gave the value.
     * @return how the user named it: the contract key when the contract gave it, else the flag; whichever exists.
     */
    String named(final boolean fromContract)
    {
        if (fromContract && key != null)
        {
            return key;
        }
        return flag != null ? flag : key != null ? key : field;
    }

    @Override
    public String toString()
    {
        return field;
    }

    private static <T> Definition<T> target(final String field, final Class<? super T> type)
    {
        return new Definition<T>(field, type).in(RunOptions.Target.class);
    }

    private static <T> Definition<T> model(final String field, final Class<? super T> type)
    {
        return new Definition<T>(field, type).in(RunOptions.Model.class);
    }

    private static <T> Definition<T> workload(final String field, final Class<? super T> type)
    {
        return new Definition<T>(field, type).in(RunOptions.Workload.class);
    }

    private static <T> Definition<T> loadShape(final String field, final Class<? super T> type)
    {
        return new Definition<T>(field, type).in(RunOptions.Load.class);
    }

    private static <T> Definition<T> state(final String field, final Class<? super T> type)
    {
        return new Definition<T>(field, type).in(RunOptions.State.class);
    }

    private static <T> Definition<T> measurement(final String field, final Class<? super T> type)
    {
        return new Definition<T>(field, type).in(RunOptions.Measurement.class);
    }

    private static <T> Definition<T> output(final String field, final Class<? super T> type)
    {
        return new Definition<T>(field, type).in(RunOptions.Output.class);
    }

    /**
     * @return an entry to be ended with {@link Definition#detached}: not in the table, in no {@link RunOptions} group.
     * For tests of what the table makes.
     */
    public static <T> Definition<T> entry(final String field, final Class<? super T> type)
    {
        return new Definition<>(field, type);
    }

    /** An option outside the groups that {@link RunOptionsBuilder#build()} fills by component name. */
    private static <T> Definition<T> define(final String field, final Class<? super T> type)
    {
        return new Definition<T>(field, type);
    }

    /**
     * The numbers an option may be: from {@code min} (or above it, {@code minExclusive}) to {@code max}, finite.
     * E.g. {@code --io-threads}: {@code [0, 1024]}, shown as {@code in [0, 1024]}; {@code --rate}: {@code > 0}.
     *
     * @param min          the lowest.
     * @param minExclusive whether {@code min} itself is outside.
     * @param max          the highest (infinite: no upper bound but finiteness).
     */
    public record Range(double min, boolean minExclusive, double max)
    {
        /** @return whether {@code value} is in the range (NaN and infinities never are). */
        public boolean holds(final double value)
        {
            return Double.isFinite(value) && (minExclusive ? value > min : value >= min) && value <= max;
        }

        /** @return {@code >= 0}, {@code > 0} or {@code in [100, 1000000]}. */
        public String shown()
        {
            if (Double.isInfinite(max))
            {
                return (minExclusive ? "> " : ">= ") + spell(min);
            }
            return "in " + (minExclusive ? "(" : "[") + spell(min) + ", " + spell(max) + "]";
        }

        private static String spell(final double v)
        {
            return v == Math.rint(v) && Math.abs(v) < 1e15 ? String.valueOf((long)v) : String.valueOf(v);
        }
    }

    /**
     * One entry of the table being written; {@link #doc} ends it and adds the option. Used while loading, and by
     * {@link #entry} for an entry outside the table.
     */
    public static final class Definition<T>
    {
        private final String field;
        private final Class<?> type;
        private Class<? extends Record> group;
        private String component;
        private String flag;
        private String key;
        private boolean readByType;
        private T defaultValue;
        private String unit;
        private String label;
        private Range range;
        private List<String> words;
        private Function<T, String> spelling;

        private Definition(final String field, final Class<?> type)
        {
            this.field = field;
            this.type = type;
        }

        private Definition<T> in(final Class<? extends Record> record)
        {
            this.group = record;
            return this;
        }

        /** Its record component has another name than the field. */
        public Definition<T> component(final String name)
        {
            this.component = name;
            return this;
        }

        /** Its command-line flag. */
        public Definition<T> flag(final String name)
        {
            this.flag = name;
            return this;
        }

        /** A contract key read by the value's type. */
        public Definition<T> key(final String dotted)
        {
            this.key = dotted;
            this.readByType = true;
            return this;
        }

        /** A contract key that names the option, read by {@code contract.ContractOptions}' own code. */
        public Definition<T> namedKey(final String dotted)
        {
            this.key = dotted;
            return this;
        }

        /** Its default: what a run holds when no one gives it. */
        public Definition<T> defaultsTo(final T value)
        {
            this.defaultValue = value;
            return this;
        }

        /** Its unit ({@code s}, {@code ms}, {@code tokens}). */
        public Definition<T> unit(final String name)
        {
            this.unit = name;
            return this;
        }

        /** The flag's value as {@code --help} names it, where the unit or the type would not say it. */
        public Definition<T> label(final String text)
        {
            this.label = text;
            return this;
        }

        /** A number at least {@code min}, finite. */
        public Definition<T> atLeast(final double min)
        {
            this.range = new Range(min, false, Double.POSITIVE_INFINITY);
            return this;
        }

        /** A number above {@code min}, finite. */
        public Definition<T> above(final double min)
        {
            this.range = new Range(min, true, Double.POSITIVE_INFINITY);
            return this;
        }

        /** A number in [{@code min}, {@code max}]. */
        public Definition<T> within(final double min, final double max)
        {
            this.range = new Range(min, false, max);
            return this;
        }

        /** A string that is one of these words. */
        public Definition<T> oneOf(final List<String> allowed)
        {
            this.words = List.copyOf(allowed);
            return this;
        }

        /** How an enum's constant is spelled, where its lower-case name is not how users write it. */
        public Definition<T> spelled(final Function<T, String> word)
        {
            this.spelling = word;
            return this;
        }

        /** Ends the entry with its one doc line and adds it to the table. */
        private RunOption<T> doc(final String line)
        {
            final RunOption<T> option = new RunOption<>(this, line);
            TABLE.add(option);
            return option;
        }

        /**
         * Ends an entry that is no part of the table: one a test builds to prove that everything made from the
         * table (flags, {@code --help}, the contract's keys, the range checks) takes a new entry with no other edit.
         */
        public RunOption<T> detached(final String line)
        {
            return new RunOption<>(this, line);
        }
    }
}
