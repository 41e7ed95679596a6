package io.tokenclock.cli;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/**
 * {@code System.out} and {@code System.err} captured while a test runs the CLI in its own JVM
 * ({@link Main#execute}); {@link #restore()} puts the real ones back. Not thread-safe: one per test.
 */
final class CapturedConsole
{
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();
    private final PrintStream savedOut = System.out;
    private final PrintStream savedErr = System.err;

    CapturedConsole()
    {
        System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
        System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
    }

    String out()
    {
        return out.toString(StandardCharsets.UTF_8);
    }

    String err()
    {
        return err.toString(StandardCharsets.UTF_8);
    }

    void resetErr()
    {
        err.reset();
    }

    void restore()
    {
        System.setOut(savedOut);
        System.setErr(savedErr);
    }
}
