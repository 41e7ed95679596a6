package io.tokenclock.runner;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import io.tokenclock.api.Api;
import io.tokenclock.api.BodyShape;
import io.tokenclock.config.AgentSpec;
import io.tokenclock.config.LengthSpec;
import io.tokenclock.config.RunOptions;
import io.tokenclock.config.SegmentSpec;
import io.tokenclock.json.Json;
import io.tokenclock.load.LoadGenerator;
import io.tokenclock.transport.Endpoint;
import io.tokenclock.workload.AgentWorkload;
import io.tokenclock.workload.CancellationRule;
import io.tokenclock.workload.ImageSynthesizer;
import io.tokenclock.workload.RequestBodyFactory;
import io.tokenclock.workload.RerankShape;
import io.tokenclock.workload.SessionWorkload;
import io.tokenclock.workload.TraceWorkload;
import io.tokenclock.workload.Workload;
import io.tokenclock.workload.WorkloadGenerator;
import io.tokenclock.workload.dataset.Datasets;
import io.tokenclock.workload.dataset.SessionTrace;
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
    private static final ObjectMapper JSON = Json.MAPPER;

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
            return new SessionWorkload(w.seed(), bodies(o, endpoint.api(), model, parsedExtraBody(o)), tokenizer,
                inputLengths(w), lengths(w.outputLengths(), null), o.model().maxTokens(),
                lengths(w.sessionTurns(), new Fixed(3)), lengths(w.thinkTimeMs(), new Fixed(1000)), o.load().users())
                .chain(w.sessionChain()).images(w.images() == null ? null : new ImageSynthesizer(w.images(), w.seed()));
        }
        if (w.dataset() != null && replaysSessions(o, datasetFile(o)))
        {
            if (w.images() != null)
            {
                // a trace states each turn's input length and the hash blocks a prefix cache shares: images of the
                // harness's own would add tokens and cache entries the trace never had
                throw new IllegalArgumentException("--image-count with --dataset-format " + w.datasetFormat() +
                    ": a session trace's turns are its own lengths and hash blocks, with no images to send; drop " +
                    "--image-count, or run images with --users or on a dataset of prompts");
            }
            return new TraceWorkload(SessionTrace.open(datasetFile(o), w.datasetFormat(),
                w.blockSize() == null ? 0 : w.blockSize(), o.load().fixedSchedule()), w.seed(), tokenizer,
                bodies(o, endpoint.api(), model, parsedExtraBody(o)), o.load().traceSpeedup());
        }
        final WorkloadGenerator generator = generatorOf(o, endpoint, model, tokenizer).prefixes(w.prefixes())
            .inputsPerRequest(w.embedBatch());
        if (w.images() != null)
        {
            generator.images(new ImageSynthesizer(w.images(), w.seed()));
        }
        return w.cancelRate() > 0 ? generator.cancellation(new CancellationRule(w.cancelRate(), w.cancelAfterMs(),
            w.cancelAfterTokens(), w.seed())) : generator;
    }

    /**
     * @return whether the dataset is a trace replayed session by session on its own schedule: TraceLab and Weka
     * traces always; a Mooncake trace on {@code --fixed-schedule}, or with sessions in a closed loop (N sessions at a
     * time). A Mooncake trace with sessions cannot run at a rate: its later turns have no arrival of their own.
     */
    static boolean replaysSessions(final RunOptions o, final Path file)
    {
        final String format = o.workload().datasetFormat();
        if (!"mooncake".equals(format))
        {
            return SessionTrace.FORMATS.contains(format);
        }
        if (o.load().fixedSchedule())
        {
            return true;
        }
        final boolean sessions = SessionTrace.hasSessionRows(file);
        if (sessions && !o.closedLoop())
        {
            throw new IllegalArgumentException(file + ": a trace with sessions replays on its own schedule: use " +
                "--fixed-schedule, or --concurrency N for N sessions at a time, not --rate");
        }
        return sessions;
    }

    /** @return a Mooncake trace's tokens per hash id: the option's, else Mooncake's 512. */
    private static int blockSize(final RunOptions.Workload w)
    {
        return w.blockSize() == null ? SessionTrace.MOONCAKE_BLOCK_TOKENS : w.blockSize();
    }

    /** @return the dataset's path, a contract's relative path resolved against the contract's directory. */
    private static Path datasetFile(final RunOptions o)
    {
        final Path dataset = o.workload().dataset();
        final Path baseDir = baseDir(o);
        return baseDir != null && !dataset.isAbsolute() ? baseDir.resolve(dataset) : dataset;
    }

    /** @return the directory a contract's relative paths start from, or null when the run has no contract file. */
    private static Path baseDir(final RunOptions o)
    {
        final Path contract = o.output().contractPath();
        return contract == null ? null : contract.toAbsolutePath().getParent();
    }

    /** @return the distribution a spec declares, or {@code fallback} when there is none. */
    private static LengthDistribution lengths(final LengthSpec spec, final LengthDistribution fallback)
    {
        return spec != null ? spec.distribution() : fallback;
    }

    /** @return the declared input lengths, else the fixed {@code --input-tokens}. */
    private static LengthDistribution inputLengths(final RunOptions.Workload w)
    {
        return lengths(w.inputLengths(), new Fixed(w.inputTokens()));
    }

    private static ObjectNode parsedExtraBody(final RunOptions o)
    {
        return RequestBodyFactory.parseExtraBody(o.model().extraBody());
    }

    private static RequestBodyFactory bodies(
        final RunOptions o, final Api api, final String model, final ObjectNode extraBody)
    {
        final RunOptions.Model m = o.model();
        return new RequestBodyFactory(api, model, m.maxTokens(), decoding(m, m.ignoreEos()), extraBody,
            o.workload().rerankShape() == RerankShape.TEXTS);
    }

    /** @return the run's decoding settings as every body places them; {@code ignoreEos} as this body wants. */
    static BodyShape.Decoding decoding(final RunOptions.Model m, final boolean ignoreEos)
    {
        return new BodyShape.Decoding(ignoreEos, m.temperature(), m.reasoningEffort(), m.thinkingTokens());
    }

    /**
     * Gives an agent workload whose contract names a {@code tool_command} the command and a way to report a finished
     * turn to the load generator; nothing for any other workload.
     */
    static void connectTools(final RunOptions o, final Workload workload, final LoadGenerator generator)
    {
        final AgentSpec spec = o.workload().agent();
        if (workload instanceof AgentWorkload agents && spec != null && !spec.toolCommand().isEmpty())
        {
            agents.toolCommand(spec.toolCommand(), spec.toolPassEnv(), (long)(spec.toolTimeoutMs() * 1e6),
                generator::onUserTurnEnded);
        }
    }

    /** The tool offered when an agent contract declares none: a search function taking one query string. */
    static final String DEFAULT_TOOLS = "[{\"type\":\"function\",\"function\":{\"name\":\"search\"," +
        "\"description\":\"Search the knowledge base\",\"parameters\":{\"type\":\"object\",\"properties\":" +
        "{\"query\":{\"type\":\"string\"}},\"required\":[\"query\"]}}}]";

    private static AgentWorkload agent(final RunOptions o, final String model, final Tokenizer tokenizer)
    {
        final RunOptions.Workload w = o.workload();
        final AgentSpec a = w.agent();
        final ObjectNode extra = parsedExtraBody(o);
        final ObjectNode body = extra != null ? extra : JSON.createObjectNode();
        try
        {
            body.set("tools", JSON.readTree(a.tools() != null ? a.tools() : DEFAULT_TOOLS));
        }
        catch (final JsonProcessingException ex)
        {
            throw new IllegalStateException(ex);
        }
        return new AgentWorkload(w.seed(), bodies(o, Api.CHAT, model, body), tokenizer, inputLengths(w),
            lengths(w.outputLengths(), null), o.model().maxTokens(), a.maxSteps(),
            a.toolLatencyMs().distribution(), a.toolResultTokens().distribution(),
            lengths(w.thinkTimeMs(), new Fixed(1000)), o.load().users(), a.maxRetries())
            .toolResultTexts(toolResults(a.toolResultsFile()));
    }

    private static List<String> toolResults(final Path file)
    {
        if (file == null)
        {
            return List.of();
        }
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
        final Api api = endpoint.api();
        final RunOptions.Workload w = o.workload();
        final int maxTokens = o.model().maxTokens();
        if (w.dataset() != null)
        {
            return new WorkloadGenerator(w.seed(), bodies(o, api, model, parsedExtraBody(o)), tokenizer,
                Datasets.load(datasetFile(o), w.datasetFormat(), blockSize(w)), "sharegpt".equals(w.datasetFormat()),
                blockSize(w),
                lengths(w.outputLengths(), null), maxTokens);
        }
        if (w.segments() != null)
        {
            final List<WorkloadGenerator.Segment> segments = new ArrayList<>();
            for (final SegmentSpec segment : w.segments())
            {
                segments.add(new WorkloadGenerator.Segment(segment.name(), segment.weight(),
                    segment.inputLengths().distribution(), lengths(segment.outputLengths(), null),
                    segment.correlation(), bodies(o, api, model, mergedExtraBody(o, segment.extraBody()))));
            }
            return new WorkloadGenerator(w.seed(), tokenizer, w.prompt(), segments, maxTokens);
        }
        return new WorkloadGenerator(w.seed(), bodies(o, api, model, parsedExtraBody(o)), tokenizer, w.prompt(),
            inputLengths(w), lengths(w.outputLengths(), null), w.lengthCorrelation(), maxTokens);
    }

    /** @return the model's {@code extra_body} with a segment's own fields over it, or null when both are empty. */
    private static ObjectNode mergedExtraBody(final RunOptions o, final String segmentExtraBody)
    {
        final ObjectNode extra = parsedExtraBody(o);
        final ObjectNode merged = extra != null ? extra : JSON.createObjectNode();
        final ObjectNode own = RequestBodyFactory.parseExtraBody(segmentExtraBody);
        if (own != null)
        {
            merged.setAll(own);
        }
        return merged.isEmpty() ? null : merged;
    }
}
