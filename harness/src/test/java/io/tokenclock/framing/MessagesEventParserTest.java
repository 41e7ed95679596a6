package io.tokenclock.framing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Anthropic's Messages grammar on known events: each delta type to what it means, whatever the member order, the
 * prompt's usage with both cache counts, the stop reasons, errors, pings and unknown types.
 */
final class MessagesEventParserTest
{
    private static final String PREFIX = "xx{\"";

    private final MessagesEventParser parser = new MessagesEventParser();
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
    void shouldReadTextDeltaAsAnswerTextInEitherMemberOrder()
    {
        assertTrue(parse("{\"type\":\"content_block_delta\",\"index\":1,\"delta\":{\"type\":\"text_delta\"," +
            "\"text\":\" w\\u00f6rld\"}}"));
        assertEquals(" w\\u00f6rld", text(parser.contentOffset(), parser.contentLength()));
        assertTrue(parser.isOutputBearing());

        assertTrue(parse("{\"delta\":{\"text\":\"Hel\",\"type\":\"text_delta\"},\"index\":0,\"type\":" +
            "\"content_block_delta\"}"));
        assertEquals("Hel", text(parser.contentOffset(), parser.contentLength()));
    }

    @Test
    void shouldReadThinkingDeltaAsReasoning()
    {
        assertTrue(parse("{\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"thinking_delta\"," +
            "\"thinking\":\"Let me\"}}"));

        assertEquals("Let me", text(parser.reasoningOffset(), parser.reasoningLength()));
        assertTrue(parser.isContentBearing());
        assertFalse(parser.isOutputBearing());
    }

    @Test
    void shouldReadToolUseAsAToolCallFromItsBlockAndItsPartialJson()
    {
        assertTrue(parse("{\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"tool_use\"," +
            "\"id\":\"toolu_1\",\"name\":\"get_weather\",\"input\":{}}}"));
        assertTrue(parser.isOutputBearing());
        assertTrue(text(parser.toolCallsOffset(), parser.toolCallsLength()).contains("get_weather"));

        assertTrue(parse("{\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"input_json_delta\"," +
            "\"partial_json\":\"{\\\"loc\"}}"));
        assertEquals("{\\\"loc", text(parser.toolCallsOffset(), parser.toolCallsLength()));

        assertTrue(parse("{\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"input_json_delta\"," +
            "\"partial_json\":\"\"}}"));
        assertFalse(parser.isContentBearing(), "the empty first fragment carries nothing");
    }

    @Test
    void shouldNotCountAnEmptyTextBlockStartOrItsSignatureAsContent()
    {
        assertTrue(parse("{\"type\":\"content_block_start\",\"index\":1,\"content_block\":{\"type\":\"text\"," +
            "\"text\":\"\"}}"));
        assertFalse(parser.isContentBearing());
        assertTrue(parse("{\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"signature_delta\"," +
            "\"signature\":\"EqQB\"}}"));
        assertFalse(parser.isContentBearing());
        assertFalse(parser.isUnknown());
    }

    @Test
    void shouldTakeTheIdAndThePromptsUsageWithBothCacheCountsFromMessageStart()
    {
        assertTrue(parse("{\"type\":\"message_start\",\"message\":{\"id\":\"msg_01X\",\"type\":\"message\"," +
            "\"role\":\"assistant\",\"content\":[],\"stop_reason\":null,\"usage\":{\"input_tokens\":25," +
            "\"cache_creation_input_tokens\":3,\"cache_read_input_tokens\":100,\"output_tokens\":1}}}"));

        assertEquals("msg_01X", text(parser.idOffset(), parser.idLength()));
        assertEquals(128, parser.promptTokens(), "input + cache read + cache creation: the whole prompt");
        assertEquals(100, parser.cachedTokens());
        assertEquals(-1, parser.completionTokens(), "message_start's output_tokens is a placeholder");
        assertEquals(EventParser.FINISH_NONE, parser.finishReason());
        assertFalse(parser.isDone());
    }

    @Test
    void shouldTakeAPromptWithoutCacheCountsAsItsInputTokens()
    {
        assertTrue(parse("{\"type\":\"message_start\",\"message\":{\"id\":\"m\",\"usage\":{\"input_tokens\":472," +
            "\"output_tokens\":2}}}"));

        assertEquals(472, parser.promptTokens());
        assertEquals(-1, parser.cachedTokens());
    }

    @ParameterizedTest
    @CsvSource({"end_turn,1", "stop_sequence,1", "max_tokens,2", "tool_use,3", "refusal,4", "pause_turn,5"})
    void shouldReadTheStopReasonAndOutputTokensOfMessageDelta(final String reason, final int finish)
    {
        assertTrue(parse("{\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"" + reason + "\"," +
            "\"stop_sequence\":null},\"usage\":{\"output_tokens\":15}}"));

        assertEquals(finish, parser.finishReason());
        assertEquals(15, parser.completionTokens());
        assertFalse(parser.isDone());
    }

    @Test
    void shouldEndOnMessageStopAndIgnorePingsAndBlockStops()
    {
        assertTrue(parse("{\"type\":\"message_stop\"}"));
        assertTrue(parser.isDone());

        assertTrue(parse("{\"type\": \"ping\"}"));
        assertFalse(parser.isUnknown());
        assertFalse(parser.isDone());

        assertTrue(parse("{\"index\":0,\"type\":\"content_block_stop\"}"));
        assertFalse(parser.isUnknown());
    }

    @Test
    void shouldClassifyErrorEvents()
    {
        assertTrue(parse("{\"type\": \"error\", \"error\": {\"type\": \"overloaded_error\", \"message\": " +
            "\"Overloaded\"}}"));
        assertTrue(parser.isError());
        assertFalse(parser.isUnknown());

        assertTrue(parse("{\"code\":500,\"message\":\"llama.cpp\",\"type\":\"server_error\"}"));
        assertTrue(parser.isUnknown(), "alone, a bare object is of no known type (its event name, error, is the " +
            "framer's to report)");
    }

    @Test
    void shouldCountUnknownEventAndDeltaTypesWithoutFailing()
    {
        assertTrue(parse("{\"type\":\"message_compaction\",\"data\":1}"));
        assertTrue(parser.isUnknown());

        assertTrue(parse("{\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"audio_delta\"," +
            "\"data\":\"AAA\"}}"));
        assertTrue(parser.isUnknown());
        assertFalse(parser.isContentBearing());
    }
}
