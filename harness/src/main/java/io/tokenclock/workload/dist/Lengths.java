package io.tokenclock.workload.dist;

/**
 * The input and output length of one request, drawn together by {@link CorrelatedLengths}.
 *
 * @param input prompt length in tokens, >= 1.
 * @param output completion length in tokens, >= 1.
 */
public record Lengths(int input, int output)
{
    /**
     * @throws IllegalArgumentException if either length is < 1.
     */
    public Lengths
    {
        DistSupport.requireLength("input", input);
        DistSupport.requireLength("output", output);
    }
}
