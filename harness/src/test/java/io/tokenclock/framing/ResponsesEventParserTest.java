package io.tokenclock.framing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The Responses API's grammar on known events: each event type to what it means, whatever the member order, usage
 * with cached and reasoning tokens, the end events, errors, unknown types.
 */
final class ResponsesEventParserTest
{
    /** Bytes before each payload, so that offsets must be absolute positions in the source array. */
    private static final String PREFIX = "xx{\"";

    private final ResponsesEventParser parser = new ResponsesEventParser();
    private byte[] src;

    private boolean parse(final String json)
    {
        src = (PREFIX + json + "}}").getBytes(StandardCharsets.UTF_8);
        return parser.parse(src, PREFIX.length(), src.length - PREFIX.length() - 2);
    }

    private String text(final int offset, final int length)
    {
        return offset < 0 ? null : new String(src, offset, length, StandardCharsets.UTF_8);
    }

    @Test
    void shouldReadOutputTextDeltaAsAnswerTextInEitherMemberOrder()
    {
        assertTrue(parse("{\"type\":\"response.output_text.delta\",\"item_id\":\"msg_1\",\"output_index\":0," +
            "\"content_index\":0,\"delta\":\" say \\\"hi\\\"\",\"sequence_number\":7}"));
        assertEquals(" say \\\"hi\\\"", text(parser.contentOffset(), parser.contentLength()));
        assertTrue(parser.isContentBearing());
        assertTrue(parser.isOutputBearing());

        assertTrue(parse("{\"content_index\":0,\"delta\":\"Hel\",\"item_id\":\"msg_7\",\"output_index\":0," +
            "\"type\":\"response.output_text.delta\"}"));
        assertEquals("Hel", text(parser.contentOffset(), parser.contentLength()));
        assertFalse(parser.isUnknown());
    }

    @ParameterizedTest
    @ValueSource(strings = {"response.reasoning_text.delta", "response.reasoning_summary_text.delta"})
    void shouldReadReasoningDeltasAsReasoning(final String type)
    {
        assertTrue(parse("{\"type\":\"" + type + "\",\"item_id\":\"rs_1\",\"delta\":\"hmm\"}"));

        assertEquals("hmm", text(parser.reasoningOffset(), parser.reasoningLength()));
        assertTrue(parser.isContentBearing());
        assertFalse(parser.isOutputBearing(), "reasoning is not the answer: TTFOT waits for output");
        assertEquals(-1, parser.contentOffset());
    }

    @Test
    void shouldReadRefusalDeltaAsAnswerText()
    {
        assertTrue(parse("{\"type\":\"response.refusal.delta\",\"delta\":\"I can't\"}"));

        assertEquals("I can't", text(parser.contentOffset(), parser.contentLength()));
    }

    @Test
    void shouldReadFunctionCallAsToolCallFromItsNamingItemAndItsArguments()
    {
        assertTrue(parse("{\"type\":\"response.output_item.added\",\"output_index\":0,\"item\":{\"type\":" +
            "\"function_call\",\"id\":\"fc_1\",\"name\":\"get_weather\",\"arguments\":\"\"}}"));
        assertTrue(parser.isOutputBearing(), "the call's name is generated output, as chat's first tool chunk");
        assertTrue(text(parser.toolCallsOffset(), parser.toolCallsLength()).contains("get_weather"));

        assertTrue(parse("{\"type\":\"response.function_call_arguments.delta\",\"delta\":\"{\\\"a\\\":1}\"}"));
        assertEquals("{\\\"a\\\":1}", text(parser.toolCallsOffset(), parser.toolCallsLength()));
        assertTrue(parser.isOutputBearing());

        assertTrue(parse("{\"type\":\"response.function_call_arguments.delta\",\"delta\":\"\"}"));
        assertFalse(parser.isContentBearing(), "an empty fragment carries nothing");
    }

    @Test
    void shouldNotTakeAMessageItemForAToolCall()
    {
        assertTrue(parse("{\"type\":\"response.output_item.added\",\"item\":{\"id\":\"msg_1\",\"type\":\"message\"," +
            "\"content\":[],\"role\":\"assistant\"}}"));

        assertFalse(parser.isContentBearing());
        assertFalse(parser.isUnknown());
    }

    @Test
    void shouldTakeTheResponseIdFromTheLifecycleEvents()
    {
        assertTrue(parse("{\"type\":\"response.created\",\"sequence_number\":0,\"response\":{\"id\":\"resp_1\"," +
            "\"object\":\"response\",\"status\":\"in_progress\",\"output\":[],\"usage\":null}}"));

        assertEquals("resp_1", text(parser.idOffset(), parser.idLength()));
        assertFalse(parser.isContentBearing());
        assertFalse(parser.isDone());
        assertEquals(-1, parser.promptTokens());
    }

    @Test
    void shouldEndWithUsageCachedAndReasoningTokensOnCompleted()
    {
        assertTrue(parse("{\"type\":\"response.completed\",\"response\":{\"id\":\"resp_1\",\"status\":\"completed\"," +
            "\"output\":[{\"type\":\"message\",\"content\":[{\"type\":\"output_text\",\"text\":\"x\"}]}],\"usage\":" +
            "{\"input_tokens\":37,\"input_tokens_details\":{\"cached_tokens\":32},\"output_tokens\":11," +
            "\"output_tokens_details\":{\"reasoning_tokens\":8},\"total_tokens\":48}}}"));

        assertTrue(parser.isDone());
        assertEquals(EventParser.FINISH_STOP, parser.finishReason());
        assertEquals(37, parser.promptTokens());
        assertEquals(11, parser.completionTokens());
        assertEquals(32, parser.cachedTokens());
        assertEquals(8, parser.reasoningTokens());
        assertFalse(parser.isError());
    }

