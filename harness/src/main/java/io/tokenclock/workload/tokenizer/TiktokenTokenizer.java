package io.tokenclock.workload.tokenizer;

import com.knuddels.jtokkit.Encodings;
import com.knuddels.jtokkit.api.Encoding;
import com.knuddels.jtokkit.api.EncodingRegistry;
import com.knuddels.jtokkit.api.EncodingType;
import com.knuddels.jtokkit.api.IntArrayList;

import java.util.Arrays;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * OpenAI's tiktoken byte-pair encodings, through jtokkit: {@code cl100k_base} (GPT-3.5/GPT-4) and {@code o200k_base}
 * (GPT-4o), and the older {@code r50k_base}, {@code p50k_base} and {@code p50k_edit}. The vocabularies ship inside the
 * jtokkit jar, so nothing is downloaded; {@link #fileSha256()} is null because the encoding's name pins its contents.
 * <p>
 * Special tokens are not recognised: {@code "<|endoftext|>"} is counted as the 7 ordinary tokens of its text in
 * cl100k_base, as a server would count it in a user message. Example: {@code "hello world"} is 2 tokens in both
 * cl100k_base ([15339, 1917]) and o200k_base ([24912, 2375]); {@code "tokenclock"} is 3 in cl100k_base and 2 in
 * o200k_base.
 * <p>
 * The registry is lazy, so asking for cl100k_base loads only that vocabulary (about 0.2 s the first time) rather than
 * all five (about 0.7 s). Thread-safe: jtokkit encodings are immutable.
 */
public final class TiktokenTokenizer implements Tokenizer
{
    /** The id prefix; the id of cl100k_base is {@code tiktoken:cl100k_base}. */
    public static final String ID_PREFIX = "tiktoken:";

    private final Encoding encoding;
    private final String name;

    private TiktokenTokenizer(final Encoding encoding, final String name)
    {
        this.encoding = encoding;
        this.name = name;
    }

    /**
     * @param name an encoding name: {@code cl100k_base}, {@code o200k_base}, {@code r50k_base}, {@code p50k_base} or
     * {@code p50k_edit}.
     * @return the tokenizer.
     * @throws IllegalArgumentException for any other name, listing the known ones.
     */
    public static TiktokenTokenizer of(final String name)
    {
        final Optional<EncodingType> type = name == null ? Optional.empty() : EncodingType.fromName(name);
        if (type.isEmpty())
        {
            throw new IllegalArgumentException("unknown tiktoken encoding '" + name + "': expected one of " +
                encodingNames());
        }
        return new TiktokenTokenizer(Registry.INSTANCE.getEncoding(type.get()), type.get().getName());
    }

    /** @return the names of the encodings jtokkit knows, comma-separated. */
    public static String encodingNames()
    {
        return Arrays.stream(EncodingType.values()).map(EncodingType::getName).collect(Collectors.joining(", "));
    }

    /** @return true if {@code name} is an encoding jtokkit knows. */
    public static boolean isEncodingName(final String name)
    {
        return name != null && EncodingType.fromName(name).isPresent();
    }

    /** @return the encoding name, e.g. {@code cl100k_base}. */
    public String encodingName()
    {
        return name;
    }

    @Override
    public String id()
    {
        return ID_PREFIX + name;
    }

    @Override
    public String fileSha256()
    {
        return null;
    }

    @Override
    public int[] encode(final String text)
    {
        return encoding.encodeOrdinary(text).toArray();
    }

    @Override
    public String decode(final int[] ids)
    {
        final IntArrayList list = new IntArrayList(ids.length);
        for (final int id : ids)
        {
            list.add(id);
        }
        return encoding.decode(list);
    }

    @Override
    public int count(final String text)
    {
        return encoding.countTokensOrdinary(text);
    }

    @Override
    public String toString()
    {
        return id();
    }

    /** Holder idiom: the registry is built on first use, not when the class is loaded. */
    private static final class Registry
    {
        static final EncodingRegistry INSTANCE = Encodings.newLazyEncodingRegistry();
    }
}
