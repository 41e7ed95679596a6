package io.tokenclock.config;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.node.ObjectNode;

import io.tokenclock.cost.PriceModel;
import io.tokenclock.energy.PowerSourceSpec;
import io.tokenclock.goodput.Slo;
import io.tokenclock.load.ArrivalProcess;
import io.tokenclock.load.ConcurrencySchedule;
import io.tokenclock.load.RateSchedule;
import io.tokenclock.quality.Check;
import io.tokenclock.quality.JudgeSpec;
import io.tokenclock.quality.QualityRule;
import io.tokenclock.transport.Stamping;
import io.tokenclock.transport.Endpoint;
import io.tokenclock.transport.RequestLimits;
import io.tokenclock.workload.SharedPrefixes;

/**
 * Collects a run's options from the contract file, the command line or code, then {@link #build()}s them into
 * {@link RunOptions} through the one set of rules ({@link RunRules}). Each value remembers where it came from
 * ({@link #from(Source)}), so that an error names the flag or the contract key the user wrote.
 * <p>
 * Not thread-safe; one builder per run. Its fields are package-private for {@link RunRules} alone: everything else
 * sets them through the named setters and reads the built {@link RunOptions}.
 */
public final class RunOptionsBuilder
{
    /** Where a value came from: the error messages name it the way the user gave it. */
    public enum Source
    {
        /** A command-line flag, or code: named by its flag. */
        FLAG,
        /** The contract file: named by its key. */
        CONTRACT
    }

    String url;
    Endpoint.Api api = Endpoint.Api.CHAT;
    Map<String, String> headers = new LinkedHashMap<>();
    String apiKeyEnv = "OPENAI_API_KEY";
    boolean preflight = true;
    double waitReadyS = 0;
    Path caCert;
    boolean insecure = false;
    double connectTimeoutS = RequestLimits.DEFAULT.connectNs() / 1e9;
    double firstByteTimeoutS = 0;
    double idleTimeoutS = 0;
    double timeoutS = 600;
    int retries429 = 0;
    int maxEventBytes = RequestLimits.DEFAULT.maxEventBytes();
    int maxOutputBytes = RequestLimits.DEFAULT.maxOutputBytes();
    String model;
    String tokenizer;
    int maxTokens = 256;
    boolean ignoreEos = false;
    Double temperature;
    String extraBody;
    long seed = 42;
    int inputTokens = 128;
    String prompt;
    LengthSpec inputLengths;
    LengthSpec outputLengths;
    double lengthCorrelation = 0;
    List<SegmentSpec> segments;
    Path dataset;
    String datasetFormat = "jsonl";
    int blockSize = 512;
    SharedPrefixes prefixes;
    double cancelRate = 0;
    double cancelAfterMs = 0;
    int cancelAfterTokens = 0;
    LengthSpec sessionTurns;
    LengthSpec thinkTimeMs;
    AgentSpec agent;
    Integer concurrency;
    Double rate;
    ArrivalProcess.Kind arrival = ArrivalProcess.Kind.POISSON;
    double burstiness = 1.0;
    Integer maxConcurrency;
    Integer users;
    boolean sticky = false;
    RateSchedule.Ramp ramp;
    ConcurrencySchedule concurrencyStages;
    List<RateSchedule.Stage> stages = new ArrayList<>();
    Long requests;
    Double durationS;
    boolean fixedSchedule = false;
    double drainTimeoutS = 60;
    double graceS = 5;
    Scenario scenario;
    TailQuantile minSamplesFor;
    long warmupRequests = 0;
    double warmupDurationS = 0;
    boolean coldStart = false;
    String cachePolicy = "preserve";
    String flushUrl;
    String flushMethod = "POST";
    int repetitions = 1;
    int repetitionIndex = 0;
    boolean selfWarmup = !"false".equals(System.getProperty("tokenclock.selfWarmup"));
    boolean selfWarmupRun = false;
    Integer preconnect;
    int ioThreads = 0;
    boolean busyPoll = false;
    Stamping stamping = Stamping.USER;
    String profile;
    Path profileOut;
    double hiccupWarnFraction = 0.1;
    String serverMetrics;
    long serverMetricsIntervalMs = 1000;
    Slo slo;
    boolean acceptTruncated = false;
    String qualitySuccess;
    List<Check> qualityChecks = List.of();
    JudgeSpec judge;
    Path outputDir;
    String runId;
    boolean force = false;
    boolean saveText = false;
    boolean progress = false;
    boolean jfrEvents = false;
    boolean htmlReport = true;
    List<String> commandLine = List.of();
    ObjectNode contract;
    Path contractPath;
    RateSchedule.Ramp concurrencyRamp;
    PriceModel price;
    List<PowerSourceSpec> power = new ArrayList<>();
    ShardSpec shard = ShardSpec.WHOLE;

