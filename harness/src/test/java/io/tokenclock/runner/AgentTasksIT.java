package io.tokenclock.runner;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.tokenclock.config.AgentSpec;
import io.tokenclock.config.LengthSpec;
import io.tokenclock.config.RunOptionsBuilder;
import io.tokenclock.fixtures.sim.SimConfig;
import io.tokenclock.fixtures.sim.SimServer;
import io.tokenclock.json.Json;
import io.tokenclock.quality.Checks;
import io.tokenclock.run.RunResult;
import io.tokenclock.testing.SimServerExtension;

/**
 * Agent tasks judged by their final answers only: against the simulator, each task takes two tool calls and then
 * answers with random words; a regex check says which answers are right. Tool-call steps are never judged, a task
 * succeeds exactly when its final answer passes, requests.jsonl carries each request's task and step with the final
 * step marked, and the run's goodput counts tasks.
 */
final class AgentTasksIT
{
    private static final ObjectMapper JSON = Json.MAPPER;
    /** About two answers in three contain one of these words (8 words from the simulator's 33). */
    private static final String RIGHT = " (the|of|and|to)\\b";

    @TempDir
    Path dir;

    @Test
    void shouldJudgeEachTaskByItsFinalAnswerAndNeverItsToolCalls() throws Exception
    {
        try (SimServer server = SimServer.start(new SimConfig().prefillBaseMs(2).prefillPerInputTokenMs(0)
            .decodeBaseMs(1).decodePerSeqMs(0).jitter(0).toolSteps(2)))
        {
            final RunOptionsBuilder o = SimServerExtension.options(server, dir);
            o.users(2).requests(18L).maxTokens(8).saveText(true);
            o.agent(new AgentSpec(null, 5, AgentSpec.DEFAULT_MAX_RETRIES, List.of(), AgentSpec.DEFAULT_TOOL_TIMEOUT_MS,
                null, LengthSpec.fixed(5), LengthSpec.fixed(10)));
            o.thinkTimeMs(LengthSpec.fixed(5));
            o.qualityChecks(List.of(Checks.fromFlag("regex=" + RIGHT)));
            final RunResult r = new BenchmarkRunner().run(o.build(), new PrintStream(new ByteArrayOutputStream()));

            final Map<Long, List<JsonNode>> tasks = new HashMap<>();
            for (final String line : Files.readAllLines(dir.resolve("requests.jsonl")))
            {
                final JsonNode n = JSON.readTree(line);
                tasks.computeIfAbsent(n.get("task").asLong(), k -> new ArrayList<>()).add(n);
            }
            long right = 0;
            long wrong = 0;
            for (final List<JsonNode> steps : tasks.values())
            {
                for (final JsonNode step : steps)
                {
                    if (!step.get("final_step").asBoolean())
                    {
                        assertTrue(step.get("quality").isNull(), "a tool-call step is never judged: " + step);
                        assertTrue(step.get("success").isNull());
                        continue;
                    }
                    assertEquals(2, step.get("step").asInt(), "two tool calls, then the answer");
                    final boolean pass = Pattern.compile(RIGHT).matcher(step.get("output_text").asText()).find();
                    assertEquals(pass, step.get("quality").get("pass").asBoolean());
                    right += pass ? 1 : 0;
                    wrong += pass ? 0 : 1;
                }
            }
            assertTrue(r.tasks().tasks() >= 4, "tasks finished: " + r.tasks().tasks());
            assertEquals(r.tasks().tasks(), right + wrong, "every finished task has one judged final answer");
            assertEquals(right, r.tasks().succeeded());
            assertEquals(wrong, r.tasks().wrongAnswers());
            final JsonNode record = JSON.readTree(dir.resolve("record.json").toFile()).path("report");
            assertEquals(wrong, record.path("tasks").path("wrong_answers").asLong());
            assertEquals(wrong, record.path("tasks").path("failed").asLong());
            final JsonNode goodput = record.path("goodput");
            assertEquals("tasks", goodput.path("unit").asText());
            assertEquals(r.tasks().tasks(), goodput.path("attempted").asLong(), "goodput counts tasks, not steps");
            assertEquals(right, goodput.path("good").asLong());
            assertEquals(wrong, goodput.path("misses").path("quality").asLong());
            assertFalse(record.path("quality").isMissingNode());
            assertEquals(right + wrong, record.path("quality").path("checked").asLong(),
                "only final answers were judged");
        }
    }
}
