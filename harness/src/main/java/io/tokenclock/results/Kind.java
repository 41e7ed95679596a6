package io.tokenclock.results;

import java.util.Locale;

/** What an output directory (or a file) holds; its word is {@code kind} in {@code index.json}. */
public enum Kind
{
    /** One run: {@code record.json}, {@code requests.jsonl}. */
    RUN,
    /** {@code run --repetitions N}: {@code rep-K} directories and {@code repetitions.json}. */
    REPETITIONS,
    /** {@code sweep}: one run per point and search probe, and {@code sweep.json}. */
    SWEEP,
    /** {@code ab}: {@code A/rep-K}, {@code B/rep-K} and {@code ab.json}. */
    AB,
    /** {@code merge}: shards of one run merged into one record. */
    MERGED,
    /** A peer tool's result file read in (vLLM, SGLang, AIPerf, GuideLLM). */
    IMPORTED;

    /** @return the word written in {@code index.json}: {@code run}, {@code repetitions}, ... */
    public String word()
    {
        return name().toLowerCase(Locale.ROOT);
    }

    /** @return the kind of {@code word}; an unknown word is an {@link IllegalArgumentException} naming it. */
    public static Kind of(final String word)
    {
        for (final Kind k : values())
        {
            if (k.word().equals(word))
            {
                return k;
            }
        }
        throw new IllegalArgumentException("unknown result kind \"" + word + "\" (expected run, repetitions, sweep, " +
            "ab, merged or imported)");
    }
}
