package io.tokenclock.workload.dataset;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * One request of a dataset or trace. Which fields are set depends on the format: a prompt text or a chat
 * {@code messages} array (JSONL, ShareGPT), or lengths, a timestamp and prefix-block hashes (Mooncake traces).
 *
 * @param prompt       prompt text, or null.
 * @param messages     OpenAI-style messages array, or null.
 * @param maxTokens    the entry's own output length ({@code max_tokens}, or the ShareGPT answer's length), or -1.
 * @param reference    a reference answer for quality checks, or null.
 * @param segment      the traffic segment the entry belongs to, or null.
 * @param timestampMs  trace arrival time in ms from the trace's start, or -1.
 * @param inputLength  trace input length in tokens, or -1.
 * @param hashIds      trace prefix-block hashes (Mooncake), or null: equal ids mean equal prompt blocks.
 */
public record DatasetEntry(String prompt, JsonNode messages, int maxTokens, String reference, String segment,
    long timestampMs, int inputLength, long[] hashIds)
{
}
