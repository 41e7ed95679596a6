package io.tokenclock.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import io.tokenclock.json.Json;

/**
 * The OpenAI Responses API: {@code input} (the prompt as a string, or a conversation as a list of role/content
 * messages, chat's {@code text} parts as {@code input_text}, its {@code image_url} parts as {@code input_image} with
 * the same URL; a prompt with images is such a list: {@link Conversation}), {@code max_output_tokens},
 * {@code reasoning.effort} when
 * asked, {@code previous_response_id} when a turn is chained to the last, and {@code stream: true}. Usage needs no
 * switch: {@code response.completed} always carries it.
 */
final class ResponsesBody implements BodyShape
{
    @Override
    public ObjectNode body(final Request r)
    {
        final ObjectNode root = Json.MAPPER.createObjectNode().put("model", r.model());
        if (r.previousResponseId() != null)
        {
            root.put("previous_response_id", r.previousResponseId());
        }
        if (r.messages() != null || !r.images().isEmpty())
        {
            final ArrayNode input = root.putArray("input");
            for (final JsonNode m : Conversation.of(r))
            {
                input.add(message(m));
            }
        }
        else
        {
            root.put("input", r.prompt());
        }
        ChatBody.openAiTail(root, r, "max_output_tokens");
        if (r.decoding().reasoningEffort() != null)
        {
            root.putObject("reasoning").put("effort", r.decoding().reasoningEffort());
        }
        root.put("stream", true);
        return root;
    }

    /**
     * A chat message as a Responses input message: text content as it is, chat's text parts as input_text (an
     * assistant's as output_text), its image_url parts as input_image.
     */
    private static ObjectNode message(final JsonNode chat)
    {
        final ObjectNode m = chat.deepCopy();
        final JsonNode content = m.path("content");
        if (content instanceof ArrayNode parts)
        {
            for (int i = 0; i < parts.size(); i++)
            {
                final JsonNode part = parts.get(i);
                if (part instanceof ObjectNode p && "text".equals(p.path("type").asText()))
                {
                    p.put("type", "assistant".equals(m.path("role").asText()) ? "output_text" : "input_text");
                }
                else if (Conversation.isImage(part) && Conversation.imageUrl(part) != null)
                {
                    parts.set(i, Json.MAPPER.createObjectNode().put("type", "input_image")
                        .put("image_url", Conversation.imageUrl(part)));
                }
            }
        }
        return m;
    }
}
