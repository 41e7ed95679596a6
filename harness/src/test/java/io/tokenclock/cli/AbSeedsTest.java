package io.tokenclock.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.tokenclock.config.RunOptions;
import io.tokenclock.report.AbReport;
import io.tokenclock.run.MinimalRuns;
import io.tokenclock.run.RunResult;

/**
 * {@code tokenclock ab}: each pair of runs draws its own workload and arrivals (one seed per pair, the same for A and
 * B within it), so a difference is not an artefact of replaying one schedule; and a figure that is 0 in both variants
 * compares as such, not as NaN%.
 */
final class AbSeedsTest
{
    private static final Path BASE = Path.of("/tmp/ab");

    @TempDir
    Path dir;

    @Test
    void shouldGiveEveryPairItsOwnSeedAndBothVariantsOfAPairTheSame()
    {
        final RunOptions a = RunOptions.builder().url("http://127.0.0.1:8000/v1").rate(4.0).durationS(10.0).seed(42)
            .build();
        final RunOptions b = a.toBuilder().maxConcurrency(8).build();
        final Set<Long> seeds = new HashSet<>();
        for (int k = 1; k <= 5; k++)
        {
            final long seedA = AbCommand.variant(a, "A", k, 42, BASE).workload().seed();
            assertEquals(seedA, AbCommand.variant(b, "B", k, 42, BASE).workload().seed(), "pair " + k);
            seeds.add(seedA);
        }
        assertEquals(5, seeds.size(), "five pairs, five seeds: " + seeds);
        assertEquals(AbCommand.pairSeed(42, 3), AbCommand.variant(a, "A", 3, 42, BASE).workload().seed(),
            "derived from the base seed and the pair alone");
        assertNotEquals(AbCommand.pairSeed(42, 3), AbCommand.pairSeed(43, 3));
    }

    @Test
    void shouldCompareAFigureThatIsZeroInBothVariantsWithoutNaN() throws IOException
    {
        final RunOptions o = RunOptions.builder().url("http://127.0.0.1:8000/v1").rate(4.0).durationS(10.0).build();
        final List<RunResult> runs = List.of(MinimalRuns.of(o, 40, 400), MinimalRuns.of(o, 42, 420));
        final ByteArrayOutputStream console = new ByteArrayOutputStream();
        final Path file = dir.resolve("ab.json");
        try (PrintStream out = new PrintStream(console, true, StandardCharsets.UTF_8))
        {
            AbReport.write(Path.of("a.yaml"), Path.of("b.yaml"), List.of("A", "B", "B", "A"), runs, runs, file, out);
        }
        final String printed = console.toString(StandardCharsets.UTF_8);
        assertFalse(printed.contains("NaN"), printed);
        final String errorsLine = printed.lines().filter(l -> l.startsWith("errors")).findFirst().orElseThrow();
        assertTrue(errorsLine.contains("0 vs 0"), errorsLine);
        final JsonNode errors = new ObjectMapper().readTree(file.toFile()).path("figures").path("errors");
        assertTrue(errors.path("relative").isNull(), "no relative difference from a base of 0: " + errors);
    }
}
