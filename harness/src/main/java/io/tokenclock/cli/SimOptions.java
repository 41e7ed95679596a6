package io.tokenclock.cli;

import java.util.Arrays;
import java.util.Locale;

import picocli.CommandLine.Option;

import io.tokenclock.fixtures.sim.FaultKind;
import io.tokenclock.fixtures.sim.SimConfig;

/** The simulated server's engine model as CLI flags, shared by {@code serve-sim} and {@code demo}. */
public final class SimOptions
{
    @Option(names = "--sim-batch-slots", defaultValue = "64", description = "Continuous-batching slots.")
    int batchSlots;

    @Option(names = "--sim-prefill-ms", defaultValue = "20", description = "Prefill base time, ms.")
    double prefillMs;

    @Option(names = "--sim-prefill-per-token-ms", defaultValue = "0.02",
        description = "Prefill time per input token, ms.")
    double prefillPerTokenMs;

    @Option(names = "--sim-decode-ms", defaultValue = "8", description = "Decode step base time, ms.")
    double decodeMs;

    @Option(names = "--sim-decode-per-seq-ms", defaultValue = "0.05",
        description = "Decode step time per running sequence, ms.")
    double decodePerSeqMs;

    @Option(names = "--sim-jitter", defaultValue = "0.05", description = "Step-time jitter fraction.")
    double jitter;

    @Option(names = "--sim-tokens-per-chunk", defaultValue = "1", description = "Tokens per streamed chunk.")
    int tokensPerChunk;

    @Option(names = "--sim-output-tokens", defaultValue = "128",
        description = "Output length when max_tokens is absent.")
    int outputTokens;

    @Option(names = "--sim-reasoning-tokens", defaultValue = "0", description = "Leading tokens streamed as reasoning.")
    int reasoningTokens;

    @Option(names = "--sim-embedding-dims", defaultValue = "64",
        description = "Numbers in each embedding the embeddings API answers (sets the answer's size).")
    int embeddingDimensions;

    @Option(names = "--sim-tool-steps", defaultValue = "2",
        description = "Tool calls before a final answer when a request offers tools.")
    int toolSteps;

    @Option(names = "--sim-fault-rate", defaultValue = "0", description = "Fraction of requests given a random fault.")
    double faultRate;

    @Option(names = "--sim-fault-kinds", defaultValue = "default", description = "Faults drawn at random: " +
        "'default' (http_500, http_429, cut, malformed, error_event), 'all' (also error_hang, truncate, " +
        "not_streaming, garbage, close_after), or a comma-separated list.")
    String faultKinds;

    @Option(names = "--sim-close-delay-ms", defaultValue = "0", description = "close_after: ms from the " +
        "response's last byte to the connection's close (0: at once, as llama.cpp's server); requests that come " +
        "meanwhile are dropped unanswered.")
    double closeDelayMs;

    @Option(names = "--sim-seed", defaultValue = "42", description = "Seed of the simulator.")
    long simSeed;

    @Option(names = "--sim-task-accuracy", paramLabel = "P", description = "Task mode: answer arithmetic and " +
        "lookup prompts (\"What is 17 + 25?\") with the bare value, right with probability P in [0, 1] (seeded), " +
        "wrong otherwise; other prompts as usual (default: off).")
    Double taskAccuracy;

    @Option(names = "--sim-prefix-cache-block", defaultValue = "0", paramLabel = "TOKENS", description = "Model a " +
        "prefix cache of blocks of this many tokens (words), vLLM's way: a prompt's leading blocks seen before cost " +
        "no prefill and are reported as cached_tokens and in vLLM's prefix_cache counters (0: no cache; vLLM's " +
        "block is 16).")
    int prefixCacheBlock;

    @Option(names = "--sim-prefix-cache-blocks", defaultValue = "1000000", paramLabel = "BLOCKS",
        description = "The prefix cache's size in blocks, least recently used out first (0: unbounded).")
    int prefixCacheBlocks;

    @Option(names = "--sim-spec-tokens", defaultValue = "0", paramLabel = "K", description = "Model a speculative " +
        "decoder drafting K tokens a step, each accepted in order with probability --sim-spec-acceptance; a step " +
        "streams the accepted tokens and one more as one chunk, and vLLM's spec_decode counters report it (0: off).")
    int specTokens;

    @Option(names = "--sim-spec-acceptance", defaultValue = "0.7", paramLabel = "P",
        description = "The probability that each draft token is accepted, in [0, 1].")
    double specAcceptance;

    private FaultKind[] faultKinds()
    {
        if ("default".equals(faultKinds))
        {
            return FaultKind.RANDOM_DEFAULT.toArray(FaultKind[]::new);
        }
        if ("all".equals(faultKinds))
        {
            return FaultKind.values();
        }
        return Arrays.stream(faultKinds.split(",")).map(String::trim)
            .map(FaultKind::fromWireName).toArray(FaultKind[]::new);
    }

    SimConfig toConfig()
    {
        final SimConfig c = new SimConfig()
            .batchSlots(batchSlots)
            .prefillBaseMs(prefillMs)
            .prefillPerInputTokenMs(prefillPerTokenMs)
            .decodeBaseMs(decodeMs)
            .decodePerSeqMs(decodePerSeqMs)
            .jitter(jitter)
            .tokensPerChunk(tokensPerChunk)
            .outputTokens(outputTokens)
            .reasoningTokens(reasoningTokens)
            .embeddingDimensions(embeddingDimensions)
            .toolSteps(toolSteps)
            .faultRate(faultRate)
            .faultKinds(faultKinds())
            .seed(simSeed)
            .closeDelayMs(closeDelayMs)
            .taskAccuracy(taskAccuracy == null ? SimConfig.TASKS_OFF : taskAccuracy)
            .prefixCacheBlockTokens(prefixCacheBlock)
            .prefixCacheBlocks(prefixCacheBlocks)
            .specTokens(specTokens)
            .specAcceptance(specAcceptance);
        try
        {
            return c.validate();
        }
        catch (final IllegalArgumentException ex)
        {
            throw new IllegalArgumentException(ex.getMessage().toLowerCase(Locale.ROOT).startsWith("sim") ?
                ex.getMessage() : "simulator: " + ex.getMessage());
        }
    }
}
