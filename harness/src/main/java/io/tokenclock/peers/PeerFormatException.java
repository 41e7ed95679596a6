package io.tokenclock.peers;

import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A file that is not what it claims: one line naming the file, the line where there is one, the field and what was
 * expected ({@code vllm.jsonl: line 3: field ttfts[2]: expected ...}). The command line prints it and exits 2.
 */
public final class PeerFormatException extends IllegalArgumentException
{
    private static final long serialVersionUID = 1L;
    private static final Pattern LINE = Pattern.compile("(line \\d+)(?:: (.*))?");

    /**
     * @param file     the file.
     * @param field    the field (a JSON path), {@code line N} for a line as a whole, or {@code line N: PATH}.
     * @param expected what it should have held, and what it held.
     */
    public PeerFormatException(final Path file, final String field, final String expected)
    {
        super(file + ": " + where(field) + "expected " + expected);
    }

    private static String where(final String field)
    {
        final Matcher m = LINE.matcher(field);
        if (!m.matches())
        {
            return "field " + field + ": ";
        }
        return m.group(1) + ": " + (m.group(2) == null ? "" : "field " + m.group(2) + ": ");
    }
}
