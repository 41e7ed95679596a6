package io.tokenclock.recording;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;

import io.tokenclock.api.Api;
import io.tokenclock.framing.EventParser;
import io.tokenclock.testing.ApiStreams;

/**
 * The Responses and Messages streams through the whole per-request core (framing, the API's grammar, recording,
 * the collector's metrics), on known byte layouts: what each request records, and that every way of cutting the
 * stream into two reads records the same, each content event stamped with the read that completed it.
 */
final class ApiStreamRecorderTest
{
    @Test
    void shouldRecordOpenAisResponsesStreamWithReasoningFirstAndItsUsage() throws InterruptedException
    {
        final StreamReplay.Seen r = new StreamReplay(Api.RESPONSES).replay(ApiStreams.RESPONSES_OPENAI);

        assertEquals(RequestSlot.STATUS_OK, r.status(), r.detail());
        assertEquals(3, r.chunks(), "one reasoning delta, two text deltas");
        assertEquals("Hi th\"ere", r.text());
        assertEquals("Think", r.reasoning());
        assertEquals("resp_67c9fdcecf", r.responseId());
        assertEquals(37, r.promptTokens());
        assertEquals(11, r.completionTokens());
        assertEquals(32, r.cachedTokens());
        assertEquals(8, r.reasoningTokens());
        assertEquals(11, r.outputTokens(), "the server's usage is n_out");
        assertEquals(EventParser.FINISH_STOP, r.finish());
        assertTrue(r.done());
        assertEquals(0, r.unknownEvents());
    }

    @Test
    void shouldStartTtftAtReasoningAndTtfotAtTheFirstAnswerText() throws InterruptedException
    {
        final String s = ApiStreams.RESPONSES_OPENAI;
        final int reasoning = s.indexOf("response.output_item.added\ndata: {\"type\":\"response.output_item.added\"," +
            "\"sequence_number\":5");
        final int text = s.indexOf("event: response.output_text.delta\ndata: {\"type\":" +
            "\"response.output_text.delta\",\"sequence_number\":8");

        final StreamReplay.Seen r = new StreamReplay(Api.RESPONSES).replay(s, reasoning, text);

        assertEquals(10_000 - 1_000, r.ttftNs(), "the reasoning delta came in the first read");
        assertEquals(20_000 - 1_000, r.ttfotNs(), "the first text delta in the second");
        assertArrayEquals(new long[] {10_000, 20_000, 30_000}, r.chunkNs());
    }

    @Test
    void shouldRecordAStreamWithSortedMembersAndTheEnginesTimings() throws InterruptedException
    {
        final StreamReplay.Seen r = new StreamReplay(Api.RESPONSES).replay(ApiStreams.RESPONSES_SORTED);

        assertEquals(RequestSlot.STATUS_OK, r.status(), r.detail());
        assertEquals(3, r.chunks());
        assertEquals("Hello\n!", r.text());
        assertEquals("resp_x8Q2", r.responseId());
        assertEquals(9, r.promptTokens());
        assertEquals(4, r.cachedTokens());
        assertEquals(-1, r.reasoningTokens());
        assertEquals(7_250_000, r.enginePromptNs());
    }

    @Test
    void shouldRecordTheResponsesStreamLlamaCppsServerSent() throws InterruptedException
    {
        final StreamReplay.Seen r = new StreamReplay(Api.RESPONSES).replay(ApiStreams.RESPONSES_LLAMA_SERVER);

        assertEquals(RequestSlot.STATUS_OK, r.status(), r.detail());
        assertEquals(4, r.chunks());
        assertEquals(" education sci tea compan", r.text());
        assertEquals("resp_I2dItflwaZxRLeKYWaBKB3ILXZRv7lFX", r.responseId());
        assertEquals(59, r.promptTokens());
        assertEquals(4, r.completionTokens());
        assertEquals(0, r.cachedTokens());
        assertEquals(161_376_000, r.enginePromptNs(), "timings.prompt_ms 161.376, beside response.completed");
        assertEquals(EventParser.FINISH_STOP, r.finish(), "llama.cpp reports completed even at the cap");
        assertEquals(0, r.unknownEvents());
    }

    @Test
    void shouldRecordTheMessagesStreamLlamaCppsServerSentWithItsCachedPrompt() throws InterruptedException
    {
        final StreamReplay.Seen r = new StreamReplay(Api.MESSAGES).replay(ApiStreams.MESSAGES_LLAMA_SERVER);

        assertEquals(RequestSlot.STATUS_OK, r.status(), r.detail());
        assertEquals(4, r.chunks());
        assertEquals(" my sta sta!", r.text());
        assertEquals(1 + 58, r.promptTokens(), "input_tokens 1 and 58 read from the cache");
        assertEquals(58, r.cachedTokens());
        assertEquals(4, r.completionTokens());
        assertEquals(EventParser.FINISH_LENGTH, r.finish());
        assertTrue(r.done());
    }

