package io.tokenclock.cli;

import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

import io.tokenclock.config.RunOptions;
import io.tokenclock.config.RunOptionsBuilder;
import io.tokenclock.fixtures.engine.EngineConfig;
import io.tokenclock.fixtures.engine.EngineServer;
import io.tokenclock.fixtures.engine.ModelShape;
import io.tokenclock.fixtures.sim.SimServer;
import io.tokenclock.load.ArrivalProcess;

/**
 * {@code tokenclock demo}: the main job end to end with nothing to install. Starts a server in-process on a free
 * loopback port, the simulated one or, with {@code --engine llama}, llama.cpp serving a random-weight model it
 * generates (real inference on this CPU), and runs an open-loop Poisson benchmark of about 40 s against it (at
 * 12 req/s about 430 measured requests: enough for each p99's 95% interval to have an upper end), with warmup,
 * then prints the summary and where the results are. With the real engine the summary shows the engine's own
 * TTFT and TPOT beside the client's.
 */
@Command(name = "demo", mixinStandardHelpOptions = true, sortOptions = false,
    description = "Benchmark an embedded server for about 40 s (nothing to install): the simulated one, or llama.cpp.")
public final class DemoCommand implements Callable<Integer>
{
    private static final double SIM_RATE = 12;
    private static final double ENGINE_RATE = 2;

    @Spec
    CommandSpec spec;

    @Option(names = "--engine", defaultValue = "sim", description = "The server: sim (simulated, default) or llama " +
        "(llama.cpp on a generated random-weight model, on this CPU).")
    String engine;

    @Option(names = "--model-size", defaultValue = "256x4",
        description = "With --engine llama: the generated model, WIDTHxLAYERS (default: ${DEFAULT-VALUE}; 512x8 " +
            "is about 8 times the work per token).")
    String modelSize;

    @Option(names = "--duration", defaultValue = "40", description = "Measured seconds (default: ${DEFAULT-VALUE}).")
    double duration;

    @Option(names = "--rate", description = "Open-loop arrival rate, requests/s (default: 12; 2 with --engine llama).")
    Double rate;

    @Option(names = "--max-tokens", defaultValue = "96",
        description = "Output tokens per request (default: ${DEFAULT-VALUE}).")
    int maxTokens;

    @Option(names = "--output-dir", description = "Where to write results (default: results/demo-<UTC time>).")
    Path outputDir;

    @Option(names = "--profile", description = "Profile the harness during the demo: cpu, wall, alloc or lock.")
    String profile;

    @Mixin
    SimOptions sim = new SimOptions();

    @Override
    public Integer call() throws Exception
    {
        return switch (engine)
        {
            case "sim" -> simulated();
            case "llama" -> llama();
            default -> throw new ParameterException(spec.commandLine(),
                "--engine must be sim or llama, was '" + engine + "'");
        };
    }

    private int simulated() throws Exception
    {
        try (SimServer server = SimServer.start(sim.toConfig().port(0)))
        {
            System.out.println("tokenclock demo: simulated server on " + server.baseUrl() + " (" +
                server.config().describe() + ")");
            return run(server.baseUrl(), SIM_RATE);
        }
    }

    /** The engine's own thread keeps a JVM alive: {@link Main} ends the process with System.exit, as it always does. */
    private int llama() throws Exception
    {
        final ModelShape shape;
        try
        {
            shape = ModelShape.parse(modelSize);
        }
        catch (final IllegalArgumentException ex)
        {
            throw new ParameterException(spec.commandLine(), "--model-size: " + ex.getMessage());
        }
        System.out.println("tokenclock demo: generating a random-weight " + shape.label() + " llama model and " +
            "loading it into llama.cpp...");
        try (EngineServer server = EngineServer.start(EngineConfig.defaults().withShape(shape)))
        {
            System.out.println("tokenclock demo: llama.cpp on " + server.baseUrl() + " (" + server.config() + ")");
            return run(server.baseUrl(), ENGINE_RATE);
        }
    }

    private int run(final String url, final double defaultRate) throws Exception
    {
        final double r = rate != null ? rate : defaultRate;
        final RunOptionsBuilder o = RunOptions.builder();
        o.url(url);
        o.rate(r);
        o.arrival(ArrivalProcess.Kind.POISSON);
        o.durationS(duration);
        o.warmupRequests(10);
        o.maxTokens(maxTokens);
        o.ignoreEos(true);
        o.inputTokens(256);
        o.outputDir(outputDir);
        o.progress(Terminal.stderrIsTerminal());
        o.profile(profile);
        o.runId("demo-" + DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss")
            .withZone(ZoneOffset.UTC).format(Instant.now()));
        o.commandLine(commandLine(r));
        final RunOptions options = o.build();
        System.out.printf(Locale.ROOT,
            "tokenclock demo: open loop, Poisson %.1f req/s for %.0f s after 10 warmup requests, %d output " +
                "tokens each; first the harness warms its own code up against a second embedded simulator, " +
                "until the JIT is quiet (tens of seconds on 2 busy cores; record.json " +
                "measurement.readiness.self_warmup_s says how long)%n", r, duration, maxTokens);
        return RunCommand.execute(options);
    }

    private List<String> commandLine(final double r)
    {
        final List<String> line = new ArrayList<>(List.of("tokenclock", "demo"));
        if (!"sim".equals(engine))
        {
            line.addAll(List.of("--engine", engine, "--model-size", modelSize));
        }
        line.addAll(List.of("--duration", String.valueOf(duration), "--rate", String.valueOf(r),
            "--max-tokens", String.valueOf(maxTokens)));
        if (profile != null)
        {
            line.addAll(List.of("--profile", profile));
        }
        return line;
    }
}
