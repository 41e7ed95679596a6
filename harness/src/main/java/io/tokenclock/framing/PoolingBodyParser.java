package io.tokenclock.framing;

/**
 * The answer of an API that answers whole, embeddings or rerank, read from its {@link BodySkim} skeleton (its answer
 * arrays already counted), on bytes and without allocating. One grammar for the shapes the servers send:
 * <table>
 * <caption>The answers read</caption>
 * <tr><th>who</th><th>answer</th><th>items</th><th>prompt tokens</th></tr>
 * <tr><td>OpenAI embeddings (vLLM, llama.cpp's server, TEI's {@code /v1/embeddings})</td>
 *     <td>{@code {"object":"list","data":[...],"model":...,"usage":{"prompt_tokens":N,"total_tokens":N}}}</td>
 *     <td>{@code data}</td><td>{@code usage.prompt_tokens}</td></tr>
 * <tr><td>vLLM, Jina and llama.cpp's rerank</td>
 *     <td>{@code {"id":...,"results":[{"index":0,"relevance_score":0.9},...],"usage":{"total_tokens":N}}}</td>
 *     <td>{@code results}</td><td>{@code usage.prompt_tokens}, else {@code usage.total_tokens}</td></tr>
 * <tr><td>Cohere's rerank ({@code /v2/rerank})</td>
 *     <td>{@code {"id":...,"results":[...],"meta":{"billed_units":{"search_units":1}}}}</td>
 *     <td>{@code results}</td><td>none (search units are not tokens)</td></tr>
 * <tr><td>TEI's rerank</td><td>{@code [{"index":0,"score":0.9},...]}, a bare array</td><td>the array</td>
 *     <td>none</td></tr>
 * </table>
 * A member {@code timings} (tokenclock's engine, {@code fixtures}' EngineServer) is read as a stream's last
 * {@code timings} is: its {@code prompt_ms} is the engine's span of the whole request.
 * A member {@code error} that is not null makes the answer an error (a server that answers 200 with one), as a stream's
 * error event does. Members come in any order; the answer arrays are already numbers in the skeleton.
 * <p>
 * Worked example: the skeleton {@code {"object":"list","data":2,"usage":{"prompt_tokens":7,"total_tokens":7}}} reads
 * as 2 items and 7 prompt tokens; {@code 2} (TEI) as 2 items and no usage.
 */
public final class PoolingBodyParser extends EventParser
{
    /** The member that holds the embeddings' answer array. */
    public static final String EMBEDDINGS = "data";
    /** The member that holds the rerank results' answer array. */
    public static final String RERANK = "results";

    private static final byte[] USAGE = bytes("usage");
    private static final byte[] ERROR = bytes("error");
    private static final byte[] ID = bytes("id");
    private static final byte[] PROMPT_TOKENS = bytes("prompt_tokens");
    private static final byte[] TOTAL_TOKENS = bytes("total_tokens");
    private static final byte[] INPUT_TOKENS = bytes("input_tokens");

    private final byte[] answerMember;

    /** @param answerMember the top-level member whose array is the answer: {@link #EMBEDDINGS} or {@link #RERANK}. */
    public PoolingBodyParser(final String answerMember)
    {
        super(true);
        this.answerMember = bytes(answerMember);
    }

    @Override
    void parseTop()
    {
        skipWs();
        if (pos < end && buf[pos] >= '0' && buf[pos] <= '9')
        {
            items = readLongOrSkip(); // a bare answer array, counted (TEI)
            return;
        }
        if (!openTop())
        {
            return;
        }
        do
        {
            readKey();
            final int ks = strStart;
            final int kl = strEnd - strStart;
            if (keyIs(ks, kl, answerMember))
            {
                items = readLongOrSkip();
            }
            else if (keyIs(ks, kl, USAGE))
            {
                parseUsage();
            }
            else if (keyIs(ks, kl, TIMINGS))
            {
                parseTimings(); // tokenclock's engine: its span of the whole request, as timings.prompt_ms
            }
            else if (keyIs(ks, kl, ERROR))
            {
                error = !skipIfNull();
                if (error)
                {
                    skipValue();
                }
            }
            else if (keyIs(ks, kl, ID))
            {
                final long id = readSpan();
                if (id != NO_SPAN)
                {
                    idOffset = spanOffset(id);
                    idLength = spanLength(id);
                }
            }
            else
            {
                skipValue();
            }
        }
        while (nextMember('}'));
    }

    /** {@code usage}: prompt tokens, else input tokens, else total tokens (a pooling request's total is its input). */
    private void parseUsage()
    {
        if (!openObject())
        {
            return;
        }
        long total = -1;
        do
        {
            readKey();
            final int ks = strStart;
            final int kl = strEnd - strStart;
            if (keyIs(ks, kl, PROMPT_TOKENS) || keyIs(ks, kl, INPUT_TOKENS))
            {
                promptTokens = readLongOrSkip();
            }
            else if (keyIs(ks, kl, TOTAL_TOKENS))
            {
                total = readLongOrSkip();
            }
            else
            {
                skipValue();
            }
        }
        while (nextMember('}'));
        if (promptTokens < 0)
        {
            promptTokens = total;
        }
    }
}
