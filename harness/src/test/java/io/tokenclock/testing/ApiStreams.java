package io.tokenclock.testing;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/**
 * Whole streams of the Responses and Messages APIs, byte for byte as their servers lay them out, for the framing and
 * recording tests. The OpenAI and Anthropic streams follow the event sequences and member order of their API
 * references (platform.openai.com "Streaming API responses", docs.anthropic.com "Streaming Messages"); the sorted
 * streams have every object's members in sorted order, as a server whose JSON library keeps sorted maps writes them
 * ({@code delta} before {@code type}); the llama.cpp streams ({@link #RESPONSES_LLAMA_SERVER},
 * {@link #MESSAGES_LLAMA_SERVER}) are byte for byte what llama.cpp's server (tools/server, d32676d77) sent serving
 * fixtures.engine's generated 256x4 model (results/llama-server/apis-2026-12-06: {@code curl -N} of
 * {@code /v1/responses} and {@code /v1/messages}, 4 tokens each; its Responses stream carries the engine's
 * {@code timings} beside {@code response.completed}). Texts carry escapes, so raw-byte handling is exercised.
 */
public final class ApiStreams
{
    /**
     * OpenAI's Responses stream of a reasoning model: a reasoning summary delta, then two text deltas (one escaped),
     * and {@code response.completed} with cached and reasoning tokens. 3 content events: reasoning, text, text.
     */
    public static final String RESPONSES_OPENAI =
        event("response.created", "{\"type\":\"response.created\",\"sequence_number\":0,\"response\":{\"id\":" +
            "\"resp_67c9fdcecf\",\"object\":\"response\",\"created_at\":1741290958,\"status\":\"in_progress\"," +
            "\"error\":null,\"incomplete_details\":null,\"model\":\"o4-mini\",\"output\":[],\"usage\":null}}") +
        event("response.in_progress", "{\"type\":\"response.in_progress\",\"sequence_number\":1,\"response\":" +
            "{\"id\":\"resp_67c9fdcecf\",\"object\":\"response\",\"status\":\"in_progress\",\"output\":[]," +
            "\"usage\":null}}") +
        event("response.output_item.added", "{\"type\":\"response.output_item.added\",\"sequence_number\":2," +
            "\"output_index\":0,\"item\":{\"id\":\"rs_1\",\"type\":\"reasoning\",\"summary\":[]}}") +
        event("response.reasoning_summary_part.added", "{\"type\":\"response.reasoning_summary_part.added\"," +
            "\"sequence_number\":3,\"item_id\":\"rs_1\",\"output_index\":0,\"summary_index\":0,\"part\":" +
            "{\"type\":\"summary_text\",\"text\":\"\"}}") +
        event("response.reasoning_summary_text.delta", "{\"type\":\"response.reasoning_summary_text.delta\"," +
            "\"sequence_number\":4,\"item_id\":\"rs_1\",\"output_index\":0,\"summary_index\":0,\"delta\":" +
            "\"Think\"}") +
        event("response.output_item.added", "{\"type\":\"response.output_item.added\",\"sequence_number\":5," +
            "\"output_index\":1,\"item\":{\"id\":\"msg_1\",\"type\":\"message\",\"status\":\"in_progress\"," +
            "\"content\":[],\"role\":\"assistant\"}}") +
        event("response.content_part.added", "{\"type\":\"response.content_part.added\",\"sequence_number\":6," +
            "\"item_id\":\"msg_1\",\"output_index\":1,\"content_index\":0,\"part\":{\"type\":\"output_text\"," +
            "\"annotations\":[],\"text\":\"\"}}") +
        event("response.output_text.delta", "{\"type\":\"response.output_text.delta\",\"sequence_number\":7," +
            "\"item_id\":\"msg_1\",\"output_index\":1,\"content_index\":0,\"delta\":\"Hi\"}") +
        event("response.output_text.delta", "{\"type\":\"response.output_text.delta\",\"sequence_number\":8," +
            "\"item_id\":\"msg_1\",\"output_index\":1,\"content_index\":0,\"delta\":\" th\\\"ere\"}") +
        event("response.output_text.done", "{\"type\":\"response.output_text.done\",\"sequence_number\":9," +
            "\"item_id\":\"msg_1\",\"output_index\":1,\"content_index\":0,\"text\":\"Hi th\\\"ere\"}") +
        event("response.content_part.done", "{\"type\":\"response.content_part.done\",\"sequence_number\":10," +
            "\"item_id\":\"msg_1\",\"output_index\":1,\"content_index\":0,\"part\":{\"type\":\"output_text\"," +
            "\"annotations\":[],\"text\":\"Hi th\\\"ere\"}}") +
        event("response.output_item.done", "{\"type\":\"response.output_item.done\",\"sequence_number\":11," +
            "\"output_index\":1,\"item\":{\"id\":\"msg_1\",\"type\":\"message\",\"status\":\"completed\"," +
            "\"content\":[{\"type\":\"output_text\",\"annotations\":[],\"text\":\"Hi th\\\"ere\"}]," +
            "\"role\":\"assistant\"}}") +
        event("response.completed", "{\"type\":\"response.completed\",\"sequence_number\":12,\"response\":{\"id\":" +
            "\"resp_67c9fdcecf\",\"object\":\"response\",\"status\":\"completed\",\"error\":null," +
            "\"incomplete_details\":null,\"output\":[{\"id\":\"rs_1\",\"type\":\"reasoning\",\"summary\":[{\"type\":" +
            "\"summary_text\",\"text\":\"Think\"}]},{\"id\":\"msg_1\",\"type\":\"message\",\"status\":\"completed\"," +
            "\"content\":[{\"type\":\"output_text\",\"annotations\":[],\"text\":\"Hi th\\\"ere\"}],\"role\":" +
            "\"assistant\"}],\"usage\":{\"input_tokens\":37,\"input_tokens_details\":{\"cached_tokens\":32}," +
            "\"output_tokens\":11,\"output_tokens_details\":{\"reasoning_tokens\":8},\"total_tokens\":48}}}");

