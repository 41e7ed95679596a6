package io.tokenclock.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import io.tokenclock.json.Json;

/**
 * OpenAI text Completions: one {@code prompt} (a conversation's contents joined by blank lines), {@code max_tokens},
 * and {@code stream: true} with {@code stream_options.include_usage}.
 */
final class CompletionsBody implements BodyShape
{
    @Override
    public ObjectNode body(final Request r)
    {
        final ObjectNode root = Json.MAPPER.createObjectNode().put("model", r.model());
        root.put("prompt", r.messages() != null ? joined(r.messages()) : r.prompt());
        ChatBody.openAiTail(root, r, "max_tokens");
        ChatBody.streamWithUsage(root);
        return root;
    }

    /** @return a conversation's text contents joined by blank lines (parts of other types, images, left out). */
    static String joined(final JsonNode messages)
    {
        final StringBuilder sb = new StringBuilder();
        for (final JsonNode m : messages)
        {
            if (sb.length() > 0)
            {
                sb.append("\n\n");
            }
            final JsonNode content = m.path("content");
            if (content.isArray())
            {
                for (final JsonNode part : content)
                {
                    sb.append(part.path("text").asText(""));
                }
            }
            else
            {
                sb.append(content.asText(""));
            }
        }
        return sb.toString();
    }
}
