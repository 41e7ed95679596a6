package io.tokenclock.cli;

import java.io.PrintWriter;

import picocli.CommandLine;
import picocli.CommandLine.Command;

import io.tokenclock.health.AotCache;
import io.tokenclock.runner.Interruption;
import io.tokenclock.secrets.KnownSecrets;
import io.tokenclock.secrets.Redaction;
import io.tokenclock.text.UntrustedText;

/**
 * The {@code tokenclock} command. Exit codes: 0 success; 1 the run failed (no measured request succeeded, or an
 * internal error); 2 bad usage; 3 the server could not be used (unreachable, wrong URL, rejected key or model);
 * 4 {@code compare} or {@code ab} refused results that differ in a refusal rule;
 * 130 and 143 stopped by SIGINT and SIGTERM.
 * Errors are one line on stderr, never a stack trace (set {@code TOKENCLOCK_DEBUG=1} for one).
 */
@Command(name = "tokenclock", mixinStandardHelpOptions = true, versionProvider = Main.Version.class,
    description = "Benchmark harness for OpenAI-compatible streaming LLM endpoints.",
    footer = {"The launcher also takes:", "  test       Build and run the whole test suite (./mvnw -B verify).",
        "  aot-train  Make the JVM's ahead-of-time cache for this build from a training run (docs/CLI.md).",
        "tokenclock COMMAND --help gives a command's options."},
    subcommands = {RunCommand.class, AbCommand.class, SweepCommand.class, DemoCommand.class, ServeSimCommand.class,
        ValidateCommand.class, RecordCommand.class, ReportCommand.class, CompareCommand.class, ReplayCommand.class,
        MergeCommand.class, ExportCommand.class, SlurmCommand.class, K8sCommand.class,
        CommandLine.HelpCommand.class})
public final class Main implements java.util.concurrent.Callable<Integer>
{
    public static final int EXIT_OK = 0;
    public static final int EXIT_FAILED = 1;
    public static final int EXIT_USAGE = 2;
    public static final int EXIT_UNREACHABLE = 3;
    /** {@code compare} and {@code ab}: the results differ in a rule that makes their figures incomparable. */
    public static final int EXIT_INCOMPARABLE = 4;
    /** The width of {@code --help}: one line per command in the command list. */
    static final int USAGE_WIDTH = 120;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    /**
     * Says in one line when the JVM refused the AOT cache the launcher gave it, then runs the command line.
     *
     * @param args the command line.
     */
    public static void main(final String[] args)
    {
        final String aotRefused = AotCache.refusalLine();
        if (aotRefused != null)
        {
            System.err.println(aotRefused);
        }
        System.exit(execute(args));
    }

    private static Double finiteNumber(final String text)
    {
        final double value;
        try
        {
            value = Double.parseDouble(text);
        }
        catch (final NumberFormatException ex)
        {
            throw new CommandLine.TypeConversionException("'" + text + "' is not a number");
        }
        if (!Double.isFinite(value))
        {
            throw new CommandLine.TypeConversionException("'" + text + "' is not a finite number");
        }
        return value;
    }

    /** Runs the command line and returns the exit code (for tests). */
    public static int execute(final String... args)
    {
        KnownSecrets.forget(); // a command remembers its own credentials (runner.Preparation), no earlier one's
        final CommandLine cli = commandLine();
        cli.setParameterExceptionHandler((ex, a) ->
        {
            final PrintWriter err = ex.getCommandLine().getErr();
            // picocli quotes the argument it could not take: a URL's credentials are hidden, control bytes escaped
            err.println(errorLine(ex.getMessage() + " (see: " +
                ex.getCommandLine().getCommandSpec().qualifiedName() + " --help)"));
            return EXIT_USAGE;
        });
        cli.setExecutionExceptionHandler((ex, c, parseResult) ->
        {
            final PrintWriter err = c.getErr();
            if (ex instanceof Interruption.Stopped stopped)
            {
                return stopped.exitStatus(); // the signal's handler said so, in one line
            }
            if (ex instanceof IllegalArgumentException)
            {
                err.println(errorLine(ex.getMessage()));
                return EXIT_USAGE;
            }
            if (c.getCommand() instanceof ReadsFiles r && unreadable(ex))
            {
                // The safety net: every reader names the file and the field itself; one that missed is a defect,
                // and still no stack trace nor an internal message.
                err.println(errorLine("cannot read " + r.inputs().stream().map(Object::toString)
                    .collect(java.util.stream.Collectors.joining(", ")) + ": a file in it is not what it claims, " +
                    "and this build did not say which (a defect; TOKENCLOCK_DEBUG=1 shows where)"));
                if (System.getenv("TOKENCLOCK_DEBUG") != null)
                {
                    ex.printStackTrace(err);
                }
                return EXIT_USAGE;
            }
            err.println(errorLine(ex.getMessage() != null ? ex.getMessage() : ex.getClass().getName()));
            if (System.getenv("TOKENCLOCK_DEBUG") != null)
            {
                ex.printStackTrace(err);
            }
            return EXIT_FAILED;
        });
        try
        {
            return cli.execute(args);
        }
        catch (final OutOfMemoryError ex)
        {
            System.err.println("tokenclock: out of memory (" + Runtime.getRuntime().maxMemory() / (1 << 20) +
                " MiB of heap): give it more with TOKENCLOCK_JAVA_OPTS=-Xmx...");
            return EXIT_FAILED;
        }
    }

    /** @return the command line: its help laid out, its number flags held finite. */
    private static CommandLine commandLine()
    {
        final CommandLine cli = new CommandLine(new Main());
        // Wide enough that every command's description is one line of the command list.
        cli.setUsageHelpWidth(USAGE_WIDTH);
        HelpGroups.install(cli.getSubcommands().get("run"));
        HelpGroups.install(cli.getSubcommands().get("sweep"));
        // Every number flag is finite: NaN and Infinity parse as doubles, and would flow silently into a request
        // body (--temperature NaN) or a schedule.
        cli.registerConverter(Double.class, Main::finiteNumber);
        cli.registerConverter(Double.TYPE, Main::finiteNumber);
        return cli;
    }

    /** @return whether {@code ex} is a reader's failure: a JSON error, or an internal one a file's content caused. */
    private static boolean unreadable(final Exception ex)
    {
        return ex instanceof com.fasterxml.jackson.core.JacksonException ||
            ex instanceof java.nio.charset.CharacterCodingException ||
            ex instanceof RuntimeException && !(ex instanceof Interruption.Stopped);
    }

    /**
     * @return {@code tokenclock: MESSAGE} on one line, every control character in it escaped: a message may quote
     * what a server sent (an error body, a status line that is no HTTP, a model's name), and the sources escape it
     * already; this is the last guard before the terminal, so that no path can miss it.
     */
    static String errorLine(final String message)
    {
        return "tokenclock: " + UntrustedText.escaped(Redaction.urlsIn(message), Integer.MAX_VALUE);
    }

    /**
     * With no command: every command with one line each (the usage), on stderr, and exit status 2; the list is
     * picocli's, from each command's {@code header}, so it cannot leave one out.
     */
    @Override
    public Integer call()
    {
        spec.commandLine().usage(spec.commandLine().getErr());
        return EXIT_USAGE;
    }

    /** Reports the jar's version. */
    static final class Version implements CommandLine.IVersionProvider
    {
        @Override
        public String[] getVersion()
        {
            final String v = Main.class.getPackage().getImplementationVersion();
            return new String[] {"tokenclock " + (v != null ? v : "dev") + " on Java " +
                System.getProperty("java.runtime.version")};
        }
    }
}