    /** A Responses stream with every object's members sorted: three text deltas, engine timings at the end. */
    public static final String RESPONSES_SORTED =
        event("response.created", "{\"response\":{\"id\":\"resp_x8Q2\",\"object\":\"response\",\"status\":" +
            "\"in_progress\"},\"type\":\"response.created\"}") +
        event("response.in_progress", "{\"response\":{\"id\":\"resp_x8Q2\",\"object\":\"response\",\"status\":" +
            "\"in_progress\"},\"type\":\"response.in_progress\"}") +
        event("response.output_item.added", "{\"item\":{\"content\":[],\"id\":\"msg_7\",\"role\":\"assistant\"," +
            "\"status\":\"in_progress\",\"type\":\"message\"},\"type\":\"response.output_item.added\"}") +
        event("response.content_part.added", "{\"content_index\":0,\"item_id\":\"msg_7\",\"output_index\":0," +
            "\"part\":{\"text\":\"\",\"type\":\"output_text\"},\"type\":\"response.content_part.added\"}") +
        event("response.output_text.delta", "{\"content_index\":0,\"delta\":\"Hel\",\"item_id\":\"msg_7\"," +
            "\"output_index\":0,\"type\":\"response.output_text.delta\"}") +
        event("response.output_text.delta", "{\"content_index\":0,\"delta\":\"lo\\n\",\"item_id\":\"msg_7\"," +
            "\"output_index\":0,\"type\":\"response.output_text.delta\"}") +
        event("response.output_text.delta", "{\"content_index\":0,\"delta\":\"!\",\"item_id\":\"msg_7\"," +
            "\"output_index\":0,\"type\":\"response.output_text.delta\"}") +
        event("response.output_text.done", "{\"item_id\":\"msg_7\",\"text\":\"Hello\\n!\",\"type\":" +
            "\"response.output_text.done\"}") +
        event("response.content_part.done", "{\"item_id\":\"msg_7\",\"part\":{\"annotations\":[],\"logprobs\":[]," +
            "\"text\":\"Hello\\n!\",\"type\":\"output_text\"},\"type\":\"response.content_part.done\"}") +
        event("response.output_item.done", "{\"item\":{\"content\":[{\"annotations\":[],\"logprobs\":[],\"text\":" +
            "\"Hello\\n!\",\"type\":\"output_text\"}],\"id\":\"msg_7\",\"role\":\"assistant\",\"status\":" +
            "\"completed\",\"type\":\"message\"},\"type\":\"response.output_item.done\"}") +
        event("response.completed", "{\"response\":{\"created_at\":1765000000,\"id\":\"resp_x8Q2\",\"model\":\"m\"," +
            "\"object\":\"response\",\"output\":[{\"content\":[{\"annotations\":[],\"logprobs\":[],\"text\":" +
            "\"Hello\\n!\",\"type\":\"output_text\"}],\"id\":\"msg_7\",\"role\":\"assistant\",\"status\":" +
            "\"completed\",\"type\":\"message\"}],\"status\":\"completed\",\"usage\":{\"input_tokens\":9," +
            "\"input_tokens_details\":{\"cached_tokens\":4},\"output_tokens\":3,\"total_tokens\":12}},\"timings\":" +
            "{\"cache_n\":4,\"predicted_ms\":12.5,\"predicted_n\":3,\"predicted_per_second\":240.0," +
            "\"predicted_per_token_ms\":4.166,\"prompt_ms\":7.25,\"prompt_n\":5,\"prompt_per_second\":689.6," +
            "\"prompt_per_token_ms\":1.45},\"type\":\"response.completed\"}");

