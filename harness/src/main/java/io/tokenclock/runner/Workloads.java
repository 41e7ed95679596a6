package io.tokenclock.runner;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.core.JsonProcessingException;
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
        final RunOptions.Workload w = o.workload();
        if (o.load().users() != null && w.agent() != null)
        {
            return agent(o, model, tokenizer);
        }
        if (o.load().users() != null)
        {
            final Path baseDir = baseDir(o);
            return new SessionWorkload(w.seed(), bodies(o, true, model, parsedExtraBody(o)), tokenizer,
                lengths(w.inputLengths(), baseDir, new Fixed(w.inputTokens())),
                lengths(w.outputLengths(), baseDir, null), o.model().maxTokens(),
                lengths(w.sessionTurns(), baseDir, new Fixed(3)),
                lengths(w.thinkTimeMs(), baseDir, new Fixed(1000)), o.load().users());
        }
        final WorkloadGenerator generator = generatorOf(o, endpoint, model, tokenizer).prefixes(w.prefixes());
        return w.cancelRate() > 0 ? generator.cancellation(new CancellationRule(w.cancelRate(), w.cancelAfterMs(),
            w.cancelAfterTokens(), w.seed())) : generator;
    }

    /** @return the directory a contract's relative paths start from, or null when the run has no contract file. */
    private static Path baseDir(final RunOptions o)
    {
        final Path contract = o.output().contractPath();
        return contract == null ? null : contract.toAbsolutePath().getParent();
    }

    /** @return the length distribution a contract spec declares, or {@code fallback} when there is none. */
    private static LengthDistribution lengths(
        final JsonNode spec, final Path baseDir, final LengthDistribution fallback)
    {
        return spec != null ? LengthSpecs.parse(spec, baseDir) : fallback;
    }

    private static ObjectNode parsedExtraBody(final RunOptions o)
    {
        return RequestBodyFactory.parseExtraBody(o.model().extraBody());
    }

    private static RequestBodyFactory bodies(
        final RunOptions o, final boolean chat, final String model, final ObjectNode extraBody)
    {
        final RunOptions.Model m = o.model();
        return new RequestBodyFactory(chat, model, m.maxTokens(), m.ignoreEos(), m.temperature(), extraBody);
    }

    /**
     * Gives an agent workload whose contract names a {@code tool_command} the command and a way to report a finished
     * turn to the load generator; nothing for any other workload.
     */
    static void connectTools(final RunOptions o, final Workload workload, final LoadGenerator generator)
    {
        if (workload instanceof AgentWorkload agents && o.workload().agent() != null &&
            o.workload().agent().has("tool_command"))
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
        final Path baseDir = baseDir(o);
        final RunOptions.Workload w = o.workload();
        final JsonNode a = w.agent();
        final ObjectNode extra = parsedExtraBody(o);
        final ObjectNode body = extra != null ? extra : JSON.createObjectNode();
        try
        {
            body.set("tools", a.has("tools") ? a.get("tools") : JSON.readTree(DEFAULT_TOOLS));
        }
        catch (final JsonProcessingException ex)
        {
            throw new IllegalStateException(ex);
        }
        return new AgentWorkload(w.seed(), bodies(o, true, model, body), tokenizer,
            lengths(w.inputLengths(), baseDir, new Fixed(w.inputTokens())),
            lengths(w.outputLengths(), baseDir, null), o.model().maxTokens(),
            a.path("max_steps").asInt(8),
            lengths(a.get("tool_latency_ms"), baseDir, new Fixed(200)),
            lengths(a.get("tool_result_tokens"), baseDir, new Fixed(100)),
            lengths(w.thinkTimeMs(), baseDir, new Fixed(1000)), o.load().users(),
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
            return Files.readAllLines(file).stream().filter(l -> !l.isBlank()).toList();
        }
        catch (final IOException ex)
        {
            throw new IllegalArgumentException("workload.agent.tool_results_file: cannot read " + file);
        }
    }

    private static WorkloadGenerator generatorOf(
        final RunOptions o, final Endpoint endpoint, final String model, final Tokenizer tokenizer)
    {
        final boolean chat = endpoint.api() == Endpoint.Api.CHAT;
        final RunOptions.Workload w = o.workload();
        final Path baseDir = baseDir(o);
        final int maxTokens = o.model().maxTokens();
        if (w.dataset() != null)
        {
            final Path file = baseDir != null && !w.dataset().isAbsolute() ? baseDir.resolve(w.dataset()) :
                w.dataset();
            return new WorkloadGenerator(w.seed(), bodies(o, chat, model, parsedExtraBody(o)), tokenizer,
                Datasets.load(file, w.datasetFormat()), "sharegpt".equals(w.datasetFormat()), w.blockSize(),
                lengths(w.outputLengths(), baseDir, null), maxTokens);
        }
        if (w.segments() != null)
        {
            final List<WorkloadGenerator.Segment> segments = new ArrayList<>();
            for (final JsonNode s : w.segments())
            {
                final ObjectNode extra = parsedExtraBody(o);
                final ObjectNode merged = extra != null ? extra : JSON.createObjectNode();
                if (s.has("extra_body"))
                {
                    merged.setAll((ObjectNode)s.get("extra_body"));
                }
                segments.add(new WorkloadGenerator.Segment(s.get("name").asText(), s.get("weight").asDouble(),
                    LengthSpecs.parse(s.get("input_tokens"), baseDir), lengths(s.get("output_tokens"), baseDir, null),
                    s.path("correlation").asDouble(0.0), bodies(o, chat, model, merged.isEmpty() ? null : merged)));
            }
            return new WorkloadGenerator(w.seed(), tokenizer, w.prompt(), segments, maxTokens);
        }
        return new WorkloadGenerator(w.seed(), bodies(o, chat, model, parsedExtraBody(o)), tokenizer, w.prompt(),
            lengths(w.inputLengths(), baseDir, new Fixed(w.inputTokens())), lengths(w.outputLengths(), baseDir, null),
            w.lengthCorrelation(), maxTokens);
    }
}
