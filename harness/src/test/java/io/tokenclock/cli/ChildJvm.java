package io.tokenclock.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * {@code tokenclock} in a JVM of its own, as a user starts it, for the tests that stop it from outside: the command
 * that starts the jar, a signal sent with {@code kill}, and the exit waited for. Stateless.
 */
final class ChildJvm
{
    private static final boolean DEFAULT_SIGNALS = envResetsSignals();

    private ChildJvm()
    {
    }

    /**
     * @return the command that starts the jar, through {@code env --default-signal=INT,TERM} where coreutils has it.
     * A process started in the background by a shell without job control (a CI step, {@code nohup cmd &}) inherits
     * SIGINT ignored, and the JVM leaves an ignored SIGINT ignored: the SIGINT tests then failed with the child still
     * running, though the same tests passed in a foreground build.
     */
    static List<String> tokenclock()
    {
        final List<String> command = new ArrayList<>();
        if (DEFAULT_SIGNALS)
        {
            command.addAll(List.of("env", "--default-signal=INT,TERM"));
        }
        command.addAll(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
            System.getProperty("tokenclock.jvmFlags"), "-Dtokenclock.tty=0", "-Dtokenclock.selfWarmup=false",
            "-jar", Path.of("target", "tokenclock.jar").toString()));
        return command;
    }

    private static boolean envResetsSignals()
    {
        try
        {
            final Process p = new ProcessBuilder("env", "--default-signal=INT,TERM", "true")
                .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            return p.waitFor(10, TimeUnit.SECONDS) && p.exitValue() == 0;
        }
        catch (final IOException | InterruptedException ex)
        {
            return false;
        }
    }

    /** Sends {@code SIGNAME} ({@code INT}, {@code TERM}, {@code KILL}) to {@code p}. */
    static void signal(final Process p, final String name) throws Exception
    {
        final Process kill = new ProcessBuilder("kill", "-" + name, Long.toString(p.pid())).start();
        assertEquals(0, kill.waitFor(), "kill -" + name);
    }

    /** @return {@code p}'s exit status, waited for at most {@code seconds} (then it is killed, and the test fails). */
    static int exit(final Process p, final int seconds) throws InterruptedException
    {
        if (!p.waitFor(seconds, TimeUnit.SECONDS))
        {
            p.destroyForcibly();
            throw new AssertionError("still running after " + seconds + " s");
        }
        return p.exitValue();
    }
}
