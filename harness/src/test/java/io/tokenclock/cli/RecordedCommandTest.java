package io.tokenclock.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import picocli.CommandLine;

final class RecordedCommandTest
{
    private static List<String> recorded(final String... args)
    {
        final CommandLine cli = new CommandLine(new RunCommand());
        return RecordedCommand.of("run", cli.parseArgs(args));
    }

    @ParameterizedTest
    @ValueSource(strings = {"-HX-Key:s3cret", "-H=X-Key:s3cret", "--header=X-Key:s3cret", "--header=X-Key: s3cret"})
    void shouldRedactAHeaderHoweverItWasSpelledInOneArgument(final String spelling)
    {
        final List<String> command = recorded("--url", "http://h/v1", spelling);
        assertEquals(List.of("tokenclock", "run", "--url", "http://h/v1", "--header", "X-Key: <redacted>"), command);
    }

    @Test
    void shouldRedactAHeaderGivenAsTwoArgumentsAndKeepTheOrderOfRepeatedOptions()
    {
        final List<String> command = recorded("-H", "A: 1", "--concurrency", "2", "--header", "B:2", "-HC:3",
            "--ignore-eos", "--url=https://u:p@h/v1?key=k");
        assertEquals(List.of("tokenclock", "run", "--header", "A: <redacted>", "--concurrency", "2",
            "--header", "B: <redacted>", "--header", "C: <redacted>", "--ignore-eos",
            "--url", "https://<redacted>@h/v1?key=<redacted>"), command);
        assertFalse(String.join(" ", command).contains("u:p"));
    }

    @Test
    void shouldRedactTheServerMetricsUrlAsTheTargetUrl()
    {
        final List<String> command = recorded("--url", "http://h/v1", "--server-metrics",
            "http://u:p@h:9400/metrics?token=t0k", "--server-metrics-interval-ms", "250");
        assertEquals(List.of("tokenclock", "run", "--url", "http://h/v1", "--server-metrics",
            "http://<redacted>@h:9400/metrics?token=<redacted>", "--server-metrics-interval-ms", "250"), command);
        assertEquals(List.of("tokenclock", "run", "--url", "http://h/v1", "--server-metrics", "off"),
            recorded("--url", "http://h/v1", "--server-metrics", "off"));
    }

    @Test
    void shouldParseBackToTheSameOptions()
    {
        final List<String> command = recorded("--url", "http://h/v1", "--rate=4", "--arrival", "gamma",
            "--burstiness", "0.5", "--no-progress", "--stage", "1:2", "--stage", "3:4");
        final RunCommand again = new RunCommand();
        new CommandLine(again).parseArgs(command.subList(2, command.size()).toArray(String[]::new));
        assertEquals(List.of("1:2", "3:4"), again.flags.load.stage);
        assertEquals(4.0, again.spec.findOption("--rate").<Double>getValue());
        assertEquals(0.5, again.spec.findOption("--burstiness").<Double>getValue());
        assertEquals(command, recorded(command.subList(2, command.size()).toArray(String[]::new)));
    }
}
