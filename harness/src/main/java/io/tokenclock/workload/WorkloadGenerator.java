package io.tokenclock.workload;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.SplittableRandom;

import io.tokenclock.load.LoadGenerator;
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
        try
        {
            this.digest = MessageDigest.getInstance("SHA-256");
        }
        catch (final NoSuchAlgorithmException ex)
        {
            throw new IllegalStateException("SHA-256 is required of every JDK", ex);
        }
    }

    @Override
    public byte[] body(final long i)
    {
        final SplittableRandom random = new SplittableRandom(seed * 0x9E3779B97F4A7C15L + i);
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
        if (fixedPrompt != null)
        {
            return "fixed prompt, counted in " + counting;
        }
        return "synthetic prompts of exact length in " + counting + "; input " + input.describe() + "; output " +
            (output == null ? (fixedOutput > 0 ? "max_tokens " + fixedOutput : "server default") : output.describe()) +
            "; seed " + seed;
    }
}
