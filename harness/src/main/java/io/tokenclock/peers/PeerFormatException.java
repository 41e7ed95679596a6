package io.tokenclock.peers;

import java.nio.file.Path;

/**
 * A file that is not what it claims: one line naming the file, the field and what was expected. The command line
 * prints it and exits 2.
 */
public final class PeerFormatException extends IllegalArgumentException
{
    private static final long serialVersionUID = 1L;

    /** @param file the file; @param field the field (a JSON path); @param expected what it should have held. */
    public PeerFormatException(final Path file, final String field, final String expected)
    {
        super(file + ": field " + field + ": expected " + expected);
    }
}
