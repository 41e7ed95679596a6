package io.tokenclock.cli;

import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.function.Predicate;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine;

import io.tokenclock.config.RunOptions;
import io.tokenclock.config.RunOptionsBuilder;
import io.tokenclock.contract.ContractFile;
import io.tokenclock.contract.ContractOptions;
import io.tokenclock.load.ArrivalProcess;
import io.tokenclock.load.ConcurrencySchedule;
import io.tokenclock.load.RateSchedule;
import io.tokenclock.recording.Slo;
import io.tokenclock.report.ConsoleSummary;
import io.tokenclock.report.Repetitions;
import io.tokenclock.result.RunResult;
import io.tokenclock.runner.BenchmarkRunner;
import io.tokenclock.runner.Interruption;
import io.tokenclock.runner.ServerProbe;
import io.tokenclock.secrets.Redaction;
import io.tokenclock.transport.Endpoint;

/** {@code tokenclock run}: benchmark any OpenAI-compatible streaming endpoint. Flags: docs/CLI.md. */
@Command(name = "run", mixinStandardHelpOptions = true, sortOptions = false,
    description = "Benchmark an OpenAI-compatible streaming endpoint.")
public final class RunCommand implements Callable<Integer>
{
    private static final JsonNodeFactory JSON_FACTORY =
        JsonNodeFactory.instance;

    @Option(names = "--config", description = "Contract file (YAML) declaring the whole benchmark; flags override it.")
    Path config;

    @Option(names = "--url", description = "API base URL, e.g. http://127.0.0.1:8000/v1 (required without --config)")
    String url;

    @Option(names = "--model", description = "Model name (default: the first one /models lists).")
    String model;

    @Option(names = "--endpoint", defaultValue = "chat",
        description = "chat or completions (default: ${DEFAULT-VALUE}).")
    String endpoint;

    @Option(names = "--max-tokens", defaultValue = "256",
        description = "max_tokens per request; 0 leaves it to the server.")
    int maxTokens;

    @Option(names = "--ignore-eos", description = "Send ignore_eos=true (vLLM, SGLang) to pin output length.")
    boolean ignoreEos;

    @Option(names = "--temperature", description = "Sampling temperature (default: the server's).")
    Double temperature;

    @Option(names = "--extra-body", description = "JSON object merged into every request body.")
    String extraBody;

    @Option(names = {"-H", "--header"},
        description = "Extra header NAME:VALUE (repeatable). Values are never written out.")
    List<String> headers = new ArrayList<>();

    @Option(names = "--api-key-env", defaultValue = "OPENAI_API_KEY",
        description = "Environment variable holding the API key (default: ${DEFAULT-VALUE}).")
    String apiKeyEnv;

    @Option(names = "--concurrency", description = "Closed loop: requests kept in flight.")
    Integer concurrency;

    @Option(names = "--rate", description = "Open loop: mean arrival rate, requests/s.")
    Double rate;

    @Option(names = "--arrival", defaultValue = "poisson",
        description = "constant, poisson or gamma (default: ${DEFAULT-VALUE}).")
    String arrival;

    @Option(names = "--burstiness", defaultValue = "1.0",
        description = "Gamma shape k; CV of gaps = 1/sqrt(k); 1 = Poisson.")
    double burstiness;

    @Option(names = "--max-concurrency", description = "Open loop: cap on requests in flight.")
    Integer maxConcurrency;

    @Option(names = "--users", description = "User-centric load: N simulated users running multi-turn chat sessions.")
    Integer users;

    @Option(names = "--turns", defaultValue = "3",
        description = "Turns per session with --users (default: ${DEFAULT-VALUE}).")
    int turns;

    @Option(names = "--think-ms", defaultValue = "1000",
        description = "Think time between an answer and the user's next turn, ms (default: ${DEFAULT-VALUE}).")
    int thinkMs;

    @Option(names = "--slo-ttft-ms", description = "Goodput SLO: TTFT bound, ms.")
    Double sloTtftMs;

    @Option(names = "--slo-tpot-ms", description = "Goodput SLO: TPOT bound, ms.")
    Double sloTpotMs;

    @Option(names = "--slo-e2e-ms", description = "Goodput SLO: end-to-end latency bound, ms.")
    Double sloE2eMs;

    @Option(names = "--repetitions", defaultValue = "1",
        description = "Repeat the run N times (DIR/rep-K each) and report run-to-run variance " +
            "(default: ${DEFAULT-VALUE}).")
    int repetitions;

