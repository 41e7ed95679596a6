package io.tokenclock.quality;

/**
 * One measured request's output, as the quality rule judges it. Immutable.
 *
 * @param id           the request's id ({@code id} in requests.jsonl).
 * @param prompt       the prompt (a dataset entry's prompt, or its messages as JSON), or null when not kept.
 * @param output       the answer text, decoded.
 * @param reference    the dataset entry's reference answer, or null.
 * @param finishReason the stream's finish_reason ({@code stop}, {@code length}, ...), or null.
 */
public record Sample(long id, String prompt, String output, String reference, String finishReason)
{
}
