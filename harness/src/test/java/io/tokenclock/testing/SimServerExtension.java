package io.tokenclock.testing;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import io.tokenclock.config.RunOptions;
import io.tokenclock.config.RunOptionsBuilder;
import io.tokenclock.fixtures.sim.SimConfig;
import io.tokenclock.fixtures.sim.SimServer;

/**
 * The simulated inference server for a test that runs the harness against it: started with the test's engine
 * model, stopped after the test, and the run options every such test shares, set once.
 * <pre>{@code
 * @RegisterExtension
 * final SimServerExtension sim = new SimServerExtension();
 *
 * @Test
 * void shouldMeasure...()
 * {
 *     final SimServer server = sim.start(new SimConfig().prefillBaseMs(40).decodeBaseMs(10));
 *     final RunOptionsBuilder o = sim.options(dir).concurrency(1).requests(8L);
 *     ...
 * }
 * }</pre>
 */
public final class SimServerExtension implements AfterEachCallback
{
    /** The answer length of {@link #options}: long enough for several gaps, short enough for a quick run. */
    public static final int MAX_TOKENS = 20;
    /** The prompt length of {@link #options}, in tokens. */
    public static final int INPUT_TOKENS = 16;

    private final List<SimServer> started = new ArrayList<>();

    /** @return a simulator on loopback with {@code config}'s engine model, stopped after the test. */
    public SimServer start(final SimConfig config)
    {
        final SimServer server = SimServer.start(config);
        started.add(server);
        return server;
    }

    /**
     * The options of a quick, quiet run against the simulator last started: its URL, {@code outputDir}, no progress
     * line, and answers of exactly {@link #MAX_TOKENS} tokens ({@code ignore_eos}) to prompts of
     * {@link #INPUT_TOKENS}, so that every request has the same number of gaps.
     *
     * @return a builder the test goes on setting; each call gives a new one.
     */
    public RunOptionsBuilder options(final Path outputDir)
    {
        if (started.isEmpty())
        {
            throw new IllegalStateException("start the simulator before asking for options against it");
        }
        return options(started.get(started.size() - 1), outputDir);
    }

    /**
     * {@link #options(Path)} against {@code server}, for a test that holds its simulator in a try-with-resources.
     *
     * @return a builder the test goes on setting; each call gives a new one.
     */
    public static RunOptionsBuilder options(final SimServer server, final Path outputDir)
    {
        final RunOptionsBuilder o = RunOptions.builder();
        o.url(server.baseUrl()).outputDir(outputDir).progress(false);
        o.maxTokens(MAX_TOKENS).ignoreEos(true).inputTokens(INPUT_TOKENS);
        return o;
    }

    @Override
    public void afterEach(final ExtensionContext context)
    {
        for (final SimServer server : started)
        {
            server.close();
        }
        started.clear();
    }
}
