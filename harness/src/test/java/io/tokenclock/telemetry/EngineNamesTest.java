package io.tokenclock.telemetry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;

import org.junit.jupiter.api.Test;

import io.tokenclock.telemetry.EngineNames.Field;
import io.tokenclock.telemetry.EngineNames.Latency;

/** Each engine's names mapped to the common fields, on the expositions of {@link ExpositionTest}. */
final class EngineNamesTest
{
    private static CommonFields map(final String resource) throws IOException
    {
        return EngineNames.map(Exposition.parse(ExpositionTest.resource(resource)));
    }

    @Test
    void shouldMapVllmSummingDataParallelEnginesAndTakingTheFullerKvCache() throws IOException
    {
        final CommonFields c = map("vllm.prom");

        assertEquals("vllm", c.engine());
        assertEquals(22.0, c.value(Field.RUNNING));
        assertEquals(3.0, c.value(Field.WAITING));
        assertEquals(0.41, c.value(Field.KV_USAGE));
        assertEquals(40_000.0, c.value(Field.PREFIX_CACHE_HITS));
        assertEquals(80_000.0, c.value(Field.PREFIX_CACHE_QUERIES));
        assertEquals("vllm:prefix_cache_hits_total", c.sources().get(Field.PREFIX_CACHE_HITS));
        assertTrue(Double.isNaN(c.value(Field.CACHE_HIT_RATE)), "vLLM V1 exports counters, not a rate");
        assertEquals(100.0, c.latencies().get(Latency.TTFT).count());
        assertEquals(0.125, c.latencies().get(Latency.TTFT).mean(), 1e-12);
        assertEquals("vllm:request_time_per_output_token_seconds", c.latencySources().get(Latency.TPOT));
        assertNull(c.latencies().get(Latency.ITL));
    }

    @Test
    void shouldMapSglang() throws IOException
    {
        final CommonFields c = map("sglang.prom");

        assertEquals("sglang", c.engine());
        assertEquals(7.0, c.value(Field.RUNNING));
        assertEquals(5.0, c.value(Field.WAITING));
        assertEquals(0.28, c.value(Field.KV_USAGE));
        assertEquals(0.0075, c.value(Field.CACHE_HIT_RATE));
        assertEquals(7_557_572.0, c.value(Field.GENERATION_TOKENS));
        assertEquals(0.15, c.latencies().get(Latency.TTFT).mean(), 1e-12);
    }

    @Test
    void shouldMapTgiWithoutAKvCacheGauge() throws IOException
    {
        final CommonFields c = map("tgi.prom");

        assertEquals("tgi", c.engine());
        assertEquals(16.0, c.value(Field.RUNNING));
        assertEquals(4.0, c.value(Field.WAITING));
        assertTrue(Double.isNaN(c.value(Field.KV_USAGE)));
        assertEquals(199_872.0, c.value(Field.GENERATION_TOKENS));
        assertEquals(0.02, c.latencies().get(Latency.TPOT).mean(), 1e-12);
        assertEquals("tgi_request_queue_duration", c.latencySources().get(Latency.QUEUE));
    }

    @Test
    void shouldMapLlamaCppServer() throws IOException
    {
        final CommonFields c = map("llamacpp.prom");

        assertEquals("llama.cpp", c.engine());
        assertEquals(2.0, c.value(Field.RUNNING));
        assertEquals(1.0, c.value(Field.WAITING));
        assertEquals(0.63, c.value(Field.KV_USAGE));
        assertEquals(23_210.0, c.value(Field.GENERATION_TOKENS));
        assertEquals(96_641.0, c.value(Field.PROMPT_TOKENS));
        assertTrue(c.latencies().isEmpty());
    }

    @Test
    void shouldPreferTheCurrentNameOverTheDeprecatedOne()
    {
        final CommonFields c = EngineNames.map(Exposition.parse(
            "vllm:gpu_cache_usage_perc 0.9\nvllm:kv_cache_usage_perc 0.2\n"));

        assertEquals(0.2, c.value(Field.KV_USAGE));
        assertEquals("vllm:kv_cache_usage_perc", c.sources().get(Field.KV_USAGE));
    }

    @Test
    void shouldCallAnExpositionWithoutKnownNamesUnknown()
    {
        final CommonFields c = EngineNames.map(Exposition.parse("process_cpu_seconds_total 3\n"));

        assertEquals("unknown", c.engine());
        assertTrue(c.values().isEmpty());
    }
}
