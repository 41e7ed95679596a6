package io.tokenclock.transport.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** Realtime to monotonic on a fake clock pair: the midpoint offset, its range, and a step of the realtime clock. */
final class ClockBridgeTest
{
    /** Realtime = monotonic + offset; each reading advances both by {@code tickNs}. */
    private static final class FakeClocks implements ClockBridge.Clocks
    {
        long monotonicNs = 1_000_000;
        long offsetNs = 1_700_000_000_000_000_000L;
        final long tickNs;

        FakeClocks(final long tickNs)
        {
            this.tickNs = tickNs;
        }

        @Override
        public long realtimeNs()
        {
            monotonicNs += tickNs;
            return monotonicNs + offsetNs;
        }

        @Override
        public long monotonicNs()
        {
            monotonicNs += tickNs;
            return monotonicNs;
        }
    }

    @Test
    void shouldConvertWithTheMidpointOffsetOfTheTwoRealtimeReadings()
    {
        final FakeClocks clocks = new FakeClocks(10);
        final ClockBridge bridge = new ClockBridge(clocks, 1_000_000);
        final long m = bridge.sample();
        // r1 = m - 10 + off, r2 = m + 10 + off: the midpoint is exactly m + off.
        assertEquals(clocks.offsetNs, bridge.offsetNs());
        assertEquals(m - 5_000, bridge.toMonotonicNs(m - 5_000 + clocks.offsetNs), "a stamp 5 us before the sample");
        assertEquals(0, bridge.steps());
        assertEquals(bridge.minOffsetNs(), bridge.maxOffsetNs());
    }

    @Test
    void shouldCountAStepOfTheRealtimeClockAndRecordTheOffsetRange()
    {
        final FakeClocks clocks = new FakeClocks(10);
        final ClockBridge bridge = new ClockBridge(clocks, 1_000_000);
        final long before = clocks.offsetNs;
        bridge.sample();
        clocks.offsetNs += 500; // a slew: well under the threshold
        bridge.sample();
        assertEquals(0, bridge.steps());
        clocks.offsetNs -= 2_000_000_000L; // settimeofday two seconds back
        final long m = bridge.sample();
        assertEquals(1, bridge.steps());
        assertEquals(before - 2_000_000_000L + 500, bridge.minOffsetNs());
        assertEquals(before + 500, bridge.maxOffsetNs());
        assertEquals(m, bridge.toMonotonicNs(m + clocks.offsetNs), "after the step, stamps use the new offset");
        bridge.sample();
        assertEquals(1, bridge.steps(), "one step, counted once");
        assertEquals(4, bridge.samples());
    }

    @Test
    void shouldKeepThePreviousOffsetWhenASampleWasPreemptedBetweenItsReadings()
    {
        final FakeClocks clocks = new FakeClocks(10);
        final ClockBridge bridge = new ClockBridge(new ClockBridge.Clocks()
        {
            private int calls;

            @Override
            public long realtimeNs()
            {
                // the third call is the second sample's first reading: the thread "sleeps" 4 ms after it
                final long r = clocks.realtimeNs();
                if (++calls == 3)
                {
                    clocks.monotonicNs += 4_000_000;
                }
                return r;
            }

            @Override
            public long monotonicNs()
            {
                return clocks.monotonicNs();
            }
        }, 1_000_000);
        bridge.sample();
        final long m = bridge.sample();
        assertEquals(clocks.offsetNs, bridge.offsetNs(), "the loose sample would have moved it by 2 ms");
        assertEquals(1, bridge.looseSamples());
        assertEquals(0, bridge.steps(), "and is no step");
        assertEquals(m, bridge.lastMonotonicNs(), "its monotonic reading is still the user stamp");
    }

    /** A clock pair whose readings are {@code tickNs} apart, plus a pause after the listed realtime calls (1-based). */
    private static ClockBridge.Clocks pausing(final FakeClocks clocks, final long pauseNs, final int... afterCalls)
    {
        return new ClockBridge.Clocks()
        {
            private int calls;

            @Override
            public long realtimeNs()
            {
                final long r = clocks.realtimeNs();
                calls++;
                for (final int c : afterCalls)
                {
                    clocks.monotonicNs += c == calls ? pauseNs : 0;
                }
                return r;
            }

            @Override
            public long monotonicNs()
            {
                return clocks.monotonicNs();
            }
        };
    }

    @Test
    void shouldTakeTheNarrowestOfSeveralReadingsForTheFirstSampleWhichHasNoOffsetToKeep()
    {
        final FakeClocks clocks = new FakeClocks(10);
        // the first two tries are preempted by 3 us and 5 us between their two realtime readings; the third is tight
        final ClockBridge bridge = new ClockBridge(new ClockBridge.Clocks()
        {
            private int calls;

            @Override
            public long realtimeNs()
            {
                final long r = clocks.realtimeNs();
                calls++;
                clocks.monotonicNs += calls == 1 ? 3_000 : calls == 3 ? 5_000 : 0;
                return r;
            }

            @Override
            public long monotonicNs()
            {
                return clocks.monotonicNs();
            }
        }, 1_000_000);
        bridge.sample();
        assertEquals(clocks.offsetNs, bridge.offsetNs(), "a preempted first try would have put 1.5 us into it");
        assertEquals(1, bridge.samples());
    }

    @Test
    void shouldCountASampleLooseThatIsFarWiderThanTheNarrowestSeenThoughUnderTheCap()
    {
        final FakeClocks clocks = new FakeClocks(10);
        // realtime call 3 is the second sample's first reading: 4 us pass before its monotonic reading
        final ClockBridge bridge = new ClockBridge(pausing(clocks, 4_000, 3), 1_000_000);
        bridge.sample();
        assertEquals(1_000, bridge.usableSpreadNs(), "a 20 ns spread: samples up to the tight bound are used");
        bridge.sample();
        assertEquals(clocks.offsetNs, bridge.offsetNs(), "a 4 us sample would have moved the offset by 2 us");
        assertEquals(1, bridge.looseSamples());
        bridge.sample();
        assertEquals(2, bridge.samples(), "the next tight sample is used");
    }

    @Test
    void shouldUseWiderSamplesWhereEveryClockReadIsSlow()
    {
        // 1.5 us per clock read (a clock without a vDSO): every spread is 3 us, and every sample must still be used
        final FakeClocks clocks = new FakeClocks(1_500);
        final ClockBridge bridge = new ClockBridge(clocks, 1_000_000);
        for (int i = 0; i < 5; i++)
        {
            bridge.sample();
        }
        assertEquals(5, bridge.samples());
        assertEquals(0, bridge.looseSamples());
        assertEquals(6_000, bridge.usableSpreadNs());
    }

    @Test
    void shouldReportNoRangeBeforeAnySample()
    {
        final ClockBridge bridge = new ClockBridge(new FakeClocks(1), 1_000_000);
        assertEquals(0, bridge.minOffsetNs());
        assertEquals(0, bridge.maxOffsetNs());
    }
}
