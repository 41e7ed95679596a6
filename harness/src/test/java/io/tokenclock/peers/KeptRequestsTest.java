package io.tokenclock.peers;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * The requests of a peer's file kept for report.html: all of them under the bounds, an evenly spread sample above,
 * within the bounds however large the file.
 */
final class KeptRequestsTest
{
    /** Feeds {@code n} requests of {@code gaps} gaps each, request i with TTFT i ms and start i s. */
    private static PerRequest feed(final KeptRequests kept, final int n, final int gaps)
    {
        for (int i = 0; i < n; i++)
        {
            for (int g = 0; g < gaps; g++)
            {
                kept.gap(1);
            }
            kept.request(i, i, i + gaps, gaps + 1);
        }
        return kept.build();
    }

    @Test
    void shouldKeepEveryRequestOfAFileWithinTheBounds()
    {
        final PerRequest p = feed(new KeptRequests(100, 1_000), 100, 10);
        assertEquals(100, p.size());
        assertFalse(p.sampled());
        assertEquals(1, p.every());
        assertEquals(10, p.gapsMs().get(99).length);
        assertEquals(99, p.ttftMs()[99], 0);
    }

    @Test
    void shouldKeepAnEvenlySpreadSampleAcrossTheWholeFileAboveTheRequestBound()
    {
        final PerRequest p = feed(new KeptRequests(100, 1_000_000), 1_000, 0);
        assertTrue(p.sampled());
        assertEquals(1_000, p.requests());
        assertEquals(16, p.every());
        assertEquals(63, p.size(), "requests 0, 16 ... 992");
        for (int i = 0; i < p.size(); i++)
        {
            assertEquals(16.0 * i, p.ttftMs()[i], 0, "request " + i);
            assertEquals(16.0 * i, p.startS()[i], 0);
        }
        assertNull(p.gapsMs(), "no gaps in the file");
    }

    @Test
    void shouldHoldTheGapsToTheirBoundAsLargePeerFileITsFileWouldHave()
    {
        // LargePeerFileIT's file: 16,000 requests of 300 gaps, against the default bounds
        final KeptRequests kept = new KeptRequests();
        final PerRequest p = feed(kept, 16_000, 300);
        final long gaps = p.gapsMs().stream().mapToLong(g -> g.length).sum();
        assertTrue(gaps <= PerRequest.MAX_GAPS, "gaps kept " + gaps);
        assertEquals(8, p.every());
        assertEquals(2_000, p.size());
        assertEquals(15_992, p.ttftMs()[p.size() - 1], 0, "the sample reaches the file's end");
    }

    @Test
    void shouldLeaveOutOnlyTheOneRequestLongerThanTheGapBound()
    {
        final KeptRequests kept = new KeptRequests(100, 5);
        feed(kept, 1, 2);
        for (int g = 0; g < 9; g++)
        {
            kept.gap(1);
        }
        kept.request(1, 1, 1, 10);
        final PerRequest p = kept.build();
        assertEquals(2, p.requests());
        assertArrayEquals(new double[] {0}, p.ttftMs());
        assertTrue(p.sampled());
    }

    @Test
    void shouldKeepNothingOfAFileWithoutRequests()
    {
        assertNull(new KeptRequests().build());
    }
}
