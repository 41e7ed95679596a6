package io.tokenclock.config;

import java.util.Objects;

import io.tokenclock.goodput.Slo;

/**
 * One traffic segment of a mixed workload ({@code workload.segments[]}): a named share of the requests with its own
 * lengths, request-body fields and SLO. Immutable.
 *
 * @param name          The segment's name; requests and the record group by it.
 * @param weight        Its share of the requests, in (0, 1]; the shares of a run sum to 1.
 * @param inputLengths  Its input length distribution, tokens.
 * @param outputLengths Its output length distribution, tokens, or null for the model's {@code max_tokens}.
 * @param correlation   Gaussian-copula correlation of its input and output lengths, in [-1, 1].
 * @param extraBody     Request-body fields merged over the model's {@code extra_body}: a JSON object's text, or null.
 * @param slo           Its own SLO, or null for the run's.
 */
public record SegmentSpec(String name, double weight, LengthSpec inputLengths, LengthSpec outputLengths,
    double correlation, String extraBody, Slo slo)
{
    public SegmentSpec
    {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(inputLengths, "inputLengths");
    }
}
