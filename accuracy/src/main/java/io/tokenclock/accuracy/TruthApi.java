package io.tokenclock.accuracy;

import java.nio.charset.StandardCharsets;

/**
 * The streamed APIs the truth server speaks, each as the byte pieces of its events, so that one write path
 * ({@link TruthStream#fire}) formats every API's chunks and its kernel send stamps cover them alike:
 * <ul>
 *   <li>{@link #CHAT}: {@code POST /v1/chat/completions}, chat.completion.chunk deltas, usage when asked, [DONE];</li>
 *   <li>{@link #RESPONSES}: {@code POST /v1/responses}, {@code response.created}, the message item and its content
 *       part opening the stream, one {@code response.output_text.delta} per chunk, then the done events and
 *       {@code response.incomplete} (the answer always runs to its {@code max_output_tokens}) with usage;</li>
 *   <li>{@link #MESSAGES}: {@code POST /v1/messages}, {@code message_start} and the text block's
 *       {@code content_block_start} opening it, one {@code content_block_delta} per chunk, then
 *       {@code content_block_stop}, {@code message_delta} (stop reason {@code max_tokens}, usage) and
 *       {@code message_stop}.</li>
 * </ul>
 * Every chunk carries {@code tc_index} and {@code tc_sent_ns} after the API's own members, as chat's do.
 */
enum TruthApi
{
    CHAT("/v1/chat/completions"),
    RESPONSES("/v1/responses"),
    MESSAGES("/v1/messages");

    final String path;

    TruthApi(final String path)
    {
        this.path = path;
    }

    /** @return the API served at {@code path}, or null. */
    static TruthApi ofPath(final String path)
    {
        for (final TruthApi api : values())
        {
            if (api.path.equals(path))
            {
                return api;
            }
        }
        return null;
    }

    /** @return the body member that caps the answer's tokens ({@code max_completion_tokens} is chat's other). */
    String maxTokensField()
    {
        return this == RESPONSES ? "max_output_tokens" : "max_tokens";
    }

    /** @return the events before the first chunk (typed APIs; chat's role chunk is the server's option). */
    byte[] opening(final String id, final String model)
    {
        final String text = switch (this)
        {
            case CHAT -> "";
            case RESPONSES -> event("response.created", "{\"type\":\"response.created\",\"sequence_number\":0," +
                "\"response\":{\"id\":" + TruthJson.quote(id) + ",\"object\":\"response\",\"status\":" +
                "\"in_progress\",\"model\":" + TruthJson.quote(model) + ",\"output\":[],\"usage\":null}}") +
                event("response.output_item.added", "{\"type\":\"response.output_item.added\",\"sequence_number\":1," +
                    "\"output_index\":0,\"item\":{\"id\":\"msg_tc\",\"type\":\"message\",\"status\":\"in_progress\"," +
                    "\"content\":[],\"role\":\"assistant\"}}") +
                event("response.content_part.added", "{\"type\":\"response.content_part.added\"," +
                    "\"sequence_number\":2,\"item_id\":\"msg_tc\",\"output_index\":0,\"content_index\":0,\"part\":" +
                    "{\"type\":\"output_text\",\"annotations\":[],\"text\":\"\"}}");
            case MESSAGES -> event("message_start", "{\"type\":\"message_start\",\"message\":{\"id\":" +
                TruthJson.quote(id) + ",\"type\":\"message\",\"role\":\"assistant\",\"content\":[],\"model\":" +
                TruthJson.quote(model) + ",\"stop_reason\":null,\"stop_sequence\":null,\"usage\":{\"input_tokens\":0," +
                "\"output_tokens\":1}}}") + event("content_block_start", "{\"type\":\"content_block_start\"," +
                "\"index\":0,\"content_block\":{\"type\":\"text\",\"text\":\"\"}}");
        };
        return text.getBytes(StandardCharsets.UTF_8);
    }

    /** @return a typed API's chunk up to its text: the event's name and its data's members before the tokens. */
    byte[] chunkPrefix()
    {
        return (this == RESPONSES ? "event: response.output_text.delta\ndata: {\"type\":" +
            "\"response.output_text.delta\",\"item_id\":\"msg_tc\",\"output_index\":0,\"content_index\":0," +
            "\"delta\":\"" :
            "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":" +
                "\"text_delta\",\"text\":\"").getBytes(StandardCharsets.US_ASCII);
    }

    /** @return a typed API's chunk after its text, up to {@code tc_index}'s value. */
    byte[] chunkMid()
    {
        return (this == RESPONSES ? "\",\"tc_index\":" : "\"},\"tc_index\":").getBytes(StandardCharsets.US_ASCII);
    }

    /** @return a typed API's events after the last chunk: its usage and its end. */
    byte[] closing(final String id, final String model, final int promptTokens, final int outputTokens)
    {
        final String text = switch (this)
        {
            case CHAT -> "";
            case RESPONSES -> event("response.output_item.done", "{\"type\":\"response.output_item.done\"," +
                "\"output_index\":0,\"item\":{\"id\":\"msg_tc\",\"type\":\"message\",\"status\":\"incomplete\"," +
                "\"role\":\"assistant\"}}") + event("response.incomplete", "{\"type\":\"response.incomplete\"," +
                "\"response\":{\"id\":" + TruthJson.quote(id) + ",\"object\":\"response\",\"status\":\"incomplete\"," +
                "\"incomplete_details\":{\"reason\":\"max_output_tokens\"},\"model\":" + TruthJson.quote(model) +
                ",\"usage\":{\"input_tokens\":" + promptTokens + ",\"input_tokens_details\":{\"cached_tokens\":0}," +
                "\"output_tokens\":" + outputTokens + ",\"output_tokens_details\":{\"reasoning_tokens\":0}," +
                "\"total_tokens\":" + (promptTokens + outputTokens) + "}}}");
            case MESSAGES -> event("content_block_stop", "{\"type\":\"content_block_stop\",\"index\":0}") +
                event("message_delta", "{\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"max_tokens\"," +
                    "\"stop_sequence\":null},\"usage\":{\"input_tokens\":" + promptTokens + ",\"output_tokens\":" +
                    outputTokens + "}}") + event("message_stop", "{\"type\":\"message_stop\"}");
        };
        return text.getBytes(StandardCharsets.UTF_8);
    }

    private static String event(final String name, final String data)
    {
        return "event: " + name + "\ndata: " + data + "\n\n";
    }
}
