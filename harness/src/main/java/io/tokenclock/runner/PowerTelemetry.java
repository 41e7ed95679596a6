package io.tokenclock.runner;

import java.io.IOException;
import java.nio.file.Path;

import io.tokenclock.clock.NanoClock;
import io.tokenclock.config.RunOptions;
import io.tokenclock.energy.EnergyMeasurement;
import io.tokenclock.energy.PowerMeter;

/**
 * The run's power sources ({@code --power}, contract {@code power}), or nothing when none is configured or the run is
 * the harness's own self-warm-up. Started just before the load generator, stopped after the drain, so that their
 * readings bracket the window; then integrated over exactly the window (warm-up excluded), and every sample written
 * to {@code power.jsonl}. The sampling threads keep the normal priority: each wakes once per interval (100 ms by
 * default) for a read of a few microseconds, and their stamps are only as good as their wake-ups.
 */
final class PowerTelemetry implements AutoCloseable
{
    private final PowerMeter meter;
    private final Path file;

    private PowerTelemetry(final PowerMeter meter, final Path file)
    {
        this.meter = meter;
        this.file = file;
    }

    static PowerTelemetry open(final RunOptions options, final NanoClock clock, final Path outputDir)
    {
        if (options.power().sources().isEmpty())
        {
            return new PowerTelemetry(null, null);
        }
        return new PowerTelemetry(PowerMeter.open(options.power().sources(), clock),
            outputDir.resolve(PowerMeter.FILE));
    }

    /** Starts every source that can be read: each takes its first reading at once. */
    void start()
    {
        if (meter != null)
        {
            meter.start(() -> {});
        }
    }

    /** Takes each source's last reading and stops them. */
    void stop()
    {
        if (meter != null)
        {
            meter.stop();
        }
    }

    /**
     * Writes {@code power.jsonl} and integrates over the window; once stopped.
     *
     * @return the energy over {@code [startNs, endNs]}, or null when no source is configured.
     */
    EnergyMeasurement measure(final long startNs, final long endNs) throws IOException
    {
        if (meter == null)
        {
            return null;
        }
        meter.writeSamples(file, startNs);
        return meter.measure(startNs, endNs);
    }

    @Override
    public void close()
    {
        if (meter != null)
        {
            meter.close();
        }
    }
}
