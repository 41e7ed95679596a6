package io.tokenclock.api;

import com.fasterxml.jackson.databind.node.ObjectNode;

import io.tokenclock.json.Json;

/**
 * OpenAI Chat Completions: {@code messages} (images as {@code image_url} parts with data URLs: {@link Conversation}),
 * {@code max_tokens}, {@code reasoning_effort}, and {@code stream: true} with {@code stream_options.include_usage}, so
 * that the server reports exact token counts in a last usage chunk.
 */
final class ChatBody implements BodyShape
{
    @Override
    public ObjectNode body(final Request r)
    {
        final ObjectNode root = Json.MAPPER.createObjectNode().put("model", r.model());
        root.set("messages", Conversation.of(r));
        openAiTail(root, r, "max_tokens");
        if (r.decoding().reasoningEffort() != null)
        {
            root.put("reasoning_effort", r.decoding().reasoningEffort());
        }
        streamWithUsage(root);
        return root;
    }

    /** The output cap (named {@code maxTokensField}), {@code ignore_eos} and {@code temperature}, as asked. */
    static void openAiTail(final ObjectNode root, final Request r, final String maxTokensField)
    {
        if (r.maxTokens() > 0)
        {
            root.put(maxTokensField, r.maxTokens());
        }
        if (r.decoding().ignoreEos())
        {
            root.put("ignore_eos", true);
        }
        if (r.decoding().temperature() != null)
        {
            root.put("temperature", r.decoding().temperature());
        }
    }

    /** {@code stream: true} and {@code stream_options: {"include_usage": true}} (chat and completions). */
    static void streamWithUsage(final ObjectNode root)
    {
        root.put("stream", true);
        root.putObject("stream_options").put("include_usage", true);
    }
}
