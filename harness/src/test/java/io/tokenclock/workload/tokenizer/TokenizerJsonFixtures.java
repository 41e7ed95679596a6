package io.tokenclock.workload.tokenizer;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Small {@code tokenizer.json} files written by the tests themselves, so that the Hugging Face path is exercised
 * without downloading a model's tokenizer.
 */
public final class TokenizerJsonFixtures
{
    /** The words of {@link #wordLevel(Path)}, id i + 1 for the i-th ({@code [UNK]} is 0). */
    public static final List<String> WORD_LEVEL_WORDS = List.of(
        "hello", "world", "the", "of", "and", "to", "in", "is", "it", "a", "on", "as", "at", "by", "we", "or", "an",
        "be", "so", "up", "no", "do", "if", "my", "river", "mountain", "garden", "window", "letter", "market",
        "winter", "summer", "city", "music", "history", "science", "people", "water", "light", "system", "model",
        "token", "latency", "stream", "server", "request", "answer", "question", "data", "memory");

    /** The merges of {@link #letterBpe(Path)}, in priority order. */
    public static final List<String> LETTER_BPE_MERGES = List.of(
        "t h", "th e</w>", "e r</w>", "i n", "in g</w>", "a n", "an d</w>", "o f</w>", "t o</w>");

    private TokenizerJsonFixtures()
    {
    }

    /**
     * A WordLevel model: {@link #WORD_LEVEL_WORDS} plus {@code [UNK]}, split by the Whitespace pre-tokenizer
     * (runs of word characters, and runs of punctuation), no decoder (tokens are joined with spaces). With
     * {@code withExtras}, it also declares truncation to 16 tokens and a BERT post-processor adding {@code [CLS]}
     * and {@code [SEP]}, the two things a count must not pick up.
     */
    public static Path wordLevel(final Path dir, final boolean withExtras) throws IOException
    {
        final Map<String, Integer> vocab = new LinkedHashMap<>();
        vocab.put("[UNK]", 0);
        for (final String word : WORD_LEVEL_WORDS)
        {
            vocab.put(word, vocab.size());
        }
        final int cls = vocab.size();
        final int sep = cls + 1;
        vocab.put("[CLS]", cls);
        vocab.put("[SEP]", sep);
        final String json = "{\"version\":\"1.0\"," +
            "\"truncation\":" + (withExtras ?
            "{\"direction\":\"Right\",\"max_length\":16,\"strategy\":\"LongestFirst\",\"stride\":0}" : "null") + "," +
            "\"padding\":null," +
            "\"added_tokens\":[" + added(0, "[UNK]") + "," + added(cls, "[CLS]") + "," + added(sep, "[SEP]") + "]," +
            "\"normalizer\":null,\"pre_tokenizer\":{\"type\":\"Whitespace\"}," +
            "\"post_processor\":" + (withExtras ?
            "{\"type\":\"BertProcessing\",\"sep\":[\"[SEP]\"," + sep + "],\"cls\":[\"[CLS]\"," + cls + "]}" : "null") +
            ",\"decoder\":null," +
            "\"model\":{\"type\":\"WordLevel\",\"vocab\":" + jsonMap(vocab) + ",\"unk_token\":\"[UNK]\"}}";
        return write(dir.resolve(withExtras ? "word-level-extras" : "word-level"), json);
    }

    /**
     * A character-level BPE: the 26 lower-case letters, each also in an end-of-word form ({@code e</w>}), plus the
     * merges of {@link #LETTER_BPE_MERGES}; anything else is {@code [UNK]}. Most words are several tokens, and a cut
     * inside a word re-encodes differently ("the moth" is not the first 4 tokens of "the mother"), which is the
     * retokenization trap at small scale. The BPEDecoder turns {@code </w>} back into spaces, so decoding a
     * lower-case text gives it back exactly.
     */
    public static Path letterBpe(final Path dir) throws IOException
    {
        final Map<String, Integer> vocab = new LinkedHashMap<>();
        vocab.put("[UNK]", 0);
        for (char c = 'a'; c <= 'z'; c++)
        {
            vocab.put(String.valueOf(c), vocab.size());
            vocab.put(c + "</w>", vocab.size());
        }
        final List<String> merges = new ArrayList<>();
        for (final String merge : LETTER_BPE_MERGES)
        {
            final String[] pair = merge.split(" ");
            vocab.put(pair[0] + pair[1], vocab.size());
            merges.add('"' + merge + '"');
        }
        final String json = "{\"version\":\"1.0\",\"truncation\":null,\"padding\":null," +
            "\"added_tokens\":[" + added(0, "[UNK]") + "]," +
            "\"normalizer\":null,\"pre_tokenizer\":{\"type\":\"Whitespace\"},\"post_processor\":null," +
            "\"decoder\":{\"type\":\"BPEDecoder\",\"suffix\":\"</w>\"}," +
            "\"model\":{\"type\":\"BPE\",\"dropout\":null,\"unk_token\":\"[UNK]\",\"continuing_subword_prefix\":null," +
            "\"end_of_word_suffix\":\"</w>\",\"fuse_unk\":false,\"byte_fallback\":false," +
            "\"vocab\":" + jsonMap(vocab) + ",\"merges\":[" + String.join(",", merges) + "]}}";
        return write(dir.resolve("letter-bpe"), json);
    }

    private static String added(final int id, final String content)
    {
        return "{\"id\":" + id + ",\"content\":\"" + content + "\",\"single_word\":false,\"lstrip\":false," +
            "\"rstrip\":false,\"normalized\":false,\"special\":true}";
    }

    private static String jsonMap(final Map<String, Integer> map)
    {
        final StringBuilder sb = new StringBuilder("{");
        for (final Map.Entry<String, Integer> entry : map.entrySet())
        {
            sb.append(sb.length() == 1 ? "" : ",").append('"').append(entry.getKey()).append("\":")
                .append(entry.getValue());
        }
        return sb.append('}').toString();
    }

    private static Path write(final Path dir, final String json) throws IOException
    {
        Files.createDirectories(dir);
        return Files.writeString(dir.resolve("tokenizer.json"), json, StandardCharsets.UTF_8);
    }
}
