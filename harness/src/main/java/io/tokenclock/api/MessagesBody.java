package io.tokenclock.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import io.tokenclock.json.Json;

/**
 * Anthropic's Messages API: {@code max_tokens} (required by the API), {@code messages} (chat's {@code image_url}
 * parts as {@code image} blocks: a data URL's bytes as a {@code base64} source with its media type, another URL as a
 * {@code url} source; {@link Conversation}), the conversation's system messages as the top-level {@code system},
 * {@code thinking} when a budget is asked for, and {@code stream: true}.
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
        for (final JsonNode m : Conversation.of(r))
        {
            if ("system".equals(m.path("role").asText()) || "developer".equals(m.path("role").asText()))
            {
                system.append(system.isEmpty() ? "" : "\n\n").append(m.path("content").asText(""));
            }
            else
            {
                messages.add(m instanceof ObjectNode o ? withImageBlocks(o) : m);
            }
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

    /** @return {@code m} with chat's image_url parts made image blocks. */
    private static ObjectNode withImageBlocks(final ObjectNode m)
    {
        if (m.path("content") instanceof ArrayNode parts)
        {
            for (int i = 0; i < parts.size(); i++)
            {
                final String url = Conversation.isImage(parts.get(i)) ? Conversation.imageUrl(parts.get(i)) : null;
                if (url != null)
                {
                    parts.set(i, imageBlock(url));
                }
            }
        }
        return m;
    }

    /**
     * @return the Messages API's image block for {@code url}: {@code data:image/png;base64,XXXX} as
     * {@code {"type":"image","source":{"type":"base64","media_type":"image/png","data":"XXXX"}}}, another URL as a
     * {@code url} source.
     */
    static ObjectNode imageBlock(final String url)
    {
        final ObjectNode block = Json.MAPPER.createObjectNode().put("type", "image");
        final int comma = url.indexOf(',');
        if (url.startsWith("data:") && comma > 0 && url.substring(0, comma).endsWith(";base64"))
        {
            block.putObject("source").put("type", "base64")
                .put("media_type", url.substring("data:".length(), comma - ";base64".length()))
                .put("data", url.substring(comma + 1));
        }
        else
        {
            block.putObject("source").put("type", "url").put("url", url);
        }
        return block;
    }
}
