package io.tokenclock.peers;

import java.io.IOException;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * vLLM's {@code --save-detailed} and SGLang's {@code --output-details} per-request arrays: {@code ttfts} and
 * {@code itls} in seconds, {@code output_lens}, {@code errors}, one entry per request sent, a failed one included
 * (vLLM writes it a TTFT of 0, no gaps and no output). The arrays must agree in length, and hold an entry for every
 * request the summary counts; {@code itls}, most of the file, is streamed from it ({@link PeerFile#eachArray}).
 */
final class DetailArrays
{
    /** The per-request arrays, each one entry per request. */
    static final List<String> ARRAYS = List.of("ttfts", "itls", "output_lens", "input_lens", "errors",
        "generated_texts", "start_times");

    private DetailArrays()
    {
    }

    /**
     * @param index       the result's place among the file's top-level values.
     * @param at          the prefix of its fields' paths ({@code line 3: }, or none).
     * @param sent        the requests its summary counts: {@code completed}, plus {@code failed} where it says.
     * @param e2eFromGaps whether e2e is TTFT plus the gaps (vLLM's, to the last content chunk), or left out (SGLang's
     *                    ends at {@code [DONE]}).
     * @return the successful requests recomputed, or null when the file has no {@code ttfts} and {@code itls}.
     */
    static Samples read(final PeerFile f, final int index, final PeerFile.Root root, final String at, final long sent,
        final boolean e2eFromGaps) throws IOException
    {
        final JsonNode n = root.tree();
        if (n.has("itls") && root.size("itls") < 0)
        {
            throw f.error(at + "itls", "an array of arrays of numbers", n.get("itls"));
        }
        final double[] ttfts = f.times(n, "ttfts", at + "ttfts", 1000);
        if (ttfts == null || root.size("itls") < 0)
        {
            return null;
        }
        lengths(f, root, at, ttfts.length, sent);
        final double[] lens = f.counts(n, "output_lens", at + "output_lens");
        final double[] starts = f.clock(n, "start_times", at + "start_times");
        final JsonNode errors = n.path("errors");
        final boolean[] ok = new boolean[ttfts.length];
        for (int i = 0; i < ok.length; i++)
        {
            // a failed request: an error, or no output (vLLM writes ttft 0 and no gaps for it)
            ok[i] = errors.path(i).asText("").isEmpty() && (lens == null || lens[i] > 0);
        }
        final Samples s = new Samples().withGaps();
        final double[] span = new double[1];
        f.eachArray(index, "itls", at + "itls", new PeerFile.ArraySink()
        {
            @Override
            public void value(final int array, final int i, final double v)
            {
                if (ok[array])
                {
                    final double ms = f.time(v, 1000, at + "itls[" + array + "][" + i + "]");
                    s.gap(ms);
                    span[0] += ms;
                }
            }

            @Override
            public void end(final int array)
            {
                if (ok[array])
                {
                    s.request(starts == null ? Double.NaN : starts[array], ttfts[array],
                        e2eFromGaps ? ttfts[array] + span[0] : Double.NaN, lens == null ? Double.NaN : lens[array],
                        span[0]);
                }
                span[0] = 0;
            }
        });
        return s;
    }

    /** Refuses arrays of lengths that disagree with each other, or with the requests the summary counts. */
    private static void lengths(final PeerFile f, final PeerFile.Root root, final String at, final int n,
        final long sent)
    {
        for (final String name : ARRAYS)
        {
            final int size = root.size(name);
            if (size >= 0 && size != n)
            {
                throw new PeerFormatException(f.file, at + name, n + " entries, one per request as in ttfts, got " +
                    size);
            }
        }
        if (n < sent)
        {
            throw new PeerFormatException(f.file, at + "ttfts", "an entry for each of the " + sent + " requests its " +
                "summary counts, got " + n);
        }
    }
}
