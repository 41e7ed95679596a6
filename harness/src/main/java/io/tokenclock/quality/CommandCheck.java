package io.tokenclock.quality;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import io.tokenclock.secrets.ChildEnvironment;

/**
 * An external program judges each output: started with an argument vector (never through a shell, so nothing in an
 * output or a reference is ever interpreted as a command), given {@code {"id", "prompt", "output", "reference",
 * "finish_reason"}} as one JSON object on its standard input, and allowed {@code timeoutS} to exit; exit status 0 is a
 * pass, any other a failure ({@code command}), no exit in time a failure ({@code command_timeout}, the process is
 * killed), a program that cannot start a failure ({@code command_error}). Its standard output and error are discarded.
 * <p>
 * Its environment is not tokenclock's, which holds the run's keys: {@link ChildEnvironment}'s rule (the basic
 * variables and those the contract names in {@code pass_env}), the rule an agent's {@code tool_command} follows too.
 * Thread-safe: each sample gets a process of its own.
 */
final class CommandCheck implements Check
{
    /** How long the program may take per sample when the contract gives no {@code timeout_s}. */
    static final double DEFAULT_TIMEOUT_S = 10;

    private final List<String> argv;
    private final double timeoutS;
    private final List<String> passEnv;

    private CommandCheck(final List<String> argv, final double timeoutS, final List<String> passEnv)
    {
        this.argv = List.copyOf(argv);
        this.timeoutS = timeoutS;
        this.passEnv = List.copyOf(passEnv);
    }

    /** @param passEnv the contract's {@code pass_env}: variables let through besides the basic ones. */
    static CommandCheck of(final List<String> argv, final double timeoutS, final List<String> passEnv)
    {
        ChildEnvironment.passEnv("quality check command's pass_env", passEnv);
        if (argv.isEmpty() || argv.get(0).isBlank())
        {
            throw new IllegalArgumentException("quality check command needs argv: the program and its arguments");
        }
        if (!(timeoutS > 0))
        {
            throw new IllegalArgumentException("quality check command's timeout_s must be > 0: " + timeoutS);
        }
        return new CommandCheck(argv, timeoutS, passEnv);
    }

    @Override
    public String name()
    {
        return "command";
    }

    @Override
    public Outcome check(final Sample s)
    {
        final Process process;
        try
        {
            final ProcessBuilder builder = new ProcessBuilder(argv).redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .redirectError(ProcessBuilder.Redirect.DISCARD);
            ChildEnvironment.restrict(builder.environment(), passEnv);
            process = builder.start();
        }
        catch (final IOException ex)
        {
            return Outcome.fail("command_error", "cannot start " + argv.get(0) + ": " + ex.getMessage());
        }
        // A program that does not read its input must not block the check: the input is written on a thread of its
        // own, and the wait below is bounded either way.
        final Thread writer = Thread.ofVirtual().start(() -> writeInput(process, s));
        try
        {
            if (!process.waitFor((long)(timeoutS * 1e3), TimeUnit.MILLISECONDS))
            {
                process.destroyForcibly();
                return Outcome.fail("command_timeout", "no exit within " + timeoutS + " s");
            }
            final int status = process.exitValue();
            return Outcome.of(status == 0, name(), "exit status " + status);
        }
        catch (final InterruptedException ex)
        {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
            return Outcome.fail("command_error", "interrupted");
        }
        finally
        {
            writer.interrupt();
        }
    }

    private static void writeInput(final Process process, final Sample s)
    {
        try (OutputStream in = process.getOutputStream())
        {
            in.write(input(s));
        }
        catch (final IOException ex)
        {
            // The program exited or closed its input without reading it all; its exit status decides.
        }
    }

    static byte[] input(final Sample s)
    {
        final ObjectNode n = Checks.JSON.createObjectNode();
        n.put("id", s.id()).put("prompt", s.prompt()).put("output", s.output()).put("reference", s.reference())
            .put("finish_reason", s.finishReason());
        try
        {
            return Checks.JSON.writeValueAsString(n).getBytes(StandardCharsets.UTF_8);
        }
        catch (final JsonProcessingException ex)
        {
            throw new IllegalStateException("a JSON tree of strings always serializes", ex);
        }
    }

    @Override
    public ObjectNode describe()
    {
        final ObjectNode n = Checks.JSON.createObjectNode().put("type", name());
        final ArrayNode a = n.putArray("argv");
        argv.forEach(a::add);
        final ArrayNode pass = n.putArray("pass_env");
        passEnv.forEach(pass::add);
        return n.put("timeout_s", timeoutS).put("input", "one JSON object on stdin: id, prompt, output, reference, " +
            "finish_reason").put("pass", "exit status 0");
    }
}
