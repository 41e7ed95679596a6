package io.tokenclock.results;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/**
 * {@code requests.jsonl} beside a record: whether the two are parts of one result. A run writes
 * {@code requests.jsonl} while it goes on, in whole lines, one per request that finished, warm-up included, and its
 * record counts them ({@code report.counts.measured} + {@code warmup}); so the file of a whole record holds exactly
 * that many lines, each ended by a newline. What else is found is a result whose parts disagree (an old record beside
 * a new file, a file cut short, lines lost), and readers refuse it rather than read it as whole (docs/RESULTS.md,
 * "Files appear whole"):
 * <ul>
 * <li>a whole record: the file must end with a newline and hold exactly the lines the record counts;</li>
 * <li>a partial record (a run stopped by a signal, or the record written when the window opened, which a
 * {@code kill -9} leaves): the file must hold at least the lines the record counts, whole; more is what a killed run
 * finished after its record was written, and a cut last line is what a write stopped mid-way by {@code kill -9}
 * leaves (readers that take lines, as {@code merge}, take the whole ones, {@link Lines#whole()}).</li>
 * </ul>
 * No file at all is no disagreement: a record is often kept or shared without its requests (committed results).
 * Lines are counted as newline bytes, never parsed: cheap enough for every open. Stateless.
 */
public final class RequestsFile
{
    /** The file's name in a run directory. */
    public static final String FILE = "requests.jsonl";

    private static final int BUFFER_BYTES = 1 << 16;

    private RequestsFile()
    {
    }

    /**
     * What a {@code requests.jsonl} holds.
     *
     * @param whole   the lines ended by a newline.
     * @param cutBytes the bytes after the last newline: a line cut short (0 when the file ends whole).
     */
    public record Lines(long whole, long cutBytes)
    {
    }

    /** @return the lines of {@code file}, counted as newline bytes. */
    public static Lines count(final Path file) throws IOException
    {
        long newlines = 0;
        long sinceNewline = 0;
        final byte[] buffer = new byte[BUFFER_BYTES];
        try (InputStream in = Files.newInputStream(file))
        {
            int n;
            while ((n = in.read(buffer)) > 0)
            {
                for (int i = 0; i < n; i++)
                {
                    if (buffer[i] == '\n')
                    {
                        newlines++;
                        sinceNewline = 0;
                    }
                    else
                    {
                        sinceNewline++;
                    }
                }
            }
        }
        return new Lines(newlines, sinceNewline);
    }

    /**
     * @param dir      a run directory.
     * @param counted  the requests its record counts, measured and warm-up.
     * @param partial  whether its record is partial.
     * @return why {@code dir}'s requests.jsonl and a record counting {@code counted} requests are not parts of one
     * result, in words that follow the file's name; null when they agree or there is no requests.jsonl.
     */
    public static String disagreement(final Path dir, final long counted, final boolean partial) throws IOException
    {
        final Path file = dir.resolve(FILE);
        if (!Files.isRegularFile(file))
        {
            return null;
        }
        final Lines lines = count(file);
        if (!partial && lines.cutBytes() > 0)
        {
            return String.format(Locale.ROOT, "ends in a cut line (%d bytes after its last newline) beside a " +
                "record.json that says the run is whole: it was not written whole", lines.cutBytes());
        }
        if (partial ? lines.whole() < counted : lines.whole() != counted)
        {
            return String.format(Locale.ROOT, "holds %d whole lines, but record.json counts %d requests (measured " +
                "and warm-up)%s: they are not parts of one result (an interrupted write, or files of two runs)",
                lines.whole(), counted, partial ? " and a partial record never counts more than the file holds" : "");
        }
        return null;
    }
}
