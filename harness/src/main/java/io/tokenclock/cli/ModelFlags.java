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

    @Option(names = "--max-tokens",
        description = "max_tokens per request; 0 leaves it to the server.")
    int maxTokens;

    @Option(names = "--ignore-eos", description = "Send ignore_eos=true (vLLM, SGLang) to pin output length.")
    boolean ignoreEos;

    @Option(names = "--temperature", description = "Sampling temperature (default: the server's).")
    Double temperature;

    @Option(names = "--extra-body", description = "JSON object merged into every request body.")
    String extraBody;

    @Option(names = "--tokenizer", description = "cl100k_base, o200k_base, words, or a tokenizer.json path: prompts " +
        "are synthesized to exact token counts under it.")
    String tokenizer;

    /** Sets the builder from the flags that {@code given} says apply. */
    void applyTo(final RunOptionsBuilder o, final Given given)
    {
        given.apply(o, RunOption.MODEL, model);
        given.apply(o, RunOption.MAX_TOKENS, maxTokens);
        given.apply(o, RunOption.IGNORE_EOS, ignoreEos);
        given.apply(o, RunOption.TEMPERATURE, temperature);
        given.apply(o, RunOption.EXTRA_BODY, extraBody);
        given.apply(o, RunOption.TOKENIZER, tokenizer);
    }
}
