package io.tokenclock.workload;

import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

import com.fasterxml.jackson.databind.node.ArrayNode;

import io.tokenclock.api.Api;
import io.tokenclock.api.BodyShape;
import io.tokenclock.clock.NanoClock;
import io.tokenclock.load.BuiltRequest;
import io.tokenclock.load.LoadGenerator;
import io.tokenclock.load.LoadPlan;
import io.tokenclock.load.RequestTag;
import io.tokenclock.recording.RequestSlot;
import io.tokenclock.recording.SlotPool;
import io.tokenclock.util.Sha256;
import io.tokenclock.workload.dataset.DatasetEntry;
import io.tokenclock.workload.dist.CorrelatedLengths;
import io.tokenclock.workload.dist.LengthDistribution;
import io.tokenclock.workload.dist.Lengths;
import io.tokenclock.workload.tokenizer.Tokenizer;

/**
 * Builds request {@code i} of a run from the seed alone. Synthetic workloads draw a traffic segment (when there are
 * several, by weight), the segment's input and output lengths (correlated through a Gaussian copula when declared),
 * a prompt synthesized to the exact input length under the tokenizer, and a body with the output length as
 * {@code max_tokens} and the segment's own body fields (structured output, tools). Dataset and trace workloads replay
 * their entries in file order. Request {@code i} depends only on {@code (seed, i)}, never on timing or on which
 * requests ran before, so the same contract and seed give the same requests byte for byte, which {@link #hash()}
 * certifies.
 * <p>
 * Each request carries a group index (its segment) for per-segment metrics. Called on the load generator's thread
 * only, in request order.
 */
public final class WorkloadGenerator implements Workload, LoadGenerator.RequestFiller
{
    /**
     * One traffic segment of a synthetic workload.
     *
     * @param name        reported name; null for the single unnamed segment of a plain workload.
     * @param weight      share of requests, > 0 (weights are normalised).
     * @param input       input length distribution.
     * @param output      output length distribution, or null for the run's fixed {@code max_tokens}.
     * @param correlation Gaussian-copula correlation of input and output lengths.
     * @param bodies      builds this segment's request bodies (its own extra body fields merged in).
     */
    public record Segment(String name, double weight, LengthDistribution input, LengthDistribution output,
        double correlation, RequestBodyFactory bodies)
    {
    }

    private final long seed;
    private final Tokenizer tokenizer;
    private final String fixedPrompt;
    private final List<Segment> segments;
    private final CorrelatedLengths[] correlated;
    private final double[] cumulativeWeights;
    private final int fixedOutput;
    private final RequestBodyFactory bodies;
    private final MessageDigest digest = Sha256.newDigest();
    private final PromptSynthesizer synthesizer = new PromptSynthesizer();
    private final List<DatasetEntry> dataset;
    private final boolean outputFromReference;
    private final int blockSize;
    private final TraceBlocks traceBlocks;
    private final Map<String, Integer> datasetGroups = new LinkedHashMap<>();
    private final List<String> groupNames = new ArrayList<>();
    private CancellationRule cancellation;
    private SharedPrefixes prefixes;
    /** The synthetic images every request carries, or null for none. */
    private ImageSynthesizer images;
    /** Texts (embeddings) or documents (rerank) per request; 1 for the other APIs. */
    private int inputsPerRequest = 1;
    private final Map<Long, String> prefixBlocks = new HashMap<>();
    private long requests;
    /** The body of the last request built, not yet in {@link #digest}: see {@link #settlePending()}. */
    private byte[] pending;
    /** The images of {@link #pending}, and their encoded bytes. */
    private long pendingImages;
    private long pendingImageBytes;
    private long imagesSent;
    private long imageBytesSent;
    private long residualRequests;

