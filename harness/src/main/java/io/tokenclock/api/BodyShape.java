package io.tokenclock.api;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * How one API lays out the JSON body of a streamed request: where the prompt or the conversation goes, what the
 * output cap is called, what asks for a stream and for usage, how reasoning is asked for. The run's own choices (the
 * model, the decoding settings, the user's extra fields merged last) are {@code workload.RequestBodyFactory}'s; a
 * shape only places them. Shapes are stateless and thread-safe; bodies are built per request, off the hot path.
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
     */
    record Request(String model, String prompt, ArrayNode messages, int maxTokens, Decoding decoding,
        String previousResponseId)
    {
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
