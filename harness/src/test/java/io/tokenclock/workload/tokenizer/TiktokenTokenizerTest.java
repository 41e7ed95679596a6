package io.tokenclock.workload.tokenizer;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Known token ids and counts of OpenAI's encodings (the same as Python's {@code tiktoken} gives).
 */
class TiktokenTokenizerTest
{
    private static final TiktokenTokenizer CL100K = TiktokenTokenizer.of("cl100k_base");
    private static final TiktokenTokenizer O200K = TiktokenTokenizer.of("o200k_base");

    @Test
    void shouldEncodeHelloWorldAsTwoKnownTokensInBothEncodings()
    {
        assertArrayEquals(new int[]{15339, 1917}, CL100K.encode("hello world"));
        assertArrayEquals(new int[]{24912, 2375}, O200K.encode("hello world"));
        assertEquals(2, CL100K.count("hello world"));
    }

    @Test
    void shouldCountAPangramAndTellTheEncodingsApart()
    {
        final String pangram = "The quick brown fox jumps over the lazy dog.";

        assertArrayEquals(new int[]{791, 4062, 14198, 39935, 35308, 927, 279, 16053, 5679, 13}, CL100K.encode(pangram));
        assertEquals(10, O200K.count(pangram));
        assertEquals(3, CL100K.count("tokenclock"));
        assertEquals(2, O200K.count("tokenclock"));
    }

    @Test
    void shouldCountSpecialTokenTextAsOrdinaryText()
    {
        // A server counts "<|endoftext|>" in a user message as text: '<', '|', 'endo', 'ft', 'ext', '|', '>'.
        assertArrayEquals(new int[]{27, 91, 8862, 728, 428, 91, 29}, CL100K.encode("<|endoftext|>"));
    }

    @Test
    void shouldShowTheRetokenizationTrapAtAByteBoundary()
    {
        // 鑫 is three byte-level tokens; the first two decode to the replacement character, which is one token.
        final int[] ids = CL100K.encode("鑫");
        assertEquals(3, ids.length);
        final String cut = CL100K.decode(new int[]{ids[0], ids[1]});

        assertEquals("\uFFFD", cut);
        assertArrayEquals(new int[]{5809}, CL100K.encode(cut));
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "hello world", "  leading and trailing  ", "héllo wörld, 日本語のテキスト 🚀\n\tend"})
    void shouldRoundTripAnyTextAndAgreeCountWithEncode(final String text)
    {
        for (final TiktokenTokenizer tokenizer : new TiktokenTokenizer[]{CL100K, O200K})
        {
            final int[] ids = tokenizer.encode(text);
            assertEquals(text, tokenizer.decode(ids));
            assertEquals(ids.length, tokenizer.count(text));
        }
    }

    @Test
    void shouldIdentifyByEncodingNameWithoutAFileHash()
    {
        assertEquals("tiktoken:cl100k_base", CL100K.id());
        assertEquals("tiktoken:o200k_base", O200K.id());
        assertNull(CL100K.fileSha256());
    }

    @Test
    void shouldRejectAnUnknownEncodingListingTheKnownOnes()
    {
        final IllegalArgumentException ex =
            assertThrows(IllegalArgumentException.class, () -> TiktokenTokenizer.of("gpt2_base"));

        assertTrue(ex.getMessage().contains("cl100k_base") && ex.getMessage().contains("o200k_base"), ex.getMessage());
    }
}
