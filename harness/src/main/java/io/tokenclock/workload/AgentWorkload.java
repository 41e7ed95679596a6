package io.tokenclock.workload;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.function.BiConsumer;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.HdrHistogram.Histogram;

import io.tokenclock.json.Json;
import io.tokenclock.load.BuiltRequest;
import io.tokenclock.load.TurnResult;
import io.tokenclock.secrets.ChildEnvironment;
import io.tokenclock.workload.dist.LengthDistribution;
import io.tokenclock.workload.tokenizer.Tokenizer;

/**
 * Tool-using agents: each simulated user works through tasks. A task starts with a user message and the declared
 * {@code tools}; when the model answers with tool calls, the harness plays the tools (a latency drawn from a declared
 * distribution, a result text of a drawn length), sends the calls and results back as the conversation continues,
 * and repeats until the model gives a final answer or the step limit is reached. For agents tokens/s stops being the
 * headline: the task is. Each task's end-to-end latency, steps, model time against tool time, and success (a final
 * answer within the step limit, every request ok) are recorded.
 * <p>
 * Called on the load generator's thread only; {@link #report()} after the generator stopped.
 */
public final class AgentWorkload extends UserWorkload
{
    private static final ObjectMapper JSON = Json.MAPPER;
    /** A failed model request is retried after 100 ms, doubling with each retry of the same step. */
    private static final long RETRY_BACKOFF_NS = 100_000_000L;

    /** Task outcomes and timings of a run. Latencies in ms. */
    public record Report(long tasks, long succeeded, long failedRequests, long stepLimited, Histogram latencyMs,
        Histogram steps, double modelSeconds, double toolSeconds, long retries)
    {
    }

    private final RequestBodyFactory bodies;
    private final LengthDistribution taskInput;
    private final LengthDistribution output;
    private final int fixedOutput;
    private final int maxSteps;
    private final LengthDistribution toolLatencyMs;
    private final LengthDistribution toolResultTokens;
    private final LengthDistribution thinkMs;
    private final Agent[] agents;
    private final Histogram latencyMs = new Histogram(3_600_000L, 3);
    private final Histogram steps = new Histogram(100_000L, 3);
    private long tasks;
    private long succeeded;
    private long failedRequests;
    private long stepLimited;
    private long retries;
    private final int maxRetries;
    private List<String> toolCommand;
    private List<String> toolPassEnv = List.of();
    private long toolTimeoutNs = 30_000_000_000L;
    private List<String> toolResultTexts;
    private BiConsumer<Integer, TurnResult> toolsDone;
    private long modelNs;
    private long toolNs;

    private static final class Agent
    {
        int task = -1;
        int step;
        long taskStartNs;
        long lastDueNs;
        long lastToolDelayNs;
        int retries;
        ArrayNode messages;
        /** Tokens of the task's conversation so far: the prompt-length hint of its next step, chat template aside. */
        int messageTokens;
        /** Outputs of a declared tool command, handed over from the tool thread; null while none is ready. */
        volatile List<String> commandOutputs;
        boolean commandRunning;
    }

    /**
     * @param bodies           builds chat bodies; its extra body must carry the {@code tools} to offer.
     * @param taskInput        length of a task's opening message.
     * @param maxSteps         model requests per task at most.
     * @param toolLatencyMs    simulated tool latency, ms.
     * @param toolResultTokens length of a simulated tool result.
     * @param thinkMs          pause between one task's end and the user's next task, ms.
     * @param maxRetries       times a failed model request is retried within a task before the task fails.
     */
    public AgentWorkload(
        final long seed, final RequestBodyFactory bodies, final Tokenizer tokenizer, final LengthDistribution taskInput,
        final LengthDistribution output, final int fixedOutput, final int maxSteps,
        final LengthDistribution toolLatencyMs, final LengthDistribution toolResultTokens,
        final LengthDistribution thinkMs, final int users, final int maxRetries)
    {
        super(seed, tokenizer);
        if (maxSteps < 1)
        {
            throw new IllegalArgumentException("an agent needs max_steps >= 1: " + maxSteps);
        }
        this.bodies = bodies;
        this.taskInput = taskInput;
        this.output = output;
        this.fixedOutput = fixedOutput;
        this.maxSteps = maxSteps;
        this.maxRetries = maxRetries;
        this.toolLatencyMs = toolLatencyMs;
        this.toolResultTokens = toolResultTokens;
        this.thinkMs = thinkMs;
        this.agents = new Agent[users];
        for (int u = 0; u < users; u++)
        {
            agents[u] = new Agent();
        }
    }

