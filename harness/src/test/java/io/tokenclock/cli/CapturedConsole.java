package io.tokenclock.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * {@code System.out} and {@code System.err} captured while a test runs the CLI in its own JVM
 * ({@link Main#execute}). As a JUnit extension ({@code @RegisterExtension final CapturedConsole console = new
 * CapturedConsole();}) it captures before each test and restores after it; {@link #started()} and
 * {@link #restore()} do the same by hand. Not thread-safe: one per test.
 */
final class CapturedConsole implements BeforeEachCallback, AfterEachCallback
{
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();
    private PrintStream savedOut;
    private PrintStream savedErr;

    /** @return a console already capturing; call {@link #restore()} after the test. */
    static CapturedConsole started()
    {
        final CapturedConsole console = new CapturedConsole();
        console.start();
        return console;
    }

    void start()
    {
        out.reset();
        err.reset();
        savedOut = System.out;
        savedErr = System.err;
        System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
        System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
    }

    @Override
    public void beforeEach(final ExtensionContext context)
    {
        start();
    }

    @Override
    public void afterEach(final ExtensionContext context)
    {
        restore();
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

    void resetOut()
    {
        out.reset();
    }

    /**
     * Runs {@code args} ({@link Main#execute}) and asserts a usage error: exit 2, and one line on stderr containing
     * {@code expected}.
     */
    void assertUsage(final String expected, final String... args)
    {
        resetErr();
        assertEquals(Main.EXIT_USAGE, Main.execute(args), err());
        final String said = err().strip();
        assertTrue(said.contains(expected), said);
        assertEquals(1, said.lines().count(), "one line: " + said);
    }

    void restore()
    {
        if (savedOut != null)
        {
            System.setOut(savedOut);
            System.setErr(savedErr);
        }
    }
}
