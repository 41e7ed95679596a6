package io.tokenclock.energy;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.TreeMap;
import java.util.regex.Pattern;

import io.tokenclock.clock.NanoClock;

/**
 * Linux RAPL through the powercap tree ({@code /sys/class/powercap}): each CPU package zone ({@code package-N}) and
 * each DRAM zone ({@code dram}), read from its {@code energy_uj} counter, which wraps at {@code max_energy_range_uj}
 * (a reading below the previous one adds the range). Core, uncore and platform ({@code psys}) zones are left out: the
 * first two are inside their package, the last overlaps everything. The counters measure the machine tokenclock runs
 * on: the server only when tokenclock runs on the server's host.
 * <p>
 * Since Linux 5.10 (the PLATYPUS side channel, CVE-2020-8694) {@code energy_uj} is readable by root only; an
 * administrator can grant read access (docs/COST_ENERGY.md), and until then this source is unavailable, with that
 * reason. Thread-safety: {@link #poll} is synchronized.
 */
final class RaplSource extends PolledSource
{
    private static final Pattern ZONE = Pattern.compile("intel-rapl:\\d+(:\\d+)?");
    private static final double J_PER_UJ = 1e-6;

    /** One zone and its wrap state. */
    private static final class Zone
    {
        final Path energy;
        final long rangeUj;
        final Channel channel;
        long lastUj = -1;
        long wrapsUj;

        Zone(final Path energy, final long rangeUj, final Channel channel)
        {
            this.energy = energy;
            this.rangeUj = rangeUj;
            this.channel = channel;
        }
    }

    private final Path root;
    private final List<Zone> zones = new ArrayList<>();
    private final String unavailable;

    RaplSource(final Path root, final long intervalMs, final NanoClock clock)
    {
        super("rapl", intervalMs, clock);
        this.root = root;
        this.unavailable = open();
    }

    private String open()
    {
        final TreeMap<String, Path> dirs = new TreeMap<>();
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(root))
        {
            for (final Path p : entries)
            {
                if (ZONE.matcher(p.getFileName().toString()).matches())
                {
                    dirs.put(p.getFileName().toString(), p);
                }
            }
        }
        catch (final IOException ex)
        {
            return "rapl: cannot list " + root + " (" + ex.getClass().getSimpleName() + "): no powercap on this " +
                "machine";
        }
        for (final Path dir : dirs.values())
        {
            final String failure = addZone(dir);
            if (failure != null)
            {
                return failure;
            }
        }
        return zones.isEmpty() ? "rapl: no package or dram zone under " + root : null;
    }

    private String addZone(final Path dir)
    {
        try
        {
            final String name = Files.readString(dir.resolve("name")).trim();
            final Component component = name.startsWith("package") ? Component.CPU :
                name.equals("dram") ? Component.DRAM : null;
            if (component == null)
            {
                return null;
            }
            final long range = Long.parseLong(Files.readString(dir.resolve("max_energy_range_uj")).trim());
            final String id = "rapl:" + (component == Component.DRAM ? "dram-" + packageOf(dir) : name);
            final Zone zone = new Zone(dir.resolve("energy_uj"), range, new Channel(id, component, J_PER_UJ));
            readUj(zone);
            zones.add(zone);
            return null;
        }
        catch (final AccessDeniedException ex)
        {
            return "rapl: " + ex.getFile() + " is readable by root only (Linux >= 5.10): an administrator can grant " +
                "read access, e.g. chmod o+r or setfacl -m u:USER:r on /sys/class/powercap/intel-rapl:*/energy_uj, " +
                "or a udev rule (docs/COST_ENERGY.md)";
        }
        catch (final IOException | NumberFormatException ex)
        {
            return "rapl: cannot read " + dir + ": " + ex.getClass().getSimpleName() + " " + ex.getMessage();
        }
    }

    private static String packageOf(final Path dir)
    {
        final String name = dir.getFileName().toString();
        final String[] parts = name.split(":");
        return parts.length > 1 ? parts[1] : "0";
    }

    private static long readUj(final Zone zone) throws IOException
    {
        return Long.parseLong(Files.readString(zone.energy).trim());
    }

    @Override
    synchronized void poll(final long nowNs)
    {
        for (final Zone z : zones)
        {
            try
            {
                final long uj = readUj(z);
                if (z.lastUj >= 0 && uj < z.lastUj)
                {
                    z.wrapsUj += z.rangeUj;
                }
                z.lastUj = uj;
                z.channel.addEnergy(nowNs, (z.wrapsUj + uj) * J_PER_UJ);
            }
            catch (final IOException | NumberFormatException ex)
            {
                z.channel.note("rapl: cannot read " + z.energy + ": " + ex.getClass().getSimpleName());
            }
        }
    }

    @Override
    public String describe()
    {
        return String.format(Locale.ROOT, "Linux RAPL energy counters under %s (this machine's CPU packages and " +
            "DRAM)", root);
    }

    @Override
    public List<Channel> channels(final long windowStartNs)
    {
        final List<Channel> list = new ArrayList<>();
        zones.forEach(z -> list.add(z.channel));
        return list;
    }

    @Override
    public String unavailable()
    {
        return unavailable;
    }
}