    private Source source = Source.FLAG;
    private final Map<String, Source> given = new LinkedHashMap<>();

    RunOptionsBuilder()
    {
    }

    RunOptionsBuilder(final RunOptions o)
    {
        copy(o.target());
        copy(o.model());
        copy(o.workload());
        copy(o.load());
        copy(o.state());
        copy(o.measurement());
        copy(o.quality());
        copy(o.output());
        price = o.cost().price();
        power = new ArrayList<>(o.power().sources());
        shard = o.shard();
    }


    private void copy(final RunOptions.Target t)
    {
        url = t.url();
        api = t.api();
        headers = new LinkedHashMap<>(t.headers());
        apiKeyEnv = t.apiKeyEnv();
        preflight = t.preflight();
        waitReadyS = t.waitReadyS();
        caCert = t.caCert();
        insecure = t.insecure();
        connectTimeoutS = t.connectTimeoutS();
        firstByteTimeoutS = t.firstByteTimeoutS();
        idleTimeoutS = t.idleTimeoutS();
        timeoutS = t.timeoutS();
        retries429 = t.retries429();
        maxEventBytes = t.maxEventBytes();
        maxOutputBytes = t.maxOutputBytes();
    }

    private void copy(final RunOptions.Model m)
    {
        model = m.name();
        tokenizer = m.tokenizer();
        maxTokens = m.maxTokens();
        ignoreEos = m.ignoreEos();
        temperature = m.temperature();
        extraBody = m.extraBody();
    }

    private void copy(final RunOptions.Workload w)
    {
        seed = w.seed();
        inputTokens = w.inputTokens();
        prompt = w.prompt();
        inputLengths = w.inputLengths();
        outputLengths = w.outputLengths();
        lengthCorrelation = w.lengthCorrelation();
        segments = w.segments();
        dataset = w.dataset();
        datasetFormat = w.datasetFormat();
        blockSize = w.blockSize();
        prefixes = w.prefixes();
        cancelRate = w.cancelRate();
        cancelAfterMs = w.cancelAfterMs();
        cancelAfterTokens = w.cancelAfterTokens();
        sessionTurns = w.sessionTurns();
        thinkTimeMs = w.thinkTimeMs();
        agent = w.agent();
    }

    private void copy(final RunOptions.Load l)
    {
        concurrency = l.concurrency();
        rate = l.rate();
        arrival = l.arrival();
        burstiness = l.burstiness();
        maxConcurrency = l.maxConcurrency();
        users = l.users();
        sticky = l.sticky();
        ramp = l.ramp();
        concurrencyStages = l.concurrencyStages();
        stages = new ArrayList<>(l.stages());
        requests = l.requests();
        durationS = l.durationS();
        fixedSchedule = l.fixedSchedule();
        drainTimeoutS = l.drainTimeoutS();
        graceS = l.graceS();
        scenario = l.scenario();
        minSamplesFor = l.minSamplesFor();
    }

    private void copy(final RunOptions.State s)
    {
        warmupRequests = s.warmupRequests();
        warmupDurationS = s.warmupDurationS();
        coldStart = s.coldStart();
        cachePolicy = s.cachePolicy();
        flushUrl = s.flushUrl();
        flushMethod = s.flushMethod();
        repetitions = s.repetitions();
        repetitionIndex = s.repetitionIndex();
        selfWarmup = s.selfWarmup();
        selfWarmupRun = s.selfWarmupRun();
        preconnect = s.preconnect();
    }

