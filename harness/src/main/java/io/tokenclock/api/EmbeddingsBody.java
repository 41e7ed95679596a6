package io.tokenclock.api;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import io.tokenclock.json.Json;

/**
 * OpenAI Embeddings: {@code model}, {@code input} (always a list, one string per input: {@code --embed-batch} of them,
 * or the one prompt), and {@code encoding_format: "float"}, so that the answer's size is the workload's and not the
 * server's default. Not streamed: the answer is one JSON body. No output cap, decoding setting or image applies.
 */
final class EmbeddingsBody implements BodyShape
{
    @Override
    public ObjectNode body(final Request r)
    {
        final ObjectNode root = Json.MAPPER.createObjectNode().put("model", r.model());
        final ArrayNode input = root.putArray("input");
        r.texts().forEach(input::add);
        root.put("encoding_format", "float");
        return root;
    }
}
