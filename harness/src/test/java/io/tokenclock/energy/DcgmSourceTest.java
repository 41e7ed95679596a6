package io.tokenclock.energy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.io.IOException;
import java.net.URI;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import io.tokenclock.clock.ManualNanoClock;
import io.tokenclock.telemetry.MetricsFetcher;
import io.tokenclock.testing.ScriptedSseServer;

/** A fake DCGM exporter on loopback answers three known pages; each scrape is stamped by a hand-set clock. */
@Timeout(30)
final class DcgmSourceTest
{
    private static final long S = 1_000_000_000L;

    /** GPU 0 exports its energy counter (mJ) and power; GPU 1 exports power only. */
    private static final String[] PAGES = {
        page(1_000_000, 480, 300),
        page(1_100_000, 520, 300),
        page(1_250_000, 500, 330),
    };

    private static String page(final long gpu0Mj, final double gpu0W, final double gpu1W)
    {
        return "# HELP DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION Total energy consumption since boot (in mJ).\n" +
            "# TYPE DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION counter\n" +
            "DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION{gpu=\"0\",UUID=\"GPU-a\",Hostname=\"node1\"} " + gpu0Mj + "\n" +
            "# TYPE DCGM_FI_DEV_POWER_USAGE gauge\n" +
            "DCGM_FI_DEV_POWER_USAGE{gpu=\"0\",UUID=\"GPU-a\",Hostname=\"node1\"} " + gpu0W + "\n" +
            "DCGM_FI_DEV_POWER_USAGE{gpu=\"1\",UUID=\"GPU-b\",Hostname=\"node1\"} " + gpu1W + "\n";
    }

    @Test
    void shouldPreferTheEnergyCounterAndIntegratePowerElseToTheJoule() throws IOException
    {
        final AtomicInteger served = new AtomicInteger();
        try (ScriptedSseServer server = new ScriptedSseServer())
        {
            server.on("/metrics", x ->
                ScriptedSseServer.reply(x, 200, PAGES[Math.min(served.getAndIncrement(), PAGES.length - 1)]));
            server.start();
            final String url = server.baseUrl() + "/metrics";
            final ManualNanoClock clock = new ManualNanoClock(0);
            final DcgmSource dcgm = new DcgmSource(url, MetricsFetcher.http(URI.create(url), null, true, 5000), 1000,
                clock);
            for (int k = 0; k < PAGES.length; k++)
            {
                clock.set(k * S);
                dcgm.poll(k * S);
            }
            assertNull(dcgm.unavailable());
            final List<Channel> channels = dcgm.channels(0);
            assertEquals(List.of("dcgm:node1/gpu0", "dcgm:node1/gpu1"), channels.stream().map(Channel::id).toList());
            // GPU 0: 1,250,000 mJ - 1,000,000 mJ = 250 J (the counter, not the power samples' 1010 J).
            final Integral gpu0 = channels.get(0).integrate(0, 2 * S);
            assertEquals("counter", gpu0.method());
            assertEquals(250.0, gpu0.joules(), 1e-9);
            // GPU 1: 0.5 x (300 + 300) x 1 + 0.5 x (300 + 330) x 1 = 615 J.
            final Integral gpu1 = channels.get(1).integrate(0, 2 * S);
            assertEquals("trapezoid", gpu1.method());
            assertEquals(615.0, gpu1.joules(), 1e-9);
        }
    }

    @Test
    void shouldBeUnavailableWithTheReasonWhenTheExporterDoesNotAnswer()
    {
        final DcgmSource dcgm = new DcgmSource("http://127.0.0.1:9/metrics", () ->
        {
            throw new IOException("refused");
        }, 1000, new ManualNanoClock(0));
        dcgm.poll(0);
        assertEquals("dcgm: http://127.0.0.1:9/metrics: IOException", dcgm.unavailable());
    }
}
