package io.tokenclock.framing;

/**
 * A JSON answer read whole (embeddings, rerank) skimmed as its reads arrive: it keeps the body's skeleton, every byte
 * but the elements of its answer arrays, and counts those elements, so that the body's grammar
 * ({@link PoolingBodyParser}) parses a few hundred bytes at the end instead of the whole answer, and no read is ever
 * held in memory. An answer array is the top-level value when that is an array (TEI's rerank answer) or an array that
 * is a member of the top-level object ({@code data} of embeddings, {@code results} of rerank); in the skeleton each
 * becomes the decimal count of its elements.
 * <p>
 * Worked example: the body
 * {@code {"object":"list","data":[{"embedding":[0.1,-0.2],"index":0},{"embedding":[0.3,0.4],"index":1}],
 * "usage":{"prompt_tokens":7,"total_tokens":7}}}, in reads split anywhere, leaves the skeleton
 * {@code {"object":"list","data":2,"usage":{"prompt_tokens":7,"total_tokens":7}}}; TEI's
 * {@code [{"index":1,"score":0.9},{"index":0,"score":0.1}]} leaves {@code 2}.
 * <p>
 * Why skim and not keep the body for a parse at its end: an embeddings answer grows with its batch and its dimensions
 * (32 inputs of 4,096 floats are about 2.6 MB of JSON), so a kept body would cost each connection its largest answer
 * in heap, and its parse would come all at once after the read that ended it. The skim touches each byte once, as it
 * arrives, in a loop of a few comparisons ({@code PoolingBodyBenchmark} measures it), keeps at most {@code maxBytes}
 * of skeleton (more is {@link #overflowed()}: the request is oversize), and allocates nothing once its buffer has
 * grown to the workload's skeleton. The stamp of the read that ends the body is the transport's; the skim takes none.
 * <p>
 * Strings are followed with their escapes, so a {@code "[" } or {@code "]"} inside one is text. One per connection;
 * not thread-safe; {@link #reset()} before each response.
 */
public final class BodySkim
{
    private final AppendBuffer skeleton;
    private final int maxBytes;
    /** Containers open before the next byte. */
    private int depth;
    private boolean inString;
    private boolean escaped;
    /** Inside an answer array: the depth of its elements' first bytes; 0 when outside one. */
    private int answerDepth;
    /** Inside an answer array, no element has begun since its '[' or the last ','. */
    private boolean elementDue;
    private long elements;
    private boolean overflow;
    private long bodyBytes;
    /** Within the read being skimmed, where the skeleton's next kept bytes begin; -1 inside an answer array. */
    private int keepFrom;

    /**
     * @param initialBytes the skeleton buffer's first capacity.
     * @param maxBytes     the longest skeleton kept; a longer one makes the body {@link #overflowed()}.
     */
    public BodySkim(final int initialBytes, final int maxBytes)
    {
        this.skeleton = new AppendBuffer(initialBytes);
        this.maxBytes = maxBytes;
    }

    /** Forgets the last body; keeps the grown buffer. */
    public void reset()
    {
        skeleton.clear();
        depth = 0;
        inString = false;
        escaped = false;
        answerDepth = 0;
        elementDue = false;
        elements = 0;
        overflow = false;
        bodyBytes = 0;
    }

    /** Skims one read's body bytes, {@code src[offset, offset + length)}. */
    public void onBytes(final byte[] src, final int offset, final int length)
    {
        final int end = offset + length;
        keepFrom = answerDepth == 0 ? offset : -1;
        int i = offset;
        while (i < end)
        {
            if (inString)
            {
                i = skipString(src, i, end);
                continue;
            }
            final byte c = src[i];
            if (c != ' ' && c != '\n' && c != '\r' && c != '\t')
            {
                structural(src, i, c);
            }
            i++;
        }
        if (keepFrom >= 0)
        {
            keep(src, keepFrom, end);
        }
        bodyBytes += length;
    }

    /** @return the index after the string's closing quote, or {@code end} if the string goes on past this read. */
    private int skipString(final byte[] src, final int from, final int end)
    {
        boolean esc = escaped;
        for (int i = from; i < end; i++)
        {
            final byte c = src[i];
            if (esc)
            {
                esc = false;
            }
            else if (c == '\\')
            {
                esc = true;
            }
            else if (c == '"')
            {
                escaped = false;
                inString = false;
                return i + 1;
            }
        }
        escaped = esc;
        return end;
    }

    /** One byte outside a string and not white space, at {@code src[i]}: counts, opens and closes. */
    private void structural(final byte[] src, final int i, final byte c)
    {
        final int answer = answerDepth;
        if (c == ']' && answer != 0 && depth == answer)
        {
            depth--;
            answerDepth = 0;
            appendCount(elements);
            keepFrom = i + 1;
            return;
        }
        if (c == ',' && depth == answer)
        {
            elementDue = true;
            return;
        }
        if (elementDue && depth == answer && c != ']')
        {
            elements++;
            elementDue = false;
        }
        if (c == '"')
        {
            inString = true;
        }
        else if (c == '{')
        {
            depth++;
        }
        else if (c == '[')
        {
            if (answer == 0 && depth <= 1)
            {
                keep(src, keepFrom, i);
                keepFrom = -1;
                answerDepth = depth + 1;
                elementDue = true;
                elements = 0;
            }
            depth++;
        }
        else if (c == '}' || c == ']')
        {
            depth--;
        }
    }

    private void keep(final byte[] src, final int from, final int to)
    {
        if (to > from && !skeleton.appendPrefix(src, from, to - from, maxBytes))
        {
            overflow = true;
        }
    }

    /** Appends {@code count}'s decimal digits, without a String. */
    private void appendCount(final long count)
    {
        long divisor = 1;
        while (divisor <= count / 10)
        {
            divisor *= 10;
        }
        for (long rest = count; divisor > 0; divisor /= 10)
        {
            if (!skeleton.append((byte)('0' + rest / divisor), maxBytes))
            {
                overflow = true;
            }
            rest %= divisor;
        }
    }

    /** @return the skeleton's live array, valid up to {@link #length()} until the next call. */
    public byte[] skeleton()
    {
        return skeleton.array();
    }

    /** @return the skeleton's length. */
    public int length()
    {
        return skeleton.length();
    }

    /** @return whether the skeleton ran past its limit (the answer is then not read: the request is oversize). */
    public boolean overflowed()
    {
        return overflow;
    }

    /** @return the body's bytes skimmed since {@link #reset()}. */
    public long bodyBytes()
    {
        return bodyBytes;
    }
}
