package io.tokenclock.quality;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Each built-in check on outputs whose verdicts are obvious by reading them, and the rule that combines them. */
final class ChecksTest
{
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    private static Sample sample(final String output, final String reference)
    {
        return new Sample(1, "What is 40 + 2?", output, reference, "stop");
    }

    private static Check check(final String spec) throws Exception
    {
        return Checks.fromSpec(JSON.readTree(spec), null);
    }

    private static boolean passes(final Check c, final String output, final String reference)
    {
        return c.check(sample(output, reference)).pass();
    }

    @Test
    void shouldCompareExactlyAfterNormalizingOrAsASubstring() throws Exception
    {
        assertTrue(passes(check("{\"type\": \"exact\"}"), "42", "42"));
        assertFalse(passes(check("{\"type\": \"exact\"}"), "42 ", "42"));
        assertTrue(passes(check("{\"type\": \"normalized\"}"), "  The  Answer: Paris! ", "the answer paris"));
        assertFalse(passes(check("{\"type\": \"normalized\"}"), "Lyon", "Paris"));
        assertTrue(passes(check("{\"type\": \"contains\"}"), "It is Paris, of course.", "Paris"));
        assertFalse(passes(check("{\"type\": \"contains\"}"), "It is paris.", "Paris"));
    }

    @Test
    void shouldFailEveryReferenceCheckWithoutAReferenceForItsOwnReason() throws Exception
    {
        for (final String type : List.of("exact", "normalized", "contains", "numeric", "regex"))
        {
            final Outcome o = check("{\"type\": \"" + type + "\"}").check(sample("42", null));
            assertFalse(o.pass(), type);
            assertEquals("no_reference", o.reason(), type);
        }
    }

    @Test
    void shouldMatchAPatternOrTheReferenceReadAsOne() throws Exception
    {
        assertTrue(passes(check("{\"type\": \"regex\", \"pattern\": \"^\\\\d+$\"}"), "42", null));
        assertFalse(passes(check("{\"type\": \"regex\", \"pattern\": \"^\\\\d+$\"}"), "forty-two", null));
        assertTrue(passes(check("{\"type\": \"regex\"}"), "the answer is 42.", "4[0-9]"));
        assertEquals("regex_invalid", check("{\"type\": \"regex\"}").check(sample("x", "(")).reason());
        assertThrows(IllegalArgumentException.class, () -> check("{\"type\": \"regex\", \"pattern\": \"(\"}"));
    }

    @Test
    void shouldReadTheLastNumberAndAllowTheTolerance() throws Exception
    {
        final Check strict = check("{\"type\": \"numeric\"}");
        assertTrue(passes(strict, "40 + 2 = 42", "42"));
        assertTrue(passes(strict, "1,234", "1234"));
        assertFalse(passes(strict, "41", "42"));
        assertEquals("expected 42, got 41", strict.check(sample("41", "42")).detail());
        assertFalse(passes(strict, "no idea", "42"));
        final Check loose = check("{\"type\": \"numeric\", \"tolerance\": 0.5, \"relative\": 0.01}");
        assertTrue(passes(loose, "42.5", "42"), "|42.5 - 42| = 0.5 <= max(0.5, 0.42)");
        assertFalse(passes(loose, "42.6", "42"));
        assertTrue(passes(loose, "1009", "1000"), "|1009 - 1000| = 9 <= max(0.5, 10)");
        assertFalse(passes(loose, "1011", "1000"));
    }

    @Test
    void shouldParseJsonAndValidateItAgainstASchema() throws Exception
    {
        assertTrue(passes(check("{\"type\": \"json\"}"), " {\"a\": 1} ", null));
        assertFalse(passes(check("{\"type\": \"json\"}"), "{\"a\": ", null));
        assertFalse(passes(check("{\"type\": \"json\"}"), "  ", null));
        final String schema = "{\"type\": \"object\", \"required\": [\"answer\"], \"properties\": " +
            "{\"answer\": {\"type\": \"integer\"}}}";
        final Check inline = check("{\"type\": \"json_schema\", \"schema\": " + schema + "}");
        assertTrue(passes(inline, "{\"answer\": 42}", null));
        assertEquals("json_schema", inline.check(sample("{\"answer\": \"42\"}", null)).reason());
        assertEquals("json", inline.check(sample("answer: 42", null)).reason());
        final Path file = dir.resolve("schema.json");
        Files.writeString(file, schema);
        final Check fromFile = Checks.fromFlag("json_schema=" + file);
        assertFalse(passes(fromFile, "{}", null));
        assertThrows(IllegalArgumentException.class, () -> check("{\"type\": \"json_schema\", \"schema\": " +
            "{\"type\": 12}}").check(sample("{}", null)));
    }

