package io.tokenclock.recording;

import java.util.Arrays;

import io.tokenclock.framing.AppendBuffer;

/**
 * Everything recorded about one request in flight, pre-allocated and reused so that the per-chunk path allocates
 * nothing once buffers have grown to the workload's size. A flyweight of the measurement core: its fields are public
 * and mutable on purpose (no accessor call, no copy on the per-chunk path), one of the two such classes with
 * {@link RequestMetrics}; outside the core, configuration and results are immutable.
 * <p>
 * Ownership moves with the request, and each hand-over is a release/acquire through a queue or the ring buffer, so
 * plain fields are safe:
 * <ol>
 * <li>the load generator fills the request fields and submits the slot;</li>
 * <li>the transport's I/O thread stamps {@link #sentNs}, appends text and stream facts, and publishes chunk records
 * and finally the end record through the ring buffer;</li>
 * <li>the collector builds the chunk timeline from those records and, when the end record arrives, frees the
 * request's permit and queues the slot for the request stage;</li>
 * <li>the request stage counts its tokens, computes its metrics, hands it to the listener, then returns the slot to the
 * pool.</li>
 * </ol>
 * All {@code *Ns} fields are readings of the run's one {@link io.tokenclock.clock.NanoClock}; 0 means "not reached".
 */
public final class RequestSlot
{
    public static final int PHASE_WARMUP = 0;
    public static final int PHASE_MEASURE = 1;
    /** Started during a load ramp: recorded, and excluded from metrics like warmup. */
    public static final int PHASE_RAMP = 2;
    /** The cold-start request: sent alone before the run, reported on its own, never mixed into warm figures. */
    public static final int PHASE_COLD = 3;

    public static final int STATUS_OK = 0;
    public static final int STATUS_ERROR = 1;
    public static final int STATUS_CANCELLED = 2;

    /** Flag on a chunk: it carried reasoning text. */
    public static final int CHUNK_REASONING = 1;
    /** Flag on a chunk: it carried answer text or a tool call (output that is not reasoning). */
    public static final int CHUNK_OUTPUT = 2;

    public static final int TOKENS_UNKNOWN = -1;

    private final int index;

    // Set by the load generator before submission.
    public long requestId;
    public int phase;
    public long scheduledNs;
    /** When the load generator handed the request to the transport; sent - submit is connection acquisition. */
    public long submitNs;
    public byte[] body;
    public int bodyLength;
    public int promptTokensHint;
    /** Index of the request's group (segment and/or stage) for per-group metrics; 0 when there are none. */
    public int group;
    /** The simulated user the request belongs to (user-centric load), or -1. */
    public int user = -1;
    /** Cancellation rule: abort after this many content-bearing chunks (0: never). */
    public int cancelAfterChunks;
    /** Cancellation rule: abort this long after the send (0: never). */
    public long cancelAfterNs;

    // Set by the I/O thread.
    /** The connection that carried the request (numbered from 0 per run), and whether it was opened for it. */
    public int connectionId = -1;
    public boolean newConnection;
    public long sentNs;
    /**
     * The kernel's send stamp of the request's last byte (kernel-stamped client with send stamps), converted to the
     * run's clock; 0 when there is none. Beside {@link #sentNs}, never instead of it: TTFT still starts at sentNs.
     */
    public long sentKernelNs;
    /**
     * Arrival of the read that carried the response's status line and headers (the stamp of that network read); 0 if
     * none came. Set once per response, never per chunk.
     */
    public long headersNs;
    public long endNs;
    public int httpStatus;
    public int status;
    public ErrorClass errorClass = ErrorClass.NONE;
    public String errorDetail;
    public boolean doneSeen;
    public int finishReason;
    public int malformedEvents;
    public int errorEvents;
    public long usagePromptTokens = -1;
    /** The server's {@code Retry-After} on a 429 or 503, in ms, or -1 when it gave none. */
    public long retryAfterMs = -1;
    /** How many times this request was sent again after a 429 ({@code --retry-429}). */
    public int retries429;
    public long usageCompletionTokens = -1;
    /** The engine's prompt time as the server reported it ({@code timings.prompt_ms}), in ns, or -1. */
    public long enginePromptNs = -1;
    /** The engine's decode time, first generated token to last ({@code timings.predicted_ms}), in ns, or -1. */
    public long engineDecodeNs = -1;
    /** The engine's count of generated tokens ({@code timings.predicted_n}), or -1. */
    public long enginePredictedTokens = -1;
    public byte[] responseId = new byte[64];
    public int responseIdLength;
    /** Raw (still JSON-escaped) answer bytes. */
    public final AppendBuffer text = new AppendBuffer(1024);
    /** Raw (still JSON-escaped) reasoning bytes. */
    public final AppendBuffer reasoning = new AppendBuffer(64);
    /** Raw {@code delta.tool_calls} arrays of the stream, one per line, to be merged off the hot path. */
    public final AppendBuffer toolCalls = new AppendBuffer(0);

