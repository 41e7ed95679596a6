package io.tokenclock.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import io.tokenclock.config.RunOptions;
import io.tokenclock.load.ArrivalProcess;
import picocli.CommandLine;

/** {@code run}'s load flags: the open loop's own refused beside another load, once written and only then. */
final class LoadFlagsTest
{
    /** Nothing listens there, and nothing is sent: the rules refuse before the probe. */
    private static final String URL = "http://127.0.0.1:9/v1";

    @RegisterExtension
    final CapturedConsole console = new CapturedConsole();

    @TempDir
    Path dir;

    private static RunOptions options(final String... args)
    {
        final RunCommand run = new RunCommand();
        new CommandLine(run).parseArgs(args);
        return run.toOptions();
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "--concurrency 8 --arrival poisson|--concurrency (a closed loop) starts each request as another ends and " +
            "holds its concurrency in flight: --arrival applies only to an open loop at a rate (--rate); drop it, or " +
            "set --rate R instead",
        "--concurrency 8 --burstiness 2|--concurrency (a closed loop) starts each request as another ends and holds " +
            "its concurrency in flight: --burstiness applies only to an open loop at a rate (--rate); drop it, or " +
            "set --rate R instead",
        "--concurrency 8 --max-concurrency 20|--concurrency (a closed loop) starts each request as another ends and " +
            "holds its concurrency in flight: --max-concurrency applies only to an open loop at a rate (--rate); " +
            "drop it, or set --rate R instead",
        "--users 2 --arrival gamma --burstiness 2|--users makes the arrivals from each user's turns and holds one " +
            "request per user in flight: --arrival and --burstiness apply only to an open loop at a rate (--rate); " +
            "drop them"})
    void shouldRefuseAnOpenLoopFlagBesideAnotherLoadWithOneLineBeforeAnythingIsSent(final String flags,
        final String message)
    {
        final List<String> args = new ArrayList<>(List.of("run", "--url", URL, "--requests", "2"));
        args.addAll(List.of(flags.split(" ")));
        assertEquals(Main.EXIT_USAGE, Main.execute(args.toArray(String[]::new)), console.out());
        assertEquals("tokenclock: " + message, console.err().strip());
    }

    @Test
    void shouldCountNoUntypedFlagsDefaultAsWritten()
    {
        final RunOptions o = options("--url", URL, "--concurrency", "8");
        assertTrue(o.closedLoop());
        assertNull(o.load().maxConcurrency());
        assertEquals(1.0, o.load().burstiness());
    }

    @Test
    void shouldLetAConcurrencyTypedOverAnOpenLoopContractReplaceItsArrivalsAndCap() throws Exception
    {
        final Path contract = dir.resolve("open.yaml");
        Files.writeString(contract, "target: {url: '" + URL + "'}\nload: {rate: 2, arrival: gamma, burstiness: 2, " +
            "max_concurrency: 8, requests: 4}\n");
        final RunOptions o = options("--config", contract.toString(), "--concurrency", "3");
        assertTrue(o.closedLoop());
        assertEquals(3, o.maxInFlight());
        assertEquals(ArrivalProcess.Kind.POISSON, o.load().arrival(), "the contract's arrivals went with its loop");
        final IllegalArgumentException again = assertThrows(IllegalArgumentException.class,
            () -> options("--config", contract.toString(), "--concurrency", "3", "--arrival", "constant"));
        assertTrue(again.getMessage().contains(": --arrival applies only to an open loop"), again.getMessage());
    }
}
