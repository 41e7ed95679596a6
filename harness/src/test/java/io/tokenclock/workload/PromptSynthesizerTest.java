package io.tokenclock.workload;

import io.tokenclock.workload.PromptSynthesizer.Prompt;
import io.tokenclock.workload.tokenizer.HuggingFaceTokenizer;
import io.tokenclock.workload.tokenizer.TiktokenTokenizer;
import io.tokenclock.workload.tokenizer.Tokenizer;
import io.tokenclock.workload.tokenizer.TokenizerJsonFixtures;
import io.tokenclock.workload.tokenizer.WordTokenizer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.stream.IntStream;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class PromptSynthesizerTest
{
    private static final String SYSTEM_PROMPT = "You are a helpful assistant. Answer in one sentence, please!";

    @TempDir
    static Path dir;

    private static Tokenizer cl100k;
    private static HuggingFaceTokenizer wordLevel;
    private static HuggingFaceTokenizer letterBpe;

    private final PromptSynthesizer synthesizer = new PromptSynthesizer();

    @BeforeAll
    static void open() throws IOException
    {
        cl100k = TiktokenTokenizer.of("cl100k_base");
        wordLevel = HuggingFaceTokenizer.open(TokenizerJsonFixtures.wordLevel(dir, false));
        letterBpe = HuggingFaceTokenizer.open(TokenizerJsonFixtures.letterBpe(dir));
    }

    @AfterAll
    static void close()
    {
        wordLevel.close();
        letterBpe.close();
    }

    static Stream<Arguments> tokenizers()
    {
        return Stream.of(
            Arguments.of(Named.of("cl100k_base", cl100k)),
            Arguments.of(Named.of("hf word-level", wordLevel)),
            Arguments.of(Named.of("hf letter BPE", letterBpe)),
            Arguments.of(Named.of("words", new WordTokenizer())));
    }

    static Stream<Arguments> tokenizersAndTargets()
    {
        return tokenizers().flatMap(t -> IntStream.of(1, 7, 128, 1000).mapToObj(n -> Arguments.of(t.get()[0], n)));
    }

    // autoCloseArguments = false: JUnit would otherwise close the shared HF tokenizers after each invocation.
    @ParameterizedTest(name = "{0}, N = {1}", autoCloseArguments = false)
    @MethodSource("tokenizersAndTargets")
    void shouldHitTheTargetTokenCountExactly(final Tokenizer tokenizer, final int n)
    {
        final Prompt prompt = synthesizer.synthesize(tokenizer, n, new SplittableRandom(n));

        assertEquals(0, prompt.residual(), prompt.toString());
        assertEquals(n, prompt.tokens());
        assertEquals(n, tokenizer.count(prompt.text()));
        assertTrue(prompt.exact());
    }

    @ParameterizedTest(name = "{0}", autoCloseArguments = false)
    @MethodSource("tokenizers")
    void shouldStartWithThePrefixAndCountItsTokensInN(final Tokenizer tokenizer)
    {
        final int prefixTokens = tokenizer.count(SYSTEM_PROMPT);
        for (final int extra : new int[]{1, 2, 5, 64})
        {
            final int n = prefixTokens + extra;
            final Prompt prompt = synthesizer.synthesize(tokenizer, n, new SplittableRandom(extra), SYSTEM_PROMPT);

            assertTrue(prompt.text().startsWith(SYSTEM_PROMPT + " "), prompt.text());
            assertEquals(0, prompt.residual(), prompt.toString());
            assertEquals(n, tokenizer.count(prompt.text()));
        }
    }

    @ParameterizedTest(name = "{0}", autoCloseArguments = false)
    @MethodSource("tokenizers")
    void shouldGiveTheSameTextForTheSameSeedAndAnotherForAnother(final Tokenizer tokenizer)
    {
        final Prompt first = synthesizer.synthesize(tokenizer, 128, new SplittableRandom(99), "request 7:");
        final Prompt again = synthesizer.synthesize(tokenizer, 128, new SplittableRandom(99), "request 7:");
        final Prompt other = synthesizer.synthesize(tokenizer, 128, new SplittableRandom(100), "request 7:");

        assertEquals(first, again);
        assertNotEquals(first.text(), other.text());
        assertEquals(128, other.tokens());
    }

    @Test
    void shouldStayExactWhereNaiveCuttingMissesInTheLetterBpe()
    {
        // Most words are several tokens here, and cutting the ids inside a word re-encodes differently: count how
        // often the naive cut is wrong, to be sure this test exercises the trap, and require exactness throughout.
        final String merges = "the mother and the brother sing of another thing in the evening ";
        final int[] ids = letterBpe.encode(merges.repeat(3));
        int naiveMisses = 0;
        for (int n = 1; n <= 60; n++)
        {
            final SplittableRandom random = new SplittableRandom(1000 + n);
            final Prompt prompt = synthesizer.synthesize(letterBpe, n, random);
            assertEquals(0, prompt.residual(), "N = " + n + ": " + prompt);
            assertEquals(n, letterBpe.count(prompt.text()));

            naiveMisses += letterBpe.count(letterBpe.decode(Arrays.copyOf(ids, n))) != n ? 1 : 0;
        }
        assertTrue(naiveMisses >= 10, "the naive cut was wrong only " + naiveMisses + " times in 60");
    }

    @Test
    void shouldReturnAPrefixLongerThanNAloneWithItsExcessAsResidual()
    {
        final int prefixTokens = cl100k.count(SYSTEM_PROMPT);
        final Prompt prompt = synthesizer.synthesize(cl100k, 3, new SplittableRandom(1), SYSTEM_PROMPT);

        assertEquals(SYSTEM_PROMPT, prompt.text());
        assertEquals(prefixTokens - 3, prompt.residual());
    }

    @Test
    void shouldReportTheResidualAndStopWhenExactnessIsImpossible()
    {
        // Every word costs two tokens under this tokenizer, so an odd N cannot be met; the synthesizer must give
        // the closest text it saw and stop after a bounded number of counts.
        final CountingTokenizer pairs = new CountingTokenizer();
        final Prompt prompt = new PromptSynthesizer(20).synthesize(pairs, 7, new SplittableRandom(3));

        assertEquals(1, Math.abs(prompt.residual()), prompt.toString());
        assertEquals(pairs.count(prompt.text()) - 7, prompt.residual());
        assertTrue(pairs.calls <= 1 + 20 * (PromptSynthesizer.shortWords().size() + 2), "calls " + pairs.calls);
    }

    @Test
    void shouldCountWhitespaceWordsWithoutATokenizer()
    {
        final Prompt prompt = synthesizer.synthesize(null, 50, new SplittableRandom(2), "request 1:");

        assertEquals(50, new WordTokenizer().count(prompt.text()));
        assertEquals(0, prompt.residual());
    }

    @Test
    void shouldRejectANonPositiveTargetAndANegativeIterationBound()
    {
        assertThrows(IllegalArgumentException.class, () -> synthesizer.synthesize(cl100k, 0, new SplittableRandom(1)));
        assertThrows(IllegalArgumentException.class, () -> new PromptSynthesizer(-1));
    }

    /** Two tokens per white-space word, and it counts how often it is asked. */
    private static final class CountingTokenizer implements Tokenizer
    {
        private final WordTokenizer words = new WordTokenizer();
        private int calls;

        public String id()
        {
            return "pairs";
        }

        public String fileSha256()
        {
            return null;
        }

        public int[] encode(final String text)
        {
            calls++;
            final int[] ids = words.encode(text);
            final int[] doubled = new int[ids.length * 2];
            for (int i = 0; i < ids.length; i++)
            {
                doubled[2 * i] = ids[i];
                doubled[2 * i + 1] = ids[i];
            }
            return doubled;
        }

        public String decode(final int[] ids)
        {
            final int[] halved = new int[ids.length / 2];
            for (int i = 0; i < halved.length; i++)
            {
                halved[i] = ids[2 * i];
            }
            return words.decode(halved);
        }

        @Override
        public int count(final String text)
        {
            calls++;
            return 2 * words.count(text);
        }
    }
}
