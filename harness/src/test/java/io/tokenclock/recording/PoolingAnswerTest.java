package io.tokenclock.recording;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;

import io.tokenclock.api.Api;
import io.tokenclock.framing.BodySkim;

/**
 * The answers of embeddings and rerank, read whole on the recorder's path: each server's shape on known bytes, split
 * at every byte, counted (items against inputs) and classified; the request has an end to end and no TTFT, chunk or
 * output token.
 */
final class PoolingAnswerTest
{
    /** OpenAI's documented embeddings answer (vLLM and llama.cpp's server answer the same members). */
    static final String EMBEDDINGS_OPENAI = "{\"object\":\"list\",\"data\":[{\"object\":\"embedding\",\"embedding\":" +
        "[0.0023064255,-0.009327292,-0.0028842222],\"index\":0},{\"object\":\"embedding\",\"embedding\":[0.1,-2.5E-4," +
        "3],\"index\":1}],\"model\":\"text-embedding-3-small\",\"usage\":{\"prompt_tokens\":8,\"total_tokens\":8}}";
    /** llama.cpp's server (d32676d77), members in its order, a string with brackets and escapes in the model. */
    static final String EMBEDDINGS_LLAMA = "{\"model\":\"tc \\\"[x]\\\" {y}\",\"object\":\"list\",\"usage\":" +
        "{\"prompt_tokens\":12,\"total_tokens\":12},\"data\":[{\"embedding\":[-0.5,0.25],\"index\":0,\"object\":" +
        "\"embedding\"},{\"embedding\":[0.5,-0.25],\"index\":1,\"object\":\"embedding\"},{\"embedding\":[1,2]," +
        "\"index\":2,\"object\":\"embedding\"}]}";
    /** vLLM's rerank: results with documents, usage with total tokens only. */
    static final String RERANK_VLLM = "{\"id\":\"rerank-7\",\"model\":\"BAAI/bge-reranker-base\",\"usage\":" +
        "{\"total_tokens\":56},\"results\":[{\"index\":1,\"document\":{\"text\":\"The capital [of] France\"}," +
        "\"relevance_score\":0.99},{\"index\":0,\"document\":{\"text\":\"a \\\\ b\"},\"relevance_score\":0.01}]}";
    /** Cohere's rerank v2: no usage in tokens, billed search units. */
    static final String RERANK_COHERE = "{\"results\":[{\"index\":3,\"relevance_score\":0.99},{\"index\":0," +
        "\"relevance_score\":0.5},{\"index\":1,\"relevance_score\":0.1},{\"index\":2,\"relevance_score\":0.01}]," +
        "\"id\":\"07734bd2\",\"meta\":{\"api_version\":{\"version\":\"2\"},\"billed_units\":{\"search_units\":1}}}";
    /** tokenclock's engine (fixtures' EngineServer) as it answered EngineServerTest: timings of the prompt alone. */
    static final String RERANK_TOKENCLOCK_ENGINE = "{\"id\":\"rerank-11\",\"object\":\"list\",\"results\":" +
        "[{\"index\":0,\"relevance_score\":-0.11743343},{\"index\":2,\"relevance_score\":-0.11874395}," +
        "{\"index\":1,\"relevance_score\":-0.120402016}],\"model\":\"m\",\"usage\":{\"prompt_tokens\":18," +
        "\"total_tokens\":18}," +
        "\"timings\":{\"prompt_n\":18,\"prompt_ms\":28.110003,\"prompt_per_token_ms\":1.561667," +
        "\"prompt_per_second\":640.341447}}";
    /** Hugging Face TEI's rerank: a bare array. */
    static final String RERANK_TEI = "[{\"index\":1,\"score\":0.9},{\"index\":0,\"score\":0.1}]";

