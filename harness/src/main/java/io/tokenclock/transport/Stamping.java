package io.tokenclock.transport;

import java.util.Locale;

/** Where each network read's stamp comes from ({@code measurement.stamping}, {@code --stamping}). */
public enum Stamping
{
    /** {@code System.nanoTime()} on the thread that read the bytes, after the read returned (Netty's event loop). */
    USER,
    /**
     * The kernel's software receive stamp ({@code SO_TIMESTAMPING}, {@code SCM_TIMESTAMPING}), on Linux with plain
     * TCP; where the kernel gives none, the read falls back to a user stamp and is counted. The default: where the
     * whole run cannot have kernel stamps (another OS, https, a refusing kernel, a test clock), it says why in one line
     * and stamps in user space, which its record then says ({@link StreamClients}).
     */
    KERNEL;

    /** @return the name used in flags, contracts and record.json. */
    public String label()
    {
        return name().toLowerCase(Locale.ROOT);
    }

    /** @return the stamping named {@code text} ({@code user} or {@code kernel}). */
    public static Stamping of(final String text)
    {
        for (final Stamping s : values())
        {
            if (s.label().equals(text))
            {
                return s;
            }
        }
        throw new IllegalArgumentException("stamping must be user or kernel, not " + text);
    }
}
