package io.tokenclock.workload;

import java.io.IOException;
import java.io.UncheckedIOException;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectWriter;
import com.fasterxml.jackson.databind.node.ObjectNode;

import io.tokenclock.json.Json;

/**
 * Builds the JSON body of each streaming request. Per request, on the load generator's thread, ahead of the request's
 * intended start, so building never delays a send.
 * <p>
 * Always sets {@code stream: true} and {@code stream_options: {"include_usage": true}} (so the server reports exact
 * token counts in a final usage chunk). {@code extraBody} fields are merged last and win, so a user can override any
 * field, or add engine-specific ones ({@code top_k}, {@code min_tokens}, ...).
 */
public final class RequestBodyFactory
{
    private static final ObjectMapper JSON = Json.MAPPER;
    /**
     * The bodies' own writer, so that their bytes come from {@code ObjectWriter.writeValueAsBytes}, which nothing else
     * calls. Why: C2's code of {@code ObjectMapper.writeValueAsBytes} is one for every mapper, and the record's first
     * write at t0 (new types, so an emptied serializer cache: a null that code had never met) made it not entrant;
     * the bodies then ran it interpreted until C2 compiled it again 5-9 s into the window, for 31-70 ms (JFR, three
     * 16-stream runs; docs/OVERHEAD.md, "JIT inside the window").
     */
    private static final ObjectWriter BODY = JSON.writer();

    private final boolean chat;
    private final String model;
    private final int maxTokens;
    private final boolean ignoreEos;
    private final Double temperature;
    private final ObjectNode extraBody;

    /**
     * @param chat        true for {@code /chat/completions} ({@code messages}), false for {@code /completions}.
     * @param maxTokens   {@code max_tokens}, or 0 to leave it to the server.
     * @param temperature null to leave it to the server.
     * @param extraBody   extra top-level fields, or null.
     */
    public RequestBodyFactory(
        final boolean chat, final String model, final int maxTokens, final boolean ignoreEos, final Double temperature,
        final ObjectNode extraBody)
    {
        this.chat = chat;
        this.model = model;
        this.maxTokens = maxTokens;
        this.ignoreEos = ignoreEos;
        this.temperature = temperature;
        this.extraBody = extraBody;
    }

    /** @return the UTF-8 JSON body for {@code prompt}, with the factory's {@code max_tokens}. */
    public byte[] body(final String prompt)
    {
        return body(prompt, maxTokens);
    }

    /** @return the UTF-8 JSON body for {@code prompt} with this request's own {@code max_tokens} (0: none). */
    public byte[] body(final String prompt, final int requestMaxTokens)
    {
        final ObjectNode root = JSON.createObjectNode();
        root.put("model", model);
        if (chat)
        {
            root.putArray("messages").addObject().put("role", "user").put("content", prompt);
        }
        else
        {
            root.put("prompt", prompt);
        }
        return finish(root, requestMaxTokens);
    }

    /**
     * @return the UTF-8 JSON body for a whole chat {@code messages} array (datasets); on {@code /completions} the
     * messages' contents are joined into one prompt.
     */
    public byte[] body(final JsonNode messages, final int requestMaxTokens)
    {
        final ObjectNode root = JSON.createObjectNode();
        root.put("model", model);
        if (chat)
        {
            root.set("messages", messages.deepCopy());
        }
        else
        {
            final StringBuilder sb = new StringBuilder();
            for (final JsonNode m : messages)
            {
                if (sb.length() > 0)
                {
                    sb.append("\n\n");
                }
                sb.append(m.path("content").asText(""));
            }
            root.put("prompt", sb.toString());
        }
        return finish(root, requestMaxTokens);
    }

    private byte[] finish(final ObjectNode root, final int requestMaxTokens)
    {
        if (requestMaxTokens > 0)
        {
            root.put("max_tokens", requestMaxTokens);
        }
        if (ignoreEos)
        {
            root.put("ignore_eos", true);
        }
        if (temperature != null)
        {
            root.put("temperature", temperature);
        }
        root.put("stream", true);
        root.putObject("stream_options").put("include_usage", true);
        if (extraBody != null)
        {
            root.setAll(extraBody);
        }
        try
        {
            return BODY.writeValueAsBytes(root);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }

    /** Parses {@code --extra-body}: a JSON object. */
    public static ObjectNode parseExtraBody(final String json)
    {
        if (json == null || json.isBlank())
        {
            return null;
        }
        try
        {
            final var node = JSON.readTree(json);
            if (!(node instanceof ObjectNode object))
            {
                throw new IllegalArgumentException("--extra-body must be a JSON object, got: " + json);
            }
            return object;
        }
        catch (final JsonProcessingException ex)
        {
            throw new IllegalArgumentException("--extra-body is not valid JSON: " + ex.getOriginalMessage());
        }
    }
}
