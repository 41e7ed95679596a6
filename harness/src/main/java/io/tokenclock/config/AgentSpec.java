package io.tokenclock.config;

import java.nio.file.Path;
import java.util.List;

/**
 * Tool-using agents ({@code workload.agent}, or {@code --agent-steps}): each simulated user runs tasks of up to
 * {@code maxSteps} model calls, answering each tool call with a simulated or real tool result. Immutable.
 *
 * @param tools            The {@code tools} array sent with every request, as JSON text; null for the default
 *                         search tool.
 * @param maxSteps         Model calls per task at most; a task that needs more is step-limited.
 * @param maxRetries       Retries of a failed step before the task fails.
 * @param toolCommand      A real tool to run per tool call, as an argument vector (never a shell string); empty for
 *                         simulated tools.
 * @param toolTimeoutMs    The real tool's time limit, ms.
 * @param toolResultsFile  Tool results to answer with, one per line, or null for synthetic text.
 * @param toolLatencyMs    The simulated tool's latency, ms.
 * @param toolResultTokens The simulated tool result's length, tokens.
 * @param toolPassEnv      The variables the real tool gets besides the basic ones ({@code tool_pass_env}): it never
 *                         inherits tokenclock's environment, which holds the run's keys
 *                         ({@code secrets.ChildEnvironment}, as a quality check's {@code command}).
 */
public record AgentSpec(String tools, int maxSteps, int maxRetries, List<String> toolCommand, double toolTimeoutMs,
    Path toolResultsFile, LengthSpec toolLatencyMs, LengthSpec toolResultTokens, List<String> toolPassEnv)
{
    /** Defaults where the contract is silent: 8 steps, 2 retries, a 30 s tool limit, 200 ms and 100-token results. */
    public static final int DEFAULT_MAX_STEPS = 8;
    public static final int DEFAULT_MAX_RETRIES = 2;
    public static final double DEFAULT_TOOL_TIMEOUT_MS = 30_000;
    public static final int DEFAULT_TOOL_LATENCY_MS = 200;
    public static final int DEFAULT_TOOL_RESULT_TOKENS = 100;

    public AgentSpec
    {
        toolCommand = List.copyOf(toolCommand);
        toolPassEnv = toolPassEnv == null ? List.of() : List.copyOf(toolPassEnv);
        toolLatencyMs = toolLatencyMs == null ? LengthSpec.fixed(DEFAULT_TOOL_LATENCY_MS) : toolLatencyMs;
        toolResultTokens = toolResultTokens == null ? LengthSpec.fixed(DEFAULT_TOOL_RESULT_TOKENS) : toolResultTokens;
    }

    /** Agents whose real tool, if any, gets the basic environment only. */
    public AgentSpec(final String tools, final int maxSteps, final int maxRetries, final List<String> toolCommand,
        final double toolTimeoutMs, final Path toolResultsFile, final LengthSpec toolLatencyMs,
        final LengthSpec toolResultTokens)
    {
        this(tools, maxSteps, maxRetries, toolCommand, toolTimeoutMs, toolResultsFile, toolLatencyMs,
            toolResultTokens, List.of());
    }

    /** @return agents with the default tool, limits and simulated tool results, and this many steps and latency. */
    public static AgentSpec simulated(final int maxSteps, final int toolLatencyMs)
    {
        return new AgentSpec(null, maxSteps, DEFAULT_MAX_RETRIES, List.of(), DEFAULT_TOOL_TIMEOUT_MS, null,
            LengthSpec.fixed(toolLatencyMs), null);
    }
}
