package io.tokenclock.goodput;

/**
 * Goodput over one scope (the run, or one group), once every verdict is in. A measured request is exactly one of:
 * failed, cancelled, excluded (a judge abstained or failed, and the rule says exclude), good, or ok and missing one or
 * more constraints; each constraint it misses is counted once, so the miss counts may add up to more than the
 * requests that missed. {@code attempted} = every measured request but the excluded; {@code good} / {@code attempted}
 * is the good fraction. Immutable.
 *
 * @param attempted        measured requests judged: ok, failed and cancelled; excluded ones are not.
 * @param good             requests that ended ok, met every latency bound and passed the quality rule.
 * @param goodOutputTokens output tokens of the good requests.
 * @param ttft             ok requests over the TTFT bound (or without a first token).
 * @param tpot             ok requests over the TPOT bound.
 * @param itl              ok requests whose bounded inter-chunk latency was over the ITL bound.
 * @param e2e              ok requests over the end-to-end bound.
 * @param quality          ok requests that failed the quality rule.
 * @param failed           requests that ended in an error.
 * @param cancelled        requests that were cancelled.
 * @param excluded         requests left out: the rule excludes a judge's abstention or failure.
 */
public record GoodputCounts(long attempted, long good, long goodOutputTokens, long ttft, long tpot, long itl, long e2e,
    long quality, long failed, long cancelled, long excluded)
{
    public static final int MISS_TTFT = 1;
    public static final int MISS_TPOT = 1 << 1;
    public static final int MISS_ITL = 1 << 2;
    public static final int MISS_E2E = 1 << 3;
    public static final int MISS_QUALITY = 1 << 4;
    public static final int FAILED = 1 << 5;
    public static final int CANCELLED = 1 << 6;
    /** Not a miss: the request is left out of goodput altogether. */
    public static final int EXCLUDED = 1 << 7;

    /** @return good / attempted, 0 when nothing was attempted. */
    public double goodFraction()
    {
        return attempted > 0 ? (double)good / attempted : 0;
    }
}
