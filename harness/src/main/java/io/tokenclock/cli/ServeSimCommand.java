package io.tokenclock.cli;

import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import io.tokenclock.fixtures.sim.SimServer;

/** {@code tokenclock serve-sim}: the simulated OpenAI-compatible server, standalone, until interrupted. */
@Command(name = "serve-sim", mixinStandardHelpOptions = true, sortOptions = false,
    description = "Run the simulated OpenAI-compatible streaming server (on loopback unless --host says otherwise).")
public final class ServeSimCommand implements Callable<Integer>
{
    @Option(names = "--port", defaultValue = "8000", description = "Port (0: any free port).")
    int port;

    // Loopback by default: the simulator is a test fixture. Another address is for a network namespace the user
    // made (scripts/shards-netns serves the shards from one), never for a shared network.
    @Option(names = "--host", defaultValue = "127.0.0.1", paramLabel = "ADDR",
        description = "Address to bind (default 127.0.0.1).")
    String host;

    @Mixin
    SimOptions sim = new SimOptions();

    @Override
    public Integer call() throws Exception
    {
        final SimServer server = SimServer.start(sim.toConfig().host(host).port(port));
        System.out.println("tokenclock serve-sim: listening on " + server.baseUrl() + " (" +
            server.config().describe() + ")");
        System.out.flush();
        final CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() ->
        {
            server.close();
            stopped.countDown();
        }));
        stopped.await();
        return Main.EXIT_OK;
    }
}
