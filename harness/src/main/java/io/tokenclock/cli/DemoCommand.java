package io.tokenclock.cli;

import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import io.tokenclock.config.RunOptions;
import io.tokenclock.config.RunOptionsBuilder;
import io.tokenclock.fixtures.sim.SimServer;
import io.tokenclock.load.ArrivalProcess;

/**
 * {@code tokenclock demo}: the main job end to end with nothing to install. Starts the simulated server in-process
 * on a free loopback port and runs an open-loop Poisson benchmark of about 20 s against it, with warmup, then prints
 * the summary and where the results are.
 */
@Command(name = "demo", mixinStandardHelpOptions = true, sortOptions = false,
    description = "Benchmark the embedded simulated server for about 20 s (nothing to install).")
public final class DemoCommand implements Callable<Integer>
{
    @Option(names = "--duration", defaultValue = "20", description = "Measured seconds (default: ${DEFAULT-VALUE}).")
    double duration;

    @Option(names = "--rate", defaultValue = "12",
        description = "Open-loop arrival rate, requests/s (default: ${DEFAULT-VALUE}).")
    double rate;

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
        try (SimServer server = SimServer.start(sim.toConfig().port(0)))
        {
            System.out.println("tokenclock demo: simulated server on " + server.baseUrl() + " (" + server.config() +
                ")");
            final RunOptionsBuilder o = RunOptions.builder();
            o.url(server.baseUrl());
            o.rate(rate);
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
            o.commandLine(profile == null ?
                List.of("tokenclock", "demo", "--duration", String.valueOf(duration), "--rate", String.valueOf(rate),
                    "--max-tokens", String.valueOf(maxTokens)) :
                List.of("tokenclock", "demo", "--duration", String.valueOf(duration), "--rate", String.valueOf(rate),
                    "--max-tokens", String.valueOf(maxTokens), "--profile", profile));
            final RunOptions options = o.build();
            System.out.printf(Locale.ROOT,
                "tokenclock demo: open loop, Poisson %.1f req/s for %.0f s after 10 warmup requests, %d output " +
                "tokens " +
                "each%n", rate, duration, maxTokens);
            return RunCommand.execute(options);
        }
    }
}