    /** A Responses stream that calls a function: the item names it, the arguments stream in two deltas. */
    public static final String RESPONSES_TOOL_CALL =
        event("response.created", "{\"type\":\"response.created\",\"response\":{\"id\":\"resp_t\",\"status\":" +
            "\"in_progress\",\"output\":[]}}") +
        event("response.output_item.added", "{\"type\":\"response.output_item.added\",\"output_index\":0,\"item\":" +
            "{\"type\":\"function_call\",\"id\":\"fc_1\",\"call_id\":\"call_1\",\"name\":\"get_weather\"," +
            "\"arguments\":\"\",\"status\":\"in_progress\"}}") +
        event("response.function_call_arguments.delta", "{\"type\":\"response.function_call_arguments.delta\"," +
            "\"item_id\":\"fc_1\",\"output_index\":0,\"delta\":\"{\\\"city\\\":\"}") +
        event("response.function_call_arguments.delta", "{\"type\":\"response.function_call_arguments.delta\"," +
            "\"item_id\":\"fc_1\",\"output_index\":0,\"delta\":\"\\\"Paris\\\"}\"}") +
        event("response.function_call_arguments.done", "{\"type\":\"response.function_call_arguments.done\"," +
            "\"item_id\":\"fc_1\",\"output_index\":0,\"arguments\":\"{\\\"city\\\":\\\"Paris\\\"}\"}") +
        event("response.completed", "{\"type\":\"response.completed\",\"response\":{\"id\":\"resp_t\",\"status\":" +
            "\"completed\",\"output\":[{\"type\":\"function_call\",\"id\":\"fc_1\",\"call_id\":\"call_1\"," +
            "\"name\":\"get_weather\",\"arguments\":\"{\\\"city\\\":\\\"Paris\\\"}\",\"status\":\"completed\"}]," +
            "\"usage\":{\"input_tokens\":20,\"output_tokens\":6}}}");

    /**
     * Anthropic's Messages stream with extended thinking: a thinking delta, its signature, a ping, two text deltas,
     * prompt usage with both cache counts. 3 content events: thinking, text, text.
     */
    public static final String MESSAGES_ANTHROPIC =
        event("message_start", "{\"type\":\"message_start\",\"message\":{\"id\":\"msg_01XFDUDYJgAACzvnptvVoYEL\"," +
            "\"type\":\"message\",\"role\":\"assistant\",\"content\":[],\"model\":\"claude-sonnet-4\"," +
            "\"stop_reason\":null,\"stop_sequence\":null,\"usage\":{\"input_tokens\":25," +
            "\"cache_creation_input_tokens\":3,\"cache_read_input_tokens\":100,\"output_tokens\":1}}}") +
        event("content_block_start", "{\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":" +
            "\"thinking\",\"thinking\":\"\",\"signature\":\"\"}}") +
        event("content_block_delta", "{\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":" +
            "\"thinking_delta\",\"thinking\":\"Let me \\\"see\\\"\"}}") +
        event("content_block_delta", "{\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":" +
            "\"signature_delta\",\"signature\":\"EqQBCgIYAhIM1gbcDa9GJwZA2b3h\"}}") +
        event("content_block_stop", "{\"type\":\"content_block_stop\",\"index\":0}") +
        event("content_block_start", "{\"type\":\"content_block_start\",\"index\":1,\"content_block\":{\"type\":" +
            "\"text\",\"text\":\"\"}}") +
        event("ping", "{\"type\": \"ping\"}") +
        event("content_block_delta", "{\"type\":\"content_block_delta\",\"index\":1,\"delta\":{\"type\":" +
            "\"text_delta\",\"text\":\"Hello\"}}") +
        event("content_block_delta", "{\"type\":\"content_block_delta\",\"index\":1,\"delta\":{\"type\":" +
            "\"text_delta\",\"text\":\" w\\u00f6rld\"}}") +
        event("content_block_stop", "{\"type\":\"content_block_stop\",\"index\":1}") +
        event("message_delta", "{\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"end_turn\"," +
            "\"stop_sequence\":null},\"usage\":{\"output_tokens\":15}}") +
        event("message_stop", "{\"type\":\"message_stop\"}");

