package io.tokenclock.workload;

import io.tokenclock.fixtures.words.PromptWords;
import io.tokenclock.workload.tokenizer.Tokenizer;
import io.tokenclock.workload.tokenizer.WordTokenizer;

import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Synthesizes a prompt of exactly N tokens under a given tokenizer, so that a benchmark's input length is what the
 * contract says rather than "about N words".
 * <p>
 * Method: after the optional prefix, append one pseudo-random English word per token still needed (a first guess of
 * one token per word), count, and correct until the count is exactly N:
 * <ul>
 *     <li>too long: encode, decode the first N ids, and keep that text if it is a verbatim prefix of the current text
 *     (true for byte-level BPEs such as tiktoken; false where decoding rewrites the text, e.g. an unknown word that
 *     comes back as {@code [UNK]}); otherwise drop whole words from the end, as many as the excess divided by the
 *     current tokens per word;</li>
 *     <li>too short: append whole words for a large deficit, or for a deficit of a few tokens try short words
 *     ({@code a}, {@code to}, {@code of}, ...) one at a time and keep the one that lands on N, or else gets closest
 *     without passing it;</li>
 * </ul>
 * and count again, for at most {@code maxIterations} corrections (20 by default). If N is not reached, the closest text
 * seen is returned with its residual (tokens - N); it is never looped on forever.
 * <p>
 * <b>The retokenization trap.</b> Cutting an id sequence at N and decoding it does not give a text of N tokens,
 * because the tokenizer would not have split the cut text the way it split the whole. With a BPE whose merges form
 * {@code th} and {@code er</w>}, "the mother" is [the</w>, m, o, th, er</w>]: decoding the first 4 ids gives
 * "the moth", which re-encodes as [the</w>, m, o, t, h</w>], 5 tokens, not 4, because {@code th} at the end of a word
 * is a different symbol from {@code th} inside one. Byte-level BPEs do the same at byte boundaries: in cl100k_base,
 * "鑫" is 3 tokens, and its first 2 decode to U+FFFD, which re-encodes as 1 token (5809), not 2. This is why every
 * correction is followed by a fresh count of the whole text, and the loop only stops on that count.
 * <p>
 * The prefix (e.g. a shared system prompt, for prefix-cache workloads) comes first, verbatim, and its tokens count
 * towards N; the synthesized words follow after a space. A prefix of N or more tokens is returned alone, with a
 * residual of its excess. The same seed gives the same text for the same tokenizer. Stateless and thread-safe. Not
 * for the per-chunk path: each correction encodes the whole text (for 1,000 tokens of cl100k_base, about 5 KB).
 */
public final class PromptSynthesizer
{
    /** The default bound on corrections after the first guess. */
    public static final int DEFAULT_MAX_ITERATIONS = 20;

    /** Below this deficit, corrections append short words one at a time instead of a batch of random words. */
    private static final int FINE_DEFICIT_TOKENS = 4;

    /** The words of {@link PromptWords}, as an array for the draw. */
    private static final String[] WORDS = PromptWords.words().toArray(new String[0]);

    private static final String[] SHORT_WORDS = PromptWords.shortWords().toArray(new String[0]);

    private final int maxIterations;

    /**
     * A prompt and how close it came.
     *
     * @param text the prompt, starting with the prefix if one was given.
     * @param tokens its token count under the tokenizer it was made for.
     * @param residual tokens - target: 0 when exact.
     */
    public record Prompt(String text, int tokens, int residual)
    {
        /** @return true if the prompt has exactly the target number of tokens. */
        public boolean exact()
        {
            return residual == 0;
        }
    }

    /** A synthesizer that tries at most {@link #DEFAULT_MAX_ITERATIONS} corrections. */
    public PromptSynthesizer()
    {
        this(DEFAULT_MAX_ITERATIONS);
    }

    /**
     * @param maxIterations the most corrections to try after the first guess, >= 0.
     */
    public PromptSynthesizer(final int maxIterations)
    {
        if (maxIterations < 0)
        {
            throw new IllegalArgumentException("maxIterations must be >= 0: " + maxIterations);
        }
        this.maxIterations = maxIterations;
    }

    /** @return the words prompts are made of, all lower-case ASCII letters ({@link PromptWords#words()}). */
    public static List<String> vocabulary()
    {
        return PromptWords.words();
    }

    /** @return the short words used for the last few tokens ({@link PromptWords#shortWords()}). */
    public static List<String> shortWords()
    {
        return PromptWords.shortWords();
    }

    /** @return the most corrections tried after the first guess. */
    public int maxIterations()
    {
        return maxIterations;
    }

    /**
     * @param tokenizer the tokenizer whose count must come out exact; null counts white-space words, the harness's
     * fallback when no tokenizer is configured.
     * @param targetTokens N, >= 1.
     * @param random the seeded generator the words are drawn from.
     * @return a prompt of N tokens, or the closest reached with its residual.
     */
    public Prompt synthesize(final Tokenizer tokenizer, final int targetTokens, final SplittableRandom random)
    {
        return synthesize(tokenizer, targetTokens, random, "");
    }

