package io.tokenclock.quality;

/**
 * What one check said of one sample. Immutable.
 *
 * @param pass   whether the sample passed.
 * @param reason why it failed, as counted in {@code failures_by_reason} (the check's name, or a cause such as
 *               {@code no_reference}); null when it passed.
 * @param detail a short human-readable note for requests.jsonl (what was expected, what came), or null.
 */
public record Outcome(boolean pass, String reason, String detail)
{
    private static final Outcome PASS = new Outcome(true, null, null);
    /** The longest detail kept: outputs can be long, and the detail is only a hint. */
    private static final int DETAIL_CHARS = 200;

    /** @return a pass. */
    public static Outcome passed()
    {
        return PASS;
    }

    /** @return a failure for {@code reason}, with a detail cut to 200 characters. */
    public static Outcome fail(final String reason, final String detail)
    {
        return new Outcome(false, reason, detail == null || detail.length() <= DETAIL_CHARS ? detail :
            detail.substring(0, DETAIL_CHARS) + "...");
    }

    /** @return a pass when {@code pass}, else a failure for {@code reason}. */
    public static Outcome of(final boolean pass, final String reason, final String detail)
    {
        return pass ? PASS : fail(reason, detail);
    }
}
