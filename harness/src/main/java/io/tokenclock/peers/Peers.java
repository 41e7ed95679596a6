package io.tokenclock.peers;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/**
 * Reads a peer tool's result file into {@link PeerRun}s, after telling by its shape which tool wrote it. Thread-safe.
 */
public final class Peers
{
    private Peers()
    {
    }

    /**
     * @param file a file (or an AIPerf artifact directory).
     * @return its runs, or null when it is in no peer shape this build reads.
     * @throws PeerFormatException when it is in a peer's shape but a field is not what that shape holds.
     */
    public static List<PeerRun> read(final Path file) throws IOException
    {
        return null;
    }
}