    /**
     * @param tokenizer the tokenizer whose count must come out exact; null counts white-space words, the harness's
     * fallback when no tokenizer is configured.
     * @param targetTokens N, >= 1, counting the prefix's tokens.
     * @param random the seeded generator the words are drawn from.
     * @param prefix text the prompt must start with, verbatim; null or empty for none.
     * @return a prompt of N tokens that starts with {@code prefix}, or the closest reached with its residual.
     */
    public Prompt synthesize(
        final Tokenizer tokenizer, final int targetTokens, final SplittableRandom random, final String prefix)
    {
        if (targetTokens < 1)
        {
            throw new IllegalArgumentException("targetTokens must be >= 1: " + targetTokens);
        }
        if (random == null)
        {
            throw new IllegalArgumentException("random must not be null");
        }
        final Tokenizer counter = tokenizer != null ? tokenizer : new WordTokenizer();
        final String start = prefix == null ? "" : prefix;
        final int prefixTokens = start.isEmpty() ? 0 : counter.count(start);
        if (prefixTokens >= targetTokens)
        {
            return new Prompt(start, prefixTokens, prefixTokens - targetTokens);
        }
        final String head = start.isEmpty() || endsWithWhitespace(start) ? start : start + " ";
        final StringBuilder text = new StringBuilder(head.length() + 8 * (targetTokens - prefixTokens));
        text.append(head);
        appendWords(text, targetTokens - prefixTokens, random);

        int tokens = counter.count(text.toString());
        String bestText = text.toString();
        int bestTokens = tokens;
        for (int iteration = 0; tokens != targetTokens && iteration < maxIterations; iteration++)
        {
            final double tokensPerWord = tokensPerWord(text, head.length(), tokens - prefixTokens);
            if (tokens > targetTokens)
            {
                shrink(counter, text, head.length(), targetTokens, tokens, tokensPerWord);
            }
            else
            {
                grow(counter, text, targetTokens, tokens, tokensPerWord, random);
            }
            tokens = counter.count(text.toString());
            if (Math.abs(tokens - targetTokens) < Math.abs(bestTokens - targetTokens))
            {
                bestText = text.toString();
                bestTokens = tokens;
            }
        }
        return new Prompt(bestText, bestTokens, bestTokens - targetTokens);
    }

    private static void shrink(
        final Tokenizer tokenizer,
        final StringBuilder text,
        final int headLength,
        final int targetTokens,
        final int tokens,
        final double tokensPerWord)
    {
        final String current = text.toString();
        final int[] ids = tokenizer.encode(current);
        if (ids.length > targetTokens)
        {
            final String cut = tokenizer.decode(Arrays.copyOf(ids, targetTokens));
            if (cut.length() > headLength && cut.length() < current.length() && current.startsWith(cut))
            {
                text.setLength(cut.length());
                return;
            }
        }
        removeLastWords(text, headLength, Math.max(1, (int)((tokens - targetTokens) / tokensPerWord)));
    }

    private static void grow(
        final Tokenizer tokenizer,
        final StringBuilder text,
        final int targetTokens,
        final int tokens,
        final double tokensPerWord,
        final SplittableRandom random)
    {
        final int deficit = targetTokens - tokens;
        if (deficit >= FINE_DEFICIT_TOKENS)
        {
            appendWords(text, Math.max(1, (int)(deficit / tokensPerWord)), random);
            return;
        }
        final String current = text.toString();
        final String separator = current.isEmpty() || endsWithWhitespace(current) ? "" : " ";
        final int start = random.nextInt(SHORT_WORDS.length);
        String under = null;
        int underTokens = tokens;
        String over = null;
        int overTokens = Integer.MAX_VALUE;
        for (int j = 0; j < SHORT_WORDS.length; j++)
        {
            final String candidate = current + separator + SHORT_WORDS[(start + j) % SHORT_WORDS.length];
            final int candidateTokens = tokenizer.count(candidate);
            if (candidateTokens == targetTokens)
            {
                under = candidate;
                break;
            }
            if (candidateTokens < targetTokens && candidateTokens > underTokens)
            {
                under = candidate;
                underTokens = candidateTokens;
            }
            else if (candidateTokens > targetTokens && candidateTokens < overTokens)
            {
                over = candidate;
                overTokens = candidateTokens;
            }
        }
        final String chosen = under != null ? under : over;
        if (chosen != null)
        {
            text.setLength(0);
            text.append(chosen);
        }
    }

    private static void appendWords(final StringBuilder text, final int count, final SplittableRandom random)
    {
        for (int i = 0; i < count; i++)
        {
            if (!text.isEmpty() && !Character.isWhitespace(text.charAt(text.length() - 1)))
            {
                text.append(' ');
            }
            text.append(WORDS[random.nextInt(WORDS.length)]);
        }
    }

    /** Removes up to {@code count} words, and the white space before each, from the end, never into the head. */
    private static void removeLastWords(final StringBuilder text, final int headLength, final int count)
    {
        for (int i = 0; i < count && text.length() > headLength; i++)
        {
            int end = text.length();
            while (end > headLength && Character.isWhitespace(text.charAt(end - 1)))
            {
                end--;
            }
            while (end > headLength && !Character.isWhitespace(text.charAt(end - 1)))
            {
                end--;
            }
            while (end > headLength && Character.isWhitespace(text.charAt(end - 1)))
            {
                end--;
            }
            text.setLength(end);
        }
    }

    private static double tokensPerWord(final CharSequence text, final int headLength, final int bodyTokens)
    {
        int words = 0;
        boolean inWord = false;
        for (int i = headLength; i < text.length(); i++)
        {
            final boolean whitespace = Character.isWhitespace(text.charAt(i));
            if (!whitespace && !inWord)
            {
                words++;
            }
            inWord = !whitespace;
        }
        return words == 0 || bodyTokens <= 0 ? 1.0 : Math.max(1.0, (double)bodyTokens / words);
    }

    private static boolean endsWithWhitespace(final CharSequence s)
    {
        return !s.isEmpty() && Character.isWhitespace(s.charAt(s.length() - 1));
    }
}
