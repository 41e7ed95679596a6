package io.tokenclock.quality;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Judging under load: checks run on a bounded pool, and a deadline (the grace period after a signal) stops judging;
 * what it did not reach is unjudged, never passed or failed. The checks here block on latches, not on sleeps, so
 * the assertions hold on any machine.
 */
@Timeout(30)
final class QualityEvaluatorTest
{
    private static List<Sample> samples(final int n)
    {
        final List<Sample> s = new ArrayList<>();
        for (int i = 0; i < n; i++)
        {
            s.add(new Sample(i, "p", "out", null, "stop"));
        }
        return s;
    }

    /** A check that passes once {@code gate} opens, counting how many callers are inside at once. */
    private static class Gated implements Check
    {
        final CountDownLatch gate;
        final AtomicInteger inside = new AtomicInteger();
        final AtomicInteger mostInside = new AtomicInteger();

        Gated(final CountDownLatch gate)
        {
            this.gate = gate;
        }

        @Override
        public String name()
        {
            return "gated";
        }

        @Override
        public Outcome check(final Sample sample)
        {
            mostInside.accumulateAndGet(inside.incrementAndGet(), Math::max);
            try
            {
                return Outcome.of(gate.await(20, TimeUnit.SECONDS), "gated", "gate");
            }
            catch (final InterruptedException ex)
            {
                Thread.currentThread().interrupt();
                return Outcome.fail("gated", "interrupted");
            }
            finally
            {
                inside.decrementAndGet();
            }
        }

        @Override
        public ObjectNode describe()
        {
            return Checks.JSON.createObjectNode().put("type", name());
        }
    }

    @Test
    void shouldCheckUpToTheBoundOfOutputsAtOnceAndNoMore() throws Exception
    {
        final CountDownLatch gate = new CountDownLatch(1);
        final Gated check = new Gated(gate);
        final QualityRule rule = new QualityRule(null, List.of(check), null);
        final Thread opener = Thread.ofVirtual().start(() ->
        {
            // Open the gate once four outputs are being checked together: a serial evaluation never gets there.
            final long deadlineNs = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (check.inside.get() < 4 && System.nanoTime() < deadlineNs)
            {
                Thread.onSpinWait();
            }
            gate.countDown();
        });
        final QualityEvaluator.Result r = QualityEvaluator.evaluate(rule, samples(12),
            new QualityEvaluator.Bounds(4, () -> Long.MAX_VALUE));
        opener.join();
        assertEquals(4, check.mostInside.get(), "four at once, the bound, never more");
        assertEquals(12, r.report().checked());
        assertEquals(12, r.report().success());
        assertEquals(0, r.report().unjudged());
    }

    @Test
    void shouldCountWhatTheDeadlineLeftAsUnjudgedNeitherPassedNorFailed() throws Exception
    {
        final CountDownLatch never = new CountDownLatch(1);
        final AtomicLong deadlineNs = new AtomicLong(Long.MAX_VALUE);
        final AtomicInteger calls = new AtomicInteger();
        final Check firstTwoPass = new Gated(never)
        {
            @Override
            public Outcome check(final Sample sample)
            {
                if (calls.incrementAndGet() <= 2)
                {
                    return Outcome.of(true, "gated", "quick");
                }
                deadlineNs.compareAndSet(Long.MAX_VALUE, System.nanoTime()); // a signal's grace has run out
                return super.check(sample);
            }
        };
        final QualityRule rule = new QualityRule(null, List.of(firstTwoPass), null);
        final QualityEvaluator.Result r = QualityEvaluator.evaluate(rule, samples(6),
            new QualityEvaluator.Bounds(1, deadlineNs::get));
        never.countDown();
        assertEquals(2, r.report().checked(), "the two judged before the deadline");
        assertEquals(2, r.report().success());
        assertEquals(4, r.report().unjudged(), "the one cut short and the three never started");
        assertTrue(r.report().failuresByReason().isEmpty(), "an unjudged output is not a failure: " +
            r.report().failuresByReason());
        assertEquals(2, r.verdicts().size(), "only judged outputs have a verdict");
        assertFalse(QualityVerdict.unjudged().pass());
        assertTrue(QualityVerdict.unjudged().excluded() && QualityVerdict.unjudged().reasons().isEmpty());
    }
}
