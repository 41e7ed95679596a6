package io.tokenclock.jmh;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Realistic SSE payloads for the benchmarks, shaped like what vLLM, SGLang and OpenAI actually put on the wire (the
 * same shapes as the recorded streams in {@code fixtures}), 150 to 400 bytes per event.
 * <p>
 * Constants named {@code *_JSON} are one event's data (what {@code ChunkParser.parse} sees); constants named
 * {@code *_EVENT} are the same chunk framed as an SSE event ({@code "data: " + json + "\n\n"}), what a network read
 * carries. Sizes are listed so that a reader can turn ns/op into ns/byte.
 */
public final class Payloads
{
    /** vLLM chat, one token: 209 bytes of JSON, 217 framed. The common case. */
    public static final String VLLM_CONTENT_JSON =
        "{\"id\":\"chatcmpl-8f1c\",\"object\":\"chat.completion.chunk\",\"created\":1764400000," +
        "\"model\":\"meta-llama/Llama-3.1-8B-Instruct\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\" token\"}," +
        "\"logprobs\":null,\"finish_reason\":null}]}";

    /** OpenAI chat, one token (274 bytes), with {@code system_fingerprint} and {@code "usage":null} as OpenAI sends
     * them. */
    public static final String OPENAI_CONTENT_JSON =
        "{\"id\":\"chatcmpl-9xTkC1oQv4hZpR2mB7eLdW3sAaYnF\",\"object\":\"chat.completion.chunk\"," +
        "\"created\":1718000000,\"model\":\"gpt-4o-mini-2024-07-18\",\"system_fingerprint\":\"fp_0ba0d124f1\"," +
        "\"choices\":[{\"index\":0,\"delta\":{\"content\":\" there\"},\"logprobs\":null,\"finish_reason\":null}]," +
        "\"usage\":null}";

    /** vLLM's role-only first chunk (250 bytes): parsed, not content-bearing. */
    public static final String VLLM_ROLE_JSON =
        "{\"id\":\"chatcmpl-4f1e8c2a9b7d4e6f8a0b1c2d3e4f5a6b\",\"object\":\"chat.completion.chunk\"," +
        "\"created\":1718000100,\"model\":\"meta-llama/Llama-3.1-8B-Instruct\",\"choices\":[{\"index\":0," +
        "\"delta\":{\"role\":\"assistant\",\"content\":\"\"},\"logprobs\":null,\"finish_reason\":null}]}";

    /** vLLM's usage-only last chunk (233 bytes, {@code "choices":[]}), in vLLM's field order. */
    public static final String VLLM_USAGE_JSON =
        "{\"id\":\"chatcmpl-4f1e8c2a9b7d4e6f8a0b1c2d3e4f5a6b\",\"object\":\"chat.completion.chunk\"," +
        "\"created\":1718000100,\"model\":\"meta-llama/Llama-3.1-8B-Instruct\",\"choices\":[]," +
        "\"usage\":{\"prompt_tokens\":512,\"total_tokens\":768,\"completion_tokens\":256}}";

    /** vLLM with a reasoning parser (256 bytes): {@code delta.reasoning_content}. */
    public static final String VLLM_REASONING_JSON =
        "{\"id\":\"chatcmpl-7a8b9c0d1e2f4a3b8c5d6e7f8a9b0c1d\",\"object\":\"chat.completion.chunk\"," +
        "\"created\":1718000300,\"model\":\"deepseek-ai/DeepSeek-R1-Distill-Qwen-7B\",\"choices\":[{\"index\":0," +
        "\"delta\":{\"reasoning_content\":\", so 2+2\"},\"logprobs\":null,\"finish_reason\":null}]}";

    /** SGLang {@code /v1/completions} (254 bytes), a multi-token {@code text} (speculative decoding or a batched
     * flush). */
    public static final String SGLANG_COMPLETIONS_JSON =
        "{\"id\":\"b6c1d2e3f4a5469788990a1b2c3d4e5f\",\"object\":\"text_completion\",\"created\":1718000200," +
        "\"model\":\"Qwen/Qwen2.5-7B-Instruct\",\"choices\":[{\"index\":0,\"text\":\" the quick brown fox jumps\"," +
        "\"logprobs\":null,\"finish_reason\":null,\"matched_stop\":null}],\"usage\":null}";

