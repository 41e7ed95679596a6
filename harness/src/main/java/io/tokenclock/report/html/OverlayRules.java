package io.tokenclock.report.html;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * When results may be drawn on one graph: the definitions that make their figures comparable must agree (timing
 * endpoints, token counting, formulas version, percentile method, workload hash, load model, warm-up and failure
 * handling). The report's own small copy of the refusal rules of {@code compare} (issue 20), to be replaced by the
 * shared rules once they exist.
 */
final class OverlayRules
{
    private static final String[][] FIELDS = {
        {"timing endpoints", "measurement", "stamping"},
        {"first-token rule", "measurement", "first_token_rule"},
        {"token counting", "measurement", "token_counts"},
        {"formulas version", "tokenclock", "formulas_version"},
        {"percentile method", "measurement", "histograms"},
        {"workload hash", "workload", "hash"},
        {"load model", "load", "mode"},
        {"arrival process", "load", "arrival"},
        {"warm-up requests", "load", "warmup_requests"},
        {"warm-up duration", "load", "warmup_duration_s"},
        {"failure handling", "load", "end_of_window_rule"},
    };

    private OverlayRules()
    {
    }

    /** @return one line per definition in which {@code other} differs from {@code first}; empty when they agree. */
    static List<String> differences(final String firstName, final JsonNode first, final String otherName,
        final JsonNode other)
    {
        final List<String> out = new ArrayList<>();
        if (first == null || other == null)
        {
            return out;
        }
        for (final String[] f : FIELDS)
        {
            final JsonNode a = first.path(f[1]).path(f[2]);
            final JsonNode b = other.path(f[1]).path(f[2]);
            if (!Objects.equals(a, b))
            {
                out.add(f[0] + " (" + f[1] + "." + f[2] + "): " + firstName + " " + Html.value(a) + ", " + otherName +
                    " " + Html.value(b));
            }
        }
        return out;
    }
}
