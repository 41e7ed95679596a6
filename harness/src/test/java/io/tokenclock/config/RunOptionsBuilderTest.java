package io.tokenclock.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import io.tokenclock.load.ArrivalProcess;
import io.tokenclock.load.RateSchedule;
import org.junit.jupiter.api.Test;

final class RunOptionsBuilderTest
{
    private static RunOptionsBuilder open()
    {
        return RunOptions.builder().url("http://127.0.0.1:9/v1").rate(5.0);
    }

    @Test
    void shouldNameTheFlagWhenAFlagGaveTheValue()
    {
        final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class,
            () -> open().arrival(ArrivalProcess.Kind.POISSON).burstiness(0.5).build());
        assertEquals("--burstiness applies to gamma arrivals only (--arrival is poisson)", ex.getMessage());
    }

    @Test
    void shouldNameTheContractKeyWhenTheContractGaveTheValue()
    {
        final RunOptionsBuilder b = open().from(RunOptionsBuilder.Source.CONTRACT).burstiness(0.5)
            .from(RunOptionsBuilder.Source.FLAG).arrival(ArrivalProcess.Kind.POISSON);
        final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class, b::build);
        assertEquals("load.burstiness applies to gamma arrivals only (--arrival is poisson)", ex.getMessage());
    }

    @Test
    void shouldTakeABurstinessWithNoArrivalNamedAsGamma()
    {
        final RunOptions o = open().burstiness(0.5).build();
        assertEquals(ArrivalProcess.Kind.GAMMA, o.load().arrival());
    }

    @Test
    void shouldRejectConcurrencyAndRateTogether()
    {
        final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class,
            () -> open().concurrency(4).build());
        assertEquals("--concurrency (closed loop) and --rate (open loop) exclude each other; cap an open loop with " +
            "--max-concurrency", ex.getMessage());
    }

    @Test
    void shouldGiveARunWithNoEndOneHundredRequests()
    {
        assertEquals(100L, open().build().load().requests());
        assertNull(open().durationS(10.0).build().load().requests());
    }

    @Test
    void shouldFoldAConcurrencyRampIntoTheStages()
    {
        final RunOptions o = RunOptions.builder().url("http://127.0.0.1:9/v1").concurrency(8).durationS(10.0)
            .concurrencyRamp(new RateSchedule.Ramp(1, 8, 4, false)).build();
        assertEquals(8, o.load().concurrency());
        assertEquals(10.0, o.load().durationS(), 1e-9, "the measured window; the ramp comes before it");
        assertTrue(o.load().concurrencyStages().rampStages() > 0, "the ramp is stages of the schedule");
        assertEquals(8, o.maxInFlight());
    }

    @Test
    void shouldKeepBuiltOptionsApartFromTheBuilderThatMadeThem()
    {
        final List<RateSchedule.Stage> stages = new ArrayList<>(List.of(new RateSchedule.Stage(2, 5)));
        final RunOptionsBuilder b = RunOptions.builder().url("http://127.0.0.1:9/v1").stages(stages)
            .header("X-A", "1");
        final RunOptions first = b.build();
        b.stage(new RateSchedule.Stage(4, 5)).header("X-B", "2");
        stages.add(new RateSchedule.Stage(8, 5));
        assertEquals(1, first.load().stages().size());
        assertEquals(Map.of("X-A", "1"), first.target().headers());
        assertThrows(UnsupportedOperationException.class, () -> first.load().stages().add(null));
        assertEquals(2, b.build().load().stages().size());
    }

    @Test
    void shouldDeriveARepetitionWithoutTouchingTheOriginal()
    {
        final RunOptions base = open().outputDir(Path.of("out")).build();
        final RunOptions two = base.toBuilder().repetitionIndex(2).outputDir(Path.of("out", "rep-2")).build();
        assertEquals(0, base.state().repetitionIndex());
        assertEquals(Path.of("out"), base.output().outputDir());
        assertEquals(2, two.state().repetitionIndex());
        assertEquals(base.load().rate(), two.load().rate());
        assertNotSame(base.load(), two.load());
    }
}
