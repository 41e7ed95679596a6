package io.tokenclock.workload.tokenizer;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Words separated by white space: the fallback when no tokenizer is configured, id {@code words}. It is no model's
 * tokenizer, so a count from it approximates the server's (English prose runs at about 1.3 tokens per word in
 * cl100k_base); the record says {@code words} so that no reader mistakes it for one.
 * <p>
 * {@code "  the quick\tbrown\nfox "} is 4 tokens. Ids are assigned in the order words are first seen, by this instance,
 * so they mean nothing across instances; decoding joins the words with single spaces, so {@code decode(encode(s))}
 * is s with its white space normalised. Thread-safe.
 */
public final class WordTokenizer implements Tokenizer
{
    /** The id, and the spec {@link Tokenizers#of(String)} accepts for it. */
    public static final String ID = "words";

    private final Map<String, Integer> idsByWord = new HashMap<>();
    private final List<String> words = new ArrayList<>();

    @Override
    public String id()
    {
        return ID;
    }

    @Override
    public String fileSha256()
    {
        return null;
    }

    @Override
    public int[] encode(final String text)
    {
        final int[] ids = new int[count(text)];
        int n = 0;
        int i = 0;
        final int length = text.length();
        synchronized (idsByWord)
        {
            while (i < length)
            {
                while (i < length && Character.isWhitespace(text.charAt(i)))
                {
                    i++;
                }
                final int start = i;
                while (i < length && !Character.isWhitespace(text.charAt(i)))
                {
                    i++;
                }
                if (i > start)
                {
                    final String word = text.substring(start, i);
                    Integer id = idsByWord.get(word);
                    if (id == null)
                    {
                        id = words.size();
                        words.add(word);
                        idsByWord.put(word, id);
                    }
                    ids[n++] = id;
                }
            }
        }
        return ids;
    }

    @Override
    public String decode(final int[] ids)
    {
        final StringBuilder sb = new StringBuilder(ids.length * 6);
        synchronized (idsByWord)
        {
            for (final int id : ids)
            {
                if (id < 0 || id >= words.size())
                {
                    throw new IllegalArgumentException("unknown word id: " + id);
                }
                sb.append(sb.isEmpty() ? "" : " ").append(words.get(id));
            }
        }
        return sb.toString();
    }

    /** Counts the runs of non-white-space characters, without assigning ids. */
    @Override
    public int count(final String text)
    {
        int count = 0;
        boolean inWord = false;
        for (int i = 0, length = text.length(); i < length; i++)
        {
            final boolean whitespace = Character.isWhitespace(text.charAt(i));
            if (!whitespace && !inWord)
            {
                count++;
            }
            inWord = !whitespace;
        }
        return count;
    }

    @Override
    public String toString()
    {
        return ID;
    }
}
