package io.tokenclock.peers;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The requests of a peer's file kept one by one for report.html ({@link PerRequest}), in bounded memory however large
 * the file: all of them up to {@value #MAX_REQUESTS} requests and {@value #MAX_GAPS} chunk gaps (some 10 MB), then an
 * evenly spread sample. When a bound would be passed, every other kept request is dropped and from then on only every
 * {@code every}-th request of the file is kept, {@code every} doubling each time: a deterministic sample across the
 * whole file (its start, middle and end alike), not its first part.
 * <p>
 * Worked example: a vLLM {@code --save-detailed} file of 16,000 requests of 300 gaps each. At request 3,334 the gaps
 * pass 1,000,000; the 3,333 kept are halved to every 2nd; at request 6,667 to every 4th; the report draws the 4,000
 * requests 0, 4, 8 ... 15,996 and says so. The distributions in the record are the histograms of all 16,000
 * ({@link Samples}).
 * <p>
 * Gaps come first, then the request they belong to ({@link #gap}, then {@link #request}), as the files give them. A
 * single request of more than {@value #MAX_GAPS} gaps is not kept (its figures are in the histograms). Not
 * thread-safe.
 */
final class KeptRequests
{
    /** The most requests kept. */
    static final int MAX_REQUESTS = PerRequest.MAX_REQUESTS;
    /** The most chunk gaps kept, over every kept request. */
    static final int MAX_GAPS = PerRequest.MAX_GAPS;

    private final int maxRequests;
    private final int maxGaps;
    private long seen;
    private int every = 1;
    private int size;
    private long keptGaps;
    private double[] startS = new double[64];
    private double[] ttftMs = new double[64];
    private double[] e2eMs = new double[64];
    private double[] outputTokens = new double[64];
    private final List<double[]> gapsMs = new ArrayList<>();
    private double[] current = new double[64];
    private int currentGaps;
    private boolean withStart = true;
    private boolean withGaps;
    private boolean withE2e;
    private boolean withTokens;

    KeptRequests()
    {
        this(MAX_REQUESTS, MAX_GAPS);
    }

    /** With bounds of its own (tests). */
    KeptRequests(final int maxRequests, final int maxGaps)
    {
        this.maxRequests = maxRequests;
        this.maxGaps = maxGaps;
    }

    /** One gap of the request being read, ms. */
    void gap(final double ms)
    {
        withGaps = true;
        if (seen % every == 0 && currentGaps <= maxGaps)
        {
            if (currentGaps == current.length)
            {
                current = Arrays.copyOf(current, 2 * current.length);
            }
            current[currentGaps++] = ms;
        }
    }

    /** The request whose gaps came before; NaN where the file does not give a figure. */
    void request(final double start, final double ttft, final double e2e, final double tokens)
    {
        final long index = seen++;
        withStart &= !Double.isNaN(start);
        withE2e |= !Double.isNaN(e2e);
        withTokens |= !Double.isNaN(tokens);
        if (index % every == 0 && currentGaps <= maxGaps)
        {
            while (size > 0 && index % every == 0 && (size >= maxRequests || keptGaps + currentGaps > maxGaps))
            {
                halve();
            }
            if (index % every == 0)
            {
                add(start, ttft, e2e, tokens);
            }
        }
        currentGaps = 0;
        if (current.length > 1024)
        {
            current = new double[64]; // one long answer does not keep its buffer for the rest of the file
        }
    }

    private void add(final double start, final double ttft, final double e2e, final double tokens)
    {
        if (size == ttftMs.length)
        {
            final int n = 2 * size;
            startS = Arrays.copyOf(startS, n);
            ttftMs = Arrays.copyOf(ttftMs, n);
            e2eMs = Arrays.copyOf(e2eMs, n);
            outputTokens = Arrays.copyOf(outputTokens, n);
        }
        startS[size] = start;
        ttftMs[size] = ttft;
        e2eMs[size] = e2e;
        outputTokens[size] = tokens;
        gapsMs.add(Arrays.copyOf(current, currentGaps));
        keptGaps += currentGaps;
        size++;
    }

    /** Keeps every other kept request (those at a multiple of twice the step) and doubles the step. */
    private void halve()
    {
        int to = 0;
        keptGaps = 0;
        for (int from = 0; from < size; from += 2)
        {
            startS[to] = startS[from];
            ttftMs[to] = ttftMs[from];
            e2eMs[to] = e2eMs[from];
            outputTokens[to] = outputTokens[from];
            gapsMs.set(to, gapsMs.get(from));
            keptGaps += gapsMs.get(to).length;
            to++;
        }
        gapsMs.subList(to, size).clear();
        size = to;
        every *= 2;
    }

    /** @return the requests kept, or null when the file had none. */
    PerRequest build()
    {
        if (seen == 0)
        {
            return null;
        }
        return new PerRequest(withStart ? Arrays.copyOf(startS, size) : null, Arrays.copyOf(ttftMs, size),
            withGaps ? List.copyOf(gapsMs) : null, withE2e ? Arrays.copyOf(e2eMs, size) : null,
            withTokens ? Arrays.copyOf(outputTokens, size) : null, seen, every);
    }
}