    @Option(names = "--cold-start",
        description = "Send the first request alone before the run and report it on its own as the cold start.")
    boolean coldStart;

    @Option(names = "--sticky", description = "With --users: keep each user on one connection (session affinity).")
    boolean sticky;

    @Option(names = "--agent-steps",
        description = "With --users: tool-using agents offered a search tool, at most N model steps per task.")
    Integer agentSteps;

    @Option(names = "--tool-latency-ms", defaultValue = "200",
        description = "Simulated tool latency for --agent-steps, ms (default: ${DEFAULT-VALUE}).")
    int toolLatencyMs;

    @Option(names = "--ramp", description = "Open loop: ramp the rate FROM:TO:SECONDS[:exponential] before the " +
        "measured window (ramp requests are recorded and excluded from metrics).")
    String ramp;

    @Option(names = "--stage",
        description = "Open loop: a stage RATE:SECONDS (repeatable); each is reported on its own.")
    List<String> stage = new ArrayList<>();

    @Option(names = "--concurrency-ramp",
        description = "Closed loop: ramp the concurrency FROM:TO:SECONDS[:exponential] before the measured window.")
    String concurrencyRamp;

    @Option(names = "--concurrency-stage",
        description = "Closed loop: a stage CONCURRENCY:SECONDS (repeatable); each is reported on its own.")
    List<String> concurrencyStage = new ArrayList<>();

    @Option(names = "--requests", description = "Measured requests to start (default 100 unless --duration).")
    Long requests;

    @Option(names = "--duration", description = "Seconds during which measured requests start.")
    Double duration;

    @Option(names = "--warmup-requests", defaultValue = "0",
        description = "Requests run first and excluded from metrics.")
    long warmupRequests;

    @Option(names = "--warmup-duration", defaultValue = "0", description = "Seconds of warmup, excluded from metrics.")
    double warmupDuration;

    @Option(names = "--seed", defaultValue = "42",
        description = "Seed of the schedule and prompts (default: ${DEFAULT-VALUE}).")
    long seed;

    @Option(names = "--input-tokens", defaultValue = "128", description = "Synthetic prompt length in words (~tokens).")
    int inputTokens;

    @Option(names = "--prompt", description = "Use this prompt for every request instead of synthetic ones.")
    String prompt;

    @Option(names = "--dataset", description = "Replay prompts from a dataset or trace file instead of synthesizing.")
    Path dataset;

    @Option(names = "--dataset-format", defaultValue = "jsonl",
        description = "jsonl (prompt or messages per line), sharegpt, or mooncake (trace) (default: ${DEFAULT-VALUE}).")
    String datasetFormat;

    @Option(names = "--fixed-schedule", description = "Replay a mooncake trace on its own timestamps (open loop).")
    boolean fixedSchedule;

    @Option(names = "--cancel-rate", defaultValue = "0",
        description = "Fraction of requests cancelled on purpose by the client (with --cancel-after-*).")
    double cancelRate;

    @Option(names = "--cancel-after-ms", defaultValue = "0",
        description = "Cancel picked requests this long after send.")
    double cancelAfterMs;

    @Option(names = "--cancel-after-tokens", defaultValue = "0",
        description = "Cancel picked requests once this many tokens (content chunks) arrived.")
    int cancelAfterTokens;

    @Option(names = "--tokenizer", description = "cl100k_base, o200k_base, words, or a tokenizer.json path: prompts " +
        "are synthesized to exact token counts under it.")
    String tokenizer;

    @Option(names = "--output-dir", description = "Where to write results (default: results/<run-id>).")
    Path outputDir;

    @Option(names = "--run-id", description = "Name of the run (default: run-<UTC time>).")
    String runId;

    @Option(names = "--timeout", defaultValue = "600", description = "Per-request timeout, seconds.")
    double timeout;

    @Option(names = "--connect-timeout", defaultValue = "10", description = "Seconds to open a connection " +
        "(0: no limit); requests that run out are timeout_connect.")
    double connectTimeout;

    @Option(names = "--first-byte-timeout", defaultValue = "0", description = "Seconds from send to the first byte " +
        "of the response (0: no limit); requests that run out are timeout_first_byte.")
    double firstByteTimeout;

    @Option(names = "--idle-timeout", defaultValue = "0", description = "Seconds of silence allowed mid-response " +
        "(0: no limit); requests that run out are timeout_idle.")
    double idleTimeout;

