package io.tokenclock.report;

import java.nio.ByteBuffer;
import java.util.Base64;
import java.util.zip.DataFormatException;
import java.util.zip.Inflater;

/**
 * The header of one compressed HdrHistogram interval, read without trusting it: HdrHistogram's V2 encoding is a
 * compressed cookie and length, then, deflated, a 40-byte header (cookie, payload length, normalizing offset,
 * significant digits, lowest and highest trackable values, a ratio) and the counts. From the header alone the
 * sizes that decoding would allocate are known; a worked example: 3 digits (a sub-bucket count of 2048) from 1 to
 * 3.6e12 (an hour in ns) is 31 buckets, a counts array of 32 * 1024 longs, 256 KiB.
 */
final class HlogHeader
{
    private static final int HEADER = 40;

    private HlogHeader()
    {
    }

    /** @return what {@code base64} should have been, or null when its header claims sizes within bounds. */
    static String problem(final String base64)
    {
        final byte[] bytes;
        try
        {
            bytes = Base64.getDecoder().decode(base64.strip());
        }
        catch (final IllegalArgumentException ex)
        {
            return "a base64 HdrHistogram interval, got text that is not base64";
        }
        if (bytes.length < 8 || ByteBuffer.wrap(bytes).getInt(4) > bytes.length - 8 ||
            ByteBuffer.wrap(bytes).getInt(4) < 0)
        {
            return "a compressed HdrHistogram interval, got " + bytes.length + " bytes that are not one";
        }
        final ByteBuffer h = ByteBuffer.allocate(HEADER);
        final Inflater inflater = new Inflater();
        try
        {
            inflater.setInput(bytes, 8, ByteBuffer.wrap(bytes).getInt(4));
            while (h.hasRemaining() && !inflater.finished() && !inflater.needsInput())
            {
                final int got = inflater.inflate(h.array(), h.position(), h.remaining());
                if (got == 0 && (inflater.needsDictionary() || inflater.needsInput()))
                {
                    break;
                }
                h.position(h.position() + got);
            }
        }
        catch (final DataFormatException ex)
        {
            return "a compressed HdrHistogram interval, got data that does not inflate";
        }
        finally
        {
            inflater.end();
        }
        return h.hasRemaining() ? "an HdrHistogram interval, got a header cut short" : sizes(h.rewind());
    }

    /** @return what the header should have claimed, or null when its payload and counts array fit the bound. */
    private static String sizes(final ByteBuffer h)
    {
        h.getInt(); // cookie
        final long payload = h.getInt();
        h.getInt(); // normalizing index offset
        final int digits = h.getInt();
        final long lowest = h.getLong();
        final long highest = h.getLong();
        if (payload < 0 || payload > HistogramLogs.MAX_BYTES)
        {
            return "an HdrHistogram interval of at most " + HistogramLogs.MAX_BYTES + " bytes, got one claiming " +
                payload;
        }
        if (digits < 0 || digits > 5 || lowest < 1 || highest < 2 * lowest)
        {
            return "an HdrHistogram interval (0 to 5 significant digits, 1 <= lowest, 2 * lowest <= highest), got " +
                digits + " digits from " + lowest + " to " + highest;
        }
        final long subBuckets = Long.highestOneBit(2 * (long)Math.pow(10, digits) - 1) << 1;
        long buckets = 1;
        double reach = (double)subBuckets * lowest;
        while (reach <= highest)
        {
            reach *= 2;
            buckets++;
        }
        final long counts = (buckets + 1) * (subBuckets / 2) * Long.BYTES;
        return counts > HistogramLogs.MAX_BYTES ? "an HdrHistogram interval whose counts fit in " +
            HistogramLogs.MAX_BYTES + " bytes, got one claiming " + counts : null;
    }
}
