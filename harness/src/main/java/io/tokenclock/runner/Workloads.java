package io.tokenclock.runner;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import io.tokenclock.config.RunOptions;
import io.tokenclock.contract.LengthSpecs;
import io.tokenclock.load.LoadGenerator;
import io.tokenclock.transport.Endpoint;
import io.tokenclock.workload.AgentWorkload;
import io.tokenclock.workload.CancellationRule;
import io.tokenclock.workload.RequestBodyFactory;
import io.tokenclock.workload.SessionWorkload;
import io.tokenclock.workload.Workload;
import io.tokenclock.workload.WorkloadGenerator;
import io.tokenclock.workload.dataset.Datasets;
import io.tokenclock.workload.dist.Fixed;
import io.tokenclock.workload.dist.LengthDistribution;
import io.tokenclock.workload.tokenizer.Tokenizer;
import io.tokenclock.workload.tokenizer.Tokenizers;
import io.tokenclock.workload.tokenizer.WordTokenizer;

/**
 * Builds a run's workload from its options, in one place, so that a run and a replay's offline regeneration build
 * the same requests byte for byte.
 */
public final class Workloads
{
    private static final ObjectMapper JSON = new ObjectMapper();

    private Workloads()
    {
    }

    /** @return the configured tokenizer, or word counting. The caller closes it ({@link Tokenizers#closeQuietly}). */
    public static Tokenizer tokenizer(final RunOptions o)
    {
        return o.model().tokenizer() != null ? Tokenizers.of(o.model().tokenizer()) : new WordTokenizer();
    }

    /** @return the generator of request bodies for these options, model and endpoint. */
    public static Workload generator(
        final RunOptions o, final Endpoint endpoint, final String model, final Tokenizer tokenizer)
    {
        if (o.load().users() != null && o.workload().agent() != null)
        {
            return agent(o, model, tokenizer);
        }
        if (o.load().users() != null)
        {
            final Path baseDir = o.output().contractPath() == null ? null : o.output().contractPath().toAbsolutePath().getParent();
            final RequestBodyFactory bodies = new RequestBodyFactory(true, model, o.model().maxTokens(), o.model().ignoreEos(),
                o.model().temperature(), RequestBodyFactory.parseExtraBody(o.model().extraBody()));
            return new SessionWorkload(o.workload().seed(), bodies, tokenizer,
                o.workload().inputLengths() != null ? LengthSpecs.parse(o.workload().inputLengths(), baseDir) : new Fixed(o.workload().inputTokens()),
                o.workload().outputLengths() != null ? LengthSpecs.parse(o.workload().outputLengths(), baseDir) : null, o.model().maxTokens(),
                o.workload().sessionTurns() != null ? LengthSpecs.parse(o.workload().sessionTurns(), baseDir) : new Fixed(3),
                o.workload().thinkTimeMs() != null ? LengthSpecs.parse(o.workload().thinkTimeMs(), baseDir) : new Fixed(1000), o.load().users());
        }
        final WorkloadGenerator generator = bodies(o, endpoint, model, tokenizer).prefixes(o.workload().prefixes());
        return o.workload().cancelRate() > 0 ?
            generator.cancellation(new CancellationRule(o.workload().cancelRate(), o.workload().cancelAfterMs(), o.workload().cancelAfterTokens(), o.workload().seed())) :
            generator;
    }

    /**
     * Gives an agent workload whose contract names a {@code tool_command} the command and a way to report a finished
     * turn to the load generator; nothing for any other workload.
     */
    static void connectTools(final RunOptions o, final Workload workload, final LoadGenerator generator)
    {
        if (workload instanceof AgentWorkload agents && o.workload().agent() != null && o.workload().agent().has("tool_command"))
        {
            final List<String> command = new ArrayList<>();
            o.workload().agent().get("tool_command").forEach(part -> command.add(part.asText()));
            agents.toolCommand(command, (long)(o.workload().agent().path("tool_timeout_ms").asDouble(30_000) * 1e6),
                generator::onUserTurnEnded);
        }
    }

    /** The tool offered when an agent contract declares none: a search function taking one query string. */
    static final String DEFAULT_TOOLS = "[{\"type\":\"function\",\"function\":{\"name\":\"search\"," +
        "\"description\":\"Search the knowledge base\",\"parameters\":{\"type\":\"object\",\"properties\":" +
        "{\"query\":{\"type\":\"string\"}},\"required\":[\"query\"]}}}]";

