package io.tokenclock.energy;

import java.io.IOException;
import java.io.OutputStream;
import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;

import io.tokenclock.clock.NanoClock;
import io.tokenclock.secrets.Redaction;
import io.tokenclock.telemetry.MetricsFetcher;
import io.tokenclock.util.WholeFile;

/**
 * A run's power sources, together: opened from their specs, started before the measured window and stopped after
 * it, then integrated over exactly the window ({@link #measure}) and their samples written to {@value #FILE}.
 * <p>
 * Thread-safety: every method from one supervising thread; each source samples on its own thread.
 */
public final class PowerMeter implements AutoCloseable
{
    /** The samples' file in the run directory (format: docs/RESULTS.md). */
    public static final String FILE = "power.jsonl";
    /** The connect and read timeout of one DCGM scrape, ms. */
    private static final int DCGM_TIMEOUT_MS = 2000;

    private final List<PowerSourceSpec> specs;
    private final List<PowerSource> sources;

    PowerMeter(final List<PowerSourceSpec> specs, final List<PowerSource> sources)
    {
        this.specs = List.copyOf(specs);
        this.sources = List.copyOf(sources);
    }

    /** @return the sources of {@code specs}, opened (not started); a source that cannot be read says so later. */
    public static PowerMeter open(final List<PowerSourceSpec> specs, final NanoClock clock)
    {
        final List<PowerSource> sources = new ArrayList<>();
        for (final PowerSourceSpec s : specs)
        {
            sources.add(source(s, clock));
        }
        return new PowerMeter(specs, sources);
    }

    private static PowerSource source(final PowerSourceSpec s, final NanoClock clock)
    {
        return switch (s.kind())
        {
            case RAPL -> new RaplSource(Path.of(s.location()), s.intervalMs(), clock);
            case NVML -> new NvmlSource(s.devices(), s.intervalMs(), clock);
            case NVIDIA_SMI -> new NvidiaSmiSource(s.location(), System.getenv("PATH"), s.devices(), s.intervalMs(),
                clock);
            case DCGM -> new DcgmSource(Redaction.url(s.location()), MetricsFetcher.http(URI.create(s.location()
                .trim()), null, true, DCGM_TIMEOUT_MS), s.intervalMs(), clock);
            case METER -> new MeterCsvSource(Path.of(s.location()), s.align(), s.offsetS(), clock);
        };
    }

    /** Starts every source that can be read; {@code atThreadStart} runs first on each sampling thread. */
    public void start(final Runnable atThreadStart)
    {
        for (final PowerSource s : sources)
        {
            s.start(atThreadStart);
        }
    }

    /** Takes each source's last reading and stops it. */
    public void stop()
    {
        for (final PowerSource s : sources)
        {
            s.stop();
        }
    }

    /** @return the energy over {@code [startNs, endNs]} on the run's clock, once stopped. */
    public EnergyMeasurement measure(final long startNs, final long endNs)
    {
        final List<String> configured = new ArrayList<>();
        final List<EnergyMeasurement.Part> parts = new ArrayList<>();
        final List<String> unavailable = new ArrayList<>();
        final List<String> synthetic = new ArrayList<>();
        for (int i = 0; i < sources.size(); i++)
        {
            final PowerSource source = sources.get(i);
            final PowerSourceSpec spec = specs.get(i);
            configured.add(source.describe() + (spec.kind() == PowerSourceSpec.Kind.METER ? "" :
                ", every " + spec.intervalMs() + " ms"));
            final List<Channel> channels = source.unavailable() == null ? source.channels(startNs) : List.of();
            final String why = source.unavailable();
            if (why != null || channels.isEmpty())
            {
                unavailable.add(spec.kind().word() + ": unavailable: " + (why != null ? stripKind(why, spec) :
                    "no readings"));
                continue;
            }
            for (final Channel c : channels)
            {
                parts.add(new EnergyMeasurement.Part(c.id(), c.component(), true, c.integrate(startNs, endNs)));
            }
            if (source.synthetic() != null)
            {
                synthetic.add(source.synthetic());
            }
        }
        return EnergyMeasurement.of(configured, parts, unavailable, (endNs - startNs) / 1e9).withSynthetic(synthetic);
    }

    private static String stripKind(final String why, final PowerSourceSpec spec)
    {
        final String prefix = spec.kind().word() + ": ";
        return why.startsWith(prefix) ? why.substring(prefix.length()) : why;
    }

    /** Writes every sample kept, one JSON line each, stamped on the run's clock ({@code t_ns}). */
    public void writeSamples(final Path file, final long windowStartNs) throws IOException
    {
        WholeFile.write(file, out -> writeSamples(out, windowStartNs));
    }

    private void writeSamples(final OutputStream out, final long windowStartNs) throws IOException
    {
        try (JsonGenerator g = new JsonFactory().createGenerator(out, JsonEncoding.UTF8))
        {
            g.setRootValueSeparator(null);
            for (final PowerSource source : sources)
            {
                if (source.unavailable() != null)
                {
                    continue;
                }
                for (final Channel c : source.channels(windowStartNs))
                {
                    write(g, c, c.counterNs(), c.counterJ(), "joules");
                    write(g, c, c.powerNs(), c.powerW(), "watts");
                }
            }
        }
    }

    private static void write(final JsonGenerator g, final Channel c, final long[] tNs, final double[] values,
        final String field) throws IOException
    {
        for (int i = 0; i < tNs.length; i++)
        {
            g.writeStartObject();
            g.writeStringField("channel", c.id());
            g.writeStringField("component", c.component().word());
            g.writeNumberField("t_ns", tNs[i]);
            g.writeNumberField(field, values[i]);
            g.writeEndObject();
            g.writeRaw('\n');
        }
    }

    @Override
    public void close()
    {
        for (final PowerSource s : sources)
        {
            s.close();
        }
    }
}
