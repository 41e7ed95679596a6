package io.tokenclock.compare;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Consumer;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.node.ObjectNode;

import io.tokenclock.results.record.RecordJson;
import io.tokenclock.results.Result;
import io.tokenclock.results.Results;

/** compare's contract diff, its refusal rules, and its figures, on records in the golden shape. */
final class CompareTest
{
    private static final Path GOLDEN = Path.of("src", "test", "resources", "io", "tokenclock", "report", "golden",
        "full-record.json");

    @TempDir
    Path dir;

    @Test
    void shouldCallTheSameContractTheSameAndGiveNoIntervalForOneRunASide() throws IOException
    {
        final CompareJson c = Comparison.of(List.of(run("a", r -> {}), run("b", r -> {})), false);
        final CompareJson.Pair p = c.comparisons().get(0);
        assertEquals("same", p.verdict());
        assertFalse(c.refused());
        assertNull(p.figures().get("ttft_p99_ms").ci95());
        assertEquals(0.0, p.figures().get("ttft_p99_ms").difference());
    }

    @Test
    void shouldSayTheEffectIsIdentifiedWhenExactlyOneVariableChanged() throws IOException
    {
        final CompareJson c = Comparison.of(List.of(run("a", r -> {}),
            run("b", r -> load(r).put("rate_per_s", 24.0).put("schedule_hash", "other"))), false);
        final CompareJson.Pair p = c.comparisons().get(0);
        assertEquals("one-variable", p.verdict(), p.differences().toString());
        assertTrue(p.sentence().contains("A load.rate_per_s"), p.sentence());
        assertEquals(2, p.differences().size(), "the schedule hash follows, listed but not counted");
    }

    @Test
    void shouldSayWholeStacksAreComparedWhenSeveralVariablesChanged() throws IOException
    {
        final CompareJson c = Comparison.of(List.of(run("a", r -> {}), run("b", r ->
        {
            load(r).put("rate_per_s", 24.0);
            ((ObjectNode)r.path("model")).put("name", "other-model");
            ((ObjectNode)r.path("hardware")).putObject("server_declared").put("accelerators", "8x H200");
        })), false);
        final CompareJson.Pair p = c.comparisons().get(0);
        assertEquals("whole-stack", p.verdict());
        assertTrue(p.sentence().contains("in A, M, H: whole stacks are compared"), p.sentence());
    }

    @Test
    void shouldRefuseAPairWithAnotherTokenizerAndNameTheRule() throws IOException
    {
        final CompareJson c = Comparison.of(List.of(run("a", r -> {}),
            run("b", r -> ((ObjectNode)r.path("model")).put("tokenizer", "o200k_base"))), false);
        assertTrue(c.refused());
        final CompareJson.Pair p = c.comparisons().get(0);
        assertEquals(List.of("token counting"), p.brokenRules());
        assertTrue(p.figures().isEmpty(), "no figures for a refused pair");
        assertTrue(p.differences().get(0).line().contains("cl100k_base -> o200k_base [token counting]"),
            p.differences().get(0).line());
    }

    @Test
    void shouldRefuseEachOfTheEightRulesByItsOwnFact() throws IOException
    {
        final List<Consumer<ObjectNode>> changes = List.of(
            r -> measurement(r).put("first_token_rule", "first chunk of any kind"),
            r -> measurement(r).put("token_counts", "chunks"),
            r -> ((ObjectNode)r.path("tokenclock")).put("formulas_version", "tokenclock-metrics/0"),
            r -> measurement(r).put("histograms", "linear interpolation over the samples"),
            r -> ((ObjectNode)r.path("workload")).put("hash", "0000"),
            r -> load(r).put("mode", "closed"),
            r -> load(r).put("warmup_requests", 0),
            r -> load(r).put("idle_timeout_s", 5.0));
        for (int i = 0; i < changes.size(); i++)
        {
            final CompareJson c = Comparison.of(List.of(run("a" + i, r -> {}), run("b" + i, changes.get(i))), false);
            assertEquals(List.of(Facts.RULES.get(i)), c.comparisons().get(0).brokenRules(), "rule " + i);
        }
    }

