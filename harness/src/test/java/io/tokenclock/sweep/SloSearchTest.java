package io.tokenclock.sweep;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.DoublePredicate;

import org.junit.jupiter.api.Test;

final class SloSearchTest
{
    /** A server that meets the SLO up to {@code threshold} req/s, and the rates it was run at. */
    private static final class FakeServer implements DoublePredicate
    {
        final double threshold;
        final List<Double> ran = new ArrayList<>();
        /** rate to the runs (1-based, at that rate) whose verdict is flipped: a noisy run. */
        final Map<Double, List<Integer>> flipped = new HashMap<>();

        FakeServer(final double threshold)
        {
            this.threshold = threshold;
        }

        FakeServer flip(final double rate, final Integer... runs)
        {
            flipped.put(rate, List.of(runs));
            return this;
        }

        @Override
        public boolean test(final double rate)
        {
            ran.add(rate);
            final long nth = ran.stream().filter(r -> r == rate).count();
            final boolean pass = rate <= threshold;
            return flipped.getOrDefault(rate, List.of()).contains((int)nth) != pass;
        }
    }

    private static List<Double> verdictRates(final SloSearch.Result r)
    {
        return r.verdicts().stream().map(SloSearch.Verdict::rate).toList();
    }

    @Test
    void shouldDoubleUntilARateFailsThenBisectToTheTolerance()
    {
        // 5 10 20 pass, 40 fails; bisect: 30 pass, 35 pass, 37.5 fail, 36.25 pass; 37.5 - 36.25 <= 0.05 x 36.25.
        final FakeServer server = new FakeServer(37);
        final SloSearch.Result r = SloSearch.run(new SloSearch.Settings(5, 0.05, 100), server);
        assertEquals(List.of(5.0, 10.0, 20.0, 40.0, 30.0, 35.0, 37.5, 36.25), verdictRates(r));
        assertEquals(36.25, r.maxRate());
        assertEquals(37.5, r.firstFail());
        assertTrue(r.converged(), r.reason());
        assertEquals(16, r.runs());
        assertEquals(16, server.ran.size());
        assertTrue(r.verdicts().stream().noneMatch(SloSearch.Verdict::disagreed));
    }

    @Test
    void shouldCatchAFlakyRunWithTheRepeatAndATiebreak()
    {
        // One run at 20 fails although 20 is well within the capacity, and one at 40 passes although it is past it:
        // each disagreement is run a third time, and the majority keeps the search on the same path.
        final FakeServer server = new FakeServer(37).flip(20, 1).flip(40, 2);
        final SloSearch.Result r = SloSearch.run(new SloSearch.Settings(5, 0.05, 100), server);
        assertEquals(List.of(5.0, 10.0, 20.0, 40.0, 30.0, 35.0, 37.5, 36.25), verdictRates(r));
        assertEquals(36.25, r.maxRate());
        assertEquals(18, r.runs());
        final SloSearch.Verdict at20 = r.verdicts().get(2);
        assertEquals(List.of(false, true, true), at20.runs());
        assertTrue(at20.pass() && at20.disagreed());
        final SloSearch.Verdict at40 = r.verdicts().get(3);
        assertEquals(List.of(false, true, false), at40.runs());
        assertFalse(at40.pass());
    }

    @Test
    void shouldHalveWhenTheStartRateFails()
    {
        // 10 and 5 fail, 2.5 passes; bisect: 3.75 fail, 3.125 fail, 2.8125 pass, 2.96875 pass, 3.046875 fail;
        // 3.046875 - 2.96875 = 0.078125 <= 0.05 x 2.96875 = 0.1484375.
        final SloSearch.Result r = SloSearch.run(new SloSearch.Settings(10, 0.05, 100), new FakeServer(3));
        assertEquals(List.of(10.0, 5.0, 2.5, 3.75, 3.125, 2.8125, 2.96875, 3.046875), verdictRates(r));
        assertEquals(2.96875, r.maxRate());
        assertEquals(3.046875, r.firstFail());
        assertTrue(r.converged());
    }

    @Test
    void shouldGiveUpAfterTenHalvingsWhenNoRatePasses()
    {
        final SloSearch.Result r = SloSearch.run(new SloSearch.Settings(10, 0.05, 100), new FakeServer(0));
        assertEquals(SloSearch.MAX_HALVINGS + 1, r.verdicts().size());
        assertEquals(10.0 / 1024, r.firstFail());
        assertTrue(Double.isNaN(r.maxRate()));
        assertFalse(r.converged());
        assertTrue(r.reason().startsWith("no rate met the SLO"), r.reason());
    }

    @Test
    void shouldNeverExceedTheRunBudgetAndSayTheRateIsALowerBound()
    {
        // 5 and 10 pass (4 runs, 3 left), 20 passes (6 runs): 1 left, too few for a verdict.
        final FakeServer server = new FakeServer(37);
        final SloSearch.Result r = SloSearch.run(new SloSearch.Settings(5, 0.05, 7), server);
        assertEquals(6, server.ran.size());
        assertEquals(20, r.maxRate());
        assertFalse(r.converged());
        assertTrue(r.reason().contains("lower bound"), r.reason());
    }

    @Test
    void shouldBeDrivenOneRunAtATime()
    {
        final SloSearch s = new SloSearch(new SloSearch.Settings(4, 0.5, 30));
        assertEquals(4, s.nextRate());
        assertEquals(1, s.nextRunOfVerdict());
        s.record(true);
        assertEquals(4, s.nextRate());
        assertEquals(2, s.nextRunOfVerdict());
        s.record(false);
        assertEquals(3, s.nextRunOfVerdict(), "a disagreement is broken by a third run at the same rate");
        assertEquals(4, s.nextRate());
        s.record(true);
        assertEquals(8, s.nextRate());
        s.record(false);
        s.record(false);
        // 4 passes, 8 fails: 8 - 4 > 0.5 x 4, so 6
        assertEquals(6, s.nextRate());
        s.record(false);
        s.record(false);
        // 6 - 4 <= 0.5 x 4: done at 4
        assertTrue(s.done());
        assertEquals(4, s.result().maxRate());
        assertThrows(IllegalStateException.class, s::nextRate);
        assertThrows(IllegalStateException.class, () -> s.record(true));
    }

    @Test
    void shouldRejectSettingsThatCannotSearch()
    {
        assertThrows(IllegalArgumentException.class, () -> new SloSearch.Settings(0, 0.05, 10));
        assertThrows(IllegalArgumentException.class, () -> new SloSearch.Settings(1, 0, 10));
        assertThrows(IllegalArgumentException.class, () -> new SloSearch.Settings(1, 0.05, 2));
    }
}
