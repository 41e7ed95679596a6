package io.tokenclock.runner;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import io.tokenclock.config.RunOptionsBuilder;
import io.tokenclock.cost.PriceModel;
import io.tokenclock.energy.PowerSourceSpec;
import io.tokenclock.fixtures.sim.SimConfig;
import io.tokenclock.fixtures.sim.SimServer;
import io.tokenclock.results.record.RecordJson;
import io.tokenclock.report.ConsoleSummary;
import io.tokenclock.report.RecordBlock;
import io.tokenclock.run.RunResult;
import io.tokenclock.testing.SimServerExtension;

/**
 * A short run against the simulated server with a price model, a wall-meter CSV aligned to the run's start (a
 * constant 250 W) and a fake powercap tree: the record's cost and energy sections are there and agree with the
 * window and the counts by the formulas of docs/COST_ENERGY.md.
 */
@Timeout(120)
final class CostEnergyIT
{
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    @RegisterExtension
    final SimServerExtension sim = new SimServerExtension();

    private RunOptionsBuilder options(final SimServer server, final Path out)
    {
        final RunOptionsBuilder o = SimServerExtension.options(server, out).maxTokens(8);
        o.concurrency(2).requests(6L).warmupRequests(2);
        o.price(new PriceModel.SelfHosted("EUR", 36, 1, 0, 1.0));
        return o;
    }

    private Path fakePowercap() throws IOException
    {
        final Path zone = Files.createDirectories(dir.resolve("powercap").resolve("intel-rapl:0"));
        Files.writeString(zone.resolve("name"), "package-0\n");
        Files.writeString(zone.resolve("max_energy_range_uj"), "262143328850\n");
        Files.writeString(zone.resolve("energy_uj"), "1000000\n");
        return dir.resolve("powercap");
    }

    @Test
    void shouldWriteConsistentCostAndEnergySections() throws Exception
    {
        final StringBuilder csv = new StringBuilder("# synthetic: a constant 250 W\nseconds,watts\n");
        for (int s = 0; s <= 600; s++)
        {
            csv.append(s).append(",250\n");
        }
        final Path meter = Files.writeString(dir.resolve("wall.csv"), csv);
        final Path out = dir.resolve("run");
        final SimServer server = sim.start(new SimConfig().prefillBaseMs(20).decodeBaseMs(5).jitter(0));
        final RunOptionsBuilder o = options(server, out);
        o.power(List.of(PowerSourceSpec.parse("meter:" + meter + ",align=run_start"),
            PowerSourceSpec.parse("rapl:" + fakePowercap())));
        final RunResult r = new BenchmarkRunner().run(o.build(), new PrintStream(new ByteArrayOutputStream()));
        assertEquals(6, r.counts().ok());

        final JsonNode record = JSON.readTree(out.resolve("record.json").toFile());
        final JsonNode rep = record.path("report");
        final double window = rep.path("window").path("duration_s").asDouble();
        assertTrue(window > 0, "a window: " + window);

        final JsonNode cost = rep.path("cost");
        assertEquals("EUR", cost.path("currency").asText());
        // 36 EUR per hour = 0.01 EUR per second of window.
        assertEquals(0.01 * window, cost.path("run_total").asDouble(), 1e-9);
        assertEquals(0.01 * window / 6, cost.path("per_request").asDouble(), 1e-9);
        assertEquals(0.01 * window / 6, cost.path("per_successful_task").asDouble(), 1e-9);
        assertEquals("completed", cost.path("success_basis").asText());
        assertEquals(0.01 * window / rep.path("counts").path("output_tokens").asLong(),
            cost.path("per_output_token").asDouble(), 1e-12);

        final JsonNode energy = rep.path("energy");
        assertEquals("wall", energy.path("boundary").asText());
        assertEquals(250 * window, energy.path("joules").asDouble(), 1e-6, "250 W over the window");
        assertEquals(0.0, energy.path("uncertainty_joules").asDouble(), 1e-9, "a constant power has no step");
        assertEquals(250.0, energy.path("average_watts").asDouble(), 1e-9);
        assertEquals(250 * window / 6, energy.path("per_request_j").asDouble(), 1e-6);
        assertEquals(rep.path("counts").path("output_tokens").asLong() / (250 * window),
            energy.path("tokens_per_joule").asDouble(), 1e-9);
        assertEquals(2, energy.path("components").size(), "the meter and the RAPL package");
        assertEquals("rapl:package-0", energy.path("components").get(0).path("channel").asText());
        assertFalse(energy.path("components").get(0).path("in_boundary").asBoolean(),
            "the CPU is inside the wall meter's boundary: " + energy.path("components"));
        assertEquals("wall (wall: meter:wall.csv)", record.path("measurement").path("power_boundary").asText());
        for (final JsonNode missing : record.path("grade").path("missing"))
        {
            assertFalse(missing.asText().contains("power_boundary"), missing.asText());
        }
        final List<String> samples = Files.readAllLines(out.resolve("power.jsonl"));
        assertTrue(samples.stream().anyMatch(l -> l.contains("\"channel\":\"rapl:package-0\"")), "RAPL sampled");
        assertTrue(samples.stream().anyMatch(l -> l.contains("\"watts\":250.0")), "the meter's samples");

        final String block = RecordBlock.render(RecordJson.of(record));
        assertTrue(block.contains("\nCOST\n") && block.contains("\nENERGY\n"), block);
        final ByteArrayOutputStream summary = new ByteArrayOutputStream();
        ConsoleSummary.print(r, new PrintStream(summary, true, StandardCharsets.UTF_8));
        final String text = summary.toString(StandardCharsets.UTF_8);
        assertTrue(text.contains("COST    EUR ") && text.contains("ENERGY  "), text);
    }

    @Test
    void shouldListThePowerBoundaryAsMissingWhenNoSourceCouldBeRead() throws Exception
    {
        final Path out = dir.resolve("run");
        final SimServer server = sim.start(new SimConfig().prefillBaseMs(5).decodeBaseMs(2).jitter(0));
        final RunOptionsBuilder o = options(server, out);
        o.power(List.of(PowerSourceSpec.parse("rapl:" + dir.resolve("no-powercap"))));
        new BenchmarkRunner().run(o.build(), new PrintStream(new ByteArrayOutputStream()));

        final JsonNode record = JSON.readTree(out.resolve("record.json").toFile());
        final JsonNode energy = record.path("report").path("energy");
        assertTrue(energy.path("joules").isNull(), "never a zero: " + energy);
        assertTrue(energy.path("unavailable").get(0).asText().startsWith("rapl: unavailable: cannot list "),
            energy.toString());
        assertTrue(record.path("measurement").path("power_boundary").isNull());
        assertEquals("local-debugging", record.path("grade").path("grade").asText());
        assertTrue(record.path("grade").path("missing").toString().contains("measurement.power_boundary"),
            record.path("grade").toString());
    }
}