    @Override
    public BuiltRequest nextTurn(final int user, final TurnResult previous, final long dueNs)
    {
        final Agent a = agents[user];
        if (previous != null && a.task >= 0)
        {
            modelNs += Math.max(0, previous.endNs() - a.lastDueNs);
        }
        final boolean retrying = previous != null && a.task >= 0 && !previous.ok() && a.retries < maxRetries;
        if (retrying)
        {
            // The model request failed: an agent framework retries the same step (same conversation) before it
            // gives the task up.
            a.retries++;
            retries++;
        }
        else if (previous == null || a.task < 0 || !previous.wantsTools() || a.step >= maxSteps)
        {
            if (previous != null && a.task >= 0)
            {
                finishTask(a, previous);
            }
            startTask(user, a, dueNs);
        }
        else
        {
            toolNs += a.lastToolDelayNs;
            continueWithToolResults(user, a, previous);
        }
        if (!retrying)
        {
            a.step++;
        }
        a.lastDueNs = dueNs;
        counted();
        final SplittableRandom random = random(user, a.task, a.step, 0x0a7);
        return new BuiltRequest(bodies.body(a.messages, output != null ? output.sample(random) : fixedOutput),
            a.messageTokens, 0);
    }

    private void startTask(final int user, final Agent a, final long dueNs)
    {
        a.task++;
        a.step = 0;
        a.retries = 0;
        a.taskStartNs = dueNs;
        a.messages = JSON.createArrayNode();
        final SplittableRandom random = random(user, a.task, 0, 0);
        final PromptSynthesizer.Prompt text = message(taskInput.sample(random), random,
            "user " + user + " task " + a.task + ":");
        a.messages.addObject().put("role", "user").put("content", text.text());
        a.messageTokens = text.tokens();
    }

    private void continueWithToolResults(final int user, final Agent a, final TurnResult previous)
    {
        final ObjectNode assistant = a.messages.addObject().put("role", "assistant");
        if (previous.text().isEmpty())
        {
            assistant.putNull("content");
        }
        else
        {
            assistant.put("content", previous.text());
            a.messageTokens += tokenizer.count(previous.text());
        }
        final ArrayNode calls = assistant.putArray("tool_calls");
        int k = 0;
        for (final TurnResult.ToolCall call : previous.toolCalls())
        {
            final String id = call.id() != null ? call.id() : "call_" + user + "_" + a.task + "_" + a.step + "_" + k;
            calls.addObject().put("id", id).put("type", "function").putObject("function")
                .put("name", call.name()).put("arguments", call.arguments());
            final SplittableRandom random = random(user, a.task, a.step, 0x7001 + k);
            final String result;
            if (a.commandOutputs != null && k < a.commandOutputs.size())
            {
                result = a.commandOutputs.get(k);
            }
            else if (toolResultTexts != null)
            {
                result = toolResultTexts.get(random.nextInt(toolResultTexts.size()));
            }
            else
            {
                result = message(toolResultTokens.sample(random), random, "result of " + call.name() + ":").text();
            }
            a.messageTokens += tokenizer.count(result);
            a.messages.addObject().put("role", "tool").put("tool_call_id", id).put("content", result);
            k++;
        }
        a.commandOutputs = null;
    }

    private void finishTask(final Agent a, final TurnResult last)
    {
        tasks++;
        steps.recordValue(a.step);
        latencyMs.recordValue(Math.max(0, (last.endNs() - a.taskStartNs) / 1_000_000));
        if (!last.ok())
        {
            failedRequests++;
        }
        else if (last.wantsTools())
        {
            stepLimited++;
        }
        else
        {
            succeeded++;
        }
    }

