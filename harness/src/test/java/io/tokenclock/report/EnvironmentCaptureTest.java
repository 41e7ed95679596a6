package io.tokenclock.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** What the record captures about the machine and the network path is read, not assumed. */
@Timeout(30)
final class EnvironmentCaptureTest
{
    @Test
    void shouldParseNvidiaSmiCsvIntoOneMapPerGpu()
    {
        final List<Map<String, String>> gpus = EnvironmentCapture.parseGpuCsv(
            "0, NVIDIA H200, GPU-1234, 143771, 580.65.06, 700.00, 1980, 3201, Disabled, P0\n" +
            "1, NVIDIA H200, GPU-5678, 143771, 580.65.06, 700.00, 1980, 3201, Disabled, P0\n",
            EnvironmentCapture.GPU_QUERY.split(","));
        assertEquals(2, gpus.size());
        assertEquals("NVIDIA H200", gpus.get(0).get("name"));
        assertEquals("143771", gpus.get(1).get("memory.total"));
        assertEquals("700.00", gpus.get(0).get("power.limit"));
    }

    @Test
    void shouldMeasureConnectRoundTripsToALoopbackListener() throws IOException
    {
        try (ServerSocket listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress()))
        {
            final Map<String, Object> rtt = EnvironmentCapture.connectRtt("127.0.0.1", listener.getLocalPort(), 5);
            assertEquals(5, rtt.get("probes"));
            assertTrue((double)rtt.get("min_ms") > 0 && (double)rtt.get("min_ms") <= (double)rtt.get("p50_ms"));
            assertTrue((double)rtt.get("p50_ms") <= (double)rtt.get("max_ms"));
        }
    }

    @Test
    void shouldSayWhyWhenNothingListens()
    {
        final Map<String, Object> rtt = EnvironmentCapture.connectRtt("127.0.0.1", 1, 3);
        assertEquals(0, rtt.get("probes"));
        assertTrue(String.valueOf(rtt.get("error")).contains("Connect"), rtt.toString());
    }

    @Test
    void shouldReadTheClientHostFromTheMachine()
    {
        final Map<String, Object> client = EnvironmentCapture.client();
        assertEquals(Runtime.getRuntime().availableProcessors(), client.get("logical_cpus"));
        assertTrue(((String)client.get("jvm")).contains(System.getProperty("java.runtime.version")));
    }
}
