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
        if (r.messages() != null)
        {
            final StringBuilder sb = new StringBuilder();
            for (final JsonNode m : r.messages())
            {
                if (sb.length() > 0)
                {
                    sb.append("\n\n");
                }
                sb.append(m.path("content").asText(""));
            }
            root.put("prompt", sb.toString());
        }
        else
        {
            root.put("prompt", r.prompt());
        }
        ChatBody.openAiTail(root, r, "max_tokens");
        ChatBody.streamWithUsage(root);
        return root;
    }
}
