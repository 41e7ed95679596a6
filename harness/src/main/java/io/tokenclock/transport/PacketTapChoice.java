package io.tokenclock.transport;

import java.util.Locale;
import java.util.regex.Pattern;

/**
 * What a run asks of the packet tap ({@code --packet-tap}): {@code auto}, the tap wherever it can be had (the process
 * may open a packet socket and the interface of the target is known); {@code off}; or an interface named, forced.
 *
 * @param mode          which of the three.
 * @param interfaceName the interface named ({@link Mode#INTERFACE}), else null.
 */
public record PacketTapChoice(Mode mode, String interfaceName)
{
    /** The three choices. */
    public enum Mode
    {
        /** The tap where it can be had; else the socket's stamps, and one line saying why. */
        AUTO,
        /** No tap. */
        OFF,
        /** A tap on the interface named, or one line saying why not. */
        INTERFACE
    }

    /** A run that asks for nothing. */
    public static final PacketTapChoice AUTO_CHOICE = new PacketTapChoice(Mode.AUTO, null);
    /** {@code --packet-tap off}. */
    public static final PacketTapChoice OFF_CHOICE = new PacketTapChoice(Mode.OFF, null);
    /**
     * The default, decided by one constant and by the measured A/B ({@code scripts/tap-ab}, docs/ACCURACY.md "The
     * packet tap by default"): {@code AUTO_CHOICE}, the tap wherever it can be had. In 3 quiet rounds at 1, 16 and
     * 256 streams the tap's gap error and CPU per chunk were within the rule's bounds of the socket's, while the
     * socket merged chunks' stamps in two of the three cells. {@code OFF_CHOICE} would stamp as before unless asked.
     */
    public static final PacketTapChoice DEFAULT = AUTO_CHOICE;

    /** Linux's interface names: at most 15 bytes, no slash, no white space, not "." or "..". */
    private static final Pattern INTERFACE_NAME = Pattern.compile("[^/\\s:]{1,15}");

    public PacketTapChoice
    {
        if (mode == null || (mode == Mode.INTERFACE) != (interfaceName != null))
        {
            throw new IllegalArgumentException("a packet tap choice names an interface exactly when it forces one");
        }
    }

    /**
     * @param value {@code auto}, {@code off}, or an interface name; null for the default.
     * @return the choice.
     * @throws IllegalArgumentException with one line, for a value that cannot be an interface's name.
     */
    public static PacketTapChoice parse(final String value)
    {
        if (value == null)
        {
            return DEFAULT;
        }
        final String word = value.toLowerCase(Locale.ROOT);
        if ("auto".equals(word))
        {
            return AUTO_CHOICE;
        }
        if ("off".equals(word) || "none".equals(word))
        {
            return OFF_CHOICE;
        }
        if (!INTERFACE_NAME.matcher(value).matches() || ".".equals(value) || "..".equals(value))
        {
            throw new IllegalArgumentException("--packet-tap must be auto, off or a network interface's name (at " +
                "most 15 characters, no '/', ':' or white space), not '" + value + "'");
        }
        return new PacketTapChoice(Mode.INTERFACE, value);
    }

    /** @return the flag's value that gives this choice. */
    public String flagValue()
    {
        return mode == Mode.INTERFACE ? interfaceName : mode.name().toLowerCase(Locale.ROOT);
    }
}
