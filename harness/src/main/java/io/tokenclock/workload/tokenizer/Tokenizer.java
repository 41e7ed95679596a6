package io.tokenclock.workload.tokenizer;

/**
 * A tokenizer the harness uses to count and synthesize tokens on the cold path (workload generation, counting output
 * text after a run), never per chunk.
 * <p>
 * Implementations are thread-safe. {@link #id()} and {@link #fileSha256()} go into the record, so that a reader knows
 * exactly which tokenizer counted the tokens.
 */
public interface Tokenizer
{
    /** @return a stable identifier, e.g. {@code tiktoken:cl100k_base} or {@code hf:/path/to/tokenizer.json}. */
    String id();

    /** @return the SHA-256 (hex) of the tokenizer's file, or null for built-in encodings. */
    String fileSha256();

    /** @return token ids of {@code text}, without special tokens. */
    int[] encode(String text);

    /** @return the text of {@code ids}. */
    String decode(int[] ids);

    /** @return the number of tokens in {@code text}, without special tokens. */
    default int count(final String text)
    {
        return encode(text).length;
    }
}