    private static StreamReplay.Seen replayEverySplit(final Api api, final int inputs, final String body)
        throws InterruptedException
    {
        final StreamReplay replay = new StreamReplay(api).inputs(inputs);
        final StreamReplay.Seen whole = replay.replay(body);
        final int length = body.getBytes(StandardCharsets.UTF_8).length;
        for (int cut = 1; cut < length; cut++)
        {
            final StreamReplay.Seen split = replay.replay(body, cut);
            assertEquals(whole.status(), split.status(), "cut at " + cut);
            assertEquals(whole.error(), split.error(), "cut at " + cut);
            assertEquals(whole.answerItems(), split.answerItems(), "cut at " + cut);
            assertEquals(whole.promptTokens(), split.promptTokens(), "cut at " + cut);
            assertEquals(whole.responseId(), split.responseId(), "cut at " + cut);
        }
        return whole;
    }

    private static void assertWholeAnswer(final StreamReplay.Seen seen)
    {
        assertEquals(0, seen.chunks(), "no chunk is published for an answer read whole");
        assertEquals(-1, seen.ttftNs(), "no TTFT: undefined, never 0");
        assertEquals(-1, seen.outputTokens(), "no token generated: no count, not a count of 0");
        assertTrue(seen.e2eNs() > 0, "its latency is its end to end");
    }

    @Test
    void shouldCountEmbeddingsAndTheirPromptTokensWhereverTheReadsSplitTheBody() throws InterruptedException
    {
        final StreamReplay.Seen openAi = replayEverySplit(Api.EMBEDDINGS, 2, EMBEDDINGS_OPENAI);
        assertEquals(ErrorClass.NONE, openAi.error(), openAi.detail());
        assertEquals(2, openAi.answerItems());
        assertEquals(8, openAi.promptTokens());
        assertWholeAnswer(openAi);

        final StreamReplay.Seen llama = replayEverySplit(Api.EMBEDDINGS, 3, EMBEDDINGS_LLAMA);
        assertEquals(ErrorClass.NONE, llama.error(), llama.detail());
        assertEquals(3, llama.answerItems(), "brackets inside a string are text");
        assertEquals(12, llama.promptTokens());
    }

    @Test
    void shouldReadEachRerankShape() throws InterruptedException
    {
        final StreamReplay.Seen vllm = replayEverySplit(Api.RERANK, 2, RERANK_VLLM);
        assertEquals(ErrorClass.NONE, vllm.error(), vllm.detail());
        assertEquals(2, vllm.answerItems());
        assertEquals(56, vllm.promptTokens(), "a pooling request's total tokens are its input");
        assertEquals("rerank-7", vllm.responseId());
        assertWholeAnswer(vllm);

        final StreamReplay.Seen cohere = replayEverySplit(Api.RERANK, 4, RERANK_COHERE);
        assertEquals(ErrorClass.NONE, cohere.error(), cohere.detail());
        assertEquals(4, cohere.answerItems());
        assertEquals(-1, cohere.promptTokens(), "search units are not tokens");

        final StreamReplay.Seen tei = replayEverySplit(Api.RERANK, 2, RERANK_TEI);
        assertEquals(ErrorClass.NONE, tei.error(), tei.detail());
        assertEquals(2, tei.answerItems());
    }

    @Test
    void shouldTakeTheEnginesSpanFromTheTimingsOfAnAnswerThatCarriesThem() throws InterruptedException
    {
        final StreamReplay replay = new StreamReplay(Api.RERANK).inputs(3);
        final int length = RERANK_TOKENCLOCK_ENGINE.getBytes(StandardCharsets.UTF_8).length;
        for (int cut = 1; cut < length; cut++)
        {
            final StreamReplay.Seen seen = replay.replay(RERANK_TOKENCLOCK_ENGINE, cut);
            assertEquals(ErrorClass.NONE, seen.error(), seen.detail());
            assertEquals(3, seen.answerItems());
            assertEquals(18, seen.promptTokens());
            assertEquals(28_110_003, seen.enginePromptNs(), "timings.prompt_ms, cut at " + cut);
        }
        assertEquals(-1, replayEverySplit(Api.RERANK, 2, RERANK_VLLM).enginePromptNs(), "no timings, no span");
    }

