package io.tokenclock.runner;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.tokenclock.json.Json;
import io.tokenclock.load.TurnResult;
import io.tokenclock.recording.RequestSlot;
import io.tokenclock.report.RequestsJsonlWriter;
import io.tokenclock.run.AnswerText;

/**
 * Turns a finished request into what a simulated user's next turn needs, on the request stage's thread (per request,
 * off the I/O threads): the answer text, and the streamed tool calls reassembled. OpenAI streams a tool call in pieces:
 * the first delta of each {@code index} carries its {@code id} and function {@code name}, later deltas append to its
 * {@code arguments}; merging by index restores each call.
 */
public final class TurnResults
{
    private static final ObjectMapper JSON = Json.MAPPER;

    private TurnResults()
    {
    }

    /** @return what an agent turn needs of a finished request: outcome, answer text, tool calls, finish reason, end. */
    public static TurnResult of(final RequestSlot slot)
    {
        final boolean ok = slot.status == RequestSlot.STATUS_OK;
        return new TurnResult(ok, AnswerText.decode(slot.text.array(), slot.text.length()), toolCalls(slot),
            RequestsJsonlWriter.finishReason(slot.finishReason), slot.endNs,
            slot.responseIdLength == 0 ? null : AnswerText.decode(slot.responseId, slot.responseIdLength),
            slot.requestId, slot.goodputVerdict, slot.outputTokens);
    }

    static List<TurnResult.ToolCall> toolCalls(final RequestSlot slot)
    {
        if (slot.toolCalls.length() == 0)
        {
            return List.of();
        }
        final TreeMap<Integer, String[]> calls = new TreeMap<>();
        final String all = new String(slot.toolCalls.array(), 0, slot.toolCalls.length(), StandardCharsets.UTF_8);
        for (final String line : all.split("\n"))
        {
            if (line.isBlank())
            {
                continue;
            }
            try
            {
                for (final JsonNode delta : JSON.readTree(line))
                {
                    final String[] call = calls.computeIfAbsent(delta.path("index").asInt(0),
                        k -> new String[] {null, null, ""});
                    if (delta.hasNonNull("id"))
                    {
                        call[0] = delta.get("id").asText();
                    }
                    final JsonNode function = delta.path("function");
                    if (function.hasNonNull("name"))
                    {
                        call[1] = function.get("name").asText();
                    }
                    if (function.hasNonNull("arguments"))
                    {
                        call[2] += function.get("arguments").asText();
                    }
                }
            }
            catch (final IOException ex)
            {
                // A tool-call delta the server garbled: the call is kept with what was readable.
            }
        }
        final List<TurnResult.ToolCall> out = new ArrayList<>();
        for (final String[] c : calls.values())
        {
            out.add(new TurnResult.ToolCall(c[0], c[1], c[2]));
        }
        return out;
    }
}
