package io.tokenclock.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.tokenclock.clock.ManualNanoClock;
import io.tokenclock.clock.NanoClock;
import io.tokenclock.clock.SystemNanoClock;
import io.tokenclock.recording.ChunkRecords;
import io.tokenclock.transport.kernel.KernelStamps;

/** The factory picks the client by measurement.stamping, and says in one line why kernel stamps cannot be had. */
final class StreamClientsTest
{
    private static ClientSettings settings(final String url, final NanoClock clock, final Stamping stamping)
    {
        return new ClientSettings(Endpoint.parse(url, Endpoint.Api.CHAT), clock, new ChunkRecords(64 * 1024),
            Map.of(), 2, 1, RequestLimits.DEFAULT, false, TlsTrust.DEFAULT, stamping);
    }

    @Test
    void shouldKeepNettyWithUserStampsForHttpsAndSayWhy()
    {
        final List<String> notes = new ArrayList<>();
        try (StreamClient client = StreamClients.open(settings("https://127.0.0.1:9/v1", SystemNanoClock.INSTANCE,
            Stamping.KERNEL), notes::add))
        {
            assertTrue(client instanceof StreamingClient, "TLS stays on Netty");
            assertEquals("user", client.stamping().mode());
            assertEquals("kernel", client.stamping().requested());
            assertTrue(client.stamping().fallbackReason().startsWith("https"), client.stamping().fallbackReason());
            assertEquals(1, notes.size(), "one line");
            assertTrue(notes.get(0).contains("measurement.stamping = user"), notes.get(0));
        }
    }

    @Test
    void shouldRefuseKernelStampsOnATestClockAndStayQuietForUserStamps()
    {
        assertTrue(StreamClients.kernelUnavailable(settings("http://127.0.0.1:9/v1", new ManualNanoClock(0),
            Stamping.KERNEL)).contains("clock"));
        final List<String> notes = new ArrayList<>();
        try (StreamClient client = StreamClients.open(settings("http://127.0.0.1:9/v1", SystemNanoClock.INSTANCE,
            Stamping.USER), notes::add))
        {
            assertEquals("user", client.stamping().mode());
            assertEquals("user", client.stamping().requested());
            assertNull(client.stamping().fallbackReason());
            assertEquals(List.of(), notes);
        }
        if (KernelStamps.unavailableReason() == null)
        {
            assertNull(StreamClients.kernelUnavailable(settings("http://127.0.0.1:9/v1", SystemNanoClock.INSTANCE,
                Stamping.KERNEL)), "plain http on Linux x86-64 with the system clock: kernel stamps");
        }
    }
}
