package io.tokenclock.report.html;

import java.util.LinkedHashMap;
import java.util.Map;

/** One sentence per metric the report shows; the formulas themselves are in docs/METRICS.md. */
final class Definitions
{
    private static final Map<String, String> SENTENCES = new LinkedHashMap<>();

    static
    {
        SENTENCES.put("ttft", "Time to first token: from the moment the request was sent to the arrival of the " +
            "first chunk that carried content (a role-only first chunk does not count).");
        SENTENCES.put("stream_setup", "Stream setup: from the send to the arrival of the response headers, what " +
            "header-level timers (Gatling's, JMeter's) call the response time; TTFT minus it is the wait for a token.");
        SENTENCES.put("ttft_from_schedule", "TTFT from the request's intended start, so it includes the client's " +
            "own send lag (no coordinated omission).");
        SENTENCES.put("ttfot", "Time to first output token: like TTFT, but to the first chunk that is not reasoning.");
        SENTENCES.put("ttst", "Time to second token: the gap between the first two content chunks.");
        SENTENCES.put("inter_chunk_latency", "ITL, inter-chunk latency: every gap between two consecutive content " +
            "chunks of a request.");
        SENTENCES.put("token_itl", "Token ITL: each chunk's gap shared equally among the tokens it carried " +
            "(only when the server reports per-chunk token counts).");
        SENTENCES.put("tpot", "Time per output token: from the first content chunk to the last, over the output " +
            "tokens less one.");
        SENTENCES.put("e2e", "End-to-end latency: from the send to the end of the response (or the failure).");
        SENTENCES.put("send_lag", "Send lag: how late the client sent the request against its intended start.");
        SENTENCES.put("throughput", "Throughput: requests that ended ok, and their output tokens, per second of " +
            "the measured window.");
        SENTENCES.put("goodput", "Goodput: requests that ended ok within every SLO bound (and passed the quality " +
            "rule), per second of the window.");
        SENTENCES.put("in_flight", "In flight: requests sent and not yet ended, averaged over each time bin.");
        SENTENCES.put("hiccups", "Client hiccups: how late a thread asking to wake every millisecond actually " +
            "woke: the client machine's own stalls.");
        SENTENCES.put("knee", "Knee: the load past which a sweep's latency rises (by latency factor) or its " +
            "achieved rate stops following the offered one (two-segment fit).");
        SENTENCES.put("achieved", "Achieved rate (a sweep's point): requests that ended ok inside the point's " +
            "window, whatever their phase, over the window: what the server completed while the load was offered.");
        SENTENCES.put("pareto", "Pareto plot: each sweep point's output tokens/s against its median request's " +
            "decode rate (tokens/s per user); the frontier joins the points no other beats on both.");
        SENTENCES.put("interval", "95% interval: for a percentile, a distribution-free interval from order " +
            "statistics; across repetitions or A/B runs, a percentile bootstrap of the mean, with Student's t " +
            "(Welch's, for a difference) beside it. Below about 12 runs the bootstrap covers less than 95% (range: " +
            "with 2 or 3 it is exactly [min, max]); a difference is called differs only when both exclude 0, else " +
            "n too small to tell (docs/METRICS.md).");
    }

    private Definitions()
    {
    }

    static void render(final Page page)
    {
        page.h2("Definitions");
        final StringBuilder sb = new StringBuilder("<dl class=\"defs\">\n");
        SENTENCES.forEach((k, v) -> sb.append("<dt>").append(Html.text(k)).append("</dt><dd>").append(Html.text(v))
            .append("</dd>\n"));
        page.raw(sb.append("</dl>\n").toString());
    }
}
