package io.tokenclock.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import io.tokenclock.fixtures.sim.SimConfig;
import io.tokenclock.fixtures.sim.SimServer;

/**
 * A session trace in the wrong shape, as {@code run} sees it: one line naming the file, the line and the field, exit
 * 2, and no request sent; likewise a trace on an API that answers whole (embeddings, rerank), and images on a session
 * trace. The server is the simulator, since {@code run} checks that the server answers before it
 * reads the workload.
 */
final class BadTraceCliTest
{
    private static final String FIRST = "{\"session_id\":\"a\",\"timestamp\":0,\"input_length\":1024," +
        "\"output_length\":2,\"hash_ids\":[1,2]}";
    private static SimServer server;

    @RegisterExtension
    final CapturedConsole console = new CapturedConsole();

    @TempDir
    Path tmp;

    @BeforeAll
    static void start()
    {
        server = SimServer.start(new SimConfig());
    }

    @AfterAll
    static void stop()
    {
        server.close();
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "{\"session_id\":\"a\",\"delay\":-5,\"input_length\":512,\"output_length\":2,\"hash_ids\":[3]}|" +
            ":2: \"delay\" must be a number of ms >= 0, was -5",
        "{\"session_id\":\"a\",\"delay\":5,\"input_length\":512,\"hash_ids\":[3]}|:2: \"output_length\" is missing",
        "{\"session_id\":\"a\",\"delay\":5,\"input_length\":512,\"output_length\":2,\"hash_ids\":[3,4]}|" +
            ":2: \"hash_ids\" has 2 blocks",
        "{\"session_id\":\"b\",\"delay\":5,\"input_length\":512,\"output_length\":2,\"hash_ids\":[3]}|:2: "})
    void shouldRefuseARowInTheWrongShapeWithOneLineNamingItsLine(final String second, final String expected)
        throws IOException
    {
        final Path trace = tmp.resolve("trace.jsonl");
        Files.writeString(trace, FIRST + "\n" + second + "\n");
        final long before = server.engine().requestsTotal();

        assertEquals(Main.EXIT_USAGE, Main.execute("run", "--url", server.baseUrl(), "--model", "tokenclock-sim",
            "--dataset", trace.toString(), "--dataset-format", "mooncake", "--fixed-schedule", "--output-dir",
            tmp.resolve("out").toString(), "--no-progress"), console.err());
        final String err = console.err().strip();
        assertEquals(1, err.lines().count(), "one line: " + err);
        assertTrue(err.contains(trace + expected), err);
        assertEquals(before, server.engine().requestsTotal(), "nothing sent");
    }

    @ParameterizedTest
    @CsvSource({"embeddings,mooncake", "rerank,mooncake", "embeddings,tracelab", "rerank,weka"})
    void shouldRefuseATraceReplayedOnAnApiThatAnswersWholeInOneLineNamingBothFlags(final String api,
        final String format) throws IOException
    {
        final Path trace = tmp.resolve("trace.jsonl");
        Files.writeString(trace, FIRST + "\n");
        final long before = server.engine().requestsTotal();

        assertEquals(Main.EXIT_USAGE, Main.execute("run", "--url", server.baseUrl(), "--model", "tokenclock-sim",
            "--endpoint", api, "--dataset", trace.toString(), "--dataset-format", format, "--concurrency", "1",
            "--output-dir", tmp.resolve("out").toString(), "--no-progress"), console.err());
        final String err = console.err().strip();
        assertEquals(1, err.lines().count(), "one line: " + err);
        assertTrue(err.contains("--endpoint " + api + " with --dataset-format " + format + ": a trace replays"), err);
        assertEquals(before, server.engine().requestsTotal(), "nothing sent");
    }

    @ParameterizedTest
    @CsvSource({"mooncake,--fixed-schedule", "tracelab,--concurrency=1", "weka,--fixed-schedule"})
    void shouldRefuseImagesOnASessionTraceInOneLineNamingBothFlags(final String format, final String load)
        throws IOException
    {
        final Path trace = tmp.resolve("trace.jsonl");
        Files.writeString(trace, FIRST + "\n");
        final long before = server.engine().requestsTotal();

        assertEquals(Main.EXIT_USAGE, Main.execute("run", "--url", server.baseUrl(), "--model", "tokenclock-sim",
            "--dataset", trace.toString(), "--dataset-format", format, load, "--image-count", "1", "--output-dir",
            tmp.resolve("out").toString(), "--no-progress"), console.err());
        final String err = console.err().strip();
        assertEquals(1, err.lines().count(), "one line: " + err);
        assertTrue(err.contains("--image-count with --dataset-format " + format + ": a session trace's turns"), err);
        assertEquals(before, server.engine().requestsTotal(), "nothing sent");
    }
}
