package io.tokenclock.energy;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

import io.tokenclock.secrets.Redaction;

/**
 * One configured power source (contract key {@code power}, flag {@code --power}; docs/COST_ENERGY.md).
 * <p>
 * Immutable and thread-safe.
 *
 * @param kind       which source.
 * @param location   rapl: the powercap root; nvidia-smi: the command; dcgm: the exporter's URL; meter: the CSV
 *                   file; nvml: unused (null).
 * @param devices    nvml and nvidia-smi: GPU indices (empty: all).
 * @param intervalMs how often it is sampled, ms.
 * @param align      meter: how its timestamps are placed on the run's clock.
 * @param offsetS    meter: seconds added to its timestamps.
 */
public record PowerSourceSpec(Kind kind, String location, List<Integer> devices, long intervalMs, Align align,
    double offsetS)
{
    /** The shortest and the longest sampling interval, ms. */
    public static final long MIN_INTERVAL_MS = 10;
    public static final long MAX_INTERVAL_MS = 60_000;
    /** The default interval, ms: 100 (a DCGM exporter's: 1000). */
    public static final long DEFAULT_INTERVAL_MS = 100;

    /** The sources. */
    public enum Kind
    {
        NVML("nvml"), NVIDIA_SMI("nvidia-smi"), DCGM("dcgm"), RAPL("rapl"), METER("meter");

        private final String word;

        Kind(final String word)
        {
            this.word = word;
        }

        /** @return its name in flags, contracts and the record. */
        public String word()
        {
            return word;
        }

        /** @return the kind named {@code word}. */
        public static Kind of(final String word)
        {
            for (final Kind k : values())
            {
                if (k.word.equalsIgnoreCase(word.trim()))
                {
                    return k;
                }
            }
            throw new IllegalArgumentException("power source must be one of nvml, nvidia-smi, dcgm, rapl, meter: " +
                Redaction.url(word));
        }
    }

    /** How a meter's timestamps are placed on the run's clock ({@link MeterCsvSource}). */
    public enum Align
    {
        WALL, RUN_START;

        /** @return its name in flags, contracts and the record. */
        public String word()
        {
            return name().toLowerCase(Locale.ROOT);
        }

        /** @return the alignment named {@code word}. */
        public static Align of(final String word)
        {
            return switch (word.trim().toLowerCase(Locale.ROOT))
            {
                case "wall" -> WALL;
                case "run_start" -> RUN_START;
                default -> throw new IllegalArgumentException("align must be wall or run_start: " + word);
            };
        }
    }

    public PowerSourceSpec
    {
        devices = List.copyOf(devices);
        if (intervalMs < MIN_INTERVAL_MS || intervalMs > MAX_INTERVAL_MS)
        {
            throw new IllegalArgumentException(kind.word() + ": interval_ms must be in [" + MIN_INTERVAL_MS + ", " +
                MAX_INTERVAL_MS + "]: " + intervalMs);
        }
        if (devices.stream().anyMatch(d -> d < 0))
        {
            throw new IllegalArgumentException(kind.word() + ": device indices must be >= 0: " + devices);
        }
        if ((kind == Kind.DCGM || kind == Kind.METER) && (location == null || location.isBlank()))
        {
            throw new IllegalArgumentException(kind.word() + " needs " + (kind == Kind.DCGM ? "the exporter's URL" :
                "the meter's CSV file"));
        }
        if (kind == Kind.DCGM)
        {
            checkUrl(location);
        }
        if (!Double.isFinite(offsetS))
        {
            throw new IllegalArgumentException("meter: offset_s must be a finite number of seconds: " + offsetS);
        }
    }

    /** @return a source of {@code kind} with every other field at its default. */
    public static PowerSourceSpec of(final Kind kind, final String location)
    {
        return new PowerSourceSpec(kind, location != null ? location : defaultLocation(kind), List.of(),
            kind == Kind.DCGM ? 1000 : DEFAULT_INTERVAL_MS, Align.WALL, 0);
    }

    /** @return the location used when none is given: the powercap root, the nvidia-smi command, or null. */
    public static String defaultLocation(final Kind kind)
    {
        return switch (kind)
        {
            case RAPL -> "/sys/class/powercap";
            case NVIDIA_SMI -> "nvidia-smi";
            default -> null;
        };
    }

    /**
     * Parses {@code --power SOURCE[:ARG][,KEY=VALUE...]}: {@code rapl[:ROOT]}, {@code nvml[:0,1]},
     * {@code nvidia-smi[:0,1]}, {@code dcgm:URL}, {@code meter:FILE}; keys {@code interval_ms}, and for a meter
     * {@code align} ({@code wall}, {@code run_start}) and {@code offset_s}.
     * <p>
     * The argument is one value however many {@code =} it holds: a comma-separated part is a key only when what
     * precedes its {@code =} is a plain word ({@code interval_ms=100}), so that the query of
     * {@code dcgm:http://h/metrics?t=abc} stays in the URL. Nothing of the argument is ever repeated in an error:
     * it may be a URL with a credential.
     *
     * @throws IllegalArgumentException one line naming what is wrong.
     */
    public static PowerSourceSpec parse(final String text)
    {
        // The kind ends at the first colon (an argument follows) or comma (keys follow).
        final int colon = text.replaceFirst(",", ":").indexOf(':');
        final Kind kind = Kind.of(colon < 0 ? text : text.substring(0, colon));
        final List<String> positional = new ArrayList<>();
        long intervalMs = kind == Kind.DCGM ? 1000 : DEFAULT_INTERVAL_MS;
        Align align = Align.WALL;
        double offsetS = 0;
        for (final String part : colon < 0 ? new String[0] : text.substring(colon + 1).split(","))
        {
            final int eq = part.indexOf('=');
            final String key = eq < 0 ? "" : part.substring(0, eq).trim();
            if (!KEY.matcher(key).matches())
            {
                positional.add(part);
                continue;
            }
            final String value = part.substring(eq + 1).trim();
            switch (key)
            {
                case "interval_ms" -> intervalMs = (long)number(value, key);
                case "align" -> align = Align.of(value);
                case "offset_s" -> offsetS = number(value, key);
                default -> throw new IllegalArgumentException("--power " + kind.word() + ": unknown key " + key);
            }
        }
        final String arg = String.join(",", positional);
        final boolean indexed = kind == Kind.NVML || kind == Kind.NVIDIA_SMI;
        return new PowerSourceSpec(kind, indexed || arg.isEmpty() ? defaultLocation(kind) : arg,
            indexed && !arg.isEmpty() ? indices(arg) : List.of(), intervalMs, align, offsetS);
    }

    /** A key of {@code --power}'s {@code KEY=VALUE} parts: a plain word, which no URL or path before a = is. */
    private static final Pattern KEY = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");

    private static List<Integer> indices(final String text)
    {
        final List<Integer> list = new ArrayList<>();
        for (final String s : text.split(","))
        {
            list.add((int)number(s, "device index"));
        }
        return list;
    }

    private static double number(final String text, final String what)
    {
        try
        {
            return Double.parseDouble(text.trim());
        }
        catch (final NumberFormatException ex)
        {
            // the value is not repeated: a device index may be the first word of a misplaced URL
            throw new IllegalArgumentException("--power: " + what + " is not a number");
        }
    }

    private static void checkUrl(final String url)
    {
        try
        {
            final URI uri = new URI(url.trim());
            final String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
            if ((scheme.equals("http") || scheme.equals("https")) && uri.getHost() != null)
            {
                return;
            }
        }
        catch (final URISyntaxException ex)
        {
            // reported below; the URL is not echoed: it may carry a credential
        }
        throw new IllegalArgumentException("dcgm: the exporter's URL must be http(s) with a host");
    }

    /** @return the source in one line, as a flag would give it. */
    public String describe()
    {
        final StringBuilder sb = new StringBuilder(kind.word());
        if (kind == Kind.NVML || kind == Kind.NVIDIA_SMI)
        {
            sb.append(devices.isEmpty() ? "" : ":" + String.join(",", devices.stream().map(String::valueOf)
                .toList()));
        }
        else if (location != null && kind != Kind.DCGM)
        {
            sb.append(':').append(location);
        }
        sb.append(", every ").append(intervalMs).append(" ms");
        if (kind == Kind.METER)
        {
            sb.append(", align ").append(align.word()).append(", offset ").append(offsetS).append(" s");
        }
        return sb.toString();
    }
}