    /**
     * vLLM chat with {@code continuous_usage_stats}: cumulative usage on every chunk, the case where per-chunk token
     * counts are known (about 330 bytes). The {@code %d}s are the running total and completion-token counts.
     */
    public static final String VLLM_CONTINUOUS_USAGE_FORMAT =
        "{\"id\":\"chatcmpl-4f1e8c2a9b7d4e6f8a0b1c2d3e4f5a6b\",\"object\":\"chat.completion.chunk\"," +
        "\"created\":1718000100,\"model\":\"meta-llama/Llama-3.1-8B-Instruct\",\"choices\":[{\"index\":0," +
        "\"delta\":{\"content\":\" token\"},\"logprobs\":null,\"finish_reason\":null,\"stop_reason\":null}]," +
        "\"usage\":{\"prompt_tokens\":512,\"total_tokens\":%d,\"completion_tokens\":%d}}";

    /**
     * OpenAI chat with {@code logprobs} requested: a nested object the parser must skip structurally (422 bytes,
     * just above the top of the realistic range).
     */
    public static final String OPENAI_LOGPROBS_JSON =
        "{\"id\":\"chatcmpl-9xTkC1oQv4hZpR2mB7eLdW3sAaYnF\",\"object\":\"chat.completion.chunk\"," +
        "\"created\":1718000000,\"model\":\"gpt-4o-mini-2024-07-18\",\"system_fingerprint\":\"fp_0ba0d124f1\"," +
        "\"choices\":[{\"index\":0,\"delta\":{\"content\":\" token\"},\"logprobs\":{\"content\":[{\"token\":" +
        "\" token\",\"logprob\":-0.0123,\"bytes\":[32,116,111,107,101,110],\"top_logprobs\":[{\"token\":\" token\"," +
        "\"logprob\":-0.0123}]}],\"refusal\":null},\"finish_reason\":null}]," +
        "\"usage\":null}";

    /**
     * The OpenAI Responses API's text delta, one token, in OpenAI's member order (189 bytes of JSON, 231 framed with
     * its {@code event:} line).
     */
    public static final String RESPONSES_DELTA_JSON =
        "{\"type\":\"response.output_text.delta\",\"sequence_number\":42,\"item_id\":" +
        "\"msg_67ccd3acc8d48190a77525dc6de64b4104becc6ee04b5e8a\",\"output_index\":0,\"content_index\":0," +
        "\"delta\":\" token\",\"logprobs\":[]}";

    /** The same delta with its members sorted, as a server whose JSON library sorts them writes it. */
    public static final String RESPONSES_DELTA_SORTED_JSON =
        "{\"content_index\":0,\"delta\":\" token\",\"item_id\":\"msg_TWc3Vn8rS7pQ1xL0aB2dE4fG\"," +
        "\"output_index\":0,\"type\":\"response.output_text.delta\"}";

    /** Anthropic's Messages API text delta, one token (86 bytes of JSON, 121 framed with its {@code event:} line). */
    public static final String MESSAGES_DELTA_JSON =
        "{\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\" token\"}}";

    /** The Responses API's end of a stream: {@code response.completed} with usage (cached and reasoning tokens). */
    public static final String RESPONSES_COMPLETED_JSON =
        "{\"type\":\"response.completed\",\"sequence_number\":300,\"response\":{\"id\":\"resp_67ccd3a9da\"," +
        "\"object\":\"response\",\"status\":\"completed\",\"output\":[{\"id\":\"msg_67ccd3acc8\",\"type\":" +
        "\"message\",\"status\":\"completed\",\"content\":[{\"type\":\"output_text\",\"text\":\"...\"}]," +
        "\"role\":\"assistant\"}],\"usage\":{\"input_tokens\":512,\"input_tokens_details\":{\"cached_tokens\":" +
        "384},\"output_tokens\":256,\"output_tokens_details\":{\"reasoning_tokens\":0},\"total_tokens\":768}}}";

