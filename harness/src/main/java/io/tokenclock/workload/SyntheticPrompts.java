package io.tokenclock.workload;

import java.util.SplittableRandom;

/**
 * Prompts of a fixed number of pseudo-random English words, each prompt distinct (its first words encode the
 * request number, so a prefix cache sees no accidental sharing between requests).
 * <p>
 * A word is roughly one token for common BPE tokenizers, so {@code words} approximates the input length; the server's
 * {@code usage.prompt_tokens} gives the exact count, which the record uses when present. Exact token-count synthesis
 * under a configured tokenizer belongs to the workload layer's tokenizer support.
 */
public final class SyntheticPrompts implements PromptSource
{
    private static final String[] WORDS = (
        "the of and to in is that for it as was with be by on not he this are or his from at which but have an " +
        "they you were her she there been one all we their has would when if so no will more about can said up " +
        "out them some could into than then its time only other new two may first any like these over such our " +
        "system model token latency stream server request answer question data memory cache batch queue load " +
        "river mountain garden window letter market winter summer city music history science people water light")
        .split(" ");

    private final int words;
    private final long seed;

    public SyntheticPrompts(final int words, final long seed)
    {
        if (words < 1)
        {
            throw new IllegalArgumentException("input length must be >= 1 word: " + words);
        }
        this.words = words;
        this.seed = seed;
    }

    @Override
    public String prompt(final long i)
    {
        final SplittableRandom random = new SplittableRandom(seed * 0x9E3779B97F4A7C15L + i);
        final StringBuilder sb = new StringBuilder(words * 7);
        sb.append("request ").append(i).append(':');
        for (int w = 2; w < words; w++)
        {
            sb.append(' ').append(WORDS[random.nextInt(WORDS.length)]);
        }
        return sb.toString();
    }

    @Override
    public int promptTokensHint(final long i)
    {
        return words;
    }

    @Override
    public String describe()
    {
        return "synthetic: " + words + " pseudo-random words per prompt (about one token each), seed " + seed;
    }
}