    private void copy(final RunOptions.Measurement m)
    {
        ioThreads = m.ioThreads();
        busyPoll = m.busyPoll();
        stamping = m.stamping();
        profile = m.profile();
        profileOut = m.profileOut();
        hiccupWarnFraction = m.hiccupWarnFraction();
        serverMetrics = m.serverMetrics();
        serverMetricsIntervalMs = m.serverMetricsIntervalMs();
    }

    private void copy(final RunOptions.Quality q)
    {
        slo = q.slo();
        acceptTruncated = q.acceptTruncated();
        qualitySuccess = q.rule().success();
        qualityChecks = q.rule().checks();
        judge = q.rule().judge();
    }

    private void copy(final RunOptions.Output o)
    {
        outputDir = o.outputDir();
        runId = o.runId();
        force = o.force();
        saveText = o.saveText();
        progress = o.progress();
        jfrEvents = o.jfrEvents();
        htmlReport = o.htmlReport();
        commandLine = o.commandLine();
        contract = o.contract();
        contractPath = o.contractPath();
    }


    /** Values set from now on are named as the given source names them in errors. */
    public RunOptionsBuilder from(final Source from)
    {
        this.source = from;
        return this;
    }

    /** The API base URL, e.g. {@code http://127.0.0.1:8000/v1}. */
    public RunOptionsBuilder url(final String url)
    {
        this.url = url;
        given.put("url", source);
        return this;
    }

    /** Chat or text completions. */
    public RunOptionsBuilder api(final Endpoint.Api api)
    {
        this.api = api;
        given.put("api", source);
        return this;
    }

    /** Extra request headers (credentials never written out). */
    public RunOptionsBuilder headers(final Map<String, String> headers)
    {
        this.headers = new LinkedHashMap<>(headers);
        given.put("headers", source);
        return this;
    }

    /** The environment variable holding the API key. */
    public RunOptionsBuilder apiKeyEnv(final String apiKeyEnv)
    {
        this.apiKeyEnv = apiKeyEnv;
        given.put("apiKeyEnv", source);
        return this;
    }

    /** List the models and send one request before the run. */
    public RunOptionsBuilder preflight(final boolean preflight)
    {
        this.preflight = preflight;
        given.put("preflight", source);
        return this;
    }

    /** How long to wait for a server that is starting or loading, s. */
    public RunOptionsBuilder waitReadyS(final double waitReadyS)
    {
        this.waitReadyS = waitReadyS;
        given.put("waitReadyS", source);
        return this;
    }

    /** A PEM file of CAs to trust for https instead of the JDK's, or null. */
    public RunOptionsBuilder caCert(final Path caCert)
    {
        this.caCert = caCert;
        given.put("caCert", source);
        return this;
    }

    /** Accept any server certificate (recorded and shown). */
    public RunOptionsBuilder insecure(final boolean insecure)
    {
        this.insecure = insecure;
        given.put("insecure", source);
        return this;
    }

    /** Opening a connection, s (0: none). */
    public RunOptionsBuilder connectTimeoutS(final double connectTimeoutS)
    {
        this.connectTimeoutS = connectTimeoutS;
        given.put("connectTimeoutS", source);
        return this;
    }

    /** Send to the first byte of the response, s (0: none). */
    public RunOptionsBuilder firstByteTimeoutS(final double firstByteTimeoutS)
    {
        this.firstByteTimeoutS = firstByteTimeoutS;
        given.put("firstByteTimeoutS", source);
        return this;
    }

    /** The longest silence mid-response, s (0: none). */
    public RunOptionsBuilder idleTimeoutS(final double idleTimeoutS)
    {
        this.idleTimeoutS = idleTimeoutS;
        given.put("idleTimeoutS", source);
        return this;
    }

    /** A whole request, s. */
    public RunOptionsBuilder timeoutS(final double timeoutS)
    {
        this.timeoutS = timeoutS;
        given.put("timeoutS", source);
        return this;
    }

    /** How many times a request answered 429 is sent again after its Retry-After. */
    public RunOptionsBuilder retries429(final int retries429)
    {
        this.retries429 = retries429;
        given.put("retries429", source);
        return this;
    }

    /** The longest SSE event kept, bytes. */
    public RunOptionsBuilder maxEventBytes(final int maxEventBytes)
    {
        this.maxEventBytes = maxEventBytes;
        given.put("maxEventBytes", source);
        return this;
    }

