package io.tokenclock.cli;

import picocli.CommandLine.Option;

import io.tokenclock.config.RunOption;
import io.tokenclock.config.RunOptionsBuilder;

/**
 * {@code run}'s flags for the model and how it decodes (M). Each one is documented in docs/CLI.md; {@link Given} says
 * which apply.
 */
final class ModelFlags
{
    @Option(names = "--model", description = "Model name (default: the first one /models lists).")
    String model;

    @Option(names = "--temperature", description = "Sampling temperature (default: the server's).")
    Double temperature;

    @Option(names = "--tokenizer", description = "cl100k_base, o200k_base, words, or a tokenizer.json path: prompts " +
        "are synthesized to exact token counts under it.")
    String tokenizer;

    /** Sets the builder from the flags that {@code given} says apply. */
    void applyTo(final RunOptionsBuilder o, final Given given)
    {
        given.apply(o, RunOption.MODEL, model);
        given.apply(o, RunOption.TEMPERATURE, temperature);
        given.apply(o, RunOption.TOKENIZER, tokenizer);
    }
}