    /**
     * A synthetic workload of one or more segments.
     *
     * @param tokenizer   counts tokens (a {@link io.tokenclock.workload.tokenizer.WordTokenizer} counts words).
     * @param fixedPrompt a prompt for every request, or null to synthesize.
     * @param fixedOutput {@code max_tokens} for segments without an output distribution (0: leave to the server).
     */
    public WorkloadGenerator(
        final long seed, final Tokenizer tokenizer, final String fixedPrompt, final List<Segment> segments,
        final int fixedOutput)
    {
        if (segments.isEmpty())
        {
            throw new IllegalArgumentException("a workload needs at least one segment");
        }
        this.seed = seed;
        this.tokenizer = tokenizer;
        this.fixedPrompt = fixedPrompt;
        this.segments = List.copyOf(segments);
        this.correlated = new CorrelatedLengths[segments.size()];
        this.cumulativeWeights = new double[segments.size()];
        double total = 0;
        for (final Segment segment : segments)
        {
            if (!(segment.weight() > 0))
            {
                throw new IllegalArgumentException("segment weights must be > 0: " + segment.name());
            }
            total += segment.weight();
        }
        double cumulative = 0;
        for (int k = 0; k < segments.size(); k++)
        {
            final Segment segment = segments.get(k);
            cumulative += segment.weight() / total;
            cumulativeWeights[k] = cumulative;
            correlated[k] = segment.output() != null ?
                new CorrelatedLengths(segment.input(), segment.output(), segment.correlation()) : null;
            if (segments.size() > 1)
            {
                groupNames.add(segment.name());
            }
        }
        this.fixedOutput = fixedOutput;
        this.bodies = segments.get(0).bodies();
        this.dataset = null;
        this.outputFromReference = false;
        this.blockSize = 0;
        this.traceBlocks = null;
    }

    /** A synthetic workload of one unnamed segment. */
    public WorkloadGenerator(
        final long seed, final RequestBodyFactory bodies, final Tokenizer tokenizer, final String fixedPrompt,
        final LengthDistribution input, final LengthDistribution output, final double correlation,
        final int fixedOutput)
    {
        this(seed, tokenizer, fixedPrompt, List.of(new Segment(null, 1.0, input, output, correlation, bodies)),
            fixedOutput);
    }

    /**
     * A workload replayed from a dataset or trace: request {@code i} is entry {@code i mod size}, in file order.
     * Entries that name a {@code segment} are reported per segment.
     *
     * @param outputFromReference ShareGPT: the output length is the reference answer's token count.
     * @param blockSize           Mooncake traces: tokens per {@code hash_ids} block (512 in the published traces), the
     *                            last block of a prompt partial.
     */
    public WorkloadGenerator(
        final long seed, final RequestBodyFactory bodies, final Tokenizer tokenizer, final List<DatasetEntry> dataset,
        final boolean outputFromReference, final int blockSize, final LengthDistribution output, final int fixedOutput)
    {
        this.seed = seed;
        this.tokenizer = tokenizer;
        this.fixedPrompt = null;
        this.segments = List.of(new Segment(null, 1.0, null, output, 0, bodies));
        this.correlated = new CorrelatedLengths[1];
        this.cumulativeWeights = new double[] {1.0};
        this.fixedOutput = fixedOutput;
        this.bodies = bodies;
        this.dataset = List.copyOf(dataset);
        this.outputFromReference = outputFromReference;
        this.blockSize = blockSize;
        this.traceBlocks = new TraceBlocks(seed, tokenizer);
        for (final DatasetEntry e : dataset)
        {
            if (e.segment() != null)
            {
                datasetGroups.computeIfAbsent(e.segment(), name -> datasetGroups.size());
            }
        }
        if (!datasetGroups.isEmpty())
        {
            datasetGroups.computeIfAbsent("(none)", name -> datasetGroups.size());
            groupNames.addAll(datasetGroups.keySet());
        }
    }

    /** @return the names of the groups requests are reported in (segments), or an empty list for none. */
    @Override
    public List<String> groupNames()
    {
        return List.copyOf(groupNames);
    }

    @Override
    public String reference(final long i)
    {
        return dataset == null ? null : dataset.get((int)(i % dataset.size())).reference();
    }

    @Override
    public String promptText(final long i)
    {
        if (dataset == null)
        {
            return null;
        }
        final DatasetEntry e = dataset.get((int)(i % dataset.size()));
        return e.prompt() != null ? e.prompt() : e.messages() != null ? e.messages().toString() : null;
    }

    /** @return the trace's intended start offsets in ns, one per entry, or null when this is not a trace. */
    @Override
    public long[] traceOffsetsNs()
    {
        if (dataset == null || dataset.get(0).timestampMs() < 0)
        {
            return null;
        }
        final long[] offsets = new long[dataset.size()];
        final long first = dataset.get(0).timestampMs();
        for (int k = 0; k < offsets.length; k++)
        {
            offsets[k] = (dataset.get(k).timestampMs() - first) * 1_000_000L;
        }
        return offsets;
    }

