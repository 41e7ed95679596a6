package io.tokenclock.workload;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.SplittableRandom;

import io.tokenclock.workload.tokenizer.Tokenizer;

/**
 * The text of a trace's hash blocks, and which of them the run has already sent. A block is named by its scope (0:
 * ids that mean the same block in every session; else a session's own namespace), its hash id and its length in
 * tokens, and its text depends only on those and the seed: the same block is the same text, byte for byte, in every
 * request, so that a server's prefix cache sees the reuse the trace recorded.
 * <p>
 * <b>Collisions.</b> A trace may use one id both as a full shared block and as the partial last block of a private
 * prompt (Mooncake's own traces do; AIPerf's generator reuses whichever text it made first, at the wrong length). Here
 * each length of an id is a block of its own, with text of its own, so the prompt has the length the trace says and
 * the ideal hit rate counts each distinct block text once.
 * <p>
 * <b>Exact lengths.</b> Every block is synthesized alone to its exact token count under the run's tokenizer
 * ({@link PromptSynthesizer}), starting with a space, so that blocks placed one after another tokenize as they did
 * alone for byte-level BPEs (a space and a letter start a new piece whatever came before) and for word counting; a
 * block that misses its count is counted ({@link #residualBlocks()}).
 * <p>
 * <b>Memory.</b> Texts are kept in a cache of the most recently used {@link #CACHED_TEXTS} blocks and made again,
 * identically, when needed after that; the set of blocks seen keeps 8 bytes a block (a 64-bit fingerprint of scope, id
 * and length; two distinct blocks share one with probability about n^2 / 2^65 among n blocks).
 * <p>
 * The load generator's thread only.
 */
public final class TraceBlocks
{
    /** Block texts kept in memory. */
    static final int CACHED_TEXTS = 4096;

    private final long seed;
    private final Tokenizer tokenizer;
    private final PromptSynthesizer synthesizer = new PromptSynthesizer();
    private final Map<Long, String> texts = new LinkedHashMap<>(CACHED_TEXTS, 0.75f, true)
    {
        private static final long serialVersionUID = 1L;

        @Override
        protected boolean removeEldestEntry(final Map.Entry<Long, String> eldest)
        {
            return size() > CACHED_TEXTS;
        }
    };
    private long[] seen = new long[1 << 12];
    private int seenCount;
    private boolean seenZero;
    private long residualBlocks;

    /** Blocks synthesized under {@code tokenizer} from {@code seed}. */
    public TraceBlocks(final long seed, final Tokenizer tokenizer)
    {
        this.seed = seed;
        this.tokenizer = tokenizer;
    }

    /** @return the 64-bit fingerprint of block (scope, id, tokens): its text's seed and its key in the seen set. */
    static long fingerprint(final long scope, final long id, final int tokens)
    {
        return mix(mix(mix(scope) ^ id) ^ tokens);
    }

    private static long mix(final long x)
    {
        long z = x + Seeds.GOLDEN_GAMMA;
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }

    /** @return the text of block (scope, id, tokens). */
    public String text(final long scope, final long id, final int tokens)
    {
        final long key = fingerprint(scope, id, tokens);
        final String cached = texts.get(key);
        if (cached != null)
        {
            return cached;
        }
        final String text = synthesize(tokens, new SplittableRandom(Seeds.mixXor(seed, key)));
        texts.put(key, text);
        return text;
    }

    /**
     * Marks block (scope, id, tokens) as sent.
     *
     * @return whether it had been sent before in this run (an infinite prefix cache would hold it).
     */
    public boolean markSeen(final long scope, final long id, final int tokens)
    {
        return !add(fingerprint(scope, id, tokens));
    }

    /** @return text of exactly {@code tokens} tokens (when the synthesizer gets there), starting with a space. */
    public String filler(final int tokens, final SplittableRandom random)
    {
        return synthesize(tokens, random);
    }

    private String synthesize(final int tokens, final SplittableRandom random)
    {
        final PromptSynthesizer.Prompt p = synthesizer.synthesize(tokenizer, tokens, random, " ");
        if (p.residual() != 0)
        {
            residualBlocks++;
        }
        return p.text().startsWith(" ") ? p.text() : " " + p.text();
    }

    /** @return blocks (and fillers) whose text missed its token count. */
    public long residualBlocks()
    {
        return residualBlocks;
    }

    /** @return distinct blocks sent so far. */
    public long distinctBlocks()
    {
        return seenCount + (seenZero ? 1 : 0);
    }

    /** Adds {@code key} to the open-addressing set (0 is kept apart, as the empty slot); @return true if new. */
    private boolean add(final long key)
    {
        if (key == 0)
        {
            final boolean added = !seenZero;
            seenZero = true;
            return added;
        }
        if ((seenCount + 1) * 4 > seen.length * 3)
        {
            grow();
        }
        final int mask = seen.length - 1;
        int i = (int)(mix(key) & mask);
        while (seen[i] != 0)
        {
            if (seen[i] == key)
            {
                return false;
            }
            i = (i + 1) & mask;
        }
        seen[i] = key;
        seenCount++;
        return true;
    }

    private void grow()
    {
        final long[] old = seen;
        seen = new long[old.length << 1];
        seenCount = 0;
        Arrays.stream(old).filter(k -> k != 0).forEach(this::add);
    }
}
