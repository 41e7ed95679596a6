package io.tokenclock.compare;

import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;

/**
 * {@code compare.json}: every comparison of a result against the baseline (the first argument), typed. Format:
 * docs/RESULTS.md.
 *
 * @param format      {@link #FORMAT}.
 * @param inputs      the paths compared, the baseline first.
 * @param forced      whether {@code --force} let a refused comparison through.
 * @param refused     whether any comparison broke a refusal rule (then, without {@code --force}, no figures).
 * @param comparisons one per pair compared.
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
public record CompareJson(String format, List<String> inputs, boolean forced, boolean refused,
    List<Pair> comparisons)
{
    /** The format's name and version. */
    public static final String FORMAT = "tokenclock-compare/1";

    /**
     * One pair: a subject of the baseline and one of another result.
     *
     * @param baseline    the baseline subject's label.
     * @param other       the other's label.
     * @param samples     runs on each side, {@code [a, b]}.
     * @param verdict     {@code same}, {@code one-variable} or {@code whole-stack}.
     * @param sentence    the verdict in words.
     * @param brokenRules the refusal rules broken.
     * @param differences every fact that differs.
     * @param figures     each figure compared (empty when refused without {@code --force}).
     */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record Pair(String baseline, String other, List<Integer> samples, String verdict, String sentence,
        List<String> brokenRules, List<ContractDiff.Difference> differences, Map<String, Figure> figures)
    {
    }

    /**
     * One figure of a pair.
     *
     * @param a            the baseline's values, one per run.
     * @param b            the other's values.
     * @param meanA        their mean.
     * @param meanB        their mean.
     * @param difference   {@code mean_b - mean_a}.
     * @param relative     the difference over {@code mean_a}, null when it is 0.
     * @param ci95         the 95% percentile bootstrap interval of the difference, null with fewer than two runs on
     *                     a side.
     * @param ci95T        Welch's t interval of the difference ({@code ci95_t}), null with fewer than two runs on a
     *                     side.
     * @param exceedsNoise whether both intervals exclude 0 ({@code stats.SmallSample}); null without an interval.
     * @param verdict      {@code differs}, {@code within noise} or {@code n too small to tell}; null without an
     *                     interval.
     */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record Figure(List<Double> a, List<Double> b, double meanA, double meanB, double difference,
        Double relative, List<Double> ci95, List<Double> ci95T, Boolean exceedsNoise, String verdict)
    {
    }
}