    private BuiltRequest datasetRequest(final long i, final SplittableRandom random)
    {
        final DatasetEntry e = dataset.get((int)(i % dataset.size()));
        final int group = datasetGroups.isEmpty() ? 0 :
            datasetGroups.get(e.segment() != null ? e.segment() : "(none)");
        int outputTokens = fixedOutput;
        if (e.maxTokens() > 0)
        {
            outputTokens = e.maxTokens();
        }
        else if (outputFromReference && e.reference() != null && !e.reference().isBlank())
        {
            outputTokens = Math.max(1, tokenizer.count(e.reference()));
        }
        else if (segments.get(0).output() != null)
        {
            outputTokens = segments.get(0).output().sample(random);
        }
        if (bodies.api().batched())
        {
            return datasetInputs(i, random, group);
        }
        final List<BodyShape.Image> extra = imagesOf(i);
        if (e.messages() != null)
        {
            return new BuiltRequest(bodies.body(e.messages(), outputTokens, null, extra), -1, group);
        }
        if (e.prompt() != null)
        {
            return new BuiltRequest(bodies.body(e.prompt(), outputTokens, extra), tokenizer.count(e.prompt()), group);
        }
        final TracePrompt p = tracePrompt(e, random);
        return new BuiltRequest(bodies.body(p.text(), outputTokens, extra), e.inputLength(), group,
            RequestTag.ideal(p.idealTokens()));
    }

    /**
     * An embeddings or rerank request of a dataset: the texts of entries {@code i * n} to {@code i * n + n - 1} (in
     * file order, wrapping), {@code n} the inputs per request; a rerank request ranks them against the first.
     */
    private BuiltRequest datasetInputs(final long i, final SplittableRandom random, final int group)
    {
        final List<String> texts = new ArrayList<>(inputsPerRequest);
        int tokens = 0;
        for (int j = 0; j < inputsPerRequest; j++)
        {
            final DatasetEntry e = dataset.get((int)((i * inputsPerRequest + j) % dataset.size()));
            final String text = e.prompt() != null ? e.prompt() : e.messages() instanceof ArrayNode m ?
                BodyShape.textOf(m) : tracePrompt(e, random).text();
            texts.add(text);
            tokens += tokenizer.count(text);
        }
        return new BuiltRequest(bodies.inputsBody(texts, null), tokens, group, inputsPerRequest,
            bodies.answerLimit());
    }

    /** @return request {@code i}'s synthetic images, or none. */
    private List<BodyShape.Image> imagesOf(final long i)
    {
        return images == null ? Collections.emptyList() : images.images(i);
    }

    /**
     * A trace entry's request: its {@code hash_ids} blocks of {@code blockSize} tokens, the last one partial, each the
     * same text wherever the id recurs at that length ({@link TraceBlocks}; so a prefix cache sees the trace's
     * sharing), then text of its own for any tokens no block covers; tagged with the tokens an infinite prefix cache
     * would have held (the blocks sent before in this run).
     */
    private TracePrompt tracePrompt(final DatasetEntry e, final SplittableRandom random)
    {
        final long residualsBefore = traceBlocks.residualBlocks();
        final StringBuilder text = new StringBuilder();
        final long[] ids = e.hashIds() == null ? new long[0] : e.hashIds();
        long ideal = 0;
        int covered = 0;
        for (int b = 0; b < ids.length && covered < e.inputLength(); b++)
        {
            final int tokens = Math.min(blockSize, e.inputLength() - covered);
            text.append(traceBlocks.text(0, ids[b], tokens));
            ideal += traceBlocks.markSeen(0, ids[b], tokens) ? tokens : 0;
            covered += tokens;
        }
        if (covered < e.inputLength())
        {
            text.append(traceBlocks.filler(e.inputLength() - covered, random));
        }
        if (traceBlocks.residualBlocks() > residualsBefore)
        {
            residualRequests++;
        }
        return new TracePrompt(text.toString(), ideal);
    }

    /**
     * A trace entry's prompt text, and the tokens of it an infinite prefix cache would have held.
     *
     * @param text        the prompt.
     * @param idealTokens the tokens of blocks sent before in this run.
     */
    private record TracePrompt(String text, long idealTokens)
    {
    }

    /** @return request {@code i}, from {@code i} and the seed alone; its body goes into the workload's hash. */
    @Override
    public BuiltRequest build(final long i)
    {
        final SplittableRandom random = new SplittableRandom(Seeds.mix(seed, i));
        final long imagesBefore = images == null ? 0 : images.imagesMade();
        final long bytesBefore = images == null ? 0 : images.bytesMade();
        final BuiltRequest request = dataset != null ? datasetRequest(i, random) : syntheticRequest(i, random);
        settlePending();
        pending = request.body();
        pendingImages = images == null ? 0 : images.imagesMade() - imagesBefore;
        pendingImageBytes = images == null ? 0 : images.bytesMade() - bytesBefore;
        return request;
    }

