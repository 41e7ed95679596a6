package io.tokenclock.runner;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.tokenclock.framing.ChunkParser;
import io.tokenclock.load.TurnResult;
import io.tokenclock.recording.RequestSlot;

/** Streamed tool calls are captured on the I/O path as raw arrays and reassembled by index off the hot path. */
final class TurnResultsTest
{
    @Test
    void shouldReassembleStreamedToolCallsByIndex()
    {
        final String[] chunks = {
            "{\"choices\":[{\"delta\":{\"tool_calls\":[{\"index\":0,\"id\":\"call_1\",\"type\":\"function\"," +
                "\"function\":{\"name\":\"search\",\"arguments\":\"{\\\"q\"}}]}}]}",
            "{\"choices\":[{\"delta\":{\"tool_calls\":[{\"index\":0,\"function\":{\"arguments\":\"\\\": \\\"tea\"}}," +
                "{\"index\":1,\"id\":\"call_2\",\"function\":{\"name\":\"clock\",\"arguments\":\"{}\"}}]}}]}",
            "{\"choices\":[{\"delta\":{\"tool_calls\":[{\"index\":0,\"function\":{\"arguments\":\"\\\"}\"}}]}," +
                "\"finish_reason\":\"tool_calls\"}]}"};
        final ChunkParser parser = new ChunkParser();
        final RequestSlot slot = new RequestSlot(0);
        for (final String chunk : chunks)
        {
            final byte[] bytes = chunk.getBytes(StandardCharsets.UTF_8);
            assertTrue(parser.parse(bytes, 0, bytes.length));
            assertTrue(parser.toolCallsLength() > 0 && parser.isOutputBearing());
            slot.appendToolCalls(bytes, parser.toolCallsOffset(), parser.toolCallsLength());
        }
        final List<TurnResult.ToolCall> calls = TurnResults.toolCalls(slot);
        assertEquals(2, calls.size());
        assertEquals(new TurnResult.ToolCall("call_1", "search", "{\"q\": \"tea\"}"), calls.get(0));
        assertEquals(new TurnResult.ToolCall("call_2", "clock", "{}"), calls.get(1));
    }

    @Test
    void shouldReportNoToolCallsForAPlainAnswer()
    {
        final RequestSlot slot = new RequestSlot(0);
        final byte[] text = "hello".getBytes(StandardCharsets.UTF_8);
        slot.appendText(text, 0, text.length);
        slot.finishReason = ChunkParser.FINISH_STOP;
        final TurnResult result = TurnResults.of(slot);
        assertEquals("hello", result.text());
        assertTrue(result.toolCalls().isEmpty());
        assertEquals("stop", result.finishReason());
        assertTrue(!result.wantsTools());
    }
}
