package io.tokenclock.workload;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

import io.tokenclock.load.LoadGenerator;
import io.tokenclock.recording.RequestSlot;
import io.tokenclock.workload.dataset.DatasetEntry;
import io.tokenclock.workload.dist.CorrelatedLengths;
import io.tokenclock.workload.dist.Lengths;
import io.tokenclock.workload.dist.LengthDistribution;
import io.tokenclock.workload.tokenizer.Tokenizer;

/**
 * Builds request {@code i} of a run from the seed alone: its input and output lengths (from the declared
 * distributions, correlated through a Gaussian copula), its prompt (synthesized to the exact input length under the
 * configured tokenizer, or words when none is configured), and its JSON body with the output length as
 * {@code max_tokens}. Request {@code i} depends only on {@code (seed, i)}, never on timing or on which requests ran
 * before, so the same contract and seed give the same requests byte for byte, which {@link #hash()} certifies.
 * <p>
 * Called on the load generator's thread only, in request order.
 */
public final class WorkloadGenerator implements LoadGenerator.RequestFiller
{
    private final long seed;
    private final RequestBodyFactory bodies;
    private final Tokenizer tokenizer;
    private final String fixedPrompt;
    private final LengthDistribution input;
    private final LengthDistribution output;
    private final CorrelatedLengths correlated;
    private final int fixedOutput;
    private final MessageDigest digest;
    private final PromptSynthesizer synthesizer = new PromptSynthesizer();
    private final List<DatasetEntry> dataset;
    private final boolean outputFromReference;
    private final int blockSize;
    private final Map<Long, String> blocks = new HashMap<>();
    private CancellationRule cancellation;
    private long requests;
    private long residualRequests;
    private int lastPromptTokens = -1;

    /**
     * @param tokenizer    null to count words.
     * @param fixedPrompt  a prompt for every request, or null to synthesize.
     * @param input        input length distribution (ignored with a fixed prompt).
     * @param output       output length distribution, or null for {@code fixedOutput} (0: leave to the server).
     * @param correlation  Gaussian-copula correlation of input and output lengths (needs both distributions).
     */
    public WorkloadGenerator(
        final long seed, final RequestBodyFactory bodies, final Tokenizer tokenizer, final String fixedPrompt,
        final LengthDistribution input, final LengthDistribution output, final double correlation,
        final int fixedOutput)
    {
        this.seed = seed;
        this.bodies = bodies;
        this.tokenizer = tokenizer;
        this.fixedPrompt = fixedPrompt;
        this.input = input;
        this.output = output;
        this.correlated = output != null && input != null ? new CorrelatedLengths(input, output, correlation) : null;
        this.fixedOutput = fixedOutput;
        this.dataset = null;
        this.outputFromReference = false;
        this.blockSize = 0;
        try
        {
            this.digest = MessageDigest.getInstance("SHA-256");
        }
        catch (final NoSuchAlgorithmException ex)
        {
            throw new IllegalStateException("SHA-256 is required of every JDK", ex);
        }
    }

    /**
     * A workload replayed from a dataset or trace: request {@code i} is entry {@code i mod size}, in file order.
     *
     * @param outputFromReference ShareGPT: the output length is the reference answer's token count.
     * @param blockSize           Mooncake traces: tokens per {@code hash_ids} block (512 in the published traces).
     */
    public WorkloadGenerator(
        final long seed, final RequestBodyFactory bodies, final Tokenizer tokenizer, final List<DatasetEntry> dataset,
        final boolean outputFromReference, final int blockSize, final LengthDistribution output, final int fixedOutput)
    {
        this.seed = seed;
        this.bodies = bodies;
        this.tokenizer = tokenizer;
        this.fixedPrompt = null;
        this.input = null;
        this.output = output;
        this.correlated = null;
        this.fixedOutput = fixedOutput;
        this.dataset = List.copyOf(dataset);
        this.outputFromReference = outputFromReference;
        this.blockSize = blockSize;
        try
        {
            this.digest = MessageDigest.getInstance("SHA-256");
        }
        catch (final NoSuchAlgorithmException ex)
        {
            throw new IllegalStateException("SHA-256 is required of every JDK", ex);
        }
    }

    /** @return the trace's intended start offsets in ns, one per entry, or null when this is not a trace. */
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

