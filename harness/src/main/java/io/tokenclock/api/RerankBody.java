package io.tokenclock.api;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import io.tokenclock.json.Json;

/**
 * A rerank request: {@code model}, {@code query} and {@code documents}, the shape vLLM ({@code /rerank},
 * {@code /v1/rerank}), Cohere ({@code /v2/rerank}), Jina and llama.cpp's server share; or, in Hugging Face TEI's shape
 * ({@link Inputs#tei()}), {@code query} and {@code texts}, without a model (TEI serves one). No {@code top_n}: every document is ranked, so the answer
 * has one result per document. Not streamed. A request without a query of its own ranks its documents against its
 * first text.
 */
final class RerankBody implements BodyShape
{
    @Override
    public ObjectNode body(final Request r)
    {
        final Inputs inputs = r.inputs();
        final boolean tei = inputs != null && inputs.tei();
        final ObjectNode root = Json.MAPPER.createObjectNode();
        if (!tei)
        {
            root.put("model", r.model()); // TEI serves one model and names none
        }
        root.put("query", inputs != null && inputs.query() != null ? inputs.query() : r.texts().get(0));
        final ArrayNode documents = root.putArray(tei ? "texts" : "documents");
        r.texts().forEach(documents::add);
        return root;
    }
}
