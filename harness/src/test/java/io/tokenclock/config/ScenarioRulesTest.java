package io.tokenclock.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

import io.tokenclock.load.ArrivalProcess;

/**
 * {@code --scenario} presets fill the load they stand for and refuse what contradicts them; {@code --min-samples-for}
 * sizes the request count from the order-statistic interval (p90: 36 requests, p99: 368, p99.9: 3,688).
 */
final class ScenarioRulesTest
{
    private static RunOptionsBuilder target()
    {
        return RunOptions.builder().url("http://127.0.0.1:9/v1");
    }

    private static String refusal(final RunOptionsBuilder b)
    {
        return assertThrows(IllegalArgumentException.class, b::build).getMessage();
    }

    @Test
    void shouldRunSingleStreamAsOneRequestAtATimeSizedForItsP90()
    {
        final RunOptions o = target().scenario(Scenario.SINGLE_STREAM).build();

        assertTrue(o.closedLoop());
        assertEquals(1, o.load().concurrency());
        assertEquals(36L, o.load().requests());
        assertEquals("p90", o.load().minSamplesFor().label());
    }

    @Test
    void shouldRunServerAsPoissonAtTheGivenRateSizedForItsP99()
    {
        final RunOptions o = target().scenario(Scenario.SERVER).rate(4.0).build();

        assertEquals(ArrivalProcess.Kind.POISSON, o.load().arrival());
        assertEquals(4.0, o.load().rate());
        assertEquals(368L, o.load().requests());
    }

    @Test
    void shouldPutEveryOfflineRequestInFlightAtOnce()
    {
        final RunOptions o = target().scenario(Scenario.OFFLINE).requests(500L).build();

        assertEquals(500, o.load().concurrency());
        assertEquals(500L, o.load().requests());
        assertNull(o.load().minSamplesFor(), "offline is judged on throughput");
        assertEquals(100, target().scenario(Scenario.OFFLINE).build().load().concurrency(), "the default 100");
    }

    @Test
    void shouldRefuseALoadThatContradictsTheScenarioNamingBoth()
    {
        assertEquals("--scenario single-stream sends one request at a time: drop --rate and --concurrency",
            refusal(target().scenario(Scenario.SINGLE_STREAM).concurrency(8)));
        assertEquals("--scenario server offers Poisson arrivals at a rate: set --rate R, not --concurrency",
            refusal(target().scenario(Scenario.SERVER)));
        assertEquals("--scenario server arrivals are Poisson: drop --arrival and --burstiness",
            refusal(target().scenario(Scenario.SERVER).rate(2.0).arrival(ArrivalProcess.Kind.CONSTANT)));
        assertTrue(refusal(target().scenario(Scenario.OFFLINE).durationS(30.0))
            .startsWith("--scenario offline puts every measured request in flight at once"));
        assertTrue(refusal(target().scenario(Scenario.SERVER).rate(2.0).users(3))
            .startsWith("--scenario server sets the load itself"));
    }

    @Test
    void shouldSizeTheRequestCountForTheNamedPercentile()
    {
        assertEquals(3688L, target().concurrency(2).minSamplesFor(TailQuantile.parse("p99.9")).build().load()
            .requests());
        assertEquals(1000L, target().concurrency(2).requests(1000L).minSamplesFor(TailQuantile.parse("99")).build()
            .load().requests(), "more than enough is kept");
    }

    @Test
    void shouldRefuseTooFewRequestsOrADurationForAPercentile()
    {
        assertEquals("--requests 200 is fewer than the 368 requests a p99 needs for its 95% interval " +
            "(--min-samples-for p99)",
            refusal(target().concurrency(2).requests(200L).minSamplesFor(TailQuantile.parse("p99"))));
        assertTrue(refusal(target().rate(2.0).durationS(10.0).minSamplesFor(TailQuantile.parse("p99")))
            .startsWith("--min-samples-for p99 ends the run after 368 measured requests: drop --duration"));
    }

    @Test
    void shouldParsePercentilesAsUsersWriteThem()
    {
        assertEquals(0.99, TailQuantile.parse("p99").quantile(), 1e-12);
        assertEquals(0.999, TailQuantile.parse("P99.9").quantile(), 1e-12);
        assertEquals("p99.9", TailQuantile.parse("99.9").label());
        assertThrows(IllegalArgumentException.class, () -> TailQuantile.parse("p100"));
        assertThrows(IllegalArgumentException.class, () -> TailQuantile.parse("ninety"));
        assertEquals(Scenario.SINGLE_STREAM, Scenario.parse("Single-Stream"));
        assertThrows(IllegalArgumentException.class, () -> Scenario.parse("multi-stream"));
    }
}
