package io.tokenclock.cli;


import picocli.CommandLine.Option;

import io.tokenclock.config.AgentSpec;
import io.tokenclock.config.LengthSpec;
import io.tokenclock.config.RunOption;
import io.tokenclock.config.RunOptionsBuilder;

/**
 * {@code run}'s flags for what is sent: prompts, datasets, sessions, cancellation (W). Each one is documented in
 * docs/CLI.md; {@link Given} says which apply.
 */
final class WorkloadFlags
{
    @Option(names = "--turns", defaultValue = "3",
        description = "Turns per session with --users (default: ${DEFAULT-VALUE}).")
    int turns;

    @Option(names = "--think-ms", defaultValue = "1000",
        description = "Think time between an answer and the user's next turn, ms (default: ${DEFAULT-VALUE}).")
    int thinkMs;

    @Option(names = "--agent-steps",
        description = "With --users: tool-using agents offered a search tool, at most N model steps per task.")
    Integer agentSteps;

    @Option(names = "--tool-latency-ms", defaultValue = "200",
        description = "Simulated tool latency for --agent-steps, ms (default: ${DEFAULT-VALUE}).")
    int toolLatencyMs;

    /** Sets the builder from the flags that {@code given} says apply. */
    void applyTo(final RunOptionsBuilder o, final Given given)
    {
        if (given.typed("--input-tokens"))
        {
            // the fixed length replaces a contract's distribution ({@link TableFlags} sets the length itself)
            o.inputLengths(null);
        }
        if (given.set("--agent-steps") && agentSteps != null)
        {
            o.agent(AgentSpec.simulated(agentSteps, toolLatencyMs));
        }
        given.apply(o, RunOption.SESSION_TURNS, LengthSpec.fixed(turns));
        given.apply(o, RunOption.THINK_TIME_MS, LengthSpec.fixed(thinkMs));
    }
}
