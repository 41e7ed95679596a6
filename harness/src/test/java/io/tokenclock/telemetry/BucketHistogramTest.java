package io.tokenclock.telemetry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** Histogram differences and quantiles, with answers worked by hand as Prometheus' histogram_quantile gives them. */
final class BucketHistogramTest
{
    private static BucketHistogram histogram(final String text)
    {
        return BucketHistogram.of(Exposition.parse(text).byName(), "h");
    }

    private static String exposition(final double le1, final double le2, final double inf, final double sum)
    {
        return "h_bucket{le=\"0.1\",m=\"a\"} " + le1 + "\nh_bucket{le=\"0.2\",m=\"a\"} " + le2 +
            "\nh_bucket{le=\"+Inf\",m=\"a\"} " + inf + "\nh_sum{m=\"a\"} " + sum + "\nh_count{m=\"a\"} " + inf + "\n";
    }

    @Test
    void shouldInterpolateInsideTheBucketTheRankFallsIn()
    {
        final BucketHistogram h = histogram(exposition(10, 30, 30, 4.5));

        assertEquals(0.15, h.mean(), 1e-12);
        // rank 15 of 30: 5 into the (0.1, 0.2] bucket of 20 -> 0.1 + 0.1 * 5/20
        assertEquals(0.125, h.quantile(0.5), 1e-12);
        // rank 3 of 30 falls in the first bucket, interpolated from 0
        assertEquals(0.03, h.quantile(0.1), 1e-12);
    }

    @Test
    void shouldAnswerTheHighestFiniteBoundForTheInfiniteBucket()
    {
        assertEquals(0.2, histogram(exposition(10, 20, 30, 9)).quantile(0.99), 1e-12);
    }

    @Test
    void shouldSubtractAnEarlierScrapeToGetWhatHappenedBetween()
    {
        final BucketHistogram earlier = histogram(exposition(10, 10, 10, 0.5));
        final BucketHistogram later = histogram(exposition(10, 30, 30, 4.5));

        final BucketHistogram between = later.minus(earlier);

        assertEquals(20, between.count());
        assertEquals(0.2, between.mean(), 1e-12);
        assertEquals(0.15, between.quantile(0.5), 1e-12);
    }

    @Test
    void shouldRefuseADifferenceAcrossACounterReset()
    {
        final BucketHistogram earlier = histogram(exposition(10, 30, 30, 4.5));
        final BucketHistogram later = histogram(exposition(1, 2, 2, 0.1));

        assertNull(later.minus(earlier));
    }

    @Test
    void shouldSumLabelSetsBucketByBucket()
    {
        final BucketHistogram h = histogram(exposition(10, 30, 30, 4.5) + exposition(0, 10, 10, 2).replace(
            "m=\"a\"", "m=\"b\""));

        assertEquals(40, h.count());
        assertEquals(6.5, h.sum(), 1e-12);
        // buckets 10, 40, 40: rank 20 of 40 is 10 into the second bucket's 30
        assertEquals(0.1 + 0.1 / 3, h.quantile(0.5), 1e-12);
    }

    @Test
    void shouldHaveNoQuantileWithoutObservations()
    {
        assertTrue(Double.isNaN(histogram(exposition(0, 0, 0, 0)).quantile(0.5)));
        assertTrue(Double.isNaN(histogram(exposition(0, 0, 0, 0)).mean()));
        assertNull(histogram("other_count 1\n"));
    }
}
