package io.tokenclock.energy;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

import io.tokenclock.clock.NanoClock;
import io.tokenclock.telemetry.Exposition;
import io.tokenclock.telemetry.MetricsFetcher;
import io.tokenclock.telemetry.Sample;
import io.tokenclock.telemetry.Scrape;

/**
 * NVIDIA GPUs through a DCGM exporter's Prometheus endpoint (any machine's): per GPU (label {@code gpu}, with
 * {@code Hostname} when the exporter sets it), {@code DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION} (mJ, a counter) where
 * exported, and {@code DCGM_FI_DEV_POWER_USAGE} (W). Each scrape is stamped on the run's clock when its answer is in;
 * the exporter refreshes its values every collection interval ({@code -c}, 30 s by default), which must be no longer
 * than the scrape interval for the stamps to mean anything (docs/COST_ENERGY.md). Parsed by the telemetry package's
 * Prometheus parser.
 * <p>
 * Thread-safety: {@link #poll} is synchronized.
 */
final class DcgmSource extends PolledSource
{
    static final String ENERGY = "DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION";
    static final String POWER = "DCGM_FI_DEV_POWER_USAGE";
    private static final double J_PER_MJ = 1e-3;

    private final String shownUrl;
    private final MetricsFetcher fetcher;
    private final Map<String, Channel> channels = new TreeMap<>();
    private String lastError;

    /**
     * @param shownUrl the endpoint as the record may show it (credentials redacted).
     * @param fetcher  fetches the endpoint's page.
     */
    DcgmSource(final String shownUrl, final MetricsFetcher fetcher, final long intervalMs, final NanoClock clock)
    {
        super("dcgm", intervalMs, clock);
        this.shownUrl = shownUrl;
        this.fetcher = fetcher;
    }

    @Override
    synchronized void poll(final long ignoredNs)
    {
        final MetricsFetcher.Response r;
        try
        {
            r = fetcher.fetch();
        }
        catch (final IOException ex)
        {
            lastError = "dcgm: " + shownUrl + ": " + ex.getClass().getSimpleName();
            return;
        }
        // Stamped when the answer is in: the exporter's values are at least as old as that.
        final long nowNs = clock.nanoTime();
        if (r.status() != 200)
        {
            lastError = "dcgm: " + shownUrl + " answered HTTP " + r.status();
            return;
        }
        take(nowNs, Exposition.parse(r.body(), 0, r.body().length));
    }

    /** Takes one scrape's figures, stamped {@code nowNs}. */
    synchronized void take(final long nowNs, final Scrape scrape)
    {
        boolean any = false;
        for (final Sample s : scrape.named(ENERGY))
        {
            channel(s).addEnergy(nowNs, s.value() * J_PER_MJ);
            any = true;
        }
        for (final Sample s : scrape.named(POWER))
        {
            channel(s).addPower(nowNs, s.value());
            any = true;
        }
        if (!any)
        {
            lastError = "dcgm: " + shownUrl + " exports neither " + ENERGY + " nor " + POWER;
        }
    }

    private Channel channel(final Sample s)
    {
        final String host = s.labels().get("Hostname");
        final String id = "dcgm:" + (host == null ? "" : host + "/") + "gpu" + s.labels().getOrDefault("gpu", "?");
        return channels.computeIfAbsent(id, k -> new Channel(k, Component.ACCELERATOR, J_PER_MJ));
    }

    @Override
    public String describe()
    {
        return String.format(Locale.ROOT, "DCGM exporter at %s (%s where exported, else %s)", shownUrl, ENERGY,
            POWER);
    }

    @Override
    public synchronized List<Channel> channels(final long windowStartNs)
    {
        return new ArrayList<>(channels.values());
    }

    @Override
    public synchronized String unavailable()
    {
        return channels.isEmpty() && lastError != null ? lastError : null;
    }
}