    /** The most answer text kept per request, bytes. */
    public RunOptionsBuilder maxOutputBytes(final int maxOutputBytes)
    {
        this.maxOutputBytes = maxOutputBytes;
        given.put("maxOutputBytes", source);
        return this;
    }

    /** The model to ask for, or null for the first the server lists. */
    public RunOptionsBuilder model(final String model)
    {
        this.model = model;
        given.put("model", source);
        return this;
    }

    /** cl100k_base, o200k_base, words, or a tokenizer.json path; or null. */
    public RunOptionsBuilder tokenizer(final String tokenizer)
    {
        this.tokenizer = tokenizer;
        given.put("tokenizer", source);
        return this;
    }

    /** max_tokens of every request (0 leaves it to the server). */
    public RunOptionsBuilder maxTokens(final int maxTokens)
    {
        this.maxTokens = maxTokens;
        given.put("maxTokens", source);
        return this;
    }

    /** Ask the server to ignore end-of-sequence. */
    public RunOptionsBuilder ignoreEos(final boolean ignoreEos)
    {
        this.ignoreEos = ignoreEos;
        given.put("ignoreEos", source);
        return this;
    }

    /** Sampling temperature, or null for the server's. */
    public RunOptionsBuilder temperature(final Double temperature)
    {
        this.temperature = temperature;
        given.put("temperature", source);
        return this;
    }

    /** JSON merged into every request body, or null. */
    public RunOptionsBuilder extraBody(final String extraBody)
    {
        this.extraBody = extraBody;
        given.put("extraBody", source);
        return this;
    }

    /** Seed of prompts, lengths and arrivals. */
    public RunOptionsBuilder seed(final long seed)
    {
        this.seed = seed;
        given.put("seed", source);
        return this;
    }

    /** Fixed prompt length, tokens. */
    public RunOptionsBuilder inputTokens(final int inputTokens)
    {
        this.inputTokens = inputTokens;
        given.put("inputTokens", source);
        return this;
    }

    /** One fixed prompt, or null. */
    public RunOptionsBuilder prompt(final String prompt)
    {
        this.prompt = prompt;
        given.put("prompt", source);
        return this;
    }

    /** Input length distribution, tokens, or null for the fixed length. */
    public RunOptionsBuilder inputLengths(final LengthSpec inputLengths)
    {
        this.inputLengths = inputLengths;
        given.put("inputLengths", source);
        return this;
    }

    /** Output length distribution, tokens, or null for the model's {@code max_tokens}. */
    public RunOptionsBuilder outputLengths(final LengthSpec outputLengths)
    {
        this.outputLengths = outputLengths;
        given.put("outputLengths", source);
        return this;
    }

    /** Gaussian-copula correlation of input and output lengths, in [-1, 1]. */
    public RunOptionsBuilder lengthCorrelation(final double lengthCorrelation)
    {
        this.lengthCorrelation = lengthCorrelation;
        given.put("lengthCorrelation", source);
        return this;
    }

    /** Traffic segments, or null. */
    public RunOptionsBuilder segments(final List<SegmentSpec> segments)
    {
        this.segments = segments;
        given.put("segments", source);
        return this;
    }

    /** A dataset or trace to replay instead of synthetic prompts, or null. */
    public RunOptionsBuilder dataset(final Path dataset)
    {
        this.dataset = dataset;
        given.put("dataset", source);
        return this;
    }

    /** The dataset's format. */
    public RunOptionsBuilder datasetFormat(final String datasetFormat)
    {
        this.datasetFormat = datasetFormat;
        given.put("datasetFormat", source);
        return this;
    }

    /** Tokens per Mooncake hash_ids block. */
    public RunOptionsBuilder blockSize(final int blockSize)
    {
        this.blockSize = blockSize;
        given.put("blockSize", source);
        return this;
    }

    /** Shared prompt prefixes, or null. */
    public RunOptionsBuilder prefixes(final SharedPrefixes prefixes)
    {
        this.prefixes = prefixes;
        given.put("prefixes", source);
        return this;
    }

    /** Fraction of requests the client cancels. */
    public RunOptionsBuilder cancelRate(final double cancelRate)
    {
        this.cancelRate = cancelRate;
        given.put("cancelRate", source);
        return this;
    }