    @Test
    void shouldTakeARerankAnswerOfItsTopNResultsAsWholeNotTruncated() throws InterruptedException
    {
        // vLLM's answer to 4 documents with top_n 2 in --extra-body: 2 results, as asked.
        final StreamReplay.Seen topTwo = replayEverySplit(Api.RERANK, 4, RERANK_VLLM);
        assertEquals(ErrorClass.TRUNCATED, topTwo.error(), "without top_n, 2 results of 4 documents are cut short");

        final StreamReplay asked = new StreamReplay(Api.RERANK).inputs(4).answerLimit(2);
        final StreamReplay.Seen whole = asked.replay(RERANK_VLLM);
        assertEquals(ErrorClass.NONE, whole.error(), whole.detail());
        assertEquals(2, whole.answerItems());

        final StreamReplay.Seen one = new StreamReplay(Api.RERANK).inputs(4).answerLimit(3).replay(RERANK_VLLM);
        assertEquals(ErrorClass.TRUNCATED, one.error(), "2 results when top 3 were asked for");
        assertEquals("the answer holds 2 items for 4 inputs (top 3 asked for)", one.detail());
        final StreamReplay.Seen more = new StreamReplay(Api.RERANK).inputs(2).answerLimit(5).replay(RERANK_VLLM);
        assertEquals(ErrorClass.NONE, more.error(), "top_n above the documents asks for every one");
    }

    @Test
    void shouldClassifyAShortAnEmptyAMalformedAndAnErrorAnswer() throws InterruptedException
    {
        final StreamReplay replay = new StreamReplay(Api.EMBEDDINGS).inputs(3);
        final StreamReplay.Seen shortAnswer = replay.replay(EMBEDDINGS_OPENAI);
        assertEquals(ErrorClass.TRUNCATED, shortAnswer.error(), "2 embeddings for 3 inputs");
        assertEquals("the answer holds 2 items for 3 inputs", shortAnswer.detail());

        final StreamReplay.Seen empty =
            replay.replay("{\"object\":\"list\",\"data\":[],\"usage\":{\"prompt_tokens\":0}}");
        assertEquals(ErrorClass.NO_CONTENT, empty.error());

        final StreamReplay.Seen cut = replay.replay(EMBEDDINGS_OPENAI.substring(0, 60));
        assertEquals(ErrorClass.MALFORMED_EVENT, cut.error(), cut.detail());

        final StreamReplay.Seen error = replay.replay("{\"error\":{\"message\":\"input too long\",\"type\":" +
            "\"invalid_request_error\",\"code\":400}}");
        assertEquals(ErrorClass.ERROR_EVENT, error.error());
        assertTrue(error.detail().contains("input too long"), error.detail());
    }

    @Test
    void shouldKeepOnlyTheSkeletonOfALargeAnswer()
    {
        final StringBuilder sb = new StringBuilder("{\"object\":\"list\",\"data\":[");
        for (int i = 0; i < 32; i++)
        {
            sb.append(i == 0 ? "" : ",").append("{\"object\":\"embedding\",\"index\":").append(i)
                .append(",\"embedding\":[");
            for (int d = 0; d < 4096; d++)
            {
                sb.append(d == 0 ? "" : ",").append("-0.0123456");
            }
            sb.append("]}");
        }
        sb.append("],\"usage\":{\"prompt_tokens\":4096,\"total_tokens\":4096}}");
        final byte[] body = sb.toString().getBytes(StandardCharsets.UTF_8);
        final BodySkim skim = new BodySkim(64, 512);
        for (int from = 0; from < body.length; from += 1460)
        {
            skim.onBytes(body, from, Math.min(1460, body.length - from));
        }
        assertEquals("{\"object\":\"list\",\"data\":32,\"usage\":{\"prompt_tokens\":4096,\"total_tokens\":4096}}",
            new String(skim.skeleton(), 0, skim.length(), StandardCharsets.US_ASCII));
        assertEquals(body.length, skim.bodyBytes());
        assertTrue(!skim.overflowed() && body.length > 1_000_000, "a 1.4 MB answer in a 512-byte skeleton");
    }
}
