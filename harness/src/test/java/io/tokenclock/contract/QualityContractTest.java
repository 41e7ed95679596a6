package io.tokenclock.contract;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.tokenclock.config.RunOptions;
import io.tokenclock.goodput.Slo;
import io.tokenclock.quality.Check;
import io.tokenclock.quality.Checks;
import io.tokenclock.quality.QualityRule;

/** The contract's quality section: SLO keys, checks and the judge, read into the run's typed rule before the run. */
final class QualityContractTest
{
    private static final String BASE = """
        target: {url: http://127.0.0.1:8000/v1}
        workload:
          dataset: {path: data.jsonl}
        load: {mode: closed, concurrency: 1, requests: 2}
        """;

    @TempDir
    Path dir;

    private ContractFile contract(final String quality) throws IOException
    {
        Files.writeString(dir.resolve("data.jsonl"), "{\"prompt\": \"What is 1 + 1?\", \"reference\": \"2\"}\n");
        Files.writeString(dir.resolve("rubric.txt"), "Be strict.");
        final Path file = dir.resolve("c.yaml");
        Files.writeString(file, BASE + quality);
        return ContractFile.load(file);
    }

    private RunOptions options(final String quality) throws IOException
    {
        return ContractOptions.apply(contract(quality), RunOptions.builder()).build();
    }

    @Test
    void shouldReadTheSloTheChecksAndTheJudge() throws IOException
    {
        final RunOptions o = options("""
            quality:
              success: finish_stop
              slo: {ttft_ms: 500, itl_ms: 100, itl_percentile: 99}
              checks:
                - {type: numeric, tolerance: 0.5}
                - {type: regex, pattern: "^[0-9]+$"}
                - {type: json_schema, schema: {type: integer}}
                - {type: command, argv: [python3, check.py, --strict], timeout_s: 5}
              judge: {url: "http://127.0.0.1:9000/v1", model: j, revision: r1, rubric_file: rubric.txt, samples: 3,
                      aggregation: all, abstain: exclude}
            """);
        final QualityRule rule = o.quality().rule();
        assertEquals(new Slo(500_000_000, 0, 100_000_000, 99, 0), o.quality().slo());
        assertEquals(List.of("numeric", "regex", "json_schema", "command", "finish_stop"), rule.effectiveChecks()
            .stream().map(Check::name).toList());
        assertEquals("Be strict.", rule.judge().rubric(), "read from the file beside the contract, before the run");
        assertEquals(3, rule.judge().samples());
        assertEquals("exclude", rule.judge().abstain());
        assertEquals("fail", rule.judge().onError(), "the default");
        assertTrue(o.quality().goodput());
    }

    @Test
    void shouldRejectWhatACheckOrTheJudgeLacks() throws IOException
    {
        assertTrue(contract("quality: {checks: [{type: fuzzy}]}\n").errors().get(0).startsWith(
            "quality.checks[0].type: must be one of exact"), contract("quality: {checks: [{type: fuzzy}]}\n")
            .errors().toString());
        assertEquals(List.of("quality.checks[0].argv: required for a command check (the program and its " +
            "arguments; no shell)"), contract("quality: {checks: [{type: command}]}\n").errors());
        assertEquals(List.of("quality.checks[0]: json_schema needs exactly one of schema and schema_file"),
            contract("quality: {checks: [{type: json_schema}]}\n").errors());
        assertEquals(List.of("quality.judge: needs exactly one of rubric (text) and rubric_file (a path)"),
            contract("quality: {judge: {url: \"http://x/v1\", model: j}}\n").errors());
        assertTrue(contract("quality: {slo: {itl_ms: 10, itl_percentile: 0}}\n").errors().get(0).startsWith(
            "quality.slo.itl_percentile: must be > 0"));
        final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class,
            () -> options("quality: {slo: {ttft_ms: 10, itl_percentile: 99}}\n"));
        assertEquals("an ITL percentile needs an ITL bound (itl_ms, --slo-itl-ms)", ex.getMessage());
    }

    @Test
    void shouldRefuseAReferenceCheckWithoutADataset()
    {
        final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class, () -> RunOptions.builder()
            .url("http://127.0.0.1:8000/v1").concurrency(1).qualityChecks(List.of(Checks.fromFlag("exact")))
            .build());
        assertTrue(ex.getMessage().startsWith("--quality-check: exact compares each output with its reference"),
            ex.getMessage());
        assertNull(RunOptions.builder().url("http://127.0.0.1:8000/v1").concurrency(1).build().quality().slo());
    }
}
