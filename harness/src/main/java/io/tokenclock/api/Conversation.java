package io.tokenclock.api;

import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import io.tokenclock.json.Json;

/**
 * A request's conversation in chat's form, the one form every conversational shape starts from: the request's
 * messages (a copy), or one user message holding its prompt, with the request's images added to the last user
 * message as chat's {@code image_url} parts (after its text: the order a dataset line's parts keep, whatever the API).
 * Each shape then maps chat's parts to its own: the Responses API's {@code input_text} and {@code input_image}
 * ({@link ResponsesBody}), the Messages API's {@code text} and {@code image} blocks ({@link MessagesBody}), so that a
 * dataset line that carries images in chat's form is sent in each API's form as well.
 * <p>
 * Worked example: the prompt {@code "describe"} with one PNG becomes
 * {@code [{"role":"user","content":[{"type":"text","text":"describe"},
 * {"type":"image_url","image_url":{"url":"data:image/png;base64,iVBOR..."}}]}]}; without images it stays
 * {@code [{"role":"user","content":"describe"}]}, byte for byte what it was before images existed.
 */
final class Conversation
{
    private Conversation()
    {
    }

    /** @return the request's conversation in chat's form, a new array the caller may change. */
    static ArrayNode of(final BodyShape.Request r)
    {
        final ArrayNode messages;
        if (r.messages() != null)
        {
            messages = r.messages().deepCopy();
        }
        else
        {
            messages = Json.MAPPER.createArrayNode();
            messages.addObject().put("role", "user").put("content", r.prompt());
        }
        addImages(messages, r.images());
        return messages;
    }

    /** Appends {@code images} to the last user message as {@code image_url} parts (its text made a part first). */
    private static void addImages(final ArrayNode messages, final List<BodyShape.Image> images)
    {
        if (images.isEmpty())
        {
            return;
        }
        ObjectNode user = null;
        for (final JsonNode m : messages)
        {
            if (m instanceof ObjectNode o && "user".equals(o.path("role").asText()))
            {
                user = o;
            }
        }
        if (user == null)
        {
            user = messages.addObject().put("role", "user");
        }
        final JsonNode content = user.path("content");
        final ArrayNode parts;
        if (content instanceof ArrayNode list)
        {
            parts = list;
        }
        else
        {
            parts = Json.MAPPER.createArrayNode();
            if (content.isTextual())
            {
                parts.addObject().put("type", "text").put("text", content.asText());
            }
            user.set("content", parts);
        }
        for (final BodyShape.Image image : images)
        {
            parts.addObject().put("type", "image_url").putObject("image_url").put("url", image.dataUrl());
        }
    }

    /** @return the URL of chat's {@code image_url} part (its {@code image_url.url}, or a bare string), or null. */
    static String imageUrl(final JsonNode part)
    {
        final JsonNode url = part.path("image_url");
        return url.isTextual() ? url.asText() : url.path("url").isTextual() ? url.path("url").asText() : null;
    }

    /** @return whether {@code part} is chat's image part. */
    static boolean isImage(final JsonNode part)
    {
        return "image_url".equals(part.path("type").asText());
    }
}
