package io.tokenclock.jmh;

import java.util.concurrent.TimeUnit;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import io.tokenclock.framing.ChunkParser;

/**
 * Stage 2 of the per-chunk path: finding what the harness needs in one chunk's JSON, without building a tree.
 * <p>
 * {@link ChunkParser#parse} walks the chunk once, reads {@code id}, {@code choices[0].delta} (content, reasoning,
 * tool calls), {@code finish_reason} and {@code usage}, and skips everything else structurally. The cost depends on
 * how many bytes it must walk and how much nesting it must skip, so each benchmark is one realistic chunk shape:
 * <ul>
 * <li>{@link #content}: a vLLM one-token content chunk, 209 bytes: the chunk a run parses millions of times.</li>
 * <li>{@link #contentOpenAi}: the OpenAI shape of the same, 274 bytes ({@code system_fingerprint},
 * {@code "usage":null}).</li>
 * <li>{@link #contentWithLogprobs}: OpenAI with {@code logprobs}, 422 bytes, whose nested object is skipped.</li>
 * <li>{@link #contentContinuousUsage}: vLLM with {@code continuous_usage_stats}, about 330 bytes, where a usage
 * object is read on every chunk (numbers parsed).</li>
 * <li>{@link #role}: the role-only first chunk; parsed, not content-bearing.</li>
 * <li>{@link #usage}: the usage-only last chunk ({@code "choices":[]}).</li>
 * <li>{@link #reasoning}: a {@code delta.reasoning_content} chunk from a reasoning model.</li>
 * <li>{@link #completionsMultiToken}: an SGLang {@code /v1/completions} chunk with a multi-token {@code text}.</li>
 * </ul>
 * Each returns a value derived from what was extracted, so the JIT cannot drop the parse.
 * <p>
 * How to read the numbers: divide by the chunk size for ns per byte; shapes should cost about the same per byte,
 * with the logprobs chunk a little dearer for its nesting. The parse is the biggest single stage of
 * {@code PerChunkBenchmark.perChunk}; if it moves, perChunk moves. All must be 0 B/op: strings are reported as
 * offsets into the caller's bytes and malformed input unwinds with a preallocated exception.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class ChunkParserBenchmark
{
    private static final byte[] CONTENT = Payloads.VLLM_CONTENT;
    private static final byte[] CONTENT_OPENAI = Payloads.OPENAI_CONTENT;
    private static final byte[] CONTENT_LOGPROBS = Payloads.OPENAI_LOGPROBS;
    private static final byte[] CONTENT_USAGE = Payloads.bytes(
        String.format(Payloads.VLLM_CONTINUOUS_USAGE_FORMAT, 530, 18));
    private static final byte[] ROLE = Payloads.VLLM_ROLE;
    private static final byte[] USAGE = Payloads.VLLM_USAGE;
    private static final byte[] REASONING = Payloads.VLLM_REASONING;
    private static final byte[] COMPLETIONS = Payloads.SGLANG_COMPLETIONS;

    private final ChunkParser parser = new ChunkParser();

    @Benchmark
    public int content()
    {
        return parseContent(CONTENT);
    }

    @Benchmark
    public int contentOpenAi()
    {
        return parseContent(CONTENT_OPENAI);
    }

    @Benchmark
    public int contentWithLogprobs()
    {
        return parseContent(CONTENT_LOGPROBS);
    }

    @Benchmark
    public long contentContinuousUsage()
    {
        final ChunkParser p = parser;
        p.parse(CONTENT_USAGE, 0, CONTENT_USAGE.length);
        return p.contentLength() + p.completionTokens();
    }

    @Benchmark
    public int role()
    {
        final ChunkParser p = parser;
        p.parse(ROLE, 0, ROLE.length);
        return p.isContentBearing() ? 1 : p.idLength();
    }

    @Benchmark
    public long usage()
    {
        final ChunkParser p = parser;
        p.parse(USAGE, 0, USAGE.length);
        return p.promptTokens() + p.completionTokens();
    }

    @Benchmark
    public int reasoning()
    {
        final ChunkParser p = parser;
        p.parse(REASONING, 0, REASONING.length);
        return p.reasoningOffset() + p.reasoningLength();
    }

    @Benchmark
    public int completionsMultiToken()
    {
        return parseContent(COMPLETIONS);
    }

    private int parseContent(final byte[] chunk)
    {
        final ChunkParser p = parser;
        p.parse(chunk, 0, chunk.length);
        return p.contentOffset() + p.contentLength() + p.finishReason();
    }
}