    /** Cancel after this long, ms (0: not by time). */
    public RunOptionsBuilder cancelAfterMs(final double cancelAfterMs)
    {
        this.cancelAfterMs = cancelAfterMs;
        given.put("cancelAfterMs", source);
        return this;
    }

    /** Cancel after this many tokens (0: not by tokens). */
    public RunOptionsBuilder cancelAfterTokens(final int cancelAfterTokens)
    {
        this.cancelAfterTokens = cancelAfterTokens;
        given.put("cancelAfterTokens", source);
        return this;
    }

    /** Turns per session (distribution), for user-centric load. */
    public RunOptionsBuilder sessionTurns(final LengthSpec sessionTurns)
    {
        this.sessionTurns = sessionTurns;
        given.put("sessionTurns", source);
        return this;
    }

    /** Think time between turns, ms (distribution). */
    public RunOptionsBuilder thinkTimeMs(final LengthSpec thinkTimeMs)
    {
        this.thinkTimeMs = thinkTimeMs;
        given.put("thinkTimeMs", source);
        return this;
    }

    /** Tool-using agents, or null. */
    public RunOptionsBuilder agent(final AgentSpec agent)
    {
        this.agent = agent;
        given.put("agent", source);
        return this;
    }

    /** Closed loop: requests kept in flight, or null. */
    public RunOptionsBuilder concurrency(final Integer concurrency)
    {
        this.concurrency = concurrency;
        given.put("concurrency", source);
        return this;
    }

    /** Open loop: arrivals per second, or null. */
    public RunOptionsBuilder rate(final Double rate)
    {
        this.rate = rate;
        given.put("rate", source);
        return this;
    }

    /** The open loop's arrival process. */
    public RunOptionsBuilder arrival(final ArrivalProcess.Kind arrival)
    {
        this.arrival = arrival;
        given.put("arrival", source);
        return this;
    }

    /** Gamma shape of the arrival gaps (1: Poisson). */
    public RunOptionsBuilder burstiness(final double burstiness)
    {
        this.burstiness = burstiness;
        given.put("burstiness", source);
        return this;
    }

    /** Open loop: cap on requests in flight, or null. */
    public RunOptionsBuilder maxConcurrency(final Integer maxConcurrency)
    {
        this.maxConcurrency = maxConcurrency;
        given.put("maxConcurrency", source);
        return this;
    }

    /** User-centric load: simulated users running multi-turn sessions, or null. */
    public RunOptionsBuilder users(final Integer users)
    {
        this.users = users;
        given.put("users", source);
        return this;
    }

    /** Keep each simulated user on one connection. */
    public RunOptionsBuilder sticky(final boolean sticky)
    {
        this.sticky = sticky;
        given.put("sticky", source);
        return this;
    }

    /** Open loop: a ramp of the rate before the measured stages, or null. */
    public RunOptionsBuilder ramp(final RateSchedule.Ramp ramp)
    {
        this.ramp = ramp;
        given.put("ramp", source);
        return this;
    }

    /** Closed loop: stages of concurrency (a ramp included), or null. */
    public RunOptionsBuilder concurrencyStages(final ConcurrencySchedule concurrencyStages)
    {
        this.concurrencyStages = concurrencyStages;
        given.put("concurrencyStages", source);
        return this;
    }

    /** Open loop: stages of constant rate; empty for one --rate. */
    public RunOptionsBuilder stages(final List<RateSchedule.Stage> stages)
    {
        this.stages = new ArrayList<>(stages);
        given.put("stages", source);
        return this;
    }

    /** Measured requests, or null when the duration ends the run. */
    public RunOptionsBuilder requests(final Long requests)
    {
        this.requests = requests;
        given.put("requests", source);
        return this;
    }

    /** The measured window, s, or null. */
    public RunOptionsBuilder durationS(final Double durationS)
    {
        this.durationS = durationS;
        given.put("durationS", source);
        return this;
    }

    /** Replay a trace's own timestamps as the schedule. */
    public RunOptionsBuilder fixedSchedule(final boolean fixedSchedule)
    {
        this.fixedSchedule = fixedSchedule;
        given.put("fixedSchedule", source);
        return this;
    }

