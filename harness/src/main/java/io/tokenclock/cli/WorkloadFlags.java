package io.tokenclock.cli;

import java.nio.file.Path;
import java.util.Locale;

import picocli.CommandLine.Option;

import io.tokenclock.config.AgentSpec;
import io.tokenclock.config.LengthSpec;
import io.tokenclock.config.RunOption;
import io.tokenclock.config.RunOptionsBuilder;
import io.tokenclock.workload.ImageFormat;
import io.tokenclock.workload.RerankShape;
import io.tokenclock.workload.SessionChain;

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

    @Option(names = "--session-chain",
        description = "With --users: history (resend every message) or previous-response-id (--endpoint responses: " +
            "the new message and the last response's id) (default: ${DEFAULT-VALUE}).")
    String sessionChain;

    @Option(names = "--agent-steps",
        description = "With --users: tool-using agents offered a search tool, at most N model steps per task.")
    Integer agentSteps;

    @Option(names = "--tool-latency-ms", defaultValue = "200",
        description = "Simulated tool latency for --agent-steps, ms (default: ${DEFAULT-VALUE}).")
    int toolLatencyMs;

    @Option(names = "--seed",
        description = "Seed of the schedule and prompts (default: ${DEFAULT-VALUE}).")
    long seed;

    @Option(names = "--input-tokens", description = "Synthetic prompt length in words (~tokens).")
    int inputTokens;

    @Option(names = "--prompt", description = "Use this prompt for every request instead of synthetic ones.")
    String prompt;

    @Option(names = "--dataset", description = "Replay prompts from a dataset or trace file instead of synthesizing.")
    Path dataset;

    @Option(names = "--dataset-format",
        description = "jsonl (prompt or messages per line), sharegpt, or mooncake (trace) (default: ${DEFAULT-VALUE}).")
    String datasetFormat;

    @Option(names = "--image-format", paramLabel = "png|jpeg",
        description = "How the synthetic images of --image-count are encoded: png or jpeg (default: png).")
    String imageFormat;

    @Option(names = "--rerank-shape", paramLabel = "documents|texts",
        description = "--endpoint rerank's request: documents (vLLM, Cohere, Jina, llama.cpp) or texts (Hugging " +
            "Face TEI) (default: documents).")
    String rerankShape;

    /** Sets the builder from the flags that {@code given} says apply. */
    void applyTo(final RunOptionsBuilder o, final Given given)
    {
        given.apply(o, RunOption.SEED, seed);
        if (given.set("--input-tokens"))
        {
            o.inputTokens(inputTokens);
            o.inputLengths(null);
        }
        given.apply(o, RunOption.PROMPT, prompt);
        given.apply(o, RunOption.DATASET, dataset);
        given.apply(o, RunOption.DATASET_FORMAT, datasetFormat.toLowerCase(Locale.ROOT));
        if (given.set("--agent-steps") && agentSteps != null)
        {
            o.agent(AgentSpec.simulated(agentSteps, toolLatencyMs));
        }
        given.apply(o, RunOption.SESSION_TURNS, LengthSpec.fixed(turns));
        given.apply(o, RunOption.THINK_TIME_MS, LengthSpec.fixed(thinkMs));
        if (imageFormat != null)
        {
            o.set(RunOption.IMAGE_FORMAT, word(ImageFormat.class, "--image-format", imageFormat));
        }
        if (rerankShape != null)
        {
            o.set(RunOption.RERANK_SHAPE, word(RerankShape.class, "--rerank-shape", rerankShape));
        }
        if (given.set("--session-chain"))
        {
            o.set(RunOption.SESSION_CHAIN, sessionChain(sessionChain));
        }
    }

    /** @return the constant of {@code type} that {@code word} names (case alike), or one line naming the flag. */
    static <E extends Enum<E>> E word(final Class<E> type, final String flag, final String word)
    {
        for (final E e : type.getEnumConstants())
        {
            if (e.name().equalsIgnoreCase(word.strip()))
            {
                return e;
            }
        }
        throw new IllegalArgumentException(flag + " must be " + java.util.Arrays.stream(type.getEnumConstants())
            .map(e -> e.name().toLowerCase(Locale.ROOT)).collect(java.util.stream.Collectors.joining(" or ")) +
            ": " + word);
    }

    /** @return the chain {@code --session-chain} names (case, dashes and underscores alike), or one line. */
    static SessionChain sessionChain(final String word)
    {
        for (final SessionChain chain : SessionChain.values())
        {
            if (chain.name().equalsIgnoreCase(word.strip().replace('-', '_')))
            {
                return chain;
            }
        }
        throw new IllegalArgumentException("--session-chain must be history or previous-response-id: " + word);
    }
}
