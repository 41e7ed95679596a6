package io.tokenclock.workload.tokenizer;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class TokenizersTest
{
    @TempDir
    Path dir;

    @Test
    void shouldResolveTiktokenNamesAndIds()
    {
        assertEquals("tiktoken:cl100k_base", Tokenizers.of("cl100k_base").id());
        assertEquals("tiktoken:o200k_base", Tokenizers.of("o200k_base").id());
        assertEquals("tiktoken:o200k_base", Tokenizers.of("tiktoken:o200k_base").id());
    }

    @Test
    void shouldResolveWordsToTheWhitespaceFallback()
    {
        assertInstanceOf(WordTokenizer.class, Tokenizers.of("words"));
    }

    @Test
    void shouldResolveHfPrefixAndJsonPathsToTheSameFile() throws IOException
    {
        final Path file = TokenizerJsonFixtures.wordLevel(dir, false);
        final Tokenizer byPrefix = Tokenizers.of("hf:" + file);
        final Tokenizer byPath = Tokenizers.of(file.toString());
        final Tokenizer byId = Tokenizers.of(byPrefix.id());
        try
        {
            assertInstanceOf(HuggingFaceTokenizer.class, byPrefix);
            assertEquals(byPrefix.id(), byPath.id());
            assertEquals(byPrefix.fileSha256(), byId.fileSha256());
            assertEquals(2, byPath.count("hello world"));
        }
        finally
        {
            Tokenizers.closeQuietly(byPrefix);
            Tokenizers.closeQuietly(byPath);
            Tokenizers.closeQuietly(byId);
        }
        assertThrows(IllegalStateException.class, () -> byPath.count("hello"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "gpt2", "cl100k", "llama-3"})
    void shouldRejectAnUnknownSpecWithOneLineListingTheAcceptedForms(final String spec)
    {
        final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class, () -> Tokenizers.of(spec));

        assertEquals("unknown tokenizer '" + spec + "': expected " + Tokenizers.ACCEPTED_FORMS, ex.getMessage());
        for (final String form : new String[]{"cl100k_base", "o200k_base", "words", "hf:", ".json"})
        {
            assertTrue(ex.getMessage().contains(form), form);
        }
    }

    @Test
    void shouldRejectMissingFilesAndUnknownTiktokenEncodings()
    {
        assertThrows(IllegalArgumentException.class, () -> Tokenizers.of("hf:" + dir.resolve("missing.json")));
        assertThrows(IllegalArgumentException.class, () -> Tokenizers.of(dir.resolve("missing.json").toString()));
        assertThrows(IllegalArgumentException.class, () -> Tokenizers.of("hf:"));
        assertThrows(IllegalArgumentException.class, () -> Tokenizers.of("tiktoken:gpt2"));
    }

    @Test
    void shouldLeaveTokenizersWithoutResourcesAloneOnClose()
    {
        final Tokenizer words = Tokenizers.of("words");
        Tokenizers.closeQuietly(words);

        assertEquals(2, words.count("still works"));
    }
}