    /** How long requests in flight may finish after the window, s. */
    public RunOptionsBuilder drainTimeoutS(final double drainTimeoutS)
    {
        this.drainTimeoutS = drainTimeoutS;
        given.put("drainTimeoutS", source);
        return this;
    }

    /** After Ctrl-C or SIGTERM, how long requests in flight may finish, s. */
    public RunOptionsBuilder graceS(final double graceS)
    {
        this.graceS = graceS;
        given.put("graceS", source);
        return this;
    }

    /** An MLPerf-style load preset ({@link Scenario}), or null. */
    public RunOptionsBuilder scenario(final Scenario scenario)
    {
        this.scenario = scenario;
        given.put("scenario", source);
        return this;
    }

    /** Size the measured request count for this percentile's 95% interval, or null. */
    public RunOptionsBuilder minSamplesFor(final TailQuantile minSamplesFor)
    {
        this.minSamplesFor = minSamplesFor;
        given.put("minSamplesFor", source);
        return this;
    }

    /** Warm-up requests before the window. */
    public RunOptionsBuilder warmupRequests(final long warmupRequests)
    {
        this.warmupRequests = warmupRequests;
        given.put("warmupRequests", source);
        return this;
    }

    /** Warm-up time before the window, s. */
    public RunOptionsBuilder warmupDurationS(final double warmupDurationS)
    {
        this.warmupDurationS = warmupDurationS;
        given.put("warmupDurationS", source);
        return this;
    }

    /** Send request 0 alone first and report it as the cold start. */
    public RunOptionsBuilder coldStart(final boolean coldStart)
    {
        this.coldStart = coldStart;
        given.put("coldStart", source);
        return this;
    }

    /** Cache state policy: preserve, flush or preload. */
    public RunOptionsBuilder cachePolicy(final String cachePolicy)
    {
        this.cachePolicy = cachePolicy;
        given.put("cachePolicy", source);
        return this;
    }

    /** Where the flush policy sends its request, or null. */
    public RunOptionsBuilder flushUrl(final String flushUrl)
    {
        this.flushUrl = flushUrl;
        given.put("flushUrl", source);
        return this;
    }

    /** The flush request's method. */
    public RunOptionsBuilder flushMethod(final String flushMethod)
    {
        this.flushMethod = flushMethod;
        given.put("flushMethod", source);
        return this;
    }

    /** Repeat the whole run this many times. */
    public RunOptionsBuilder repetitions(final int repetitions)
    {
        this.repetitions = repetitions;
        given.put("repetitions", source);
        return this;
    }

    /** Which repetition this run is (1-based), or 0 for a single run. */
    public RunOptionsBuilder repetitionIndex(final int repetitionIndex)
    {
        this.repetitionIndex = repetitionIndex;
        given.put("repetitionIndex", source);
        return this;
    }

    /** Warm the harness's own request path before the run. */
    public RunOptionsBuilder selfWarmup(final boolean selfWarmup)
    {
        this.selfWarmup = selfWarmup;
        given.put("selfWarmup", source);
        return this;
    }

    /** Set on the self-warm-up's own runs: they write no record and warm nothing. */
    public RunOptionsBuilder selfWarmupRun(final boolean selfWarmupRun)
    {
        this.selfWarmupRun = selfWarmupRun;
        given.put("selfWarmupRun", source);
        return this;
    }

    /** Connections to open before t0, or null for the expected concurrency. */
    public RunOptionsBuilder preconnect(final Integer preconnect)
    {
        this.preconnect = preconnect;
        given.put("preconnect", source);
        return this;
    }

    /** Event loops (0: one per core). */
    public RunOptionsBuilder ioThreads(final int ioThreads)
    {
        this.ioThreads = ioThreads;
        given.put("ioThreads", source);
        return this;
    }

    /** Where each read's stamp comes from ({@code --stamping}, {@code measurement.stamping}). */
    public RunOptionsBuilder stamping(final Stamping stamping)
    {
        this.stamping = stamping;
        given.put("stamping", source);
        return this;
    }

    /** Precision mode: the event loops busy-poll epoll instead of sleeping in it. */
    public RunOptionsBuilder busyPoll(final boolean busyPoll)
    {
        this.busyPoll = busyPoll;
        given.put("busyPoll", source);
        return this;
    }