    @Option(names = "--retry-429", defaultValue = "0", paramLabel = "N", description = "Send a request answered 429 " +
        "again after its Retry-After (1 s without one, at most 60 s), up to N times; retries are counted apart " +
        "(default 0: each 429 is an error).")
    int retry429;

    @Option(names = "--max-event-bytes", defaultValue = "1048576", description = "The longest SSE event (or line) " +
        "kept; a longer one ends its request as oversize.")
    int maxEventBytes;

    @Option(names = "--max-output-bytes", defaultValue = "16777216", description = "The most answer text kept per " +
        "request (content, reasoning and tool calls, each); more ends the request as oversize.")
    int maxOutputBytes;

    @Option(names = "--drain-timeout", defaultValue = "60",
        description = "Seconds to let in-flight requests finish after the last start; the rest are cancelled.")
    double drainTimeout;

    @Option(names = "--ca-cert", paramLabel = "FILE", description = "Trust the CA certificates in this PEM file " +
        "for https (instead of the JDK's default CAs).")
    Path caCert;

    @Option(names = "--insecure", description = "Accept any server certificate for https (no verification; " +
        "recorded in record.json and shown in the summary).")
    boolean insecure;

    @Option(names = "--accept-truncated", description = "Count streams that end cleanly with neither a " +
        "finish_reason nor [DONE] as ok, their tokens in the metrics (they are counted as truncated either way).")
    boolean acceptTruncated;

    @Option(names = "--wait-ready", defaultValue = "0", description = "Seconds to wait for a server that is " +
        "starting or loading its model (503, 502, 504, refused connections): /models, then one probe request, " +
        "polled once a second.")
    double waitReady;

    @Option(names = "--grace", defaultValue = "5", description = "After Ctrl-C or SIGTERM: seconds the requests in " +
        "flight may finish before they are cancelled and a partial record is written (a second signal: at once).")
    double grace;

    @Option(names = "--force", description = "Replace the results of a run already in the output directory " +
        "(without it, such a directory is refused).")
    boolean force;

    @Option(names = "--io-threads", defaultValue = "0", description = "Event loop threads (0: one per core).")
    int ioThreads;

    @Option(names = "--no-self-warmup", negatable = false, description = "Skip the harness's own warm-up against " +
        "the embedded simulator before the run (its JIT then compiles inside the measured window).")
    boolean noSelfWarmup;

    @Option(names = "--preconnect", description = "Connections to open before the schedule starts (default: the " +
        "concurrency, or in an open loop the rate x the preflight's latency scaled to --max-tokens).")
    Integer preconnect;

    @Option(names = "--busy-poll", description = "Precision mode: event loops busy-poll epoll instead of sleeping " +
        "(no wake-up latency; costs a core per --io-threads).")
    boolean busyPoll;

    @Option(names = "--no-preflight", negatable = false, description = "Skip the /models probe and the test request.")
    boolean noPreflight;

    @Option(names = "--save-text", description = "Write each request's output text to requests.jsonl.")
    boolean saveText;

    @Option(names = "--no-progress", negatable = false, description = "No live progress line.")
    boolean noProgress;

    @Option(names = "--profile", description = "Profile the harness with async-profiler: cpu, wall, alloc or lock.")
    String profile;

    @Option(names = "--profile-out", description = "Where flame graph and JFR go (default: the output directory).")
    Path profileOut;

    @Option(names = "--hiccup-warn-fraction", defaultValue = "0.1",
        description = "Warn when client hiccup p99 >= this fraction of inter-chunk latency p50.")
    double hiccupWarnFraction;

    @Option(names = "--server-metrics", paramLabel = "URL|off", description = "Scrape the server's Prometheus " +
        "metrics into server_metrics.jsonl during the run (default: the --url's origin + /metrics; off: none).")
    String serverMetrics;

    @Option(names = "--server-metrics-interval-ms", defaultValue = "1000", paramLabel = "N",
        description = "How often the server's metrics are scraped, ms (100 to 3600000).")
    long serverMetricsIntervalMs;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception
    {
        return execute(toBuilder().commandLine(RecordedCommand.of("run", spec.commandLine().getParseResult()))
            .build());
    }

    /** @return the validated options: the contract's, if any, overridden by the flags given beside it. */
    RunOptions toOptions()
    {
        return toBuilder().build();
    }

