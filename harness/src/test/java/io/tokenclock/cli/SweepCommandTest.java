package io.tokenclock.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import io.tokenclock.config.RunOptions;
import io.tokenclock.load.ArrivalProcess;
import io.tokenclock.sweep.SweepPoint;
import picocli.CommandLine;

/** {@code tokenclock sweep}'s flags: refused with one line before anything is sent, and a point's command line. */
final class SweepCommandTest
{
    @RegisterExtension
    final CapturedConsole console = new CapturedConsole();

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "--point-duration 5|sweep takes exactly one of --rates R1,R2,..., --concurrencies C1,C2,... and --auto",
        "--rates 1,2 --auto|sweep takes exactly one of --rates R1,R2,..., --concurrencies C1,C2,... and --auto",
        "--rates 2,1,2|--rates lists 2 twice",
        "--rates 1,0|--rates values must be > 0: 0.0",
        "--concurrencies 4 --knee-factor 1|--knee-factor must be > 1: 1.0",
        "--auto --points 3|--points must be in [4, 50]: 3",
        "--rates 1 --stop-error-fraction 2|--stop-error-fraction must be in [0, 1]: 2.0",
        "--rates 1 --search-max-runs 2|--search-max-runs must be >= 3: 2",
        "--rates 1 --requests 10|sweep sets each point's load and length: --requests does not apply (use --rates, " +
            "--concurrencies or --auto, and --point-duration)",
        "--concurrencies 2,4 --arrival poisson|--concurrency (a closed loop) starts each request as another ends " +
            "and holds its concurrency in flight: --arrival applies only to an open loop at a rate (--rate); drop " +
            "it, or set --rate R instead",
        // an auto sweep's flags are judged as its rate points': its ceiling, a closed loop, would hide this
        "--auto --arrival constant --burstiness 2|--burstiness applies to gamma arrivals only (--arrival is " +
            "constant)"})
    void shouldRefuseABadSweepWithOneLine(final String args, final String message)
    {
        final String[] all = ("sweep --url http://127.0.0.1:9/v1 " + args).split(" ");
        assertEquals(Main.EXIT_USAGE, Main.execute(all), console.out());
        final String err = console.err().strip();
        assertEquals("tokenclock: " + message, err);
        assertFalse(err.contains("\n"), err);
    }

    @Test
    void shouldRecordARunCommandLineWithoutTheSweepsOwnFlags()
    {
        final SweepCommand sweep = new SweepCommand();
        final CommandLine.ParseResult parsed = new CommandLine(sweep).parseArgs("--url", "http://h/v1", "--rates",
            "1,2", "--point-duration", "5", "--max-tokens", "32", "--output-dir", "out", "-H", "X-Key: s3cret",
            "--knee-factor", "3");
        assertEquals(List.of("tokenclock", "run", "--url", "http://h/v1", "--max-tokens", "32", "--header",
            "X-Key: <redacted>"), RecordedCommand.of("run", parsed, SweepCommand.NOT_RUN_FLAGS));
    }

    private static RunOptions options(final List<String> recorded)
    {
        final RunCommand run = new RunCommand();
        new CommandLine(run).parseArgs(recorded.subList(2, recorded.size()).toArray(String[]::new));
        return run.toOptions();
    }

    @Test
    void shouldStartAnAutoSweepsCeilingFromACommandLineThatRunsAloneAndItsRatesWithTheOpenLoopFlags()
    {
        final CommandLine.ParseResult parsed = new CommandLine(new SweepCommand()).parseArgs("--url",
            "http://127.0.0.1:9/v1", "--auto", "--arrival", "gamma", "--burstiness", "2", "--max-concurrency", "16",
            "--max-tokens", "8");
        final List<String> ceiling = new ArrayList<>(SweepCommand.runCommands(parsed)
            .get(SweepPoint.Loop.CONCURRENCY));
        ceiling.addAll(List.of("--concurrency", "64", "--duration", "5"));
        final RunOptions closed = options(ceiling);
        assertTrue(closed.closedLoop());
        assertEquals(8, closed.model().maxTokens(), "the other flags stay");
        final List<String> rate = new ArrayList<>(SweepCommand.runCommands(parsed).get(SweepPoint.Loop.RATE));
        rate.addAll(List.of("--rate", "4", "--duration", "5"));
        final RunOptions open = options(rate);
        assertEquals(ArrivalProcess.Kind.GAMMA, open.load().arrival());
        assertEquals(16, open.load().maxConcurrency());
    }
}
