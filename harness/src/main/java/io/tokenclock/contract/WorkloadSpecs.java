package io.tokenclock.contract;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.tokenclock.config.AgentSpec;
import io.tokenclock.config.LengthSpec;
import io.tokenclock.config.SegmentSpec;
import io.tokenclock.goodput.Slo;
import io.tokenclock.json.Json;
import io.tokenclock.secrets.ChildEnvironment;

/**
 * Turns the workload's structured contract keys (length distributions, segments, agents) into the typed
 * configuration, once, when the contract is read: relative file paths are resolved against the contract's directory
 * and length files are read here, so a bad one fails the contract's check, not the run. Call only on nodes the schema
 * accepted.
 */
final class WorkloadSpecs
{
    private static final ObjectMapper JSON = Json.MAPPER;
    private static final TypeReference<Map<String, Object>> MAP = new TypeReference<>()
    {
    };

    private WorkloadSpecs()
    {
    }

    /** @return the spec of a distribution node, or null when the node is missing. */
    static LengthSpec lengths(final JsonNode node, final Path baseDir)
    {
        if (node == null || node.isMissingNode() || node.isNull())
        {
            return null;
        }
        return new LengthSpec(LengthSpecs.parse(node, baseDir), JSON.convertValue(node, MAP));
    }

    /** @return the segments of {@code workload.segments}. */
    static List<SegmentSpec> segments(final JsonNode segments, final Path baseDir)
    {
        final List<SegmentSpec> specs = new ArrayList<>();
        for (final JsonNode s : segments)
        {
            specs.add(new SegmentSpec(s.get("name").asText(), s.get("weight").asDouble(),
                lengths(s.get("input_tokens"), baseDir), lengths(s.get("output_tokens"), baseDir),
                s.path("correlation").asDouble(0.0), s.has("extra_body") ? s.get("extra_body").toString() : null,
                slo(s.path("slo"))));
        }
        return specs;
    }

    /** @return the agents of {@code workload.agent}, with {@link AgentSpec}'s defaults where the contract is silent. */
    static AgentSpec agent(final JsonNode a, final Path baseDir)
    {
        final List<String> command = new ArrayList<>();
        a.path("tool_command").forEach(part -> command.add(part.asText()));
        final List<String> passEnv = new ArrayList<>();
        a.path("tool_pass_env").forEach(name -> passEnv.add(name.asText()));
        return new AgentSpec(a.has("tools") ? a.get("tools").toString() : null,
            a.path("max_steps").asInt(AgentSpec.DEFAULT_MAX_STEPS),
            a.path("max_retries").asInt(AgentSpec.DEFAULT_MAX_RETRIES), command,
            a.path("tool_timeout_ms").asDouble(AgentSpec.DEFAULT_TOOL_TIMEOUT_MS),
            a.hasNonNull("tool_results_file") ? resolve(baseDir, a.get("tool_results_file").asText()) : null,
            lengths(a.get("tool_latency_ms"), baseDir), lengths(a.get("tool_result_tokens"), baseDir),
            ChildEnvironment.passEnv("workload.agent.tool_pass_env", passEnv));
    }

    /** @return the SLO an {@code slo} node declares ({@code quality.slo} or a segment's), or null for none. */
    static Slo slo(final JsonNode slo)
    {
        return slo.isObject() ? Slo.ofMillis(number(slo, "ttft_ms"), number(slo, "tpot_ms"), number(slo, "itl_ms"),
            number(slo, "itl_percentile"), number(slo, "e2e_ms")) : null;
    }

    private static Double number(final JsonNode node, final String field)
    {
        return node.hasNonNull(field) ? node.get(field).asDouble() : null;
    }

    private static Path resolve(final Path baseDir, final String file)
    {
        return baseDir == null ? Path.of(file) : baseDir.resolve(file);
    }
}
