package io.tokenclock.energy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.tokenclock.clock.ManualNanoClock;

/** RAPL over a fake powercap tree: package and DRAM zones, a core zone left out, and a counter that wraps. */
final class RaplSourceTest
{
    private static final long S = 1_000_000_000L;

    @TempDir
    Path root;

    private void zone(final String dir, final String name, final long rangeUj, final long energyUj) throws IOException
    {
        final Path z = Files.createDirectories(root.resolve(dir));
        Files.writeString(z.resolve("name"), name + "\n");
        Files.writeString(z.resolve("max_energy_range_uj"), rangeUj + "\n");
        energy(dir, energyUj);
    }

    private void energy(final String dir, final long energyUj) throws IOException
    {
        Files.writeString(root.resolve(dir).resolve("energy_uj"), energyUj + "\n");
    }

    @Test
    void shouldIntegratePackageAndDramAcrossAWrapAroundToTheJoule() throws IOException
    {
        final long range = 1_000_000_000L; // 1000 J
        zone("intel-rapl:0", "package-0", range, 900_000_000L);
        zone("intel-rapl:0:0", "core", range, 0);
        zone("intel-rapl:0:1", "dram", range, 0);
        final RaplSource rapl = new RaplSource(root, 100, new ManualNanoClock(0));
        assertNull(rapl.unavailable());

        final long[] packageUj = {900_000_000L, 950_000_000L, 10_000_000L, 60_000_000L};
        final long[] dramUj = {0, 5_000_000L, 10_000_000L, 15_000_000L};
        for (int k = 0; k < packageUj.length; k++)
        {
            energy("intel-rapl:0", packageUj[k]);
            energy("intel-rapl:0:1", dramUj[k]);
            rapl.poll(k * S);
        }
        final List<Channel> channels = rapl.channels(0);
        assertEquals(List.of("rapl:package-0", "rapl:dram-0"), channels.stream().map(Channel::id).toList());

        // 900 J -> 950 J -> (wrap) 1010 J -> 1060 J: 160 J over [0, 3 s].
        final Integral cpu = channels.get(0).integrate(0, 3 * S);
        assertEquals(160.0, cpu.joules(), 1e-6);
        assertEquals("counter", cpu.method());
        assertEquals(2e-6, cpu.uncertaintyJoules(), 1e-12, "the counter's 1 uJ step at each edge");
        assertEquals(15.0, channels.get(1).integrate(0, 3 * S).joules(), 1e-9);

        final EnergyMeasurement e = new PowerMeter(List.of(PowerSourceSpec.of(PowerSourceSpec.Kind.RAPL,
            root.toString())), List.of(rapl)).measure(0, 3 * S);
        assertEquals("CPU + DRAM", e.boundary());
        assertEquals(175.0, e.joules(), 1e-6);
        assertEquals("CPU + DRAM (CPU: rapl:package-0; DRAM: rapl:dram-0)", e.powerBoundary());
        assertEquals(175.0 / 3, e.averageWatts(), 1e-6);
    }

    @Test
    void shouldSayWhyWhenThereIsNoPowercapTree()
    {
        final RaplSource rapl = new RaplSource(root.resolve("absent"), 100, new ManualNanoClock(0));
        assertTrue(rapl.unavailable().startsWith("rapl: cannot list "), rapl.unavailable());

        final EnergyMeasurement e = new PowerMeter(List.of(PowerSourceSpec.of(PowerSourceSpec.Kind.RAPL,
            root.resolve("absent").toString())), List.of(rapl)).measure(0, S);
        assertNull(e.joules(), "an unreadable source is never a zero");
        assertNull(e.boundary());
        assertEquals(1, e.unavailable().size());
        assertTrue(e.unavailable().get(0).startsWith("rapl: unavailable: cannot list "), e.unavailable().get(0));
    }

    @Test
    void shouldFindNoZoneInATreeWithoutPackageOrDram() throws IOException
    {
        zone("intel-rapl:0:0", "core", 1000, 0);
        assertEquals("rapl: no package or dram zone under " + root,
            new RaplSource(root, 100, new ManualNanoClock(0)).unavailable());
    }
}
