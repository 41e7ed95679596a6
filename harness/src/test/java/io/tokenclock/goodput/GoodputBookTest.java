package io.tokenclock.goodput;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Set;

import org.junit.jupiter.api.Test;

import io.tokenclock.recording.RequestMetrics;
import io.tokenclock.recording.RequestSlot;

/**
 * Goodput per constraint on hand-built requests: every expected count below is worked out by hand from the stamps
 * (1 ms = 1,000,000 ns), so each would catch a request counted in the wrong place.
 */
final class GoodputBookTest
{
    private static final long MS = 1_000_000;

    /** A request sent at 0 whose content chunks arrive at {@code chunksMs}, ending at the last chunk + 1 ms. */
    private static RequestSlot slot(final long id, final int status, final int group, final long... chunksMs)
    {
        final RequestSlot s = new RequestSlot(0);
        s.reset();
        s.requestId = id;
        s.status = status;
        s.group = group;
        s.sentNs = 1;
        for (final long ms : chunksMs)
        {
            s.addChunk(1 + ms * MS, -1, RequestSlot.CHUNK_OUTPUT);
        }
        s.endNs = 1 + (chunksMs.length > 0 ? chunksMs[chunksMs.length - 1] + 1 : 5) * MS;
        return s;
    }

    private static int misses(final Slo slo, final RequestSlot s)
    {
        return slo.misses(s, new RequestMetrics().compute(s));
    }

    @Test
    void shouldBoundTheLongestGapOrAPercentileOfTheGaps()
    {
        // Gaps 10, 10, 10, 50 ms: the longest is 50; the nearest-rank p75 of 4 gaps is the 3rd smallest, 10.
        final RequestSlot s = slot(1, RequestSlot.STATUS_OK, 0, 100, 110, 120, 130, 180);
        assertEquals(GoodputCounts.MISS_ITL, misses(Slo.ofMillis(null, null, 20.0, null, null), s));
        assertEquals(0, misses(Slo.ofMillis(null, null, 50.0, null, null), s), "the bound is inclusive");
        assertEquals(0, misses(Slo.ofMillis(null, null, 20.0, 75.0, null), s));
        // p80 of 4 gaps: rank ceil(3.2) = 4, the 50 ms gap.
        assertEquals(GoodputCounts.MISS_ITL, misses(Slo.ofMillis(null, null, 20.0, 80.0, null), s));
    }

    @Test
    void shouldCountEachConstraintARequestMisses()
    {
        // TTFT 100 ms, TPOT (180 - 100) / 4 = 20 ms, longest gap 50 ms, e2e 181 ms.
        final RequestSlot s = slot(1, RequestSlot.STATUS_OK, 0, 100, 110, 120, 130, 180);
        final Slo slo = Slo.ofMillis(99.0, 19.0, 49.0, null, 180.0);
        assertEquals(GoodputCounts.MISS_TTFT | GoodputCounts.MISS_TPOT | GoodputCounts.MISS_ITL |
            GoodputCounts.MISS_E2E, misses(slo, s));
        assertEquals(0, misses(Slo.ofMillis(100.0, 20.0, 50.0, null, 181.0), s));
    }

    @Test
    void shouldLetAOneTokenAnswerMeetTpotAndItlButNotAMissingFirstToken()
    {
        final RequestSlot one = slot(1, RequestSlot.STATUS_OK, 0, 100);
        assertEquals(0, misses(Slo.ofMillis(null, 1.0, 1.0, null, null), one), "no TPOT, no gap: met (as vLLM)");
        final RequestSlot none = slot(2, RequestSlot.STATUS_OK, 0);
        assertEquals(GoodputCounts.MISS_TTFT, misses(Slo.ofMillis(1000.0, null, null, null, null), none),
            "a TTFT bound and no first token: missed");
    }

