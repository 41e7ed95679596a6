package io.tokenclock.energy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Locale;

import io.tokenclock.clock.NanoClock;

/**
 * An external wall-power meter's samples, from a CSV file it writes (read when the run stops): one sample a line,
 * {@code TIMESTAMP,WATTS}; blank lines and lines starting with {@code #} skipped, a first line that does not parse
 * taken as the header. Timestamps are placed on the run's clock by {@link PowerSourceSpec.Align}:
 * <ul>
 * <li>{@code wall}: ISO-8601 instants ({@code 2025-05-01T12:00:00.250Z}) or Unix seconds, mapped through the pair
 * (wall clock, run clock) read when the source started, plus {@code offset_s} (what to add to the meter's clock to
 * get this machine's);</li>
 * <li>{@code run_start}: seconds, or instants, counted from the file's first sample, which is placed at the measured
 * window's start plus {@code offset_s}: for a meter started by hand with the run, or a recorded file replayed.</li>
 * </ul>
 * Thread-safety: read on the supervising thread only.
 */
final class MeterCsvSource implements PowerSource
{
    private static final double NS_PER_S = 1e9;

    private final Path file;
    private final PowerSourceSpec.Align align;
    private final long offsetNs;
    private final NanoClock clock;
    private long anchorRunNs;
    private long anchorWallNs;
    private String unavailable;
    private String synthetic;

    MeterCsvSource(final Path file, final PowerSourceSpec.Align align, final double offsetS, final NanoClock clock)
    {
        this.file = file;
        this.align = align;
        this.offsetNs = Math.round(offsetS * NS_PER_S);
        this.clock = clock;
    }

    /** Pins the wall-clock / run-clock pair that {@code wall} alignment maps through (tests set it exactly). */
    void anchor(final long runNs, final Instant wall)
    {
        this.anchorRunNs = runNs;
        this.anchorWallNs = epochNs(wall);
    }

    @Override
    public void start(final Runnable atThreadStart)
    {
        anchor(clock.nanoTime(), Instant.now());
    }

    @Override
    public void stop()
    {
        // Nothing runs: the file is read when the channels are asked for.
    }

    @Override
    public List<Channel> channels(final long windowStartNs)
    {
        final Channel channel = new Channel("meter:" + file.getFileName(), Component.WALL, 0);
        final List<String> lines;
        try
        {
            lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        }
        catch (final IOException ex)
        {
            unavailable = "meter: cannot read " + file + ": " + ex.getClass().getSimpleName();
            return List.of();
        }
        long firstNs = Long.MIN_VALUE;
        boolean header = true;
        for (int n = 0; n < lines.size(); n++)
        {
            final String line = lines.get(n).strip();
            if (line.startsWith("#") && isSyntheticDeclaration(line))
            {
                synthetic = "meter: " + file.getFileName() + " declares itself synthetic (line " + (n + 1) + ": " +
                    "'# SYNTHETIC ...'): example data, not a measurement of any machine";
            }
            if (line.isEmpty() || line.startsWith("#"))
            {
                continue;
            }
            final String[] fields = line.split(",");
            final long tNs;
            final double watts;
            try
            {
                tNs = timestampNs(fields[0].strip());
                watts = Double.parseDouble(fields.length > 1 ? fields[1].strip() : "");
            }
            catch (final NumberFormatException | DateTimeParseException ex)
            {
                if (header)
                {
                    header = false;
                    continue;
                }
                unavailable = "meter: " + file + " line " + (n + 1) + ": expected TIMESTAMP,WATTS";
                return List.of();
            }
            header = false;
            firstNs = firstNs == Long.MIN_VALUE ? tNs : firstNs;
            channel.addPower(align == PowerSourceSpec.Align.RUN_START ? windowStartNs + (tNs - firstNs) + offsetNs :
                anchorRunNs + (tNs - anchorWallNs) + offsetNs, watts);
        }
        return List.of(channel);
    }

    /**
     * @return whether a comment line declares the file synthetic: its first word is {@code SYNTHETIC} (any case), as
     * in the shipped example's {@code # SYNTHETIC example data ...}. A word further on ("a synthetic load") does not.
     */
    static boolean isSyntheticDeclaration(final String commentLine)
    {
        final String text = commentLine.substring(1).strip();
        return text.regionMatches(true, 0, "SYNTHETIC", 0, "SYNTHETIC".length()) &&
            (text.length() == "SYNTHETIC".length() || !Character.isLetterOrDigit(text.charAt("SYNTHETIC".length())));
    }

    /** @return an ISO-8601 instant or a decimal number of seconds, in ns. */
    private static long timestampNs(final String text)
    {
        if (!text.isEmpty() && (Character.isDigit(text.charAt(0)) || text.charAt(0) == '.') &&
            text.indexOf('T') < 0 && text.indexOf('-') < 0)
        {
            return Math.round(Double.parseDouble(text) * NS_PER_S);
        }
        return epochNs(Instant.parse(text));
    }

    private static long epochNs(final Instant t)
    {
        return t.getEpochSecond() * 1_000_000_000L + t.getNano();
    }

    @Override
    public String describe()
    {
        return String.format(Locale.ROOT, "wall-power meter CSV %s, aligned by %s, offset %.3f s", file,
            align.word(), offsetNs / NS_PER_S);
    }

    @Override
    public String synthetic()
    {
        return synthetic;
    }

    @Override
    public String unavailable()
    {
        return unavailable;
    }

    @Override
    public void close()
    {
        // Nothing to release.
    }
}
