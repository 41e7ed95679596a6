package io.tokenclock.goodput;

/**
 * Adds up verdicts into {@link GoodputCounts}. Not thread-safe: one writer (the request stage, or the quality phase
 * after it stopped), read after it is done.
 */
public final class GoodputTally
{
    private long attempted;
    private long good;
    private long goodOutputTokens;
    private long ttft;
    private long tpot;
    private long itl;
    private long e2e;
    private long quality;
    private long failed;
    private long cancelled;
    private long excluded;

    /**
     * Counts one measured request.
     *
     * @param verdict      a mask of {@link GoodputCounts}' bits; 0 for a good request.
     * @param outputTokens the request's output tokens.
     */
    public void add(final int verdict, final long outputTokens)
    {
        if ((verdict & GoodputCounts.EXCLUDED) != 0)
        {
            excluded++;
            return;
        }
        attempted++;
        if (verdict == 0)
        {
            good++;
            goodOutputTokens += outputTokens;
            return;
        }
        failed += bit(verdict, GoodputCounts.FAILED);
        cancelled += bit(verdict, GoodputCounts.CANCELLED);
        ttft += bit(verdict, GoodputCounts.MISS_TTFT);
        tpot += bit(verdict, GoodputCounts.MISS_TPOT);
        itl += bit(verdict, GoodputCounts.MISS_ITL);
        e2e += bit(verdict, GoodputCounts.MISS_E2E);
        quality += bit(verdict, GoodputCounts.MISS_QUALITY);
    }

    private static int bit(final int verdict, final int bit)
    {
        return (verdict & bit) != 0 ? 1 : 0;
    }

    /** @return the counts so far. */
    public GoodputCounts counts()
    {
        return new GoodputCounts(attempted, good, goodOutputTokens, ttft, tpot, itl, e2e, quality, failed, cancelled,
            excluded);
    }
}