    @Test
    void shouldCountErrorsAndCancellationsInTheDenominator()
    {
        final GoodputBook book = new GoodputBook(Slo.ofMillis(150.0, null, null, null, null), new Slo[0], false);
        final RequestMetrics m = new RequestMetrics();
        final RequestSlot fast = slot(1, RequestSlot.STATUS_OK, 0, 100, 110);
        book.onMeasured(fast, m.compute(fast));
        final RequestSlot slow = slot(2, RequestSlot.STATUS_OK, 0, 200, 210);
        book.onMeasured(slow, m.compute(slow));
        final RequestSlot failed = slot(3, RequestSlot.STATUS_ERROR, 0, 10);
        book.onMeasured(failed, m.compute(failed));
        final RequestSlot cancelled = slot(4, RequestSlot.STATUS_CANCELLED, 0, 10, 20);
        book.onMeasured(cancelled, m.compute(cancelled));
        final GoodputCounts c = book.overall();
        assertEquals(4, c.attempted());
        assertEquals(1, c.good());
        assertEquals(0.25, c.goodFraction(), 1e-12);
        assertEquals(2, c.goodOutputTokens(), "two chunks counted as tokens, of the one good request");
        assertEquals(1, c.ttft());
        assertEquals(1, c.failed(), "a failure is a failure, not also a TTFT miss");
        assertEquals(1, c.cancelled());
    }

    @Test
    void shouldKeepVerdictsUntilQualityIsJudgedAndCountPerGroup()
    {
        final Slo tight = Slo.ofMillis(150.0, null, null, null, null);
        final GoodputBook book = new GoodputBook(tight, new Slo[] {tight, null}, true);
        final RequestMetrics m = new RequestMetrics();
        final RequestSlot[] requests = {
            slot(10, RequestSlot.STATUS_OK, 0, 100, 110),       // fast, right: good
            slot(11, RequestSlot.STATUS_OK, 0, 100, 110),       // fast, wrong: quality miss
            slot(12, RequestSlot.STATUS_OK, 1, 200, 210),       // slow: misses the run's TTFT, not its group's
            slot(13, RequestSlot.STATUS_OK, 1, 100, 110, 120),  // judge abstained, excluded
            slot(14, RequestSlot.STATUS_CANCELLED, 1, 100)};
        for (final RequestSlot s : requests)
        {
            book.onMeasured(s, m.compute(s));
        }
        assertEquals(0, book.overall().attempted(), "nothing counted before the quality verdicts");
        book.settle(id -> id == 11 ? GoodputCounts.MISS_QUALITY : id == 13 ? GoodputCounts.EXCLUDED : 0);
        final GoodputCounts all = book.overall();
        assertEquals(new GoodputCounts(4, 1, 2, 1, 0, 0, 0, 1, 0, 1, 1), all);
        assertEquals(new GoodputCounts(2, 1, 2, 0, 0, 0, 0, 1, 0, 0, 0), book.group(0));
        assertEquals(new GoodputCounts(2, 1, 2, 0, 0, 0, 0, 0, 0, 1, 1), book.group(1),
            "group 1 has no latency bound: the slow request is good there");
        book.settle(id -> GoodputCounts.MISS_QUALITY);
        assertEquals(all, book.overall(), "settled once");
    }

    @Test
    void shouldRefuseAnItlPercentileWithoutAnItlBoundAndDescribeTheBounds()
    {
        assertThrows(IllegalArgumentException.class, () -> Slo.ofMillis(100.0, null, null, 99.0, null));
        assertThrows(IllegalArgumentException.class, () -> new Slo(0, 0, 1, 0, 0));
        assertNull(Slo.ofMillis(null, null, null, null, null));
        assertEquals("TTFT <= 500.0 ms, ITL p99 <= 100.0 ms", Slo.ofMillis(500.0, null, 100.0, 99.0, null).describe());
        assertEquals("ITL max <= 100.0 ms", Slo.ofMillis(null, null, 100.0, null, null).describe());
        final Set<Integer> bits = Set.of(GoodputCounts.MISS_TTFT, GoodputCounts.MISS_TPOT, GoodputCounts.MISS_ITL,
            GoodputCounts.MISS_E2E, GoodputCounts.MISS_QUALITY, GoodputCounts.FAILED, GoodputCounts.CANCELLED,
            GoodputCounts.EXCLUDED);
        assertEquals(8, bits.size());
        assertTrue(bits.stream().allMatch(b -> Integer.bitCount(b) == 1 && b <= 0x80), "one bit each, in a byte");
        assertFalse(bits.contains(0));
    }
}