    private RunOptionsBuilder toBuilder()
    {
        final RunOptionsBuilder o = RunOptions.builder();
        if (config != null)
        {
            final ContractFile contract = ContractFile.load(config);
            if (!contract.isValid())
            {
                throw new IllegalArgumentException(config + ": " + contract.errors().get(0) +
                    (contract.errors().size() > 1 ?
                    " (and " + (contract.errors().size() - 1) + " more: tokenclock validate " + config + ")" : ""));
            }
            ContractOptions.apply(contract, o);
        }
        o.from(RunOptionsBuilder.Source.FLAG);
        final CommandLine.ParseResult given = spec.commandLine().getParseResult();
        final Predicate<String> set = name -> config == null || given.hasMatchedOption(name);
        if (set.test("--url"))
        {
            o.url(url);
        }
        if (set.test("--model"))
        {
            o.model(model);
        }
        if (set.test("--endpoint"))
        {
            o.api(switch (endpoint.toLowerCase(Locale.ROOT))
            {
                case "chat" -> Endpoint.Api.CHAT;
                case "completions" -> Endpoint.Api.COMPLETIONS;
                default -> throw new IllegalArgumentException("--endpoint must be chat or completions: " + endpoint);
            });
        }
        if (set.test("--max-tokens"))
        {
            o.maxTokens(maxTokens);
        }
        if (set.test("--ignore-eos"))
        {
            o.ignoreEos(ignoreEos);
        }
        if (set.test("--temperature"))
        {
            o.temperature(temperature);
        }
        if (set.test("--extra-body"))
        {
            o.extraBody(extraBody);
        }
        if (set.test("--header"))
        {
            parseHeaders(headers).forEach(o::header);
        }
        if (set.test("--api-key-env"))
        {
            o.apiKeyEnv(apiKeyEnv);
        }
        applyLoadFlags(o, set);
        if (set.test("--seed"))
        {
            o.seed(seed);
        }
        if (set.test("--input-tokens"))
        {
            o.inputTokens(inputTokens);
            o.inputLengths(null);
        }
        if (set.test("--prompt"))
        {
            o.prompt(prompt);
        }
        if (set.test("--dataset"))
        {
            o.dataset(dataset);
        }
        if (set.test("--dataset-format"))
        {
            o.datasetFormat(datasetFormat.toLowerCase(Locale.ROOT));
        }
        if (set.test("--fixed-schedule"))
        {
            o.fixedSchedule(fixedSchedule);
        }
        if (set.test("--cancel-rate"))
        {
            o.cancelRate(cancelRate);
        }
        if (set.test("--cancel-after-ms"))
        {
            o.cancelAfterMs(cancelAfterMs);
        }
        if (set.test("--cancel-after-tokens"))
        {
            o.cancelAfterTokens(cancelAfterTokens);
        }
        if (set.test("--tokenizer"))
        {
            o.tokenizer(tokenizer);
        }
        if (set.test("--output-dir"))
        {
            o.outputDir(outputDir);
        }
        if (set.test("--io-threads"))
        {
            o.ioThreads(ioThreads);
        }
        if (set.test("--grace"))
        {
            o.graceS(grace);
        }
        if (set.test("--ca-cert"))
        {
            o.caCert(caCert);
        }
        if (set.test("--insecure"))
        {
            o.insecure(insecure);
        }
        if (set.test("--accept-truncated"))
        {
            o.acceptTruncated(acceptTruncated);
        }
        if (set.test("--wait-ready"))
        {
            o.waitReadyS(waitReady);
        }
        o.force(force);
        if (set.test("--save-text"))
        {
            o.saveText(saveText);
        }
        if (set.test("--hiccup-warn-fraction"))
        {
            o.hiccupWarnFraction(hiccupWarnFraction);
        }
        if (set.test("--server-metrics"))
        {
            o.serverMetrics(serverMetrics);
        }
        if (set.test("--server-metrics-interval-ms"))
        {
            o.serverMetricsIntervalMs(serverMetricsIntervalMs);
        }
        o.runId(runId);
        o.preflight(!noPreflight);
        o.progress(!noProgress && Terminal.stderrIsTerminal());
        o.profile(profile);
        o.profileOut(profileOut);
        return o;
    }

