package io.tokenclock.transport;

import java.util.Map;

/**
 * What an extra request header may hold (RFC 9110 section 5): a name made of token characters, and a value without
 * control characters. A CR or LF in a value would split the request (header injection), and the HTTP stacks reject
 * it anyway, but with a message that prints the value; this check runs first and names only the header, since its
 * value is usually a credential. Stateless and thread-safe.
 */
public final class HeaderRules
{
    private static final String TOKEN_SYMBOLS = "!#$%&'*+-.^_`|~";

    private HeaderRules()
    {
    }

    /**
     * @throws IllegalArgumentException with one line naming the first bad header (never its value).
     */
    public static void check(final Map<String, String> headers)
    {
        for (final Map.Entry<String, String> h : headers.entrySet())
        {
            final String name = h.getKey();
            if (name.isEmpty() || !name.chars().allMatch(HeaderRules::isTokenChar))
            {
                // not printed either: a name with a space in it is often "Bearer sk-..." typed without a colon
                throw new IllegalArgumentException("a header name is not an HTTP token (letters, digits and " +
                    TOKEN_SYMBOLS + " only); it is not printed, since it may hold a credential");
            }
            final String value = h.getValue();
            if (value.chars().anyMatch(c -> (c < 0x20 && c != '\t') || c == 0x7f))
            {
                throw new IllegalArgumentException("header " + name + ": its value holds a control character " +
                    "(CR, LF or another); the value is not printed, since it may be a credential");
            }
        }
    }

    private static boolean isTokenChar(final int c)
    {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
            TOKEN_SYMBOLS.indexOf(c) >= 0;
    }
}