    /** A Messages stream with every object's members sorted: no cache creation count, stopped by max_tokens. */
    public static final String MESSAGES_SORTED =
        event("message_start", "{\"message\":{\"content\":[],\"id\":\"chatcmpl-Zq1\",\"model\":\"m\",\"role\":" +
            "\"assistant\",\"stop_reason\":null,\"stop_sequence\":null,\"type\":\"message\",\"usage\":" +
            "{\"cache_read_input_tokens\":0,\"input_tokens\":9,\"output_tokens\":0}},\"type\":\"message_start\"}") +
        event("content_block_start", "{\"content_block\":{\"text\":\"\",\"type\":\"text\"},\"index\":0,\"type\":" +
            "\"content_block_start\"}") +
        event("content_block_delta", "{\"delta\":{\"text\":\"Hel\",\"type\":\"text_delta\"},\"index\":0,\"type\":" +
            "\"content_block_delta\"}") +
        event("content_block_delta", "{\"delta\":{\"text\":\"lo\",\"type\":\"text_delta\"},\"index\":0,\"type\":" +
            "\"content_block_delta\"}") +
        event("content_block_stop", "{\"index\":0,\"type\":\"content_block_stop\"}") +
        event("message_delta", "{\"delta\":{\"stop_reason\":\"max_tokens\",\"stop_sequence\":null},\"type\":" +
            "\"message_delta\",\"usage\":{\"output_tokens\":2}}") +
        event("message_stop", "{\"type\":\"message_stop\"}");

    /** A Messages stream that uses a tool: the block names it, its input streams as partial JSON (the first empty). */
    public static final String MESSAGES_TOOL_USE =
        event("message_start", "{\"type\":\"message_start\",\"message\":{\"id\":\"msg_tool\",\"type\":\"message\"," +
            "\"role\":\"assistant\",\"content\":[],\"usage\":{\"input_tokens\":472,\"output_tokens\":2}}}") +
        event("content_block_start", "{\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":" +
            "\"tool_use\",\"id\":\"toolu_01T1x1fJ34qAmk2tNTrN7Up6\",\"name\":\"get_weather\",\"input\":{}}}") +
        event("content_block_delta", "{\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":" +
            "\"input_json_delta\",\"partial_json\":\"\"}}") +
        event("content_block_delta", "{\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":" +
            "\"input_json_delta\",\"partial_json\":\"{\\\"location\\\": \\\"San Fra\"}}") +
        event("content_block_delta", "{\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":" +
            "\"input_json_delta\",\"partial_json\":\"ncisco\\\"}\"}}") +
        event("content_block_stop", "{\"type\":\"content_block_stop\",\"index\":0}") +
        event("message_delta", "{\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"tool_use\"," +
            "\"stop_sequence\":null},\"usage\":{\"output_tokens\":89}}") +
        event("message_stop", "{\"type\":\"message_stop\"}");

    /** The Messages API's error event, as Anthropic sends it under load. */
    public static final String MESSAGES_OVERLOADED = event("error", "{\"type\": \"error\", \"error\": {\"type\": " +
        "\"overloaded_error\", \"message\": \"Overloaded\"}}");

    /** llama.cpp's server's Responses stream of 4 tokens, as it sent it (a prompt of 59 tokens, none cached). */
    public static final String RESPONSES_LLAMA_SERVER = recorded("responses.sse");

    /**
     * llama.cpp's server's Messages stream of 4 tokens, as it sent it right after the Responses one with the same
     * prompt: 58 of its 59 prompt tokens came from the server's prompt cache ({@code cache_read_input_tokens}).
     */
    public static final String MESSAGES_LLAMA_SERVER = recorded("messages.sse");

    private ApiStreams()
    {
    }

    private static String recorded(final String name)
    {
        try (InputStream in = ApiStreams.class.getResourceAsStream("llama-server-d32676d77/" + name))
        {
            if (in == null)
            {
                throw new IllegalStateException("missing test resource llama-server-d32676d77/" + name);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }

    /** @return one SSE event named {@code name} with {@code data}, as the APIs frame theirs. */
    public static String event(final String name, final String data)
    {
        return "event: " + name + "\ndata: " + data + "\n\n";
    }
}