    private void applyLoadFlags(final RunOptionsBuilder o, final Predicate<String> set)
    {
        if (set.test("--concurrency"))
        {
            o.concurrency(concurrency);
        }
        if (set.test("--rate"))
        {
            o.rate(rate);
        }
        if (config != null && given("--concurrency"))
        {
            o.rate(null);
        }
        if (config != null && given("--rate"))
        {
            o.concurrency(null);
        }
        if (given("--arrival"))
        {
            o.arrival(parseArrival(arrival));
        }
        if (set.test("--burstiness"))
        {
            o.burstiness(burstiness);
        }
        if (set.test("--sticky"))
        {
            o.sticky(sticky);
        }
        if (set.test("--agent-steps") && agentSteps != null)
        {
            final ObjectNode agent = JSON_FACTORY.objectNode().put("max_steps", agentSteps);
            agent.putObject("tool_latency_ms").put("dist", "fixed").put("value", toolLatencyMs);
            o.agent(agent);
        }
        if (given("--slo-ttft-ms") || given("--slo-tpot-ms") || given("--slo-e2e-ms"))
        {
            o.slo(Slo.ofMillis(sloTtftMs, sloTpotMs, sloE2eMs));
        }
        if (set.test("--no-self-warmup"))
        {
            o.selfWarmup(!noSelfWarmup);
        }
        if (set.test("--preconnect"))
        {
            o.preconnect(preconnect);
        }
        if (set.test("--busy-poll"))
        {
            o.busyPoll(busyPoll);
        }
        if (set.test("--repetitions"))
        {
            o.repetitions(repetitions);
        }
        if (set.test("--cold-start"))
        {
            o.coldStart(coldStart);
        }
        if (set.test("--users"))
        {
            o.users(users);
        }
        if (set.test("--turns"))
        {
            o.sessionTurns(JSON_FACTORY.objectNode().put("dist", "fixed").put("value", turns));
        }
        if (set.test("--think-ms"))
        {
            o.thinkTimeMs(JSON_FACTORY.objectNode().put("dist", "fixed").put("value", thinkMs));
        }
        if (set.test("--ramp") && ramp != null)
        {
            o.ramp(parseRamp(ramp, "--ramp"));
        }
        if (set.test("--stage"))
        {
            o.stages(new ArrayList<>());
            for (final String s : stage)
            {
                final String[] parts = s.split(":");
                if (parts.length != 2)
                {
                    throw new IllegalArgumentException("--stage must be RATE:SECONDS, got: " + s);
                }
                o.stage(new RateSchedule.Stage(number(parts[0], "--stage"), number(parts[1], "--stage")));
            }
        }
        if (given("--concurrency-ramp"))
        {
            o.concurrencyRamp(parseRamp(concurrencyRamp, "--concurrency-ramp"));
        }
        if (given("--concurrency-stage"))
        {
            final int[] c = new int[concurrencyStage.size()];
            final double[] d = new double[concurrencyStage.size()];
            for (int j = 0; j < c.length; j++)
            {
                final String[] parts = concurrencyStage.get(j).split(":");
                if (parts.length != 2)
                {
                    throw new IllegalArgumentException("--concurrency-stage must be N:SECONDS, got: " +
                        concurrencyStage.get(j));
                }
                c[j] = (int)number(parts[0], "--concurrency-stage");
                d[j] = number(parts[1], "--concurrency-stage");
            }
            o.concurrencyStages(new ConcurrencySchedule(c, d));
        }
        if (set.test("--max-concurrency"))
        {
            o.maxConcurrency(maxConcurrency);
        }
        if (set.test("--requests"))
        {
            o.requests(requests);
        }
        if (set.test("--duration"))
        {
            o.durationS(duration);
        }
        if (set.test("--warmup-requests"))
        {
            o.warmupRequests(warmupRequests);
        }
        if (set.test("--warmup-duration"))
        {
            o.warmupDurationS(warmupDuration);
        }
        if (set.test("--timeout"))
        {
            o.timeoutS(timeout);
        }
        if (set.test("--drain-timeout"))
        {
            o.drainTimeoutS(drainTimeout);
        }
        if (set.test("--connect-timeout"))
        {
            o.connectTimeoutS(connectTimeout);
        }
        if (set.test("--first-byte-timeout"))
        {
            o.firstByteTimeoutS(firstByteTimeout);
        }
        if (set.test("--idle-timeout"))
        {
            o.idleTimeoutS(idleTimeout);
        }
        if (set.test("--retry-429"))
        {
            o.retries429(retry429);
        }
        if (set.test("--max-event-bytes"))
        {
            o.maxEventBytes(maxEventBytes);
        }
        if (set.test("--max-output-bytes"))
        {
            o.maxOutputBytes(maxOutputBytes);
        }
    }