    private static AgentWorkload agent(final RunOptions o, final String model, final Tokenizer tokenizer)
    {
        final Path baseDir = o.output().contractPath() == null ? null : o.output().contractPath().toAbsolutePath().getParent();
        final JsonNode a = o.workload().agent();
        final ObjectNode extra = RequestBodyFactory.parseExtraBody(o.model().extraBody());
        final ObjectNode body = extra != null ? extra : JSON.createObjectNode();
        try
        {
            body.set("tools", a.has("tools") ? a.get("tools") : JSON.readTree(DEFAULT_TOOLS));
        }
        catch (final com.fasterxml.jackson.core.JsonProcessingException ex)
        {
            throw new IllegalStateException(ex);
        }
        final RequestBodyFactory bodies = new RequestBodyFactory(true, model, o.model().maxTokens(), o.model().ignoreEos(),
            o.model().temperature(), body);
        return new AgentWorkload(o.workload().seed(), bodies, tokenizer,
            o.workload().inputLengths() != null ? LengthSpecs.parse(o.workload().inputLengths(), baseDir) : new Fixed(o.workload().inputTokens()),
            o.workload().outputLengths() != null ? LengthSpecs.parse(o.workload().outputLengths(), baseDir) : null, o.model().maxTokens(),
            a.path("max_steps").asInt(8),
            a.has("tool_latency_ms") ? LengthSpecs.parse(a.get("tool_latency_ms"), baseDir) : new Fixed(200),
            a.has("tool_result_tokens") ? LengthSpecs.parse(a.get("tool_result_tokens"), baseDir) : new Fixed(100),
            o.workload().thinkTimeMs() != null ? LengthSpecs.parse(o.workload().thinkTimeMs(), baseDir) : new Fixed(1000), o.load().users(),
            a.path("max_retries").asInt(2)).toolResultTexts(toolResults(a, baseDir));
    }

    private static List<String> toolResults(final JsonNode agent, final Path baseDir)
    {
        if (!agent.hasNonNull("tool_results_file"))
        {
            return List.of();
        }
        final Path file = baseDir != null ? baseDir.resolve(agent.get("tool_results_file").asText()) :
            Path.of(agent.get("tool_results_file").asText());
        try
        {
            return java.nio.file.Files.readAllLines(file).stream().filter(l -> !l.isBlank()).toList();
        }
        catch (final java.io.IOException ex)
        {
            throw new IllegalArgumentException("workload.agent.tool_results_file: cannot read " + file);
        }
    }

    private static WorkloadGenerator bodies(
        final RunOptions o, final Endpoint endpoint, final String model, final Tokenizer tokenizer)
    {
        final RequestBodyFactory bodies = new RequestBodyFactory(endpoint.api() == Endpoint.Api.CHAT, model,
            o.model().maxTokens(), o.model().ignoreEos(), o.model().temperature(), RequestBodyFactory.parseExtraBody(o.model().extraBody()));
        final Path baseDir = o.output().contractPath() == null ? null : o.output().contractPath().toAbsolutePath().getParent();
        if (o.workload().dataset() != null)
        {
            final Path file = baseDir != null && !o.workload().dataset().isAbsolute() ? baseDir.resolve(o.workload().dataset()) : o.workload().dataset();
            final LengthDistribution output = o.workload().outputLengths() != null ? LengthSpecs.parse(o.workload().outputLengths(), baseDir) :
                null;
            return new WorkloadGenerator(o.workload().seed(), bodies, tokenizer, Datasets.load(file, o.workload().datasetFormat()),
                "sharegpt".equals(o.workload().datasetFormat()), o.workload().blockSize(), output, o.model().maxTokens());
        }
        if (o.workload().segments() != null)
        {
            final List<WorkloadGenerator.Segment> segments = new ArrayList<>();
            for (final JsonNode s : o.workload().segments())
            {
                final ObjectNode extra = RequestBodyFactory.parseExtraBody(o.model().extraBody());
                final ObjectNode merged = extra != null ? extra : JSON.createObjectNode();
                if (s.has("extra_body"))
                {
                    merged.setAll((ObjectNode)s.get("extra_body"));
                }
                segments.add(new WorkloadGenerator.Segment(s.get("name").asText(), s.get("weight").asDouble(),
                    LengthSpecs.parse(s.get("input_tokens"), baseDir),
                    s.has("output_tokens") ? LengthSpecs.parse(s.get("output_tokens"), baseDir) : null,
                    s.path("correlation").asDouble(0.0), new RequestBodyFactory(endpoint.api() == Endpoint.Api.CHAT,
                        model, o.model().maxTokens(), o.model().ignoreEos(), o.model().temperature(), merged.isEmpty() ? null : merged)));
            }
            return new WorkloadGenerator(o.workload().seed(), tokenizer, o.workload().prompt(), segments, o.model().maxTokens());
        }
        final LengthDistribution input = o.workload().inputLengths() != null ? LengthSpecs.parse(o.workload().inputLengths(), baseDir) :
            new Fixed(o.workload().inputTokens());
        final LengthDistribution output = o.workload().outputLengths() != null ? LengthSpecs.parse(o.workload().outputLengths(), baseDir) :
            null;
        return new WorkloadGenerator(o.workload().seed(), bodies, tokenizer, o.workload().prompt(), input, output, o.workload().lengthCorrelation(),
            o.model().maxTokens());
    }
}
