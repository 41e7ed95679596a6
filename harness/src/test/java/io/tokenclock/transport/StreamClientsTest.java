package io.tokenclock.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

import io.tokenclock.api.Api;
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
        return new ClientSettings(Endpoint.parse(url, Api.CHAT), clock, new ChunkRecords(64 * 1024),
            Map.of(), 2, 1, RequestLimits.DEFAULT, false, TlsTrust.DEFAULT, stamping, null);
    }

    @Test
    void shouldServeHttpsWithTheKernelClientWhereKernelStampsExist()
    {
        final ClientSettings https = settings("https://127.0.0.1:9/v1", SystemNanoClock.INSTANCE, Stamping.KERNEL);
        assertEquals(KernelStamps.unavailableReason(), StreamClients.kernelUnavailable(https),
            "https is no reason to leave the kernel-stamped client");
        final List<String> notes = new ArrayList<>();
        try (StreamClient client = StreamClients.open(https, notes::add))
        {
            assertEquals("kernel", client.stamping().requested());
            if (KernelStamps.unavailableReason() == null)
            {
                assertTrue(client instanceof KernelStreamClient, "TLS on the kernel-stamped client");
                assertEquals("kernel", client.stamping().transport());
                assertTrue(client.transport().contains("SSLEngine"), client.transport());
                assertEquals(List.of(), notes);
            }
            else
            {
                assertTrue(client instanceof StreamingClient);
                assertEquals(1, notes.size(), "one line");
            }
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

    @Test
    void shouldPickTheTransportByStampingAndRecordNettyWhereItFellBack()
    {
        assertEquals("kernel", StreamClients.transport(Stamping.KERNEL).name());
        assertEquals("netty", StreamClients.transport(Stamping.USER).name());
        final List<String> notes = new ArrayList<>();
        try (StreamClient client = StreamClients.open(settings("http://127.0.0.1:9/v1", new ManualNanoClock(0),
            Stamping.KERNEL), notes::add))
        {
            assertTrue(client instanceof StreamingClient);
            assertEquals("netty", client.stamping().transport(), "the transport that read, not the one asked");
            assertEquals("user", client.stamping().mode());
            assertEquals("kernel", client.stamping().requested());
            assertTrue(client.stamping().fallbackReason().contains("clock"), client.stamping().fallbackReason());
            assertEquals(1, notes.size(), "one line: " + notes);
        }
    }

    @Test
    void shouldSayInOneLineAndRecordWhyThereIsNoPacketTap()
    {
        final ClientSettings user = new ClientSettings(Endpoint.parse("http://127.0.0.1:9/v1", Api.CHAT),
            SystemNanoClock.INSTANCE, new ChunkRecords(64 * 1024), Map.of(), 2, 1, RequestLimits.DEFAULT, false,
            TlsTrust.DEFAULT, Stamping.USER, PacketTapChoice.parse("lo"));
        final List<String> notes = new ArrayList<>();
        try (StreamClient client = StreamClients.open(user, notes::add))
        {
            final StampingReport.PacketTap tap = client.stamping().packetTap();
            assertEquals("lo", tap.interfaceName());
            assertTrue(tap.error().contains("user stamping"), tap.error());
            assertEquals(0, tap.reads());
            assertEquals(List.of("stamping: no packet tap (" + tap.error() + ")"), notes, "one line");
        }
        Assumptions.assumeTrue(KernelStamps.unavailableReason() == null, "the kernel client's half: kernel stamps: " +
            KernelStamps.unavailableReason());
        final ClientSettings kernel = new ClientSettings(user.endpoint(), SystemNanoClock.INSTANCE,
            new ChunkRecords(64 * 1024), Map.of(), 2, 1, RequestLimits.DEFAULT, false, TlsTrust.DEFAULT,
            Stamping.KERNEL, PacketTapChoice.parse("no-such-if0"));
        notes.clear();
        try (StreamClient client = StreamClients.open(kernel, notes::add))
        {
            final StampingReport.PacketTap tap = client.stamping().packetTap();
            assertEquals("kernel", client.stamping().mode(), "the run goes on with the socket's stamps");
            assertTrue(tap.error().contains("no network interface named 'no-such-if0'"), tap.error());
            assertEquals(1, notes.size(), "one line: " + notes);
            assertTrue(notes.get(0).startsWith("stamping: no packet tap ("), notes.get(0));
        }
    }
}