    @Test
    void shouldFinishWithToolCallsWhenTheCompletedOutputHoldsAFunctionCall()
    {
        assertTrue(parse("{\"type\":\"response.completed\",\"response\":{\"output\":[{\"type\":\"reasoning\"}," +
            "{\"type\":\"function_call\",\"name\":\"f\",\"arguments\":\"{}\"}],\"usage\":{\"input_tokens\":1," +
            "\"output_tokens\":2}}}"));

        assertEquals(EventParser.FINISH_TOOL_CALLS, parser.finishReason());
        assertEquals(-1, parser.cachedTokens(), "no details: unknown, not 0");
    }

    @Test
    void shouldReadIncompleteByMaxOutputTokensAsLengthNotAsAnError()
    {
        assertTrue(parse("{\"type\":\"response.incomplete\",\"response\":{\"id\":\"r\",\"status\":\"incomplete\"," +
            "\"incomplete_details\":{\"reason\":\"max_output_tokens\"},\"usage\":{\"input_tokens\":5," +
            "\"output_tokens\":16}}}"));
        assertTrue(parser.isDone());
        assertFalse(parser.isError());
        assertEquals(EventParser.FINISH_LENGTH, parser.finishReason());
        assertEquals(16, parser.completionTokens());

        assertTrue(parse("{\"type\":\"response.incomplete\",\"response\":{\"incomplete_details\":{\"reason\":" +
            "\"content_filter\"}}}"));
        assertEquals(EventParser.FINISH_CONTENT_FILTER, parser.finishReason());
    }

    @Test
    void shouldClassifyFailedAndErrorEventsAsErrors()
    {
        assertTrue(parse("{\"type\":\"response.failed\",\"response\":{\"id\":\"r\",\"status\":\"failed\",\"error\":" +
            "{\"code\":\"server_error\",\"message\":\"The model failed\"}}}"));
        assertTrue(parser.isError());
        assertTrue(parser.isDone());

        assertTrue(parse("{\"type\":\"error\",\"code\":\"rate_limit_exceeded\",\"message\":\"slow down\"," +
            "\"param\":null,\"sequence_number\":3}"));
        assertTrue(parser.isError());

        assertTrue(parse("{\"error\":{\"code\":500,\"message\":\"llama.cpp's error\",\"type\":\"server_error\"}}"));
        assertTrue(parser.isError(), "llama.cpp sends its stream errors as a bare error member");
        assertFalse(parser.isUnknown());
    }

    @Test
    void shouldCountAnUnknownTypeWithoutFailing()
    {
        assertTrue(parse("{\"type\":\"response.web_search_call.searching\",\"item_id\":\"ws_1\",\"delta\":\"x\"}"));
        assertTrue(parser.isUnknown());
        assertFalse(parser.isContentBearing());
        assertFalse(parser.isError());

        assertTrue(parse("{\"sequence_number\":1}"));
        assertTrue(parser.isUnknown(), "an event with no type is of no known shape");
    }

    @Test
    void shouldIgnoreTheDocumentedEventsThatCarryNothingMeasured()
    {
        for (final String type : new String[] {"response.in_progress", "response.queued", "response.output_item.done",
            "response.content_part.added", "response.content_part.done", "response.output_text.done",
            "response.output_text.annotation.added", "response.refusal.done", "response.reasoning_text.done",
            "response.reasoning_summary_part.added", "response.reasoning_summary_part.done",
            "response.reasoning_summary_text.done", "response.function_call_arguments.done"})
        {
            assertTrue(parse("{\"type\":\"" + type + "\",\"text\":\"whole text again\"}"), type);
            assertFalse(parser.isUnknown(), type);
            assertFalse(parser.isContentBearing(), type);
        }
    }

    @Test
    void shouldReadTheEngineTimingsOfLlamaCppAtTheTopOfCompleted()
    {
        assertTrue(parse("{\"response\":{\"id\":\"resp_x\",\"status\":\"completed\",\"usage\":{\"input_tokens\":9," +
            "\"output_tokens\":3}},\"timings\":{\"predicted_ms\":12.5,\"predicted_n\":3,\"prompt_ms\":7.25}," +
            "\"type\":\"response.completed\"}"));

        assertEquals(7_250_000, parser.enginePromptNs());
        assertEquals(12_500_000, parser.engineDecodeNs());
        assertEquals(3, parser.enginePredictedTokens());
    }

    @ParameterizedTest
    @ValueSource(strings = {"{\"type\":\"response.output_text.delta\",\"delta\":\"x\"", "{\"type\":}", "[1]",
        "{\"type\":\"response.completed\",\"response\":{\"usage\":{\"input_tokens\":}}}", ""})
    void shouldRefuseMalformedJson(final String json)
    {
        assertFalse(parse(json));
        assertFalse(parser.isContentBearing());
    }
}
