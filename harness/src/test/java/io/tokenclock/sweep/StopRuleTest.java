package io.tokenclock.sweep;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

final class StopRuleTest
{
    private final StopRule rule = new StopRule(0.1, 0.5);

    @Test
    void shouldStopAfterAPointWhereTooManyRequestsFailed()
    {
        // 11 errors of 100: 11% > 10%
        assertEquals("11.0% of requests failed at rate 30 (limit 10.0%)",
            rule.reason(Points.point(30, 29, 20, 25, 89, 11, 89), false));
        assertNull(rule.reason(Points.point(30, 29, 20, 25, 90, 10, 90), false), "10% is not past the limit");
    }

    @Test
    void shouldStopOnSloMissesOnlyWithAnSlo()
    {
        // 40 good of 100: 60% missed
        final SweepPoint p = Points.point(40, 31, 90, 5, 100, 0, 40);
        assertEquals("60.0% of requests missed the SLO at rate 40 (limit 50.0%)", rule.reason(p, true));
        assertNull(rule.reason(p, false));
        assertNull(new StopRule(0.1, 1).reason(p, true), "1 never stops");
    }

    @Test
    void shouldStopAfterAPointWithNoRequest()
    {
        assertEquals("no measured request at rate 5", rule.reason(Points.point(5, 0, Double.NaN, 0, 0, 0, 0),
            false));
    }

    @Test
    void shouldRejectFractionsOutsideZeroToOne()
    {
        assertThrows(IllegalArgumentException.class, () -> new StopRule(-0.1, 0.5));
        assertThrows(IllegalArgumentException.class, () -> new StopRule(0.1, 1.5));
    }

    @Test
    void shouldWriteLoadsShort()
    {
        assertEquals("8", StopRule.format(8));
        assertEquals("12.5", StopRule.format(12.5));
        assertEquals("23.44", StopRule.format(23.4375));
        assertEquals("1.75", StopRule.format(1.75));
    }
}
