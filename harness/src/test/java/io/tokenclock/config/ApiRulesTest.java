package io.tokenclock.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

import io.tokenclock.api.Api;
import io.tokenclock.workload.SessionChain;

/**
 * The rules of the APIs: what a URL names, the key's variable by API, and what each API can be asked for, each
 * refusal one line naming the flags.
 */
final class ApiRulesTest
{
    private static RunOptionsBuilder closed(final String url)
    {
        return RunOptions.builder().url(url).concurrency(1);
    }

    private static String refusal(final RunOptionsBuilder b)
    {
        return assertThrows(IllegalArgumentException.class, b::build).getMessage();
    }

    @Test
    void shouldTakeTheApiAUrlEndsInAndItsKeysVariable()
    {
        final RunOptions o = closed("http://127.0.0.1:9/v1/messages").build();
        assertEquals(Api.MESSAGES, o.target().api());
        assertEquals("ANTHROPIC_API_KEY", o.target().apiKeyEnv());
        assertEquals("OPENAI_API_KEY", closed("http://127.0.0.1:9/v1/responses").build().target().apiKeyEnv());
        assertEquals("MY_KEY", closed("http://127.0.0.1:9/v1").api(Api.MESSAGES).apiKeyEnv("MY_KEY").build()
            .target().apiKeyEnv(), "a variable given is kept");
        assertEquals("ANTHROPIC_API_KEY", closed("http://127.0.0.1:9/v1").api(Api.MESSAGES)
            .apiKeyEnv("OPENAI_API_KEY").build().target().apiKeyEnv(),
            "the default, as the command line hands it over, follows the API");
        assertNull(closed("http://127.0.0.1:9/v1").api(Api.MESSAGES).apiKeyEnv(null).build().target().apiKeyEnv(),
            "no key at all, as the self-warm-up asks");
    }

    @Test
    void shouldRefuseAnEndpointThatContradictsTheUrl()
    {
        assertEquals("--endpoint responses and --url ending in /messages name two APIs: give one",
            refusal(closed("http://127.0.0.1:9/v1/messages").api(Api.RESPONSES)));
        assertEquals(Api.MESSAGES, closed("http://127.0.0.1:9/v1/messages").api(Api.MESSAGES).build().target().api());
    }

    @Test
    void shouldRequireAnOutputCapOnTheMessagesApi()
    {
        assertEquals("--endpoint messages: the Messages API requires max_tokens: give --max-tokens N (N >= 1), " +
            "output lengths, or a trace (each of its rows gives its output length)",
            refusal(closed("http://127.0.0.1:9/v1").api(Api.MESSAGES).maxTokens(0)));
    }

    @Test
    void shouldKeepReasoningEffortToChatAndResponsesAndThinkingToMessages()
    {
        final RunOptionsBuilder effort = closed("http://127.0.0.1:9/v1").api(Api.MESSAGES);
        effort.set(RunOption.REASONING_EFFORT, "high");
        assertEquals("--reasoning-effort is a chat and Responses API field: with --endpoint messages ask for " +
            "thinking with --thinking-tokens", refusal(effort));

        final RunOptionsBuilder thinking = closed("http://127.0.0.1:9/v1").api(Api.RESPONSES);
        thinking.set(RunOption.THINKING_TOKENS, 64);
        assertEquals("--thinking-tokens is the Messages API's: it needs --endpoint messages (responses asks with " +
            "--reasoning-effort)", refusal(thinking));

        final RunOptionsBuilder budget = closed("http://127.0.0.1:9/v1").api(Api.MESSAGES).maxTokens(100);
        budget.set(RunOption.THINKING_TOKENS, 100);
        assertEquals("--thinking-tokens must be >= 1 and below --max-tokens 100 (the API's rule): 100",
            refusal(budget));
        budget.set(RunOption.THINKING_TOKENS, 99);
        assertEquals(99, budget.build().model().thinkingTokens());
    }