    /** The Messages API's end of a stream: the block's stop, {@code message_delta} with usage, {@code message_stop}. */
    public static final String MESSAGES_END_EVENTS =
        "event: content_block_stop\ndata: {\"type\":\"content_block_stop\",\"index\":0}\n\n" +
        "event: message_delta\ndata: {\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"max_tokens\"," +
        "\"stop_sequence\":null},\"usage\":{\"output_tokens\":256}}\n\n" +
        "event: message_stop\ndata: {\"type\":\"message_stop\"}\n\n";

    public static final byte[] VLLM_CONTENT = bytes(VLLM_CONTENT_JSON);
    public static final byte[] OPENAI_CONTENT = bytes(OPENAI_CONTENT_JSON);
    public static final byte[] VLLM_ROLE = bytes(VLLM_ROLE_JSON);
    public static final byte[] VLLM_USAGE = bytes(VLLM_USAGE_JSON);
    public static final byte[] VLLM_REASONING = bytes(VLLM_REASONING_JSON);
    public static final byte[] SGLANG_COMPLETIONS = bytes(SGLANG_COMPLETIONS_JSON);
    public static final byte[] OPENAI_LOGPROBS = bytes(OPENAI_LOGPROBS_JSON);

    /** {@link #VLLM_CONTENT_JSON} as one SSE event, as one network read carries it. */
    public static final byte[] VLLM_CONTENT_EVENT = event(VLLM_CONTENT_JSON);

    private Payloads()
    {
    }

    /** @return {@code json} framed as a named SSE event, as the typed APIs send theirs: {@code event:}, then data. */
    public static byte[] namedEvent(final String name, final String json)
    {
        return bytes("event: " + name + "\ndata: " + json + "\n\n");
    }

    /** @return {@code json} framed as an SSE event: {@code "data: " + json + "\n\n"}, UTF-8. */
    public static byte[] event(final String json)
    {
        return bytes("data: " + json + "\n\n");
    }

    /** @return the events concatenated, as one read holding several events. */
    public static byte[] concat(final byte[]... parts)
    {
        int n = 0;
        for (final byte[] p : parts)
        {
            n += p.length;
        }
        final byte[] out = new byte[n];
        int at = 0;
        for (final byte[] p : parts)
        {
            System.arraycopy(p, 0, out, at, p.length);
            at += p.length;
        }
        return out;
    }

    /** @return {@code src[from, to)}. */
    public static byte[] slice(final byte[] src, final int from, final int to)
    {
        return Arrays.copyOfRange(src, from, to);
    }

    /** @return one continuous-usage chunk per completion-token count 1..n, framed as events. */
    public static byte[][] continuousUsageEvents(final int n)
    {
        final byte[][] out = new byte[n][];
        for (int i = 0; i < n; i++)
        {
            out[i] = event(String.format(VLLM_CONTINUOUS_USAGE_FORMAT, 512 + i + 1, i + 1));
        }
        return out;
    }

    /**
     * The reads of one streamed HTTP/1.1 answer of {@code events} content events, as a vLLM server sends them with
     * {@code Transfer-Encoding: chunked}, one HTTP chunk per event: the response head arrives with the first event;
     * the last read holds the last event, the usage event, {@code [DONE]} and the terminating zero-length chunk.
     *
     * @return one byte array per read, {@code events} of them.
     */
    public static byte[][] chunkedAnswer(final int events)
    {
        final byte[] head = bytes("HTTP/1.1 200 OK\r\ncontent-type: text/event-stream; charset=utf-8\r\n" +
            "transfer-encoding: chunked\r\nconnection: keep-alive\r\n\r\n");
        final byte[] content = httpChunk(VLLM_CONTENT_EVENT);
        final byte[] end = concat(httpChunk(event(VLLM_USAGE_JSON)), httpChunk(bytes("data: [DONE]\n\n")),
            bytes("0\r\n\r\n"));
        final byte[][] reads = new byte[events][];
        for (int i = 0; i < events; i++)
        {
            reads[i] = i == 0 ? concat(head, content) : i == events - 1 ? concat(content, end) : content;
        }
        return reads;
    }

    /** @return {@code data} as one chunk of the chunked transfer coding: hex length, CRLF, data, CRLF. */
    public static byte[] httpChunk(final byte[] data)
    {
        return concat(bytes(Integer.toHexString(data.length) + "\r\n"), data, bytes("\r\n"));
    }

    public static byte[] bytes(final String s)
    {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
