package io.tokenclock.text;

import java.util.Locale;

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

    /** @return {@code text} escaped and cut to {@code maxChars}, ending in {@code ...} when cut; "" for null. */
    public static String escaped(final String text, final int maxChars)
    {
        if (text == null)
        {
            return "";
        }
        final String s = text.strip();
        final StringBuilder sb = new StringBuilder(Math.min(s.length(), maxChars) + 8);
        int i = 0;
        for (; i < s.length() && sb.length() < maxChars; i++)
        {
            final char c = s.charAt(i);
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
        if (i < s.length())
        {
            sb.append("...");
        }
        return sb.toString();
    }
}
