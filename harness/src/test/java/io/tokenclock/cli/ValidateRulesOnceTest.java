package io.tokenclock.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import io.tokenclock.config.RunOption;

/**
 * A load rule lives once, in {@code config.RunRules}: {@code tokenclock validate} of a contract that breaks it and
 * {@code tokenclock run} with the flags that say the same give the same line, the one naming each option by its
 * contract key, the other by its flag, both names taken from {@link RunOption}'s table (several options may share a
 * key, such as the two kinds of {@code load.stages}, never a flag: the flags' line is the one translated).
 */
final class ValidateRulesOnceTest
{
    /** Nothing listens there, and nothing is sent: the rules refuse both before the probe. */
    private static final String URL = "http://127.0.0.1:9/v1";

    @RegisterExtension
    final CapturedConsole console = new CapturedConsole();

    @TempDir
    Path dir;

    /** A contract's load section (and any sections written after it) and the run flags that say the same. */
    static Stream<String[]> sameLoads()
    {
        return Stream.of(
            new String[] {"{rate: 2, concurrency: 4, requests: 5}", "--rate 2 --concurrency 4 --requests 5"},
            new String[] {"{requests: 5}", "--requests 5"},
            new String[] {"{rate: 2, arrival: poisson, burstiness: 0.5, requests: 5}",
                "--rate 2 --arrival poisson --burstiness 0.5 --requests 5"},
            new String[] {"{concurrency: 2, stages: [{rate: 3, duration_s: 1}]}", "--concurrency 2 --stage 3:1"},
            new String[] {"{rate: 2, ramp: {from: 1, to: 2, duration_s: 1}}", "--rate 2 --ramp 1:2:1"},
            new String[] {"{fixed_schedule: true, duration_s: 5, ramp: {from: 1, to: 2, duration_s: 1}}",
                "--fixed-schedule --duration 5 --ramp 1:2:1"},
            new String[] {"{scenario: server, concurrency: 2}", "--scenario server --concurrency 2"},
            new String[] {"{scenario: offline, requests: 5, duration_s: 5}",
                "--scenario offline --requests 5 --duration 5"},
            // the open loop's own options beside another load
            new String[] {"{concurrency: 2, arrival: poisson, requests: 5}",
                "--concurrency 2 --arrival poisson --requests 5"},
            new String[] {"{concurrency: 2, burstiness: 2, max_concurrency: 4, requests: 5}",
                "--concurrency 2 --burstiness 2 --max-concurrency 4 --requests 5"},
            new String[] {"{scenario: offline, requests: 5, max_concurrency: 2}",
                "--scenario offline --requests 5 --max-concurrency 2"},
            new String[] {"{users: 2, requests: 5, arrival: constant}\nworkload: {sessions: {turns: {dist: fixed, " +
                "value: 2}}}", "--users 2 --requests 5 --arrival constant"},
            // a section after the load's: a cancellation that never says when
            new String[] {"{concurrency: 2, requests: 5}\nworkload: {cancellation: {rate: 0.5}}",
                "--concurrency 2 --requests 5 --cancel-rate 0.5"});
    }

    @ParameterizedTest
    @MethodSource("sameLoads")
    void shouldRefuseAContractAndTheSameFlagsWithOneRuleNamedTheirWay(final String load, final String flags)
        throws Exception
    {
        final Path contract = dir.resolve("c.yaml");
        Files.writeString(contract, "target: {url: '" + URL + "'}\nload: " + load + "\n");
        assertEquals(Main.EXIT_USAGE, Main.execute("validate", contract.toString()));
        final String validated = oneLine(console.err()).replace(contract + ": ", "");
        console.resetErr();

        final List<String> args = new ArrayList<>(List.of("run", "--url", URL));
        args.addAll(List.of(flags.split(" ")));
        assertEquals(Main.EXIT_USAGE, Main.execute(args.toArray(String[]::new)));
        final String run = oneLine(console.err());

        assertEquals(validated, byKeys(run), "the flags' line, its flags named by their contract keys");
        assertNotEquals(run, validated, "each names the options as its user wrote them");
    }

    private static String oneLine(final String err)
    {
        final List<String> lines = err.lines().toList();
        assertEquals(1, lines.size(), "one line: " + err);
        return lines.get(0);
    }

    /** @return the line with each flag that is also a contract key replaced by that key, from the option table. */
    private static String byKeys(final String line)
    {
        String named = line;
        for (final RunOption<?> option : RunOption.all())
        {
            if (option.key() != null && option.flag() != null)
            {
                named = named.replaceAll(Pattern.quote(option.flag()) + "(?![\\w-])",
                    Matcher.quoteReplacement(option.key()));
            }
        }
        return named;
    }
}