    /** async-profiler mode (cpu, wall, alloc, lock), or null. */
    public RunOptionsBuilder profile(final String profile)
    {
        this.profile = profile;
        given.put("profile", source);
        return this;
    }

    /** Where profiles go, or null for the run directory. */
    public RunOptionsBuilder profileOut(final Path profileOut)
    {
        this.profileOut = profileOut;
        given.put("profileOut", source);
        return this;
    }

    /** Warn when the hiccup p99 reaches this fraction of ITL p50. */
    public RunOptionsBuilder hiccupWarnFraction(final double hiccupWarnFraction)
    {
        this.hiccupWarnFraction = hiccupWarnFraction;
        given.put("hiccupWarnFraction", source);
        return this;
    }

    /** The server's Prometheus metrics URL, {@code off}, or null for the target's origin + {@code /metrics}. */
    public RunOptionsBuilder serverMetrics(final String serverMetrics)
    {
        this.serverMetrics = serverMetrics;
        given.put("serverMetrics", source);
        return this;
    }

    /** How often the server's metrics are scraped, ms (at least 100). */
    public RunOptionsBuilder serverMetricsIntervalMs(final long serverMetricsIntervalMs)
    {
        this.serverMetricsIntervalMs = serverMetricsIntervalMs;
        given.put("serverMetricsIntervalMs", source);
        return this;
    }

    /** The run's service-level objective for goodput, or null. */
    public RunOptionsBuilder slo(final Slo slo)
    {
        this.slo = slo;
        given.put("slo", source);
        return this;
    }

    /** The declared success criterion ({@code none}, {@code completed}, {@code finish_stop}), or null. */
    public RunOptionsBuilder qualitySuccess(final String success)
    {
        this.qualitySuccess = success;
        given.put("qualitySuccess", source);
        return this;
    }

    /** The quality rule's built-in checks, in order; replaces any given before. */
    public RunOptionsBuilder qualityChecks(final List<Check> checks)
    {
        this.qualityChecks = List.copyOf(checks);
        given.put("qualityChecks", source);
        return this;
    }

    /** The quality rule's LLM judge, or null. */
    public RunOptionsBuilder judge(final JudgeSpec spec)
    {
        this.judge = spec;
        given.put("judge", source);
        return this;
    }

    /** Take streams that end with neither finish_reason nor [DONE] as ok. */
    public RunOptionsBuilder acceptTruncated(final boolean acceptTruncated)
    {
        this.acceptTruncated = acceptTruncated;
        given.put("acceptTruncated", source);
        return this;
    }

    /** The run directory, or null for results/RUN_ID. */
    public RunOptionsBuilder outputDir(final Path outputDir)
    {
        this.outputDir = outputDir;
        given.put("outputDir", source);
        return this;
    }

    /** The run's id, or null for one from the start time. */
    public RunOptionsBuilder runId(final String runId)
    {
        this.runId = runId;
        given.put("runId", source);
        return this;
    }

    /** Replace a run directory that already holds a run. */
    public RunOptionsBuilder force(final boolean force)
    {
        this.force = force;
        given.put("force", source);
        return this;
    }

    /** Keep every answer's text in requests.jsonl. */
    public RunOptionsBuilder saveText(final boolean saveText)
    {
        this.saveText = saveText;
        given.put("saveText", source);
        return this;
    }

    /** Commit a JFR event per finished request, and record them with the JVM's own events in requests.jfr. */
    public RunOptionsBuilder jfrEvents(final boolean jfrEvents)
    {
        this.jfrEvents = jfrEvents;
        given.put("jfrEvents", source);
        return this;
    }

    /** Write report.html (and the CSV files) when the run ends. */
    public RunOptionsBuilder htmlReport(final boolean htmlReport)
    {
        this.htmlReport = htmlReport;
        given.put("htmlReport", source);
        return this;
    }

    /** Draw the live progress line (only when stderr is a terminal). */
    public RunOptionsBuilder progress(final boolean progress)
    {
        this.progress = progress;
        given.put("progress", source);
        return this;
    }

    /** The command line that produced these options (never holds a credential). */
    public RunOptionsBuilder commandLine(final List<String> commandLine)
    {
        this.commandLine = commandLine;
        given.put("commandLine", source);
        return this;
    }

