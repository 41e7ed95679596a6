package io.tokenclock.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

/** The record block's SERVER section: the server's own queue and latency beside the client's, from the record. */
final class ServerBlockTest
{
    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void shouldShowTheServersQueueAndItsShareOfTheClientsLatency() throws Exception
    {
        final JsonNode record = JSON.readTree("""
            {"report": {"server": {"engine": "vllm", "bracket": {"scrapes_in_window": 41},
              "running": {"source": "vllm:num_requests_running", "scrapes": 41, "mean": 13.5, "max": 25.0},
              "waiting": {"source": "vllm:num_requests_waiting", "scrapes": 41, "mean": 0.25, "max": 1.0},
              "kv_usage": null,
              "latency": {"ttft": {"engine_mean_ms": 49.5, "client_mean_ms": 50.0, "outside_engine_share": 0.01}}}}}
            """);
        final StringBuilder sb = new StringBuilder();

        ServerMetricsReport.block(record.path("report").path("server"), sb);

        assertEquals("""
            SERVER
              engine               vllm, 41 scrapes in the window
              running              mean 13.5, max 25.0 (vllm:num_requests_running)
              waiting              mean 0.250, max 1.00 (vllm:num_requests_waiting)
              engine ttft          mean 49.500 ms vs client 50.000 ms (1.0% outside the engine)
            """, sb.toString());
    }

    @Test
    void shouldLeaveTheSectionOutWhenTheServerWasNotScraped() throws Exception
    {
        final StringBuilder sb = new StringBuilder();
        ServerMetricsReport.block(JSON.readTree("{\"report\": {\"server\": null}}").path("report").path("server"), sb);
        ServerMetricsReport.block(null, sb);
        assertFalse(sb.toString().contains("SERVER"));
    }
}
