package io.tokenclock.runner;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import io.tokenclock.config.RunOptions;
import io.tokenclock.config.RunOptionsBuilder;
import io.tokenclock.fixtures.sim.SimConfig;
import io.tokenclock.fixtures.sim.SimServer;
import io.tokenclock.goodput.Slo;
import io.tokenclock.quality.Checks;
import io.tokenclock.quality.JudgeSpec;
import io.tokenclock.run.RunResult;
import io.tokenclock.testing.ScriptedSseServer;

/**
 * The quality chain end to end: the simulator's task mode answers the arithmetic dataset right with a known
 * probability, the run judges every output after the window, and goodput counts the wrong answers as quality misses.
 */
@Timeout(180)
final class QualityGoodputIT
{
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Path DATASET = Path.of("../examples/data/arithmetic.jsonl");

    @TempDir
    Path dir;

    private RunOptionsBuilder options(final SimServer server, final long requests) throws IOException
    {
        final RunOptionsBuilder o = RunOptions.builder();
        o.url(server.baseUrl()).outputDir(dir).progress(false).concurrency(4).requests(requests).warmupRequests(4);
        o.dataset(DATASET).datasetFormat("jsonl").saveText(true).serverMetrics(RunOptions.SERVER_METRICS_OFF);
        return o;
    }

    private static SimConfig taskSim(final double accuracy)
    {
        return new SimConfig().prefillBaseMs(2).prefillPerInputTokenMs(0).decodeBaseMs(1).decodePerSeqMs(0)
            .taskAccuracy(accuracy);
    }

    private List<JsonNode> measured() throws IOException
    {
        final List<JsonNode> lines = new ArrayList<>();
        for (final String line : Files.readAllLines(dir.resolve("requests.jsonl")))
        {
            final JsonNode n = JSON.readTree(line);
            if (n.path("phase").asText().equals("measure"))
            {
                lines.add(n);
            }
            else
            {
                assertTrue(n.get("success").isNull() && n.get("quality").isNull(), "warm-up is not judged: " + n);
            }
        }
        return lines;
    }

    /** @return each request's reference: entry id mod the dataset's size, in file order. */
    private static List<String> references() throws IOException
    {
        final List<String> refs = new ArrayList<>();
        for (final String line : Files.readAllLines(DATASET))
        {
            refs.add(JSON.readTree(line).get("reference").asText());
        }
        return refs;
    }

    @Test
    void shouldMeasureTheSimulatorsAccuracyAndCountWrongAnswersAsQualityMisses() throws Exception
    {
        try (SimServer server = SimServer.start(taskSim(0.8)))
        {
            final RunOptionsBuilder o = options(server, 240);
            o.qualitySuccess("finish_stop").qualityChecks(List.of(Checks.fromFlag("numeric")));
            o.slo(Slo.ofMillis(5_000.0, null, 1_000.0, 99.0, 10_000.0));
            final RunResult r = new BenchmarkRunner().run(o.build(), new PrintStream(new ByteArrayOutputStream()));

            final JsonNode report = JSON.readTree(dir.resolve("record.json").toFile()).path("report");
            final JsonNode quality = report.path("quality");
            final long checked = quality.path("checked").asLong();
            final long success = quality.path("success").asLong();
            assertEquals(240, r.counts().ok());
            assertEquals(240, checked, "every measured output judged");
            // Binomial(240, 0.8): standard deviation sqrt(0.8 * 0.2 / 240) = 0.026 of the fraction; 0.1 is 3.9 of
            // them, a false alarm about once in 10,000 seeds (and the simulator's seed is fixed).
            assertEquals(0.8, quality.path("success_fraction").asDouble(), 0.1, quality.toString());
            assertEquals(checked - success, quality.path("failures_by_reason").path("numeric").asLong());
            final JsonNode goodput = report.path("goodput");
            assertEquals(240, goodput.path("attempted").asLong());
            assertEquals(checked - success, goodput.path("misses").path("quality").asLong(),
                "each failed check is a quality miss of goodput");
            assertEquals(success, goodput.path("good").asLong(), "the latency bounds are loose: right = good");
            assertEquals(success, r.goodput().good());

            final List<String> refs = references();
            final List<JsonNode> lines = measured();
            assertEquals(240, lines.size());
            long right = 0;
            for (final JsonNode line : lines)
            {
                final boolean equal = line.get("output_text").asText().equals(refs.get((int)(line.get("id").asLong() %
                    refs.size())));
                assertEquals(equal, line.get("success").asBoolean(), line.toString());
                assertEquals(equal, line.path("quality").path("pass").asBoolean(), line.toString());
                right += equal ? 1 : 0;
            }
            assertEquals(success, right, "the verdicts are the answers' own");
        }
    }

    @Test
    void shouldAskASecondEndpointToJudgeAfterTheWindow() throws Exception
    {
        final AtomicInteger calls = new AtomicInteger();
        try (ScriptedSseServer judge = new ScriptedSseServer();
            SimServer server = SimServer.start(taskSim(0.5)))
        {
            judge.on("/v1/chat/completions", exchange -> answerAsJudge(exchange, calls)).start();
            final RunOptionsBuilder o = options(server, 40);
            o.judge(new JudgeSpec(judge.apiUrl(), "fake-judge", "r1",
                "PASS when the answer equals the reference.", null, 0, 4, null, 1, "majority", "fail", "fail", null,
                10, 2));
            new BenchmarkRunner().run(o.build(), new PrintStream(new ByteArrayOutputStream()));
            final JsonNode quality = JSON.readTree(dir.resolve("record.json").toFile()).path("report").path("quality");
            assertEquals(40, calls.get(), "one judge call per measured output, none for warm-up");
            final List<String> refs = references();
            final long right = measured().stream().filter(l -> l.get("output_text").asText().equals(
                refs.get((int)(l.get("id").asLong() % refs.size())))).count();
            assertEquals(right, quality.path("success").asLong());
            assertEquals(40 - right, quality.path("failures_by_reason").path("judge").asLong(0));
            assertEquals("fake-judge", quality.path("rule").path("judge").path("model").asText());
            assertEquals(64, quality.path("rule").path("judge").path("rubric_sha256").asText().length());
        }
    }

    /** A judge that compares the answer with the reference, as its rubric says. */
    private static void answerAsJudge(final HttpExchange exchange, final AtomicInteger calls) throws IOException
    {
        calls.incrementAndGet();
        final String user = JSON.readTree(exchange.getRequestBody()).path("messages").path(1).path("content").asText();
        final String reference = user.split("Reference answer:\n", 2)[1].split("\n", 2)[0];
        final String answer = user.split("Answer to judge:\n", 2)[1].split("\n", 2)[0];
        ScriptedSseServer.reply(exchange, 200, JSON.writeValueAsString(JSON.createObjectNode().set("choices",
            JSON.createArrayNode().add(JSON.createObjectNode().set("message", JSON.createObjectNode().put("content",
                answer.equals(reference) ? "PASS" : "FAIL"))))));
    }
}