    /**
     * The last request built stays out of the hash until the next is built (the driver builds one only after sending
     * the one before) or the hash is read: a request built ahead and then dropped at the end of the run was never
     * sent, and the hash and count cover what was sent (requests.jsonl's lines).
     */
    private void settlePending()
    {
        if (pending != null)
        {
            digest.update(pending);
            requests++;
            imagesSent += pendingImages;
            imageBytesSent += pendingImageBytes;
            pending = null;
        }
    }

    @Override
    public long imagesSent()
    {
        settlePending();
        return imagesSent;
    }

    @Override
    public long imageBytesSent()
    {
        settlePending();
        return imageBytesSent;
    }

    @Override
    public void onDropped(final long i)
    {
        pending = null;
    }

    /** @return the body of request {@code i} (see {@link #build}). */
    public byte[] body(final long i)
    {
        return build(i).body();
    }

    private BuiltRequest syntheticRequest(final long i, final SplittableRandom random)
    {
        int k = 0;
        if (segments.size() > 1)
        {
            final double u = random.nextDouble();
            while (k < cumulativeWeights.length - 1 && u >= cumulativeWeights[k])
            {
                k++;
            }
        }
        final Segment segment = segments.get(k);
        int inputTokens;
        int outputTokens = fixedOutput;
        if (correlated[k] != null)
        {
            final Lengths lengths = correlated[k].sample(random);
            inputTokens = lengths.input();
            outputTokens = lengths.output();
        }
        else
        {
            inputTokens = segment.input() != null ? segment.input().sample(random) : 1;
        }
        if (segment.bodies().api().batched())
        {
            return syntheticInputs(i, random, segment, k, inputTokens);
        }
        final List<BodyShape.Image> extra = imagesOf(i);
        if (fixedPrompt != null)
        {
            return new BuiltRequest(segment.bodies().body(fixedPrompt, outputTokens, extra),
                tokenizer.count(fixedPrompt), k);
        }
        final PromptSynthesizer.Prompt p = synthesizer.synthesize(tokenizer, Math.max(1, inputTokens), random,
            sharedPrefix(random) + "request " + i + ":");
        if (p.residual() != 0)
        {
            residualRequests++;
        }
        return new BuiltRequest(segment.bodies().body(p.text(), outputTokens, extra), p.tokens(), k);
    }

    /**
     * A synthetic embeddings or rerank request: {@code n} texts (documents), the first of the length already drawn,
     * each further one of a length of its own from the segment's input distribution; a rerank request's query is a
     * prompt of one more such length, drawn first. Each text is made to its exact length, as a prompt is.
     */
    private BuiltRequest syntheticInputs(
        final long i, final SplittableRandom random, final Segment segment, final int k, final int firstLength)
    {
        final List<String> texts = new ArrayList<>(inputsPerRequest);
        int tokens = 0;
        String query = null;
        if (segment.bodies().api() == Api.RERANK)
        {
            final PromptSynthesizer.Prompt q = text(random, firstLength, "query " + i + ":");
            query = q.text();
            tokens += q.tokens();
        }
        for (int j = 0; j < inputsPerRequest; j++)
        {
            final int length = j == 0 || segment.input() == null ? firstLength : segment.input().sample(random);
            final PromptSynthesizer.Prompt p = text(random, length, "request " + i + " input " + j + ":");
            texts.add(p.text());
            tokens += p.tokens();
        }
        return new BuiltRequest(segment.bodies().inputsBody(texts, query), tokens, k, inputsPerRequest,
            segment.bodies().answerLimit());
    }

    /** @return the fixed prompt, or a synthetic text of {@code length} tokens after the shared prefix and a tag. */
    private PromptSynthesizer.Prompt text(final SplittableRandom random, final int length, final String tag)
    {
        if (fixedPrompt != null)
        {
            return new PromptSynthesizer.Prompt(fixedPrompt, tokenizer.count(fixedPrompt), 0);
        }
        final PromptSynthesizer.Prompt p = synthesizer.synthesize(tokenizer, Math.max(1, length), random,
            sharedPrefix(random) + tag);
        if (p.residual() != 0)
        {
            residualRequests++;
        }
        return p;
    }

    /** Adds {@code synthesizer}'s images to every request from now on (chat, Responses, Messages); null for none. */
    public WorkloadGenerator images(final ImageSynthesizer synthesizer)
    {
        this.images = synthesizer;
        return this;
    }