    @Test
    void shouldRecordAResponsesFunctionCallAsToolCallChunksEndingInToolCalls() throws InterruptedException
    {
        final StreamReplay.Seen r = new StreamReplay(Api.RESPONSES).replay(ApiStreams.RESPONSES_TOOL_CALL);

        assertEquals(RequestSlot.STATUS_OK, r.status(), r.detail());
        assertEquals(3, r.chunks(), "the naming item and two argument fragments");
        assertEquals(EventParser.FINISH_TOOL_CALLS, r.finish());
        assertTrue(r.toolCalls().contains("get_weather") && r.toolCalls().contains("Paris"), r.toolCalls());
        assertEquals(0, r.ttftNs() - r.ttfotNs(), "a tool call is output: TTFT and TTFOT agree");
    }

    @Test
    void shouldRecordAnthropicsMessagesStreamWithThinkingAndBothCacheCounts() throws InterruptedException
    {
        final StreamReplay.Seen r = new StreamReplay(Api.MESSAGES).replay(ApiStreams.MESSAGES_ANTHROPIC);

        assertEquals(RequestSlot.STATUS_OK, r.status(), r.detail());
        assertEquals(3, r.chunks(), "one thinking delta, two text deltas; the signature and the ping are none");
        assertEquals("Hello w\u00f6rld", r.text());
        assertEquals("Let me \"see\"", r.reasoning());
        assertEquals("msg_01XFDUDYJgAACzvnptvVoYEL", r.responseId());
        assertEquals(128, r.promptTokens(), "25 + 100 read from the cache + 3 written to it");
        assertEquals(100, r.cachedTokens());
        assertEquals(15, r.completionTokens());
        assertEquals(EventParser.FINISH_STOP, r.finish());
        assertTrue(r.done());
        assertEquals(0, r.unknownEvents());
    }

    @Test
    void shouldRecordAMessagesStreamWithSortedMembersStoppedByMaxTokens() throws InterruptedException
    {
        final StreamReplay.Seen r = new StreamReplay(Api.MESSAGES).replay(ApiStreams.MESSAGES_SORTED);

        assertEquals(RequestSlot.STATUS_OK, r.status(), r.detail());
        assertEquals("Hello", r.text());
        assertEquals(2, r.chunks());
        assertEquals(9, r.promptTokens());
        assertEquals(0, r.cachedTokens());
        assertEquals(EventParser.FINISH_LENGTH, r.finish());
    }

    @Test
    void shouldRecordAMessagesToolUseAsToolCallChunks() throws InterruptedException
    {
        final StreamReplay.Seen r = new StreamReplay(Api.MESSAGES).replay(ApiStreams.MESSAGES_TOOL_USE);

        assertEquals(RequestSlot.STATUS_OK, r.status(), r.detail());
        assertEquals(3, r.chunks(), "the block naming the tool and two non-empty fragments");
        assertEquals(EventParser.FINISH_TOOL_CALLS, r.finish());
        assertEquals(472, r.promptTokens());
        assertEquals(-1, r.cachedTokens(), "no cache count given: unknown");
    }

    @Test
    void shouldClassifyAnOverloadedErrorEventAndKeepItsType() throws InterruptedException
    {
        final StreamReplay.Seen r = new StreamReplay(Api.MESSAGES).replay(ApiStreams.MESSAGES_ANTHROPIC
            .substring(0, ApiStreams.MESSAGES_ANTHROPIC.indexOf("event: content_block_delta\ndata: {\"type\":" +
                "\"content_block_delta\",\"index\":1")) + ApiStreams.MESSAGES_OVERLOADED);

        assertEquals(ErrorClass.ERROR_EVENT, r.error());
        assertTrue(r.detail().contains("overloaded_error"), r.detail());
        assertEquals(0, r.unknownEvents());
    }

    @Test
    void shouldClassifyLlamaCppsBareErrorEventsOfBothApis() throws InterruptedException
    {
        final StreamReplay.Seen messages = new StreamReplay(Api.MESSAGES).replay(ApiStreams.MESSAGES_SORTED
            .substring(0, ApiStreams.MESSAGES_SORTED.indexOf("event: content_block_stop")) +
            ApiStreams.event("error", "{\"code\":500,\"message\":\"boom\",\"type\":\"server_error\"}"));
        assertEquals(ErrorClass.ERROR_EVENT, messages.error());
        assertEquals(0, messages.unknownEvents(), "an `event: error` is no unknown event");

        final StreamReplay.Seen responses = new StreamReplay(Api.RESPONSES).replay(ApiStreams.RESPONSES_SORTED
            .substring(0, ApiStreams.RESPONSES_SORTED.indexOf("event: response.output_text.done")) +
            "data: {\"error\":{\"code\":500,\"message\":\"boom\",\"type\":\"server_error\"}}\n\n");
        assertEquals(ErrorClass.ERROR_EVENT, responses.error());
    }

