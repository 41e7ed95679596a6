package io.tokenclock.text;

import java.util.Locale;

import io.tokenclock.secrets.KnownSecrets;

/**
 * Text a server sent, made safe to print on one line of a terminal or a log.
 * <p>
 * Why: a server's error body is untrusted. Printed as it is, {@code ESC ] 0 ; ... BEL} retitles the user's terminal,
 * other escape sequences move the cursor or recolour it, a NUL or a stray CR hides what came before, and a 10 MB
 * body floods the screen. So every control character (C0, DEL, C1) is written as a Java-style escape
 * ({@code \n}, {@code \t}, {@code \u001b}), and the text is cut at a length. Printable Unicode is kept.
 * <p>
 * Worked example: {@code "Loading model\n\u001b]0;pwned\u0007"} becomes {@code Loading model\n\u001b]0;pwned\u0007}
 * with the backslashes literal, on one line.
 * <p>
 * A server may also echo a credential it was sent (a proxy's 401 that quotes the key, a 500 that dumps the headers).
 * So before anything else, every credential the process holds is redacted ({@link KnownSecrets#redact}): this is the
 * one door server text passes on its way to a terminal, a log or a file, so no path can miss it.
 * <p>
 * Thread-safe (stateless).
 */
public final class UntrustedText
{
    /** The most characters of server text one message shows. */
    public static final int MAX_CHARS = 300;

    private UntrustedText()
    {
    }

    /** @return {@code text} escaped and cut to {@link #MAX_CHARS}, ending in {@code ...} when cut; "" for null. */
    public static String oneLine(final String text)
    {
        return escaped(text, MAX_CHARS);
    }

    /**
     * @return {@code text}, of many lines, with every credential redacted and every control character escaped except
     * the line feed, never cut: for a block tokenclock laid out itself (a record's tables) whose fields came from a
     * file or a server; "" for null. A field that must stay on its line goes through {@link #oneLine} first.
     */
    public static String lines(final String text)
    {
        if (text == null)
        {
            return "";
        }
        final String s = KnownSecrets.redact(text);
        final StringBuilder sb = new StringBuilder(s.length() + 16);
        for (int i = 0; i < s.length(); i++)
        {
            final char c = s.charAt(i);
            if (c == '\n')
            {
                sb.append(c);
            }
            else
            {
                escape(c, sb);
            }
        }
        return sb.toString();
    }

    /** @return {@code text} escaped and cut to {@code maxChars}, ending in {@code ...} when cut; "" for null. */
    public static String escaped(final String text, final int maxChars)
    {
        if (text == null)
        {
            return "";
        }
        final String s = KnownSecrets.redact(text).strip();
        final StringBuilder sb = new StringBuilder(Math.min(s.length(), maxChars) + 8);
        int i = 0;
        for (; i < s.length() && sb.length() < maxChars; i++)
        {
            escape(s.charAt(i), sb);
        }
        if (i < s.length())
        {
            sb.append("...");
        }
        return sb.toString();
    }

    private static void escape(final char c, final StringBuilder sb)
    {
        switch (c)
        {
            case '\n' -> sb.append("\\n");
            case '\r' -> sb.append("\\r");
            case '\t' -> sb.append("\\t");
            default ->
            {
                if (c < 0x20 || (c >= 0x7f && c <= 0x9f) || c == '\u2028' || c == '\u2029')
                {
                    sb.append(String.format(Locale.ROOT, "\\u%04x", (int)c));
                }
                else
                {
                    sb.append(c);
                }
            }
        }
    }
}