    @Test
    void shouldJudgeTheFinishReasonWithoutTheText() throws Exception
    {
        final Check stop = check("{\"type\": \"finish_stop\"}");
        assertFalse(stop.needsText());
        assertTrue(stop.check(new Sample(1, null, "", null, "stop")).pass());
        assertEquals("finish_stop", stop.check(new Sample(1, null, "", null, "length")).reason());
    }

    @Test
    void shouldRunACommandWithTheSampleOnStdinAndTakeExitZeroAsAPass() throws Exception
    {
        final Path script = dir.resolve("check.sh");
        Files.writeString(script, "input=$(cat)\ncase \"$input\" in *'\"output\":\"42\"'*) exit 0;; esac\nexit 3\n");
        final Check c = Checks.fromSpec(JSON.readTree("{\"type\": \"command\", \"argv\": [\"sh\", \"" + script +
            "\"]}"), null);
        assertTrue(passes(c, "42", "42"));
        final Outcome wrong = c.check(sample("41; rm -rf /", "42"));
        assertEquals("command", wrong.reason());
        assertEquals("exit status 3", wrong.detail());
        final Path slow = dir.resolve("slow.sh");
        Files.writeString(slow, "sleep 5\n");
        final Check timed = Checks.fromSpec(JSON.readTree("{\"type\": \"command\", \"argv\": [\"sh\", \"" + slow +
            "\"], \"timeout_s\": 0.2}"), null);
        assertEquals("command_timeout", timed.check(sample("42", "42")).reason());
        final Check missing = Checks.fromFlag("command=" + dir.resolve("no-such-program"));
        assertEquals("command_error", missing.check(sample("42", "42")).reason());
    }

    @Test
    void shouldGiveTheCommandOnlyTheBasicEnvironmentAndTheVariablesTheContractLetsThrough() throws Exception
    {
        // a variable of this JVM's environment that is none of the basic ones a checker always gets
        final String other = System.getenv().keySet().stream().filter(n -> n.matches("[A-Za-z_][A-Za-z0-9_]*") &&
            !List.of("PATH", "HOME", "LANG", "LC_ALL", "LC_CTYPE", "TZ", "TMPDIR", "USER", "LOGNAME", "PWD", "SHLVL",
                "OLDPWD", "_").contains(n)).sorted().findFirst().orElseThrow();
        final Path dump = dir.resolve("env.txt");
        final String argv = "\"argv\": [\"sh\", \"-c\", \"env > " + dump + "\"]";
        final Check closed = check("{\"type\": \"command\", " + argv + "}");
        assertTrue(closed.check(sample("42", "42")).pass());
        final String env = Files.readString(dump);
        assertTrue(env.contains("PATH="), env);
        assertFalse(env.lines().anyMatch(l -> l.startsWith(other + "=")), other + " was passed: " + env);

        final Check open = check("{\"type\": \"command\", " + argv + ", \"pass_env\": [\"" + other + "\"]}");
        assertTrue(open.check(sample("42", "42")).pass());
        assertTrue(Files.readString(dump).lines().anyMatch(l -> l.startsWith(other + "=")), Files.readString(dump));
        assertEquals("[\"" + other + "\"]", open.describe().path("pass_env").toString());
    }

    @Test
    void shouldReadFlagsAndRefuseUnknownTypes()
    {
        assertEquals("numeric", Checks.fromFlag("numeric=0.01").name());
        assertEquals("exact", Checks.fromFlag("EXACT").name());
        assertThrows(IllegalArgumentException.class, () -> Checks.fromFlag("fuzzy"));
        assertThrows(IllegalArgumentException.class, () -> Checks.fromFlag("exact=1"));
        assertThrows(IllegalArgumentException.class, () -> Checks.fromFlag("numeric=-1"));
        assertThrows(IllegalArgumentException.class, () -> Checks.fromFlag("json_schema"));
    }

    @Test
    void shouldCountEveryFailedCheckAndAddFinishStopForThatCriterion() throws Exception
    {
        final QualityRule rule = new QualityRule("finish_stop", List.of(check("{\"type\": \"numeric\"}"),
            check("{\"type\": \"contains\"}")), null);
        assertEquals(List.of("numeric", "contains", "finish_stop"), rule.effectiveChecks().stream().map(Check::name)
            .toList());
        final QualityEvaluator.Result r = QualityEvaluator.evaluate(rule, List.of(
            new Sample(1, null, "42", "42", "stop"),
            new Sample(2, null, "41", "42", "stop"),
            new Sample(3, null, "41", "42", "length")));
        assertEquals(3, r.report().checked());
        assertEquals(1, r.report().success());
        assertEquals(Map.of("numeric", 2L, "contains", 2L, "finish_stop", 1L), r.report().failuresByReason());
        assertEquals(List.of("numeric", "contains", "finish_stop"), r.verdicts().get(3L).reasons());
        assertTrue(r.verdicts().get(1L).pass());
        assertFalse(QualityRule.NONE.judgesOutputs());
        assertFalse(new QualityRule("completed", List.of(), null).judgesOutputs());
    }
}