    @Test
    void shouldTakeAResponseCutByMaxOutputTokensAsOkWithFinishLength() throws InterruptedException
    {
        final String s = ApiStreams.RESPONSES_SORTED.substring(0, ApiStreams.RESPONSES_SORTED.indexOf(
            "event: response.completed")) + ApiStreams.event("response.incomplete", "{\"type\":" +
            "\"response.incomplete\",\"response\":{\"id\":\"resp_x8Q2\",\"status\":\"incomplete\"," +
            "\"incomplete_details\":{\"reason\":\"max_output_tokens\"},\"usage\":{\"input_tokens\":9," +
            "\"output_tokens\":3}}}");

        final StreamReplay.Seen r = new StreamReplay(Api.RESPONSES).replay(s);

        assertEquals(RequestSlot.STATUS_OK, r.status(), "as chat's finish_reason length: " + r.detail());
        assertEquals(EventParser.FINISH_LENGTH, r.finish());
        assertTrue(r.done());
    }

    @Test
    void shouldClassifyAFailedResponseAsAnErrorEvent() throws InterruptedException
    {
        final String s = ApiStreams.RESPONSES_SORTED.substring(0, ApiStreams.RESPONSES_SORTED.indexOf(
            "event: response.output_text.done")) + ApiStreams.event("response.failed", "{\"type\":" +
            "\"response.failed\",\"response\":{\"id\":\"resp_x8Q2\",\"status\":\"failed\",\"error\":{\"code\":" +
            "\"server_error\",\"message\":\"The model failed\"}}}");

        final StreamReplay.Seen r = new StreamReplay(Api.RESPONSES).replay(s);

        assertEquals(ErrorClass.ERROR_EVENT, r.error());
        assertTrue(r.detail().contains("The model failed"), r.detail());
    }

    @Test
    void shouldCountUnknownEventsAndStillEndOk() throws InterruptedException
    {
        final String unknown = ApiStreams.event("response.web_search_call.in_progress", "{\"type\":" +
            "\"response.web_search_call.in_progress\",\"item_id\":\"ws_1\"}") + ApiStreams.event("brand_new", "{}");
        final String s = ApiStreams.RESPONSES_SORTED.replace("event: response.output_text.done", unknown.strip() +
            "\n\nevent: response.output_text.done");

        final StreamReplay.Seen r = new StreamReplay(Api.RESPONSES).replay(s);

        assertEquals(RequestSlot.STATUS_OK, r.status(), r.detail());
        assertEquals(2, r.unknownEvents());
        assertEquals(3, r.chunks());
    }

    @Test
    void shouldCallAStreamWithoutItsEndEventTruncated() throws InterruptedException
    {
        final String s = ApiStreams.MESSAGES_ANTHROPIC.substring(0, ApiStreams.MESSAGES_ANTHROPIC.indexOf(
            "event: message_delta"));

        assertEquals(ErrorClass.TRUNCATED, new StreamReplay(Api.MESSAGES).replay(s).error());
    }

    @Test
    void shouldRecordTheSameWhereverTwoReadsSplitTheStream() throws InterruptedException
    {
        for (final Object[] c : new Object[][] {{Api.RESPONSES, ApiStreams.RESPONSES_OPENAI},
            {Api.RESPONSES, ApiStreams.RESPONSES_SORTED}, {Api.RESPONSES, ApiStreams.RESPONSES_TOOL_CALL},
            {Api.MESSAGES, ApiStreams.MESSAGES_ANTHROPIC}, {Api.MESSAGES, ApiStreams.MESSAGES_SORTED},
            {Api.MESSAGES, ApiStreams.MESSAGES_TOOL_USE}, {Api.RESPONSES, ApiStreams.RESPONSES_LLAMA_SERVER},
            {Api.MESSAGES, ApiStreams.MESSAGES_LLAMA_SERVER}})
        {
            final Api api = (Api)c[0];
            final String stream = (String)c[1];
            final StreamReplay replay = new StreamReplay(api);
            final StreamReplay.Seen whole = replay.replay(stream);
            final int length = stream.getBytes(StandardCharsets.UTF_8).length;
            for (int cut = 1; cut < length; cut++)
            {
                final StreamReplay.Seen split = replay.replay(stream, cut);
                final String at = api.word() + " cut at byte " + cut;
                assertEquals(whole.status(), split.status(), at);
                assertEquals(whole.chunks(), split.chunks(), at);
                assertEquals(whole.text(), split.text(), at);
                assertEquals(whole.reasoning(), split.reasoning(), at);
                assertEquals(whole.toolCalls(), split.toolCalls(), at);
                assertEquals(whole.promptTokens(), split.promptTokens(), at);
                assertEquals(whole.completionTokens(), split.completionTokens(), at);
                assertEquals(whole.cachedTokens(), split.cachedTokens(), at);
                assertEquals(whole.finish(), split.finish(), at);
                assertEquals(whole.responseId(), split.responseId(), at);
                for (final long ns : split.chunkNs())
                {
                    assertTrue(ns == 10_000 || ns == 20_000, at);
                }
            }
        }
    }
}