    @Test
    void shouldNotRefuseAWorkloadHashThatFollowsFromAChangedDecoding() throws IOException
    {
        final CompareJson c = Comparison.of(List.of(run("a", r -> {}), run("b", r ->
        {
            ((ObjectNode)r.path("model").path("decoding")).put("max_tokens", 64);
            ((ObjectNode)r.path("workload")).put("hash", "0000");
        })), false);
        assertFalse(c.refused(), c.comparisons().get(0).differences().toString());
        assertEquals("one-variable", c.comparisons().get(0).verdict());
    }

    @Test
    void shouldNameAnotherApiAsAChangeOfTheWholeRequestInW() throws IOException
    {
        final CompareJson c = Comparison.of(List.of(run("a", r -> {}), run("b", r ->
        {
            ((ObjectNode)r.path("runtime")).put("api", "messages").put("endpoint", "http://127.0.0.1:8000/v1/messages");
            ((ObjectNode)r.path("workload")).put("hash", "0000");
        })), false);
        final CompareJson.Pair p = c.comparisons().get(0);
        assertFalse(c.refused(), "the hash follows from the API: " + p.differences());
        assertEquals("one-variable", p.verdict(), p.differences().toString());
        assertTrue(p.sentence().contains("W runtime.api"), p.sentence());
        assertEquals("W runtime.api: chat -> messages", p.differences().get(0).line());
    }

    @Test
    void shouldCompareARefusedPairWhenForcedAndSaySo() throws IOException
    {
        final CompareJson c = Comparison.of(List.of(run("a", r -> {}),
            run("b", r -> load(r).put("mode", "closed"))), true);
        assertTrue(c.forced());
        assertFalse(c.comparisons().get(0).figures().isEmpty());
    }

    @Test
    void shouldGiveAnIntervalWhenBothSidesHaveRepetitions() throws IOException
    {
        final Path a = dir.resolve("a");
        final Path b = dir.resolve("b");
        for (int k = 1; k <= 3; k++)
        {
            final double ttft = 40 + k;
            write(a.resolve("rep-" + k), r -> p99(r, ttft));
            write(b.resolve("rep-" + k), r -> p99(r, ttft + 100));
        }
        Files.writeString(a.resolve("repetitions.json"), "{}");
        Files.writeString(b.resolve("repetitions.json"), "{}");
        final CompareJson c = Comparison.of(List.of(Results.open(a), Results.open(b)), false);
        final CompareJson.Figure f = c.comparisons().get(0).figures().get("ttft_p99_ms");
        assertNotNull(f.ci95());
        assertEquals(100.0, f.difference(), 1e-9);
        assertTrue(f.exceedsNoise());
        assertEquals(List.of(3, 3), c.comparisons().get(0).samples());
    }

    private static void p99(final ObjectNode r, final double ttft)
    {
        ((ObjectNode)r.path("report").path("distributions").path("ttft")).put("p99", ttft);
    }

    private static ObjectNode load(final ObjectNode r)
    {
        return (ObjectNode)r.path("load");
    }

    private static ObjectNode measurement(final ObjectNode r)
    {
        return (ObjectNode)r.path("measurement");
    }

    private Result run(final String name, final Consumer<ObjectNode> change) throws IOException
    {
        final Path at = dir.resolve(name);
        write(at, change);
        return Results.open(at);
    }

    private static void write(final Path at, final Consumer<ObjectNode> change) throws IOException
    {
        Files.createDirectories(at);
        final ObjectNode r = (ObjectNode)RecordJson.JSON.readTree(GOLDEN.toFile());
        change.accept(r);
        Files.write(at.resolve("record.json"), RecordJson.JSON.writeValueAsBytes(r));
    }
}
