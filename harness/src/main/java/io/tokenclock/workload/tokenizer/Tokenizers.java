package io.tokenclock.workload.tokenizer;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;

/**
 * Turns the {@code --tokenizer} spec of a run into a {@link Tokenizer}:
 * <ul>
 *     <li>{@code cl100k_base}, {@code o200k_base} (or another tiktoken encoding name, optionally written as its id,
 *     {@code tiktoken:cl100k_base}): {@link TiktokenTokenizer};</li>
 *     <li>{@code words}: {@link WordTokenizer}, the fallback when nothing is configured;</li>
 *     <li>{@code hf:PATH}, or any spec ending in {@code .json}: {@link HuggingFaceTokenizer} over that local file,
 *     e.g. {@code hf:/models/Llama-3.1-8B-Instruct/tokenizer.json}.</li>
 * </ul>
 * Every id a tokenizer reports is also a spec for it, so a record's tokenizer id can be fed back to reproduce a count.
 */
public final class Tokenizers
{
    /** The one-line list of accepted forms, used in error messages and help text. */
    public static final String ACCEPTED_FORMS = "cl100k_base, o200k_base (or tiktoken:<encoding>), words, " +
        "hf:<path to tokenizer.json>, or a path ending in .json";

    private Tokenizers()
    {
    }

    /**
     * @param spec see the class comment.
     * @return the tokenizer; a {@link HuggingFaceTokenizer} holds native memory, release it with
     * {@link #closeQuietly(Tokenizer)} or its {@code close()}.
     * @throws IllegalArgumentException for an unknown spec, listing the accepted forms, or an unloadable file.
     * @throws UncheckedIOException if a tokenizer file exists but cannot be read.
     */
    public static Tokenizer of(final String spec)
    {
        final String s = spec == null ? "" : spec.strip();
        if (s.equals(WordTokenizer.ID))
        {
            return new WordTokenizer();
        }
        if (TiktokenTokenizer.isEncodingName(s))
        {
            return TiktokenTokenizer.of(s);
        }
        if (s.startsWith(TiktokenTokenizer.ID_PREFIX))
        {
            final String name = s.substring(TiktokenTokenizer.ID_PREFIX.length());
            if (TiktokenTokenizer.isEncodingName(name))
            {
                return TiktokenTokenizer.of(name);
            }
            throw new IllegalArgumentException("unknown tiktoken encoding '" + name + "' in tokenizer spec '" + s +
                "': expected one of " + TiktokenTokenizer.encodingNames());
        }
        final boolean hf = s.startsWith(HuggingFaceTokenizer.ID_PREFIX);
        if (hf || s.endsWith(".json"))
        {
            final String path = hf ? s.substring(HuggingFaceTokenizer.ID_PREFIX.length()) : s;
            if (path.isEmpty())
            {
                throw new IllegalArgumentException("tokenizer spec '" + s + "' names no file: expected hf:<path>");
            }
            try
            {
                return HuggingFaceTokenizer.open(Path.of(path));
            }
            catch (final IOException ex)
            {
                throw new UncheckedIOException("cannot read tokenizer file " + path, ex);
            }
        }
        throw new IllegalArgumentException("unknown tokenizer '" + s + "': expected " + ACCEPTED_FORMS);
    }

    /**
     * Closes {@code tokenizer} if it holds resources ({@link AutoCloseable}); errors on close are swallowed, since
     * nothing can be done about them once counting is over.
     */
    public static void closeQuietly(final Tokenizer tokenizer)
    {
        if (tokenizer instanceof AutoCloseable closeable)
        {
            try
            {
                closeable.close();
            }
            catch (final Exception ignore)
            {
                // Nothing left to do with a tokenizer that fails to release its memory.
            }
        }
    }
}
