package io.tokenclock.workload;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectWriter;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import io.tokenclock.api.Api;
import io.tokenclock.api.BodyShape;
import io.tokenclock.json.Json;

/**
 * Builds the JSON body of each request. Per request, on the load generator's thread, ahead of the request's
 * intended start, so building never delays a send.
 * <p>
 * The API's {@link BodyShape} lays the body out (where the prompt goes, what the output cap is called, how a stream
 * and its usage are asked for: chat and completions send {@code stream_options: {"include_usage": true}}, so that
 * the server reports exact token counts in a final usage chunk); this factory holds the run's choices (model, output
 * cap, decoding settings). {@code extraBody} fields are merged last and win, so a user can override any field, or add
 * engine-specific ones ({@code top_k}, {@code min_tokens}, ...).
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

    private final Api api;
    private final String model;
    private final int maxTokens;
    private final BodyShape.Decoding decoding;
    private final ObjectNode extraBody;
    private final boolean teiRerank;

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
        this(chat ? Api.CHAT : Api.COMPLETIONS, model, maxTokens, new BodyShape.Decoding(ignoreEos, temperature, null,
            0), extraBody);
    }

    /**
     * @param api       the API whose bodies to build.
     * @param maxTokens the output cap, or 0 to leave it to the server.
     * @param decoding  the run's decoding settings.
     * @param extraBody extra top-level fields, or null.
     */
    public RequestBodyFactory(
        final Api api, final String model, final int maxTokens, final BodyShape.Decoding decoding,
        final ObjectNode extraBody)
    {
        this(api, model, maxTokens, decoding, extraBody, false);
    }

    /**
     * @param api       the API whose bodies to build.
     * @param maxTokens the output cap, or 0 to leave it to the server.
     * @param decoding  the run's decoding settings.
     * @param extraBody extra top-level fields, or null.
     * @param teiRerank rerank bodies in Hugging Face TEI's shape ({@code texts}) rather than {@code documents}.
     */
    public RequestBodyFactory(
        final Api api, final String model, final int maxTokens, final BodyShape.Decoding decoding,
        final ObjectNode extraBody, final boolean teiRerank)
    {
        this.teiRerank = teiRerank;
        this.api = api;
        this.model = model;
        this.maxTokens = maxTokens;
        this.decoding = decoding;
        this.extraBody = extraBody;
    }

    /** @return the API the bodies are for. */
    public Api api()
    {
        return api;
    }

    /** @return the UTF-8 JSON body for {@code prompt}, with the factory's {@code max_tokens}. */
    public byte[] body(final String prompt)
    {
        return body(prompt, maxTokens);
    }

    /** @return the UTF-8 JSON body for {@code prompt} with this request's own {@code max_tokens} (0: none). */
    public byte[] body(final String prompt, final int requestMaxTokens)
    {
        return body(prompt, requestMaxTokens, List.of());
    }

    /** @return the UTF-8 JSON body for {@code prompt} and {@code images} with this request's own cap (0: none). */
    public byte[] body(final String prompt, final int requestMaxTokens, final List<BodyShape.Image> images)
    {
        return finish(api.shape().body(new BodyShape.Request(model, prompt, null, requestMaxTokens, decoding, null,
            null, images)));
    }

    /**
     * @param texts the texts to embed, or the documents to rank.
     * @param query the rerank query, or null (embeddings; a rerank request then ranks against its first text).
     * @return the UTF-8 JSON body of an embeddings or rerank request.
     */
    public byte[] inputsBody(final List<String> texts, final String query)
    {
        return finish(api.shape().body(new BodyShape.Request(model, null, null, 0, decoding, null,
            new BodyShape.Inputs(texts, query, teiRerank), List.of())));
    }

    /**
     * @return the most items a request's answer is asked for, or 0: one per input. A rerank request whose
     * {@code --extra-body} sets a positive whole {@code top_n} (vLLM, Cohere, Jina, llama.cpp's server: return the best
     * N) asks for N; its answer with N results of more documents is whole, not truncated.
     */
    public int answerLimit()
    {
        final JsonNode topN = extraBody == null || api != Api.RERANK ? null : extraBody.get("top_n");
        return topN != null && topN.canConvertToExactIntegral() && topN.asLong() > 0 ?
            (int)Math.min(Integer.MAX_VALUE, topN.asLong()) : 0;
    }

    /**
     * @return the UTF-8 JSON body for a whole chat {@code messages} array (datasets, sessions), in the API's shape;
     * on {@code /completions} the messages' contents are joined into one prompt.
     */
    public byte[] body(final JsonNode messages, final int requestMaxTokens)
    {
        return body(messages, requestMaxTokens, null);
    }

    /**
     * @param previousResponseId the Responses API's previous response, to chain this turn to it (the messages are
     *                           then only the new ones), or null.
     * @return the UTF-8 JSON body for a conversation, as {@link #body(JsonNode, int)}.
     */
    public byte[] body(final JsonNode messages, final int requestMaxTokens, final String previousResponseId)
    {
        return body(messages, requestMaxTokens, previousResponseId, List.of());
    }

    /** @return the UTF-8 JSON body for a conversation and {@code images} (added to its last user message). */
    public byte[] body(
        final JsonNode messages, final int requestMaxTokens, final String previousResponseId,
        final List<BodyShape.Image> images)
    {
        if (!(messages instanceof ArrayNode list))
        {
            throw new IllegalArgumentException("messages must be a JSON array");
        }
        return finish(api.shape().body(new BodyShape.Request(model, null, list, requestMaxTokens, decoding,
            previousResponseId, null, images)));
    }

    private byte[] finish(final ObjectNode root)
    {
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
