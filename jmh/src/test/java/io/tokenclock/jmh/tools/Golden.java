package io.tokenclock.jmh.tools;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

/**
 * Golden files for the command-line tools: what a tool prints is pinned in {@code src/test/resources/golden/}, so a
 * refactoring that changes one character of it fails. On a mismatch the actual text is written to
 * {@code target/golden-actual/} to diff against the expected file.
 */
final class Golden
{
    /** A tool's entry point taking its arguments and its two streams, returning its exit status. */
    interface Tool
    {
        int run(String[] args, PrintStream out, PrintStream err);
    }

    private Golden()
    {
    }

    /**
     * @return the tool's exit status, stdout and stderr as one text, with {@code dir} written as {@code DIR}.
     */
    static String run(final Tool tool, final Path dir, final String... args)
    {
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        final ByteArrayOutputStream err = new ByteArrayOutputStream();
        final int status = tool.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8));
        return ("$ " + String.join(" ", args) + "\nexit " + status + "\n--- out\n" +
            out.toString(StandardCharsets.UTF_8) + "--- err\n" + err.toString(StandardCharsets.UTF_8))
            .replace(dir.toString(), "DIR");
    }

    static void assertGolden(final String name, final String actual) throws IOException
    {
        final String expected;
        try (InputStream in = Golden.class.getResourceAsStream("/golden/" + name))
        {
            expected = in == null ? null : new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        if (!actual.equals(expected))
        {
            final Path out = Path.of("target", "golden-actual", name);
            Files.createDirectories(out.getParent());
            Files.writeString(out, actual);
        }
        assertNotNull(expected, "no golden/" + name + "; the actual output is in target/golden-actual/");
        assertEquals(expected, actual, name + " (the actual output is in target/golden-actual/)");
    }

    /** One JMH JSON result entry. */
    static String entry(final String name, final String mode, final String params, final double score,
                        final String error, final String unit, final String alloc)
    {
        return "{\"benchmark\":\"io.tokenclock.jmh." + name + "\",\"mode\":\"" + mode + "\"," +
            "\"measurementTime\":\"1 s\"" + (params == null ? "" : ",\"params\":" + params) + "," +
            "\"primaryMetric\":{\"score\":" + score + ",\"scoreError\":" + error + ",\"scoreUnit\":\"" + unit + "\"}" +
            (alloc == null ? "" : ",\"secondaryMetrics\":{\"gc.alloc.rate.norm\":" +
                "{\"score\":" + alloc + ",\"scoreError\":0.0,\"scoreUnit\":\"B/op\"}}") + "}";
    }

    static Path write(final Path dir, final String name, final String... entries) throws IOException
    {
        final Path f = dir.resolve(name);
        Files.writeString(f, "[" + String.join(",\n", entries) + "]\n");
        return f;
    }
}