    @Test
    void shouldChainByPreviousResponseIdOnlyInResponsesSessions()
    {
        final RunOptionsBuilder chat = RunOptions.builder().url("http://127.0.0.1:9/v1").users(2);
        chat.set(RunOption.SESSION_CHAIN, SessionChain.PREVIOUS_RESPONSE_ID);
        assertEquals("--session-chain previous_response_id chains the turns of sessions on the Responses API: it " +
            "needs --endpoint responses and --users", refusal(chat));

        final RunOptionsBuilder responses = RunOptions.builder().url("http://127.0.0.1:9/v1/responses").users(2);
        responses.set(RunOption.SESSION_CHAIN, SessionChain.PREVIOUS_RESPONSE_ID);
        assertEquals(SessionChain.PREVIOUS_RESPONSE_ID, responses.build().workload().sessionChain());
    }

    @Test
    void shouldRunSessionsOnEveryConversationalApiButCompletions()
    {
        assertEquals(Api.MESSAGES, RunOptions.builder().url("http://127.0.0.1:9/v1/messages").users(2).build()
            .target().api());
        assertEquals("--users runs multi-turn sessions: it excludes --concurrency, --rate, --fixed-schedule, " +
            "--dataset, --prompt and --endpoint completions, embeddings or rerank",
            refusal(RunOptions.builder().url("http://127.0.0.1:9/v1/completions").users(2)));
    }

    @Test
    void shouldKeepAgentsToChat()
    {
        assertEquals("--agent-steps runs tool-using agents over chat's tool calls: it needs --endpoint chat, not " +
            "responses", refusal(RunOptions.builder().url("http://127.0.0.1:9/v1/responses").users(2)
                .agent(AgentSpec.simulated(3, 10))));
    }

    @Test
    void shouldKeepInputsPerRequestToEmbeddingsAndRerankAndTheirSloToTheEndToEnd()
    {
        final RunOptionsBuilder embeddings = closed("http://127.0.0.1:9/v1/embeddings");
        embeddings.set(RunOption.EMBED_BATCH, 8);
        assertEquals(Api.EMBEDDINGS, embeddings.build().target().api(), "the URL names the API");
        assertEquals(8, embeddings.build().workload().embedBatch());
        final RunOptionsBuilder chat = closed("http://127.0.0.1:9/v1");
        chat.set(RunOption.EMBED_BATCH, 8);
        assertEquals("--embed-batch puts several texts in an embeddings or rerank request: it needs --endpoint " +
            "embeddings or rerank, not chat", refusal(chat));
        final RunOptionsBuilder zero = closed("http://127.0.0.1:9/v1").api(Api.RERANK);
        zero.set(RunOption.EMBED_BATCH, 0);
        assertEquals("--embed-batch must be in [1, 100000]: 0", refusal(zero));
        final RunOptionsBuilder ttft = closed("http://127.0.0.1:9/v1").api(Api.EMBEDDINGS);
        ttft.set(RunOption.SLO, new io.tokenclock.goodput.Slo(100_000_000L, 0, 0));
        assertEquals("--slo-ttft-ms: --endpoint embeddings answers whole, with no TTFT, TPOT or ITL to bound: bound " +
            "its end to end (--slo-e2e-ms, quality.slo.e2e_ms)", refusal(ttft));
        final RunOptionsBuilder shape = closed("http://127.0.0.1:9/v1").api(Api.EMBEDDINGS);
        shape.set(RunOption.RERANK_SHAPE, io.tokenclock.workload.RerankShape.TEXTS);
        assertEquals("--rerank-shape shapes a rerank request: it needs --endpoint rerank, not embeddings",
            refusal(shape));
    }