    private byte[] datasetBody(final long i, final SplittableRandom random)
    {
        final DatasetEntry e = dataset.get((int)(i % dataset.size()));
        int outputTokens = fixedOutput;
        if (e.maxTokens() > 0)
        {
            outputTokens = e.maxTokens();
        }
        else if (outputFromReference && e.reference() != null && !e.reference().isBlank())
        {
            outputTokens = Math.max(1, tokenizer.count(e.reference()));
        }
        else if (output != null)
        {
            outputTokens = output.sample(random);
        }
        final byte[] body;
        if (e.messages() != null)
        {
            lastPromptTokens = -1;
            body = bodies.body(e.messages(), outputTokens);
        }
        else if (e.prompt() != null)
        {
            lastPromptTokens = tokenizer.count(e.prompt());
            body = bodies.body(e.prompt(), outputTokens);
        }
        else
        {
            body = bodies.body(tracePrompt(e, random), outputTokens);
        }
        return body;
    }

    /**
     * A trace entry's prompt: its full {@code hash_ids} blocks, each the same text wherever the id recurs (so a prefix
     * cache sees the trace's sharing), then filler to the exact input length.
     */
    private String tracePrompt(final DatasetEntry e, final SplittableRandom random)
    {
        final StringBuilder prefix = new StringBuilder();
        final long[] ids = e.hashIds();
        final int fullBlocks = ids == null ? 0 : Math.min(ids.length, e.inputLength() / blockSize);
        for (int b = 0; b < fullBlocks; b++)
        {
            final long id = ids[b];
            if (prefix.length() > 0 && !Character.isWhitespace(prefix.charAt(prefix.length() - 1)))
            {
                prefix.append(' ');
            }
            prefix.append(blocks.computeIfAbsent(id, k -> synthesizer.synthesize(tokenizer, blockSize,
                new SplittableRandom(seed * 0x9E3779B97F4A7C15L ^ k), "").text()));
        }
        final PromptSynthesizer.Prompt p = synthesizer.synthesize(tokenizer, e.inputLength(), random,
            prefix.toString());
        if (p.residual() != 0)
        {
            residualRequests++;
        }
        lastPromptTokens = p.tokens();
        return p.text();
    }

    @Override
    public byte[] body(final long i)
    {
        final SplittableRandom random = new SplittableRandom(seed * 0x9E3779B97F4A7C15L + i);
        if (dataset != null)
        {
            final byte[] body = datasetBody(i, random);
            digest.update(body);
            requests++;
            return body;
        }
        int inputTokens = input == null ? -1 : 0;
        int outputTokens = fixedOutput;
        if (correlated != null)
        {
            final Lengths lengths = correlated.sample(random);
            inputTokens = lengths.input();
            outputTokens = lengths.output();
        }
        else
        {
            if (input != null)
            {
                inputTokens = input.sample(random);
            }
            if (output != null)
            {
                outputTokens = output.sample(random);
            }
        }
        final String prompt;
        if (fixedPrompt != null)
        {
            prompt = fixedPrompt;
            lastPromptTokens = tokenizer != null ? tokenizer.count(prompt) : fixedPrompt.strip().split("\\s+").length;
        }
        else
        {
            final String prefix = "request " + i + ":";
            final PromptSynthesizer.Prompt p = synthesizer.synthesize(tokenizer, Math.max(1, inputTokens), random,
                prefix);
            if (p.residual() != 0)
            {
                residualRequests++;
            }
            prompt = p.text();
            lastPromptTokens = p.tokens();
        }
        final byte[] body = bodies.body(prompt, outputTokens);
        digest.update(body);
        requests++;
        return body;
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
    public int promptTokensHint(final long i)
    {
        return lastPromptTokens;
    }

    /** @return hex SHA-256 over every body built so far, in request order. Call once, at the end. */
    public String hash()
    {
        return HexFormat.of().formatHex(digest.digest());
    }

    public long requests()
    {
        return requests;
    }

    /** @return requests whose prompt could not be made exactly the drawn length (see PromptSynthesizer). */
    public long residualRequests()
    {
        return residualRequests;
    }

    /** @return a one-line description for the record. */
    public String describe()
    {
        final String counting = tokenizer == null ? "words" : tokenizer.id();
        if (dataset != null)
        {
            return "dataset of " + dataset.size() + " entries, replayed in file order" +
                (blockSize > 0 ? ", prefix blocks of " + blockSize + " tokens" : "") + ", counted in " + counting;
        }
        if (fixedPrompt != null)
        {
            return "fixed prompt, counted in " + counting;
        }
        return "synthetic prompts of exact length in " + counting + "; input " + input.describe() + "; output " +
            (output == null ? (fixedOutput > 0 ? "max_tokens " + fixedOutput : "server default") : output.describe()) +
            "; seed " + seed;
    }
}