    @Override
    public long delayNs(final int user, final TurnResult previous)
    {
        final Agent a = agents[user];
        final SplittableRandom random = random(user, a.task, a.step, 0x5151);
        if (!previous.ok() && a.retries < maxRetries)
        {
            return RETRY_BACKOFF_NS << a.retries;
        }
        if (previous.wantsTools() && a.step < maxSteps)
        {
            if (toolCommand != null)
            {
                if (a.commandRunning)
                {
                    a.commandRunning = false;
                    return 0;
                }
                a.commandRunning = true;
                runCommands(user, a, previous);
                return -1;
            }
            a.lastToolDelayNs = toolLatencyMs.sample(random) * 1_000_000L;
            return a.lastToolDelayNs;
        }
        return thinkMs.sample(random) * 1_000_000L;
    }

    /**
     * Answers tool calls by running a declared command instead of simulating them: for each call the command gets the
     * call's arguments (JSON) on stdin and {@code TOOL_NAME} and {@code TOOL_CALL_ID} in its environment, and its
     * stdout is the tool's result (a non-zero exit or a timeout gives an {@code error: ...} result). The commands run
     * on their own thread; when they are done, {@code done} is told, so that the load generator schedules the user's
     * next step at once. Tool time is then the commands' real wall time. The command's environment is
     * {@link ChildEnvironment}'s: the basic variables and {@code passEnv}, never tokenclock's keys.
     */
    public AgentWorkload toolCommand(final List<String> command, final List<String> passEnv, final long timeoutNs,
        final BiConsumer<Integer, TurnResult> done)
    {
        this.toolCommand = List.copyOf(command);
        this.toolPassEnv = List.copyOf(passEnv);
        this.toolTimeoutNs = timeoutNs;
        this.toolsDone = done;
        return this;
    }

    /** Simulated tools answer with a line drawn from these texts (a dataset) instead of synthetic text. */
    public AgentWorkload toolResultTexts(final List<String> texts)
    {
        this.toolResultTexts = texts.isEmpty() ? null : List.copyOf(texts);
        return this;
    }

    private void runCommands(final int user, final Agent a, final TurnResult previous)
    {
        final List<TurnResult.ToolCall> calls = previous.toolCalls();
        Thread.ofVirtual().name("tokenclock-tool-" + user).start(() ->
        {
            final long start = System.nanoTime();
            final List<String> outputs = new ArrayList<>();
            for (final TurnResult.ToolCall call : calls)
            {
                outputs.add(runCommand(call));
            }
            a.lastToolDelayNs = System.nanoTime() - start;
            a.commandOutputs = outputs;
            toolsDone.accept(user, previous);
        });
    }

    private String runCommand(final TurnResult.ToolCall call)
    {
        try
        {
            final ProcessBuilder pb = new ProcessBuilder(toolCommand).redirectErrorStream(true);
            ChildEnvironment.restrict(pb.environment(), toolPassEnv);
            pb.environment().put("TOOL_NAME", String.valueOf(call.name()));
            pb.environment().put("TOOL_CALL_ID", String.valueOf(call.id()));
            final Process process = pb.start();
            try (var stdin = process.getOutputStream())
            {
                stdin.write(call.arguments().getBytes(StandardCharsets.UTF_8));
            }
            final byte[] out = process.getInputStream().readNBytes(64 * 1024);
            if (!process.waitFor(toolTimeoutNs, TimeUnit.NANOSECONDS))
            {
                process.destroyForcibly();
                return "error: the tool command timed out";
            }
            final String text = new String(out, StandardCharsets.UTF_8).strip();
            return process.exitValue() == 0 ? text : "error: exit " + process.exitValue() + ": " + text;
        }
        catch (final IOException ex)
        {
            return "error: " + ex.getMessage();
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            return "error: interrupted";
        }
    }

    /** @return the tasks finished so far; call after the generator stopped. */
    public Report report()
    {
        return new Report(tasks, succeeded, failedRequests, stepLimited, latencyMs, steps, modelNs / 1e9,
            toolNs / 1e9, retries);
    }

    @Override
    public String describe()
    {
        return agents.length + " tool-using agents: tasks of at most " + maxSteps + " model steps; task message " +
            taskInput.describe() + "; tool latency ms " + toolLatencyMs.describe() + "; tool results " +
            toolResultTokens.describe() + " tokens in " + tokenizer.id() + "; seed " + seed;
    }
}