    static RateSchedule.Ramp parseRamp(final String text, final String flag)
    {
        final String[] parts = text.split(":");
        if (parts.length < 3 || parts.length > 4 || (parts.length == 4 && !parts[3].equals("exponential") &&
            !parts[3].equals("linear")))
        {
            throw new IllegalArgumentException(flag + " must be FROM:TO:SECONDS[:linear|exponential], got: " + text);
        }
        return new RateSchedule.Ramp(number(parts[0], flag), number(parts[1], flag), number(parts[2], flag),
            parts.length == 4 && parts[3].equals("exponential"));
    }

    private static double number(final String text, final String flag)
    {
        try
        {
            return Double.parseDouble(text);
        }
        catch (final NumberFormatException ex)
        {
            throw new IllegalArgumentException(flag + ": not a number: " + text);
        }
    }

    private boolean given(final String name)
    {
        return spec.commandLine().getParseResult().hasMatchedOption(name);
    }

    /** Runs validated options, prints the summary, and returns the exit code. Shared with the demo. */
    static int execute(final RunOptions o) throws Exception
    {
        if (o.state().repetitions() > 1)
        {
            return executeRepeated(o);
        }
        final Interruption signals = Interruption.install(System.err, o.load().graceS());
        final RunResult result;
        try
        {
            result = new BenchmarkRunner().interruptedBy(signals).run(o, System.err);
        }
        catch (final ServerProbe.UnreachableException ex)
        {
            System.err.println("tokenclock: " + ex.getMessage());
            return Main.EXIT_UNREACHABLE;
        }
        ConsoleSummary.print(result, System.out);
        if (signals.requested())
        {
            System.err.println("tokenclock: " + result.partialReason() + "; record.json is marked partial");
            return signals.exitStatus();
        }
        if (result.counts().ok() == 0)
        {
            System.err.println("tokenclock: no measured request succeeded (see errors above and requests.jsonl)");
            return Main.EXIT_FAILED;
        }
        return Main.EXIT_OK;
    }

    /** Runs the same options N times back to back, each in DIR/rep-K, then reports the spread. */
    private static int executeRepeated(final RunOptions o) throws Exception
    {
        final String runId = o.output().runId() != null ? o.output().runId() : "run-" + DateTimeFormatter
            .ofPattern("yyyyMMdd-HHmmss").withZone(ZoneOffset.UTC).format(Instant.now());
        final Path base = o.output().outputDir() != null ? o.output().outputDir() : Path.of("results", runId);
        final List<RunResult> runs = new ArrayList<>();
        final Interruption signals = Interruption.install(System.err, o.load().graceS());
        for (int k = 1; k <= o.state().repetitions() && !signals.requested(); k++)
        {
            final RunOptions one = o.toBuilder().repetitionIndex(k).runId(runId + "-rep" + k)
                .outputDir(base.resolve("rep-" + k)).build();
            System.out.printf(Locale.ROOT, "%ntokenclock: repetition %d of %d%n", k, o.state().repetitions());
            try
            {
                runs.add(new BenchmarkRunner().interruptedBy(signals).run(one, System.err));
            }
            catch (final ServerProbe.UnreachableException ex)
            {
                System.err.println("tokenclock: " + ex.getMessage());
                return Main.EXIT_UNREACHABLE;
            }
            ConsoleSummary.print(runs.get(runs.size() - 1), System.out);
        }
        Repetitions.write(runs, base.resolve("repetitions.json"), System.out);
        if (signals.requested())
        {
            System.err.println("tokenclock: interrupted by " + signals.signalName() + " during repetition " +
                runs.size() + " of " + o.state().repetitions() + "; its record.json is marked partial");
            return signals.exitStatus();
        }
        return runs.stream().allMatch(r -> r.counts().ok() > 0) ? Main.EXIT_OK : Main.EXIT_FAILED;
    }

    static ArrivalProcess.Kind parseArrival(final String s)
    {
        try
        {
            return ArrivalProcess.Kind.valueOf(s.toUpperCase(Locale.ROOT));
        }
        catch (final IllegalArgumentException ex)
        {
            throw new IllegalArgumentException("--arrival must be constant, poisson or gamma: " + s);
        }
    }

    static Map<String, String> parseHeaders(final List<String> raw)
    {
        final Map<String, String> m = new LinkedHashMap<>();
        for (final String h : raw)
        {
            final int colon = h.indexOf(':');
            if (colon <= 0)
            {
                throw new IllegalArgumentException("--header must be NAME:VALUE, got: " + Redaction.headerArgument(h));
            }
            m.put(h.substring(0, colon).trim(), h.substring(colon + 1).trim());
        }
        return m;
    }
}
