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
import io.tokenclock.load.ConcurrencySchedule;
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

    private static RunOptionsBuilder closed()
    {
        return RunOptions.builder().url("http://127.0.0.1:9/v1").concurrency(4);
    }

    @Test
    void shouldRefuseAnArrivalBesideAClosedLoopNamingItAndSayingWhatToDo()
    {
        final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class,
            () -> closed().arrival(ArrivalProcess.Kind.POISSON).build());
        assertEquals("--concurrency (a closed loop) starts each request as another ends and holds its concurrency in " +
            "flight: --arrival applies only to an open loop at a rate (--rate); drop it, or set --rate R instead",
            ex.getMessage());
    }

    @Test
    void shouldNameEveryOpenLoopOptionGivenBesideAClosedLoopAndNoOther()
    {
        final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class,
            () -> closed().burstiness(2.0).maxConcurrency(8).build());
        assertTrue(ex.getMessage().contains(": --burstiness and --max-concurrency apply only to an open loop"),
            "the arrival that the burstiness inferred as gamma was not written, and is not named: " +
                ex.getMessage());
    }

    @Test
    void shouldNameTheScenarioOrTheStagesThatMadeTheClosedLoop()
    {
        assertTrue(assertThrows(IllegalArgumentException.class, () -> RunOptions.builder().url("http://h/v1")
            .scenario(Scenario.SINGLE_STREAM).maxConcurrency(2).build()).getMessage()
            .startsWith("--scenario single-stream (a closed loop) starts each request"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> RunOptions.builder().url("http://h/v1")
            .concurrencyStages(new ConcurrencySchedule(new int[] {2, 4}, new double[] {1, 1}))
            .arrival(ArrivalProcess.Kind.CONSTANT).build()).getMessage()
            .startsWith("--concurrency-stage (a closed loop) starts each request"));
    }

    @Test
    void shouldRefuseEveryOpenLoopOptionBesideUsersWhoseTurnsAndCountSetTheLoad()
    {
        final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class,
            () -> RunOptions.builder().url("http://h/v1").users(3).maxConcurrency(2).build());
        assertEquals("--users makes the arrivals from each user's turns and holds one request per user in flight: " +
            "--max-concurrency applies only to an open loop at a rate (--rate); drop it", ex.getMessage());
    }

    @Test
    void shouldRefuseAnArrivalBesideAFixedScheduleButLetItsRequestsInFlightBeCapped()
    {
        final RunOptionsBuilder trace = RunOptions.builder().url("http://h/v1").dataset(Path.of("t.jsonl"))
            .datasetFormat("mooncake").fixedSchedule(true);
        final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class,
            () -> trace.burstiness(2.0).build());
        assertEquals("--fixed-schedule takes its arrivals from the trace: --burstiness applies only to an open loop " +
            "at a rate (--rate); drop it (cap in-flight requests with --max-concurrency)", ex.getMessage());
        assertEquals(4, RunOptions.builder().url("http://h/v1").dataset(Path.of("t.jsonl")).datasetFormat("mooncake")
            .fixedSchedule(true).maxConcurrency(4).build().maxInFlight());
    }

    @Test
    void shouldJudgeNoOpenLoopOptionThatWasOnlyCarriedOverToAClosedLoop()
    {
        final RunOptions open = open().burstiness(2.0).maxConcurrency(8).build();
        final RunOptions closed = open.toBuilder().rate(null).concurrency(4).build();
        assertTrue(closed.closedLoop());
        assertEquals(4, closed.maxInFlight(), "a closed loop's concurrency is its cap");
    }

    @Test
    void shouldForgetAnUnsetOptionsValueAndThatItWasGiven()
    {
        final RunOptions o = closed().from(RunOptionsBuilder.Source.CONTRACT).arrival(ArrivalProcess.Kind.CONSTANT)
            .unset(RunOption.ARRIVAL).build();
        assertEquals(ArrivalProcess.Kind.POISSON, o.load().arrival());
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