    /** @return the images this workload sends, or null for none. */
    public ImageSynthesizer images()
    {
        return images;
    }

    /** Puts {@code n} texts (embeddings) or documents (rerank) in every request from now on ({@code --embed-batch}). */
    public WorkloadGenerator inputsPerRequest(final int n)
    {
        if (n < 1)
        {
            throw new IllegalArgumentException("--embed-batch must be >= 1: " + n);
        }
        this.inputsPerRequest = n;
        return this;
    }

    /** Starts synthetic prompts with shared prefix blocks from now on; null for none. */
    public WorkloadGenerator prefixes(final SharedPrefixes shared)
    {
        this.prefixes = shared;
        return this;
    }

    /**
     * @return the prompts that warm a prefix cache with every shared prefix (cache policy {@code preload}): the
     * system block followed by each group block, or the system block alone; empty without shared prefixes.
     */
    public List<String> preloadPrompts()
    {
        final List<String> prompts = new ArrayList<>();
        if (prefixes == null)
        {
            return prompts;
        }
        final String system = prefixes.systemTokens() > 0 ? block(SharedPrefixes.SYSTEM_BLOCK) + "\n" : "";
        if (prefixes.groups() == 0)
        {
            prompts.add(system);
        }
        for (int g = 0; g < prefixes.groups(); g++)
        {
            prompts.add(system + block(g) + "\n");
        }
        return prompts;
    }

    private String block(final long block)
    {
        return prefixBlocks.computeIfAbsent(block, b -> synthesizer.synthesize(tokenizer, prefixes.tokensOf(b),
            new SplittableRandom(Seeds.mixXor(seed, b * 31 + 7)), "").text());
    }

    private String sharedPrefix(final SplittableRandom random)
    {
        if (prefixes == null)
        {
            return "";
        }
        final StringBuilder sb = new StringBuilder();
        for (final long block : prefixes.draw(random))
        {
            sb.append(block(block)).append('\n');
        }
        return sb.toString();
    }

    /** Applies {@code rule} to every request from now on; null for none. */
    public WorkloadGenerator cancellation(final CancellationRule rule)
    {
        this.cancellation = rule;
        return this;
    }

    @Override
    public void onSubmit(final RequestSlot slot, final long i)
    {
        if (cancellation != null)
        {
            cancellation.apply(slot, i);
        }
    }

    @Override
    public LoadGenerator driver(
        final LoadPlan plan, final NanoClock clock, final SlotPool pool, final LoadGenerator.RequestSink sink)
    {
        return LoadGenerator.of(plan, clock, pool, this, sink);
    }

    @Override
    public LoadGenerator.RequestFiller offlineFiller()
    {
        return this;
    }

    /** @return hex SHA-256 over every body built so far, in request order. Call once, at the end. */
    @Override
    public String hash()
    {
        settlePending();
        return Sha256.hex(digest);
    }

    @Override
    public long requests()
    {
        return requests + (pending != null ? 1 : 0);
    }

    /** @return requests whose prompt could not be made exactly the drawn length (see PromptSynthesizer). */
    @Override
    public long residualRequests()
    {
        return residualRequests;
    }

    /** @return a one-line description for the record. */
    @Override
    public String describe()
    {
        final String counting = tokenizer.id();
        if (dataset != null)
        {
            return "dataset of " + dataset.size() + " entries, replayed in file order" +
                (blockSize > 0 ? ", prefix blocks of " + blockSize + " tokens (the last partial)" : "") +
                ", counted in " + counting;
        }
        if (fixedPrompt != null)
        {
            return "fixed prompt, counted in " + counting;
        }
        final StringBuilder sb = new StringBuilder("synthetic prompts of exact length in ").append(counting)
            .append("; seed ").append(seed);
        if (prefixes != null)
        {
            sb.append("; ").append(prefixes.describe());
        }
        for (final Segment segment : segments)
        {
            sb.append("; ").append(segment.name() == null ? "" : segment.name() + " (weight " + segment.weight() +
                "): ").append("input ").append(segment.input().describe());
            if (segment.bodies().api().batched())
            {
                // an answer read whole has no output; each request carries several inputs of this length
                sb.append(", ").append(inputsPerRequest).append(segment.bodies().api() == Api.RERANK ?
                    " documents and a query per request" : " inputs per request");
                continue;
            }
            sb.append(", output ")
                .append(segment.output() == null ? (fixedOutput > 0 ? "max_tokens " + fixedOutput : "server default") :
                    segment.output().describe());
        }
        return sb.toString();
    }
}
