package io.tokenclock.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import io.tokenclock.runner.Refusal;

/**
 * The slips of issue 38, each as it was seen: a sweep's record with raw doubles and no advice, compare's NaN% and
 * compare.json in the working directory and its "identified" under a refusal, report of a refusal, the command list,
 * and run's help in one flat list.
 */
final class ConsoleSlipsTest
{
    private static final Path GOLDEN = Path.of("src", "test", "resources", "io", "tokenclock", "report", "golden",
        "full-record.json");

    @RegisterExtension
    final CapturedConsole console = new CapturedConsole();

    @TempDir
    Path dir;

    @Test
    void shouldPrintASweepsOfferedLoadsAlignedAndSayWhichKneeToTrust() throws IOException
    {
        Files.createDirectories(dir.resolve("points").resolve("01-rate-2.565"));
        Files.copy(GOLDEN, dir.resolve("points").resolve("01-rate-2.565").resolve("record.json"));
        Files.writeString(dir.resolve("sweep.json"), "{\"format\": \"tokenclock-sweep/1\", \"mode\": \"auto\", " +
            "\"loop\": \"rate\", \"point_duration_s\": 30.0, \"points\": [{\"offered\": 2.5646184196596824, " +
            "\"achieved_rps\": 2.5, \"ttft_p99_ms\": 41.5, \"errors\": 0, \"cancelled\": 0, \"run_dir\": " +
            "\"points/01-rate-2.565\"}], \"knee\": {\"advice\": \"Neither knee was found: sweep higher loads.\", " +
            "\"latency_factor\": {\"offered\": null}, \"throughput_fit\": null}, \"max_rate_meeting_slo\": null}");
        assertEquals(Main.EXIT_OK, Main.execute("record", dir.toString()), console.err());
        final String out = console.out();
        assertFalse(out.contains("2.5646184196596824"), out);
        final String header = out.lines().filter(l -> l.contains("offered") && l.contains("req/s")).findFirst()
            .orElseThrow();
        final String row = out.lines().filter(l -> l.contains("2.565")).findFirst().orElseThrow();
        assertEquals(header.indexOf("req/s") + "req/s".length(), row.indexOf("2.50") + "2.50".length(),
            "the columns line up:\n" + header + "\n" + row);
        assertTrue(out.contains("which knee: Neither knee was found"), out);
        assertTrue(out.contains("sweep: " + dir + ", rate loop, 1 points of 30 s"), out);
    }

    @Test
    void shouldCompareZeroErrorsWithZeroWithoutNanAndWriteNoFileUnlessAsked() throws IOException
    {
        final Path a = Files.createDirectories(dir.resolve("a"));
        final Path b = Files.createDirectories(dir.resolve("b"));
        final String noErrors = Files.readString(GOLDEN).replace("\"error\" : 4,", "\"error\" : 0,")
            .replace("\"cancelled\" : 20,", "\"cancelled\" : 0,");
        Files.writeString(a.resolve("record.json"), noErrors);
        Files.writeString(b.resolve("record.json"), noErrors);
        final boolean before = Files.exists(Path.of("compare.json"));
        assertEquals(Main.EXIT_OK, Main.execute("compare", a.toString(), b.toString()), console.err());
        assertEquals(before, Files.exists(Path.of("compare.json")), "no compare.json in the working directory");
        final String out = console.out();
        assertFalse(out.contains("NaN"), out);
        assertTrue(out.lines().anyMatch(l -> l.startsWith("errors") && l.contains("0 vs 0")), out);
        assertFalse(out.contains("compare: "), out);
    }

    @Test
    void shouldNotSayAnEffectIsIdentifiedUnderItsOwnRefusal() throws IOException
    {
        final Path a = Files.createDirectories(dir.resolve("a"));
        final Path b = Files.createDirectories(dir.resolve("b"));
        Files.copy(GOLDEN, a.resolve("record.json"));
        Files.writeString(b.resolve("record.json"), Files.readString(GOLDEN).replaceFirst("\"hash\" : \"[0-9a-f]+\"",
            "\"hash\" : \"0000\""));
        assertEquals(Main.EXIT_INCOMPARABLE, Main.execute("compare", a.toString(), b.toString()));
        final String out = console.out();
        assertTrue(out.contains("REFUSED: "), out);
        assertFalse(out.contains("the effect of that change is identified"), out);
        assertTrue(out.contains("which makes their figures incomparable: no effect is identified"), out);
    }

    @Test
    void shouldReportARunTheServerRefusedAsRecordPrintsIt() throws IOException
    {
        final Path run = dir.resolve("refused");
        new Refusal(Refusal.Kind.STATUS, "POST http://127.0.0.1:1/v1/chat/completions", 400,
            "{\"error\": \"max_tokens is too large\"}").write(run, "refused-1", "the server refused the run (400)");
        assertEquals(Main.EXIT_OK, Main.execute("report", run.toString()), console.err());
        final String page = Files.readString(run.resolve("report.html"));
        assertTrue(page.contains("The server refused this run at its preflight") && page.contains("max_tokens is too " +
            "large"), page);
    }

    @Test
    void shouldListEveryCommandWithOneLineEachWhenGivenNone()
    {
        assertEquals(Main.EXIT_USAGE, Main.execute());
        final String err = console.err();
        final List<String> commands = List.of("run", "ab", "sweep", "demo", "serve-sim", "validate", "record", "report",
            "compare", "replay", "merge", "slurm", "k8s");
        for (final String c : commands)
        {
            final Matcher m = Pattern.compile("(?m)^  " + Pattern.quote(c) + " +\\S.*$").matcher(err);
            assertTrue(m.find(), c + " in:\n" + err);
            final int next = err.indexOf('\n', m.end());
            assertFalse(next >= 0 && next + 1 < err.length() && err.charAt(next + 1) == ' ' &&
                err.startsWith("               ", next + 1), c + " takes one line:\n" + err);
        }
    }

    @Test
    void shouldGroupRunsHelpAndShowTheDefaults()
    {
        assertEquals(Main.EXIT_OK, Main.execute("run", "--help"));
        final String help = console.out();
        int at = -1;
        for (final String heading : List.of("General:", "Target:", "Load:", "Workload and model:", "Measurement",
            "Outputs:", "Cost and energy:", "Shards"))
        {
            final int i = help.indexOf("\n" + heading);
            assertTrue(i > at, heading + " after the one before it:\n" + help);
            at = i;
        }
        assertTrue(help.indexOf("--drain-timeout") > help.indexOf("\nLoad:") && help.indexOf("--drain-timeout") <
            help.indexOf("\nWorkload and model:"), help);
        assertTrue(help.contains("(default: 60)"), "defaults shown: " + help);
        assertEquals(1, Pattern.compile("--max-tokens=").matcher(help).results().count(), "each option once");
        assertFalse(help.contains("RunOptions.") || help.contains("or null"), help);
    }
}
