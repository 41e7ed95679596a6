package io.tokenclock.api;

import java.util.List;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * How one API lays out the JSON body of a request: where the prompt or the conversation goes, what the output cap is
 * called, what asks for a stream and for usage, how reasoning is asked for, where images go; for the APIs that answer
 * whole (embeddings, rerank), where the inputs and the query go. The run's own choices (the model, the decoding
 * settings, the user's extra fields merged last) are {@code workload.RequestBodyFactory}'s; a shape only places them.
 * Shapes are stateless and thread-safe; bodies are built per request, off the hot path.
 */
public interface BodyShape
{
    /**
     * One request's body, {@code model} first.
     *
     * @param request what the request asks.
     * @return a new body, which the caller may change.
     */
    ObjectNode body(Request request);

    /**
     * What one request asks.
     *
     * @param model              the model's name.
     * @param prompt             one user prompt, or null when {@code messages} is given.
     * @param messages           a conversation in chat's form ({@code [{"role": ..., "content": ...}]}, a system
     *                           message first when there is one), or null when {@code prompt} is given; never changed.
     * @param maxTokens          the output cap, or 0 to leave it to the server (the Messages API requires one).
     * @param decoding           the run's decoding settings.
     * @param previousResponseId the Responses API's previous response, to chain a turn to it, or null.
     * @param inputs             the texts of an embeddings request, or the documents of a rerank request; or null
     *                           (one input: the prompt, or the conversation's contents).
     * @param images             images to add to the (last) user message, in order; empty for none.
     */
    record Request(String model, String prompt, ArrayNode messages, int maxTokens, Decoding decoding,
        String previousResponseId, Inputs inputs, List<Image> images)
    {
        /** A request without inputs or images. */
        public Request(final String model, final String prompt, final ArrayNode messages, final int maxTokens,
            final Decoding decoding, final String previousResponseId)
        {
            this(model, prompt, messages, maxTokens, decoding, previousResponseId, null, List.of());
        }

        public Request
        {
            images = images == null ? List.of() : List.copyOf(images);
        }

        /** @return the request's texts: its inputs, or its one prompt (a conversation's contents joined). */
        public List<String> texts()
        {
            return inputs != null ? inputs.texts() :
                List.of(prompt != null ? prompt : CompletionsBody.joined(messages));
        }
    }

    /**
     * @return a conversation's text, its messages' text contents joined by blank lines (images left out): what one
     * input of an embeddings or rerank request is made of a dataset line's messages, and text completions' prompt.
     */
    static String textOf(final ArrayNode messages)
    {
        return CompletionsBody.joined(messages);
    }

    /**
     * @return a user message in chat's form holding {@code text} and {@code images} (as {@link Conversation} lays out a
     * prompt's): a session keeps its earlier turns' messages in this form, images included, and every shape maps them
     * to its own when the history is resent.
     */
    static ObjectNode userMessage(final String text, final List<Image> images)
    {
        return (ObjectNode)Conversation.of(new Request(null, text, null, 0, Decoding.NONE, null, null, images)).get(0);
    }

    /**
     * What an embeddings or rerank request carries besides the model.
     *
     * @param texts the texts to embed, or the documents to rank; at least one.
     * @param query the query the documents are ranked against (rerank), or null.
     * @param tei   rerank only: Hugging Face TEI's shape ({@code texts} for the documents, its answer a bare array),
     *              instead of {@code documents} (vLLM, Cohere, Jina, llama.cpp).
     */
    record Inputs(List<String> texts, String query, boolean tei)
    {
        public Inputs
        {
            texts = List.copyOf(texts);
        }
    }

    /**
     * One image, encoded: its media type ({@code image/png}, {@code image/jpeg}) and its bytes in base64.
     *
     * @param mediaType the media type.
     * @param base64    the encoded bytes, standard base64 without line breaks.
     */
    record Image(String mediaType, String base64)
    {
        /** @return the image as a data URL, {@code data:image/png;base64,...}: chat's and the Responses API's form. */
        public String dataUrl()
        {
            return "data:" + mediaType + ";base64," + base64;
        }
    }

    /**
     * A run's decoding settings, the same for every request.
     *
     * @param ignoreEos       send {@code ignore_eos: true} (vLLM's and SGLang's extension, sent to any API when asked).
     * @param temperature     the sampling temperature, or null for the server's.
     * @param reasoningEffort the reasoning effort asked for (chat's {@code reasoning_effort}, the Responses API's
     *                        {@code reasoning.effort}), or null.
     * @param thinkingTokens  the Messages API's extended-thinking budget ({@code thinking.budget_tokens}), or 0 for none.
     */
    record Decoding(boolean ignoreEos, Double temperature, String reasoningEffort, int thinkingTokens)
    {
        /** No decoding setting of the run's own. */
        public static final Decoding NONE = new Decoding(false, null, null, 0);
    }
}