    /** The contract file as written (redacted), or null. */
    public RunOptionsBuilder contract(final ObjectNode contract)
    {
        this.contract = contract;
        given.put("contract", source);
        return this;
    }

    /** The contract file's path, or null. */
    public RunOptionsBuilder contractPath(final Path contractPath)
    {
        this.contractPath = contractPath;
        given.put("contractPath", source);
        return this;
    }

    /** Closed loop: a ramp of the concurrency before the window; folded into the concurrency stages. */
    public RunOptionsBuilder concurrencyRamp(final RateSchedule.Ramp concurrencyRamp)
    {
        this.concurrencyRamp = concurrencyRamp;
        given.put("concurrencyRamp", source);
        return this;
    }

    /** The price model of the cost section, or null for none. */
    public RunOptionsBuilder price(final PriceModel price)
    {
        this.price = price;
        given.put("price", source);
        return this;
    }

    /** The power sources of the energy section (replacing any given before); empty for none. */
    public RunOptionsBuilder power(final List<PowerSourceSpec> power)
    {
        this.power = new ArrayList<>(power);
        given.put("power", source);
        return this;
    }

    /** Adds one request header. */
    public RunOptionsBuilder header(final String name, final String value)
    {
        headers.put(name, value);
        given.put("headers", source);
        return this;
    }

    /** Makes this run one shard of several, with its common start (docs/CLI.md, "Shards"). */
    public RunOptionsBuilder shard(final ShardSpec part)
    {
        this.shard = part;
        given.put("shard", source);
        return this;
    }

    /** Adds one open-loop stage. */
    public RunOptionsBuilder stage(final RateSchedule.Stage stage)
    {
        stages.add(stage);
        given.put("stages", source);
        return this;
    }

    /**
     * @return how the user named {@code field}: its contract key when the contract gave it, its flag when a flag did;
     * a field no one gave is named the way the last source speaks (a contract checked alone names its keys).
     */
    String name(final String field)
    {
        final String[] names = Names.of(field);
        final Source from = given.getOrDefault(field, source);
        return from == Source.CONTRACT && names[1] != null ? names[1] : names[0] != null ? names[0] : names[1];
    }

    /** @return whether {@code field} was set, by any source. */
    boolean isGiven(final String field)
    {
        return given.containsKey(field);
    }

    /**
     * Applies every rule ({@link RunRules}), fills the defaults that depend on other options, and builds.
     *
     * @throws IllegalArgumentException with one line naming the flag or key at fault.
     */
    public RunOptions build()
    {
        RunRules.check(this);
        return new RunOptions(
            new RunOptions.Target(url, api, headers, apiKeyEnv, preflight, waitReadyS, caCert, insecure,
                connectTimeoutS, firstByteTimeoutS, idleTimeoutS, timeoutS, retries429, maxEventBytes, maxOutputBytes),
            new RunOptions.Model(model, tokenizer, maxTokens, ignoreEos, temperature, extraBody),
            new RunOptions.Workload(seed, inputTokens, prompt, inputLengths, outputLengths, lengthCorrelation,
                segments, dataset, datasetFormat, blockSize, prefixes, cancelRate, cancelAfterMs, cancelAfterTokens,
                sessionTurns, thinkTimeMs, agent),
            new RunOptions.Load(concurrency, rate, arrival, burstiness, maxConcurrency, users, sticky, ramp,
                concurrencyStages, stages, requests, durationS, fixedSchedule, drainTimeoutS, graceS, scenario,
                minSamplesFor),
            new RunOptions.State(warmupRequests, warmupDurationS, coldStart, cachePolicy, flushUrl, flushMethod,
                repetitions, repetitionIndex, selfWarmup, selfWarmupRun, preconnect),
            new RunOptions.Measurement(ioThreads, busyPoll, profile, profileOut, hiccupWarnFraction, serverMetrics,
                serverMetricsIntervalMs, stamping),
            new RunOptions.Quality(slo, acceptTruncated, new QualityRule(qualitySuccess, qualityChecks, judge)),
            new RunOptions.Output(outputDir, runId, force, saveText, progress, jfrEvents, htmlReport, commandLine,
                contract, contractPath),
            new RunOptions.Cost(price), new RunOptions.Power(power), shard);
    }
}
