package io.tokenclock.jmh;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The Main-Class of {@code benchmarks.jar}: JMH's own {@code org.openjdk.jmh.Main}, with the flags of the repository's
 * {@code jvm.flags} put first in every fork's JVM arguments ({@code -jvmArgsPrepend}).
 * <p>
 * Why not {@code @Fork(jvmArgsAppend = ...)}: an annotation holds a constant, so each benchmark would write the flags
 * again (they were written nine times). The build copies {@code jvm.flags} into this jar, so a fork gets the flags of
 * the tree the jar was built from, however the host was started; an argument {@code -jvmArgs} or
 * {@code -jvmArgsAppend} on the command line still adds to them.
 */
public final class Bench
{
    /** Where the build puts the repository's {@code jvm.flags} in this jar. */
    static final String FLAGS_RESOURCE = "jvm.flags";

    private Bench()
    {
    }

    public static void main(final String[] args) throws Exception
    {
        org.openjdk.jmh.Main.main(withFlags(args, flags()));
    }

    /** @return JMH's arguments: the flags as one space-separated {@code -jvmArgsPrepend}, then {@code args}. */
    static String[] withFlags(final String[] args, final List<String> flags)
    {
        final List<String> all = new ArrayList<>(args.length + 2);
        if (!flags.isEmpty())
        {
            all.add("-jvmArgsPrepend");
            all.add(String.join(" ", flags));
        }
        all.addAll(Arrays.asList(args));
        return all.toArray(String[]::new);
    }

    /** @return the flags of the {@code jvm.flags} this jar was built with, one per element. */
    public static List<String> flags() throws IOException
    {
        try (InputStream in = Bench.class.getResourceAsStream(FLAGS_RESOURCE))
        {
            if (in == null)
            {
                throw new IOException("benchmarks.jar lacks " + FLAGS_RESOURCE + " (built outside the reactor?)");
            }
            return parse(new String(in.readAllBytes(), StandardCharsets.UTF_8));
        }
    }

    /**
     * Reads a java launcher {@code @argfile} of the simple kind {@code jvm.flags} is: {@code #} starts a comment to
     * the end of the line, and flags are separated by white space (no quotes).
     */
    static List<String> parse(final String text)
    {
        final List<String> flags = new ArrayList<>();
        for (final String line : text.split("\n"))
        {
            final int hash = line.indexOf('#');
            final String kept = (hash < 0 ? line : line.substring(0, hash)).strip();
            if (!kept.isEmpty())
            {
                flags.addAll(Arrays.asList(kept.split("\\s+")));
            }
        }
        return flags;
    }
}
