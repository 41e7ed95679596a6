package io.tokenclock.util;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * SHA-256, as the record's hashes use it (workload bodies, the open-loop schedule, the tokenizer file): one place to
 * ask the JDK for the algorithm and to spell a digest as hex. Stateless and thread-safe; the digests it returns are
 * not thread-safe, as no {@link MessageDigest} is.
 */
public final class Sha256
{
    private Sha256()
    {
    }

    /**
     * @return a new SHA-256 digest.
     * @throws IllegalStateException if the JDK lacks SHA-256, which the Java SE specification requires of every JDK.
     */
    public static MessageDigest newDigest()
    {
        try
        {
            return MessageDigest.getInstance("SHA-256");
        }
        catch (final NoSuchAlgorithmException ex)
        {
            throw new IllegalStateException("SHA-256 is required of every JDK", ex);
        }
    }

    /** @return the SHA-256 of {@code bytes} as 64 lower-case hex digits. */
    public static String hex(final byte[] bytes)
    {
        return HexFormat.of().formatHex(newDigest().digest(bytes));
    }

    /** @return what {@code digest} has taken in, as 64 lower-case hex digits; resets the digest. */
    public static String hex(final MessageDigest digest)
    {
        return HexFormat.of().formatHex(digest.digest());
    }
}
