package io.tokenclock.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;

import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;

import org.junit.jupiter.api.Test;

import io.tokenclock.config.RunOption;
import io.tokenclock.config.RunOptions;
import io.tokenclock.config.RunOptionsBuilder;
import io.tokenclock.config.RunRules;
import io.tokenclock.contract.ContractSchema;
import io.tokenclock.contract.Schema;
import io.tokenclock.json.Json;
import io.tokenclock.report.RecordWriter;

/**
 * A new option is one entry: an entry this test makes, and no other edit, is a flag in {@code --help} with its doc
 * line, range and default, a key of the contract's schema holding the same range, a value the run's range check
 * refuses out of range under its flag's name and its key's, and a member of the record's copy of the options,
 * through the same generators that make every real option ({@link TableFlags#addTo}, {@link ContractSchema#of},
 * {@link RunRules#ranges}, {@link RecordWriter#options}).
 */
final class ThrowawayOptionTest
{
    private static final RunOption<Integer> THROWAWAY = RunOption.<Integer>entry("throwawayCount", Integer.class)
        .flag("--throwaway-count").key("measurement.throwaway_count").defaultsTo(3).unit("widgets").within(1, 9)
        .detached("A count no run has, made by a test.");
    private static final RunOption<Bench> WORDED = RunOption.<Bench>entry("throwawayBench",
        Bench.class).flag("--throwaway-bench").key("throwaway.bench").defaultsTo(Bench.FAST)
        .detached("A word no run has, made by a test.");
    private static final List<RunOption<?>> TABLE = List.of(THROWAWAY, WORDED);

    /** An enum no option has. */
    private enum Bench
    {
        FAST, SLOW
    }

    private static CommandSpec command()
    {
        return TableFlags.addTo(CommandSpec.create().name("throwaway"), TABLE);
    }

    @Test
    void shouldShowTheNewFlagInHelpWithItsDocLineRangeAndDefault()
    {
        final String help = new CommandLine(command()).getUsageMessage(CommandLine.Help.Ansi.OFF)
            .replaceAll("\\s+", " ");
        assertTrue(help.contains("--throwaway-count=N A count no run has, made by a test (default: 3)."), help);
        assertTrue(help.contains("--throwaway-bench=fast|slow A word no run has, made by a test (default: fast)."),
            help);
    }

    @Test
    void shouldHandTheTypedFlagToTheBuilder()
    {
        final CommandLine cli = new CommandLine(command());
        cli.parseArgs("--throwaway-count", "7", "--throwaway-bench", "SLOW");
        final RunOptionsBuilder o = RunOptions.builder();
        TableFlags.applyTo(o, new Given(cli.getParseResult(), false), cli.getCommandSpec());
        assertEquals(7, o.get(THROWAWAY));
        assertEquals(Bench.SLOW, o.get(WORDED));
    }

    @Test
    void shouldRefuseAWordTheEnumDoesNotHaveOnTheFlag()
    {
        final CommandLine cli = new CommandLine(command());
        cli.parseArgs("--throwaway-bench", "medium");
        final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class, () ->
            TableFlags.applyTo(RunOptions.builder(), new Given(cli.getParseResult(), false), cli.getCommandSpec()));
        assertEquals("--throwaway-bench must be fast or slow: medium", ex.getMessage());
    }

    @Test
    void shouldHoldTheNewKeyInTheContractSchemaWithTheSameRange() throws Exception
    {
        final Schema schema = ContractSchema.of(TABLE);
        assertEquals(List.of(), check(schema, "{\"measurement\": {\"throwaway_count\": 9}, \"throwaway\": " +
            "{\"bench\": \"slow\"}}"));
        assertEquals(List.of("measurement.throwaway_count: must be <= 9, got 10"),
            check(schema, "{\"measurement\": {\"throwaway_count\": 10}}"));
        assertEquals(List.of("throwaway.bench: must be one of fast, slow, got \"medium\""),
            check(schema, "{\"throwaway\": {\"bench\": \"medium\"}}"));
        assertNull(ContractSchema.ROOT.keys().get("measurement").keys().get("throwaway_count"),
            "a detached entry stays out of the real contract's schema");
    }

    @Test
    void shouldRefuseAValueOutOfRangeUnderTheNameTheUserWrote()
    {
        final RunOptionsBuilder flags = RunOptions.builder().set(THROWAWAY, 0);
        final IllegalArgumentException byFlag = assertThrows(IllegalArgumentException.class, () ->
            RunRules.ranges(flags, TABLE));
        assertEquals("--throwaway-count must be in [1, 9]: 0", byFlag.getMessage());
        final RunOptionsBuilder contract = RunOptions.builder().from(RunOptionsBuilder.Source.CONTRACT)
            .set(THROWAWAY, 12);
        final IllegalArgumentException byKey = assertThrows(IllegalArgumentException.class, () ->
            RunRules.ranges(contract, TABLE));
        assertEquals("measurement.throwaway_count must be in [1, 9]: 12", byKey.getMessage());
        RunRules.ranges(RunOptions.builder().set(THROWAWAY, 9), TABLE);
    }

    @Test
    void shouldCopyTheNewOptionIntoTheRecordUnderItsKey()
    {
        final RunOptions options = RunOptions.builder().set(RunOption.URL, "http://127.0.0.1:9/v1")
            .set(RunOption.CONCURRENCY, 1).build();
        final JsonNode copy = RecordWriter.options(options, TABLE);
        assertEquals(Json.MAPPER.createObjectNode().put("measurement.throwaway_count", 3)
            .put("throwaway.bench", "fast"), copy, "the entries' values (here their defaults), by key");
        final JsonNode real = RecordWriter.options(options, RunOption.all());
        assertEquals(1, real.get("load.concurrency").asInt());
        assertEquals("chat", real.get("target.endpoint").asText());
        assertNull(real.get("measurement.throwaway_count"), "a detached entry stays out of a real run's record");
    }

    private static List<String> check(final Schema schema, final String json) throws Exception
    {
        final JsonNode node = Json.MAPPER.readTree("{\"target\": {\"url\": \"http://h/v1\"}, " + json.substring(1));
        final List<String> errors = new ArrayList<>();
        schema.check("", node, errors);
        // the structure asks for target.url, which this table does not declare: its own error, not the test's
        errors.removeIf(e -> e.startsWith("target.url"));
        return errors;
    }
}
