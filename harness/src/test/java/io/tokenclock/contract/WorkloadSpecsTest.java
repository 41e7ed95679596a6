package io.tokenclock.contract;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.tokenclock.config.AgentSpec;
import io.tokenclock.config.LengthSpec;
import io.tokenclock.config.RunOptions;
import io.tokenclock.config.SegmentSpec;
import io.tokenclock.goodput.Slo;
import io.tokenclock.workload.dist.Empirical;
import io.tokenclock.workload.dist.LogNormal;

/**
 * The workload's structured contract keys become typed configuration when the contract is read: distributions
 * parsed, files read and resolved against the contract's directory, defaults filled, declarations kept verbatim.
 */
final class WorkloadSpecsTest
{
    @TempDir
    Path dir;

    private RunOptions.Workload workload(final String yaml) throws IOException
    {
        final Path file = dir.resolve("c.yaml");
        Files.writeString(file, "target: {url: http://127.0.0.1:8000/v1}\n" + yaml);
        final ContractFile contract = ContractFile.load(file);
        assertTrue(contract.isValid(), contract.errors().toString());
        return ContractOptions.apply(contract, RunOptions.builder()).build().workload();
    }

    @Test
    void shouldTypeLengthDistributionsAndKeepTheirDeclarationAsWritten() throws IOException
    {
        final RunOptions.Workload w = workload("""
            load: {mode: closed, concurrency: 1, requests: 1}
            workload:
              input_tokens: {dist: lognormal, median: 512, sigma: 0.6, max: 4096}
              output_tokens: {dist: fixed, value: 64}
            """);

        assertTrue(w.inputLengths().distribution() instanceof LogNormal, w.inputLengths().toString());
        assertEquals(Map.of("dist", "lognormal", "median", 512, "sigma", 0.6, "max", 4096),
            w.inputLengths().declared());
        assertEquals(LengthSpec.fixed(64).declared(), w.outputLengths().declared());
        assertEquals(64, w.outputLengths().distribution().quantile(0.5));
    }

    @Test
    void shouldReadAnEmpiricalFileRelativeToTheContractWhenTheContractIsRead() throws IOException
    {
        Files.writeString(dir.resolve("lens.txt"), "10\n20\n20\n");

        final RunOptions.Workload w = workload("""
            load: {mode: closed, concurrency: 1, requests: 1}
            workload: {input_tokens: {dist: empirical, file: lens.txt}}
            """);

        assertTrue(w.inputLengths().distribution() instanceof Empirical);
        assertEquals(20, w.inputLengths().distribution().quantile(0.9));
        assertEquals("lens.txt", w.inputLengths().declared().get("file"), "the record echoes what the user wrote");
    }

    @Test
    void shouldTypeSegmentsWithTheirOwnSloAndExtraBody() throws IOException
    {
        final RunOptions.Workload w = workload("""
            load: {mode: closed, concurrency: 1, requests: 1}
            workload:
              segments:
                - {name: chat, weight: 0.75, input_tokens: {dist: fixed, value: 100}, slo: {ttft_ms: 250}}
                - {name: extract, weight: 0.25, input_tokens: {dist: fixed, value: 900},
                   output_tokens: {dist: fixed, value: 20}, correlation: 0.5, extra_body: {top_k: 5}}
            """);

        final List<SegmentSpec> segments = w.segments();
        assertEquals(List.of("chat", "extract"), segments.stream().map(SegmentSpec::name).toList());
        assertEquals(Slo.ofMillis(250.0, null, null), segments.get(0).slo());
        assertNull(segments.get(0).outputLengths());
        assertNull(segments.get(0).extraBody());
        assertNull(segments.get(1).slo());
        assertEquals(0.5, segments.get(1).correlation());
        assertEquals("{\"top_k\":5}", segments.get(1).extraBody());
        assertThrows(UnsupportedOperationException.class, () -> w.segments().clear(), "options are immutable");
    }

    @Test
    void shouldFillAnAgentsDefaultsAndResolveItsResultsFile() throws IOException
    {
        final RunOptions.Workload w = workload("""
            load: {mode: users, users: 2, requests: 4}
            workload:
              agent: {max_steps: 3, tool_command: [sh, -c, cat], tool_results_file: results.txt,
                      tool_result_tokens: {dist: uniform, min: 10, max: 20}}
            """);

        final AgentSpec a = w.agent();
        assertEquals(3, a.maxSteps());
        assertEquals(AgentSpec.DEFAULT_MAX_RETRIES, a.maxRetries());
        assertEquals(List.of("sh", "-c", "cat"), a.toolCommand());
        assertEquals(AgentSpec.DEFAULT_TOOL_TIMEOUT_MS, a.toolTimeoutMs());
        assertEquals(dir.toAbsolutePath().resolve("results.txt"), a.toolResultsFile());
        assertEquals(LengthSpec.fixed(AgentSpec.DEFAULT_TOOL_LATENCY_MS).declared(), a.toolLatencyMs().declared());
        assertEquals(Map.of("dist", "uniform", "min", 10, "max", 20), a.toolResultTokens().declared());
        assertNull(a.tools(), "the default search tool");
        assertEquals(List.of(), a.toolPassEnv(), "the tool gets the basic variables only");
    }

    @Test
    void shouldReadTheVariablesATheToolCommandMayGet() throws IOException
    {
        final RunOptions.Workload w = workload("""
            load: {mode: users, users: 2, requests: 4}
            workload:
              agent: {tool_command: [sh, -c, cat], tool_pass_env: [SEARCH_INDEX, TOOL_DB]}
            """);
        assertEquals(List.of("SEARCH_INDEX", "TOOL_DB"), w.agent().toolPassEnv());
    }

    @Test
    void shouldCopyADeclarationSoThatTheCallersMapCannotChangeIt()
    {
        final Map<String, Object> declared = new HashMap<>(Map.of("dist", "fixed", "value", 3));
        final LengthSpec spec = new LengthSpec(LengthSpec.fixed(3).distribution(), declared);

        declared.put("value", 4);

        assertEquals(3, spec.declared().get("value"));
        assertThrows(UnsupportedOperationException.class, () -> spec.declared().put("value", 5));
        assertFalse(spec.declared().containsKey("extra"));
    }
}
