package io.tokenclock.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import io.tokenclock.json.Json;

/**
 * Anthropic's Messages API: {@code max_tokens} (required by the API), {@code messages}, the conversation's system
 * messages as the top-level {@code system}, {@code thinking} when a budget is asked for, and {@code stream: true}.
 * Usage needs no switch: {@code message_start} and {@code message_delta} always carry it.
 */
final class MessagesBody implements BodyShape
{
    @Override
    public ObjectNode body(final Request r)
    {
        if (r.maxTokens() <= 0)
        {
            throw new IllegalArgumentException("the Messages API requires max_tokens: give --max-tokens N (or " +
                "output lengths)");
        }
        final ObjectNode root = Json.MAPPER.createObjectNode().put("model", r.model()).put("max_tokens", r.maxTokens());
        final ArrayNode messages = Json.MAPPER.createArrayNode();
        final StringBuilder system = new StringBuilder();
        if (r.messages() != null)
        {
            for (final JsonNode m : r.messages())
            {
                if ("system".equals(m.path("role").asText()) || "developer".equals(m.path("role").asText()))
                {
                    system.append(system.isEmpty() ? "" : "\n\n").append(m.path("content").asText(""));
                }
                else
                {
                    messages.add(m.deepCopy());
                }
            }
        }
        else
        {
            messages.addObject().put("role", "user").put("content", r.prompt());
        }
        if (!system.isEmpty())
        {
            root.put("system", system.toString());
        }
        root.set("messages", messages);
        if (r.decoding().thinkingTokens() > 0)
        {
            root.putObject("thinking").put("type", "enabled").put("budget_tokens", r.decoding().thinkingTokens());
        }
        if (r.decoding().ignoreEos())
        {
            root.put("ignore_eos", true);
        }
        if (r.decoding().temperature() != null)
        {
            root.put("temperature", r.decoding().temperature());
        }
        root.put("stream", true);
        return root;
    }
}
