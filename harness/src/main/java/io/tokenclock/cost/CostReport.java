package io.tokenclock.cost;

/**
 * What one run cost under a declared price model. A ratio whose denominator is zero is null.
 * <p>
 * Immutable and thread-safe.
 *
 * @param currency          the price model's currency.
 * @param boundary          what is included, in words.
 * @param prices            the price model in one line.
 * @param runTotal          the whole measured run.
 * @param perRequest        {@code runTotal} over the attempted requests, or null.
 * @param perOutputToken    {@code runTotal} over the completed requests' output tokens, or null.
 * @param perSuccessfulTask {@code runTotal} over the successes, or null.
 * @param successes         the successes divided by, and their basis.
 * @param wasted            the part of {@code runTotal} spent on failed and cancelled requests.
 * @param wastedBasis       how {@code wasted} is apportioned, in words.
 * @param arithmetic        the run total's arithmetic, to check by hand.
 */
public record CostReport(String currency, String boundary, String prices, double runTotal, Double perRequest,
    Double perOutputToken, Double perSuccessfulTask, Successes successes, double wasted, String wastedBasis,
    String arithmetic)
{
}
