package io.tokenclock.health;

import java.lang.management.ManagementFactory;
import java.util.Locale;

import com.sun.management.HotSpotDiagnosticMXBean;

/**
 * Whether this JVM runs with an ahead-of-time cache (JDK 24+'s {@code -XX:AOTCache}, JEP 483 and 515: classes
 * loaded and linked, and method profiles, from a training run), which {@code ./tokenclock} passes when
 * {@code ./tokenclock aot-train} made one for this jar, JDK and {@code jvm.flags} (docs/OVERHEAD.md, "JIT").
 * <p>
 * Why the record says so: with the cache, the JIT starts from the training run's profiles, and less of its work is
 * left for the measured window; a run with it and one without differ in {@code client_jit} for that reason alone. The
 * JVM refuses a cache made for another jar, JDK or flags and runs on without it (and without the JDK's default class
 * data sharing): the launcher silences the JVM's own lines about that ({@code -Xlog:aot=off}), and
 * {@link #refusalLine()} says it once, in one line.
 * <p>
 * What is read: the {@code AOTCache} flag (from HotSpot's diagnostic bean) and {@code java.vm.info}, which names
 * {@code sharing} only while an archive is mapped. Cold path; thread-safe (reads only).
 */
public final class AotCache
{
    /** Where this JVM stands with an AOT cache. */
    public enum State
    {
        /** {@code -XX:AOTCache} was given and the JVM mapped it. */
        USED,
        /** {@code -XX:AOTCache} was given and the JVM refused it (made for another jar, JDK or flags; unreadable). */
        REFUSED,
        /** No {@code -XX:AOTCache}. */
        NONE;

        /** @return the record's word: {@code used}, {@code refused} or {@code none}. */
        public String word()
        {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    private AotCache()
    {
    }

    /** @return this JVM's state. */
    public static State current()
    {
        return of(file(), System.getProperty("java.vm.info", ""));
    }

    /**
     * @param aotCacheFlag the value of {@code -XX:AOTCache} (empty or null when not given).
     * @param vmInfo       {@code java.vm.info}, e.g. {@code mixed mode, sharing}.
     * @return the state they say.
     */
    static State of(final String aotCacheFlag, final String vmInfo)
    {
        if (aotCacheFlag == null || aotCacheFlag.isEmpty())
        {
            return State.NONE;
        }
        return vmInfo != null && vmInfo.contains("sharing") ? State.USED : State.REFUSED;
    }

    /** @return the file {@code -XX:AOTCache} named, or "" where none was given or the JVM does not say. */
    public static String file()
    {
        try
        {
            final HotSpotDiagnosticMXBean hotspot = ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class);
            return hotspot == null ? "" : hotspot.getVMOption("AOTCache").getValue();
        }
        catch (final IllegalArgumentException ex)
        {
            return ""; // a JVM without the flag (before JDK 24, or not HotSpot) has no AOT cache
        }
    }

    /**
     * @return one line for stderr when the JVM refused the cache it was given, or null when there is nothing to say.
     */
    public static String refusalLine()
    {
        final String vmInfo = System.getProperty("java.vm.info", "");
        // A JVM that maps an archive cannot have refused one: the diagnostic bean (JMX's classes, at every command's
        // start) is asked only when none is mapped.
        if (vmInfo.contains("sharing"))
        {
            return null;
        }
        final String file = file();
        return refusalLine(of(file, vmInfo), file);
    }

    static String refusalLine(final State state, final String file)
    {
        return state != State.REFUSED ? null : "tokenclock: the JVM refused the AOT cache " + file + " (made for " +
            "another jar, JDK or jvm.flags, or unreadable) and runs without it; ./tokenclock aot-train makes a new one";
    }
}
