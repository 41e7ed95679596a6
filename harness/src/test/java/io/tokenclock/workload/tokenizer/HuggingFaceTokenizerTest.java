package io.tokenclock.workload.tokenizer;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The Hugging Face path on tokenizer.json files the test writes itself (see {@link TokenizerJsonFixtures}); nothing is
 * downloaded. DJL's native library is extracted from its jar into its cache directory the first time.
 */
class HuggingFaceTokenizerTest
{
    @TempDir
    static Path dir;

    private static HuggingFaceTokenizer wordLevel;
    private static HuggingFaceTokenizer letterBpe;

    @BeforeAll
    static void open() throws IOException
    {
        wordLevel = HuggingFaceTokenizer.open(TokenizerJsonFixtures.wordLevel(dir, false));
        letterBpe = HuggingFaceTokenizer.open(TokenizerJsonFixtures.letterBpe(dir));
    }

    @AfterAll
    static void close()
    {
        wordLevel.close();
        letterBpe.close();
    }

    private static int wordId(final String word)
    {
        return TokenizerJsonFixtures.WORD_LEVEL_WORDS.indexOf(word) + 1;
    }

    @Test
    void shouldEncodeKnownWordsToTheirVocabularyIdsAndUnknownOnesToUnk()
    {
        assertArrayEquals(new int[]{wordId("hello"), wordId("world")}, wordLevel.encode("hello world"));
        // The Whitespace pre-tokenizer splits punctuation off; neither "," nor "tokenclock" is in the vocabulary.
        assertArrayEquals(
            new int[]{wordId("hello"), 0, wordId("world"), 0}, wordLevel.encode("hello, world tokenclock"));
        assertEquals(4, wordLevel.count("hello, world tokenclock"));
        assertEquals(0, wordLevel.count(""));
    }

    @Test
    void shouldDecodeIdsBackToWords()
    {
        assertEquals("the river of music", wordLevel.decode(wordLevel.encode("the river of music")));
        assertEquals("hello [UNK]", wordLevel.decode(new int[]{wordId("hello"), 0}));
    }

    @Test
    void shouldIdentifyByAbsolutePathAndHashTheFileBytes() throws IOException, NoSuchAlgorithmException
    {
        final Path file = TokenizerJsonFixtures.wordLevel(dir, false);
        final String expected =
            HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(file)));

        assertEquals("hf:" + file.toAbsolutePath().normalize(), wordLevel.id());
        assertEquals(expected, wordLevel.fileSha256());
        assertEquals(64, wordLevel.fileSha256().length());
        assertNotEquals(wordLevel.fileSha256(), letterBpe.fileSha256());
    }

    @Test
    void shouldNeitherAddSpecialTokensNorTruncateNorPad() throws IOException
    {
        // This file asks for truncation to 16 tokens and for [CLS] ... [SEP] around every sequence; DJL's own
        // defaults would also truncate to 512. A count must see none of that.
        try (HuggingFaceTokenizer extras = HuggingFaceTokenizer.open(TokenizerJsonFixtures.wordLevel(dir, true)))
        {
            final String thousandWords = "the river ".repeat(500);
            assertEquals(1000, extras.count(thousandWords));
            assertArrayEquals(new int[]{wordId("hello"), wordId("world")}, extras.encode("hello world"));
        }
    }

    @Test
    void shouldShowTheRetokenizationTrapInTheLetterBpe()
    {
        // "the mother" is [the</w>, m, o, th, er</w>]; its first 4 ids decode to "the moth", which is 5 tokens.
        final int[] ids = letterBpe.encode("the mother");
        assertEquals(5, ids.length);
        final String cut = letterBpe.decode(Arrays.copyOf(ids, 4));

        assertEquals("the moth", cut);
        assertEquals(5, letterBpe.count(cut));
        assertEquals("the mother and the singing", letterBpe.decode(letterBpe.encode("the mother and the singing")));
    }

    @Test
    void shouldSwitchDjlToOfflineModeUnlessTheUserChose()
    {
        assumeTrue(System.getenv("DJL_OFFLINE") == null, "DJL_OFFLINE is set in the environment");

        assertEquals("true", System.getProperty(HuggingFaceTokenizer.DJL_OFFLINE_PROPERTY));
    }

    @Test
    void shouldRejectMissingFilesAndFilesThatAreNotTokenizers() throws IOException
    {
        final IllegalArgumentException missing = assertThrows(IllegalArgumentException.class,
            () -> HuggingFaceTokenizer.open(dir.resolve("nope/tokenizer.json")));
        assertTrue(missing.getMessage().startsWith("tokenizer file not found"), missing.getMessage());

        final Path garbage = Files.writeString(dir.resolve("garbage.json"), "{\"model\": 42}");
        final IllegalArgumentException invalid =
            assertThrows(IllegalArgumentException.class, () -> HuggingFaceTokenizer.open(garbage));
        assertTrue(invalid.getMessage().startsWith("cannot load tokenizer " + garbage), invalid.getMessage());
        assertEquals(-1, invalid.getMessage().indexOf('\n'), invalid.getMessage());
    }

    @Test
    void shouldRefuseToEncodeAfterCloseAndCloseOnlyOnce() throws IOException
    {
        final HuggingFaceTokenizer tokenizer = HuggingFaceTokenizer.open(TokenizerJsonFixtures.letterBpe(dir));
        assertEquals(1, tokenizer.count("the"));
        tokenizer.close();
        tokenizer.close();

        assertThrows(IllegalStateException.class, () -> tokenizer.count("the"));
        assertThrows(IllegalStateException.class, () -> tokenizer.decode(new int[]{1}));
    }

    @Test
    void shouldGiveTheSameCountsFromManyThreads() throws Exception
    {
        final List<String> texts = List.of("the mother and the singing", "the other of to", "and the ring of the king");
        final int[] expected = texts.stream().mapToInt(letterBpe::count).toArray();
        final ExecutorService executor = Executors.newFixedThreadPool(4);
        try
        {
            final List<Future<int[]>> futures = executor.invokeAll(List.of(
                () -> counts(texts), () -> counts(texts), () -> counts(texts), () -> counts(texts)));
            for (final Future<int[]> future : futures)
            {
                assertArrayEquals(expected, future.get());
            }
        }
        finally
        {
            executor.shutdown();
        }
    }

    private static int[] counts(final List<String> texts)
    {
        final int[] last = new int[texts.size()];
        for (int round = 0; round < 200; round++)
        {
            for (int i = 0; i < texts.size(); i++)
            {
                last[i] = letterBpe.count(texts.get(i));
            }
        }
        return last;
    }
}
