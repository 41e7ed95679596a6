package io.tokenclock.workload;

/**
 * Supplies the prompt of request number {@code i}. Implementations are deterministic in {@code (seed, i)}, so the
 * same contract and seed give the same prompts, byte for byte. Called from the load generator's thread only.
 */
public interface PromptSource
{
    /** @return the prompt text of request {@code i} (0-based, warmup included). */
    String prompt(long i);

    /** @return the approximate input length of request {@code i} in tokens, or -1 if unknown. */
    int promptTokensHint(long i);

    /** @return a one-line description for the record, e.g. {@code synthetic words, 128 per prompt, seed 42}. */
    String describe();
}
