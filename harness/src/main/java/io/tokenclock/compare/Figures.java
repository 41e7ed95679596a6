package io.tokenclock.compare;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.ToDoubleFunction;

import io.tokenclock.metrics.Counter;
import io.tokenclock.results.record.RunRecord;

/**
 * The figures {@code compare} sets side by side, read from a record: the headline latencies' p50 and p99, the
 * throughput, goodput and errors, named as {@code repetitions.json} and {@code ab.json} name them. NaN when the
 * record does not have the figure.
 */
public final class Figures
{
    private Figures()
    {
    }

    /** @return the figures, in the order printed. */
    public static Map<String, ToDoubleFunction<RunRecord>> all()
    {
        final Map<String, ToDoubleFunction<RunRecord>> f = new LinkedHashMap<>();
        f.put("ttft_p50_ms", r -> percentile(r, "ttft", "p50"));
        f.put("ttft_p99_ms", r -> percentile(r, "ttft", "p99"));
        f.put("tpot_p50_ms", r -> percentile(r, "tpot", "p50"));
        f.put("tpot_p99_ms", r -> percentile(r, "tpot", "p99"));
        f.put("itl_p50_ms", r -> percentile(r, "token_itl", "p50"));
        f.put("itl_p99_ms", r -> percentile(r, "token_itl", "p99"));
        f.put("e2e_p50_ms", r -> percentile(r, "e2e", "p50"));
        f.put("e2e_p99_ms", r -> percentile(r, "e2e", "p99"));
        f.put("requests_per_s", r -> r.report() == null || r.report().throughput() == null ? Double.NaN :
            r.report().throughput().requestsPerS());
        f.put("output_tokens_per_s", r -> r.report() == null || r.report().throughput() == null ? Double.NaN :
            r.report().throughput().outputTokensPerSOrNaN());
        f.put("inputs_per_s", r -> r.report() == null || r.report().throughput() == null ? Double.NaN :
            r.report().throughput().inputsPerSOrNaN());
        f.put("goodput_rps", r -> r.report() == null || r.report().goodput() == null ? Double.NaN :
            r.report().goodput().requestsPerS());
        f.put("errors", r -> r.report() == null || r.report().counts() == null ? Double.NaN :
            r.report().counts().get(Counter.ERRORS) + r.report().counts().get(Counter.CANCELLED));
        return f;
    }

    private static double percentile(final RunRecord r, final String metric, final String p)
    {
        return r.report() == null ? Double.NaN : r.report().distribution(metric).figure(p);
    }
}