    @Test
    void shouldRefuseATraceOnEmbeddingsAndRerankNamingTheEndpointAndTheFormat()
    {
        for (final Api api : new Api[] {Api.EMBEDDINGS, Api.RERANK})
        {
            for (final String format : new String[] {"mooncake", "tracelab", "weka"})
            {
                final RunOptionsBuilder b = closed("http://127.0.0.1:9/v1").api(api)
                    .dataset(java.nio.file.Path.of("trace.jsonl")).datasetFormat(format);
                assertEquals("--endpoint " + api.word() + " with --dataset-format " + format + ": a trace replays " +
                    "an LLM's turns (output lengths, answers carried into the next turn, a prefix cache's reuse), " +
                    "and " + api.word() + " answers whole with none of them: replay it on chat, completions, " +
                    "responses or messages, or give " + api.word() + " texts (--input-tokens, or --dataset of jsonl " +
                    "or sharegpt)", refusal(b));
            }
            assertEquals(api, closed("http://127.0.0.1:9/v1").api(api).dataset(java.nio.file.Path.of("texts.jsonl"))
                .datasetFormat("jsonl").build().target().api(), "a dataset of texts is an embeddings workload");
        }
        assertEquals(Api.COMPLETIONS, closed("http://127.0.0.1:9/v1").api(Api.COMPLETIONS)
            .dataset(java.nio.file.Path.of("trace.jsonl")).datasetFormat("mooncake").build().target().api());
    }

    @Test
    void shouldRefuseImagesOnEmbeddingsAndCompletionsInOneLine()
    {
        for (final Api api : new Api[] {Api.EMBEDDINGS, Api.RERANK, Api.COMPLETIONS})
        {
            final RunOptionsBuilder b = closed("http://127.0.0.1:9/v1").api(api);
            b.set(RunOption.IMAGE_COUNT, 1);
            assertEquals("--image-count adds images to a prompt: --endpoint " + api.word() + " takes none (chat, " +
                "responses and messages do)", refusal(b));
        }
        final RunOptionsBuilder format = closed("http://127.0.0.1:9/v1").api(Api.COMPLETIONS);
        format.set(RunOption.IMAGE_FORMAT, io.tokenclock.workload.ImageFormat.JPEG);
        assertEquals("--image-format adds images to a prompt: --endpoint completions takes none (chat, responses " +
            "and messages do)", refusal(format));
        for (final Api api : new Api[] {Api.CHAT, Api.RESPONSES, Api.MESSAGES})
        {
            final RunOptionsBuilder b = closed("http://127.0.0.1:9/v1").api(api).maxTokens(8);
            b.set(RunOption.IMAGE_COUNT, 2);
            b.set(RunOption.IMAGE_SIZE, "64x32");
            assertEquals(new io.tokenclock.workload.ImageSpec(2, 64, 32, io.tokenclock.workload.ImageFormat.PNG),
                b.build().workload().images(), api.word());
        }
        final RunOptionsBuilder size = closed("http://127.0.0.1:9/v1");
        size.set(RunOption.IMAGE_COUNT, 1);
        size.set(RunOption.IMAGE_SIZE, "big");
        assertEquals("--image-size must be WIDTHxHEIGHT in pixels, each in [1, 8192] (e.g. 512x512): big",
            refusal(size));
    }

    @Test
    void shouldTakeImagesWithUserSessionsOnEveryApiWithImagesButRefuseThemWithAgentsInOneLine()
    {
        for (final Api api : new Api[] {Api.CHAT, Api.RESPONSES, Api.MESSAGES})
        {
            final RunOptionsBuilder b = RunOptions.builder().url("http://127.0.0.1:9/v1").api(api).users(2)
                .maxTokens(8);
            b.set(RunOption.IMAGE_COUNT, 2);
            assertEquals(2, b.build().workload().images().count(), api.word());
        }
        final RunOptionsBuilder agents = RunOptions.builder().url("http://127.0.0.1:9/v1").users(2).agent(
            new AgentSpec(null, 5, AgentSpec.DEFAULT_MAX_RETRIES, java.util.List.of(),
                AgentSpec.DEFAULT_TOOL_TIMEOUT_MS, null, LengthSpec.fixed(20), LengthSpec.fixed(30)));
        agents.set(RunOption.IMAGE_COUNT, 1);
        assertEquals("--image-count adds images to prompts, dataset lines and user turns: agents (--agent-steps) " +
            "take none yet", refusal(agents));
    }
}
