package io.tokenclock.workload.dist;

import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * Each bad argument is rejected with one line that names the parameter and the value.
 */
class ArgumentValidationTest
{
    static Stream<Arguments> badArguments()
    {
        return Stream.of(
            bad("n must be >= 1: 0", () -> new Fixed(0)),
            bad("min must be >= 1: 0", () -> new Uniform(0, 10)),
            bad("max must be >= min (10): 9", () -> new Uniform(10, 9)),
            bad("mean must be finite: NaN", () -> new TruncatedNormal(Double.NaN, 1, 1, 10)),
            bad("stdev must be finite and > 0: 0.0", () -> new TruncatedNormal(5, 0, 1, 10)),
            bad("max must be >= min (5): 4", () -> new TruncatedNormal(5, 1, 5, 4)),
            bad("median must be finite and > 0: -1.0", () -> new LogNormal(-1, 0.5, 1, 10)),
            bad("sigma must be finite and > 0: Infinity", () -> new LogNormal(100, Double.POSITIVE_INFINITY, 1, 10)),
            bad("min must be >= 1: -3", () -> new LogNormal(100, 0.5, -3, 10)),
            bad("weights[1] must be finite and > 0: 0.0",
                () -> new Mixture(List.of(1.0, 0.0), List.of(new Fixed(1), new Fixed(2)))),
            bad("weights must have one entry per component (at least one): 1 weights for 2 components",
                () -> new Mixture(List.of(1.0), List.of(new Fixed(1), new Fixed(2)))),
            bad("histogram count [0] must be >= 0: -1", () -> Empirical.ofHistogram(new int[]{3}, new long[]{-1})),
            bad("observation must be >= 1: 0", () -> Empirical.ofValues(List.of(3, 0))),
            bad("input must be >= 1: 0", () -> new Lengths(0, 5)));
    }

    private static Arguments bad(final String message, final Executable construction)
    {
        return Arguments.of(message, construction);
    }

    @ParameterizedTest
    @MethodSource("badArguments")
    void shouldRejectWithOneLineNamingTheParameter(final String message, final Executable construction)
    {
        assertEquals(message, assertThrows(IllegalArgumentException.class, construction).getMessage());
    }
}