    // Set by the collector.
    public long[] chunkNs = new long[64];
    public int[] chunkTokens = new int[64];
    public byte[] chunkFlags = new byte[64];
    public int chunkCount;
    public long firstTokenNs;
    public long firstOutputNs;
    /** Ended after the measurement window closed (set by the request stage). */
    public boolean late;
    /** A truncated stream taken as ok ({@code --accept-truncated}); set by the request stage. */
    public boolean truncated;
    /**
     * The most bytes each of {@link #text}, {@link #reasoning}, {@link #toolCalls} keeps (set by the recorder); an
     * append that would pass it is dropped whole and marks the request {@link #outputCapped}.
     */
    public int outputCapBytes = Integer.MAX_VALUE;
    /** Text past {@link #outputCapBytes} arrived and was not kept: the request is oversize. */
    public boolean outputCapped;
    public long outputTokens;
    /** The harness's own count of the output under the configured tokenizer, or -1 (set by the request stage). */
    public long harnessOutputTokens = -1;
    public String tokenCountSource;

    public RequestSlot(final int index)
    {
        this.index = index;
    }

    /** @return this slot's fixed index in its pool; the ring buffer's records name slots by it. */
    public int index()
    {
        return index;
    }

    /** Clears everything a previous request left, keeping the grown buffers. */
    public void reset()
    {
        requestId = 0;
        phase = PHASE_MEASURE;
        scheduledNs = 0;
        submitNs = 0;
        body = null;
        bodyLength = 0;
        promptTokensHint = -1;
        group = 0;
        user = -1;
        cancelAfterChunks = 0;
        cancelAfterNs = 0;
        connectionId = -1;
        newConnection = false;
        sentNs = 0;
        sentKernelNs = 0;
        headersNs = 0;
        endNs = 0;
        httpStatus = 0;
        status = STATUS_OK;
        errorClass = ErrorClass.NONE;
        errorDetail = null;
        doneSeen = false;
        finishReason = 0;
        malformedEvents = 0;
        errorEvents = 0;
        usagePromptTokens = -1;
        retryAfterMs = -1;
        retries429 = 0;
        usageCompletionTokens = -1;
        enginePromptNs = -1;
        engineDecodeNs = -1;
        enginePredictedTokens = -1;
        responseIdLength = 0;
        text.clear();
        reasoning.clear();
        toolCalls.clear();
        chunkCount = 0;
        firstTokenNs = 0;
        firstOutputNs = 0;
        late = false;
        truncated = false;
        outputCapped = false;
        outputTokens = 0;
        harnessOutputTokens = -1;
        tokenCountSource = null;
    }

    /** Called by the I/O thread: appends raw (still JSON-escaped) answer bytes, or marks the request capped. */
    public void appendText(final byte[] src, final int offset, final int length)
    {
        if (!text.append(src, offset, length, outputCapBytes))
        {
            outputCapped = true;
        }
    }

    /** Called by the I/O thread: appends raw (still JSON-escaped) reasoning bytes, or marks the request capped. */
    public void appendReasoning(final byte[] src, final int offset, final int length)
    {
        if (!reasoning.append(src, offset, length, outputCapBytes))
        {
            outputCapped = true;
        }
    }

    /** Called by the I/O thread: appends one chunk's raw {@code tool_calls} array and a newline, or neither. */
    public void appendToolCalls(final byte[] src, final int offset, final int length)
    {
        if (!toolCalls.fits(length + 1, outputCapBytes))
        {
            outputCapped = true;
            return;
        }
        toolCalls.append(src, offset, length, outputCapBytes);
        toolCalls.append((byte)'\n', outputCapBytes);
    }

    /** Called by the I/O thread: keeps the server's response id (truncated to 256 bytes). */
    public void setResponseId(final byte[] src, final int offset, final int length)
    {
        final int n = Math.min(length, 256);
        if (n > responseId.length)
        {
            responseId = new byte[256];
        }
        System.arraycopy(src, offset, responseId, 0, n);
        responseIdLength = n;
    }

    /** Called by the collector: appends one content-bearing chunk to the timeline. */
    public void addChunk(final long arrivalNs, final int tokens, final int flags)
    {
        final int n = chunkCount;
        if (n == chunkNs.length)
        {
            final int capacity = n << 1;
            chunkNs = Arrays.copyOf(chunkNs, capacity);
            chunkTokens = Arrays.copyOf(chunkTokens, capacity);
            chunkFlags = Arrays.copyOf(chunkFlags, capacity);
        }
        chunkNs[n] = arrivalNs;
        chunkTokens[n] = tokens;
        chunkFlags[n] = (byte)flags;
        chunkCount = n + 1;
    }

    /** @return true if every chunk's token count is known (from per-chunk usage). */
    public boolean chunkTokensKnown()
    {
        for (int i = 0; i < chunkCount; i++)
        {
            if (chunkTokens[i] < 0)
            {
                return false;
            }
        }
        return chunkCount > 0;
    }
}
