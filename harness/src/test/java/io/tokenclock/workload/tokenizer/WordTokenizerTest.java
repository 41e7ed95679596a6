package io.tokenclock.workload.tokenizer;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

class WordTokenizerTest
{
    @Test
    void shouldCountRunsOfNonWhitespace()
    {
        final WordTokenizer words = new WordTokenizer();

        assertEquals(4, words.count("  the quick\tbrown\nfox "));
        assertEquals(0, words.count(""));
        assertEquals(0, words.count(" \t\n"));
        assertEquals(2, words.count("hello, world!"));
    }

    @Test
    void shouldGiveTheSameIdToTheSameWordAndDecodeWithSingleSpaces()
    {
        final WordTokenizer words = new WordTokenizer();
        final int[] ids = words.encode("to be  or\tnot to be");

        assertArrayEquals(new int[]{0, 1, 2, 3, 0, 1}, ids);
        assertEquals("to be or not to be", words.decode(ids));
        assertEquals(ids.length, words.count("to be  or\tnot to be"));
    }

    @Test
    void shouldIdentifyAsWordsAndRejectIdsItNeverGave()
    {
        final WordTokenizer words = new WordTokenizer();

        assertEquals("words", words.id());
        assertNull(words.fileSha256());
        assertThrows(IllegalArgumentException.class, () -> words.decode(new int[]{0}));
    }
}
