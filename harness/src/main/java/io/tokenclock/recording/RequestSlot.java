package io.tokenclock.recording;

import java.util.Arrays;

import io.tokenclock.framing.AppendBuffer;

/**
 * What lies in a {@link RequestSlot} before the collector's timeline ({@link RequestSlotTimeline}): 128 bytes of
 * nothing, a cache line and the neighbour that adjacent-line prefetching pulls in with it. A superclass's fields come
 * first in an object, so nothing before the slot in memory can share a line with the timeline. Agrona's way, a field
 * layout by inheritance, since {@code @Contended} is closed to code outside the JDK without
 * {@code -XX:-RestrictContended}. Byte fields leave no hole that a subclass's field could be placed in.
 */
abstract class RequestSlotLhsPadding
{
    byte p000, p001, p002, p003, p004, p005, p006, p007, p008, p009, p010, p011, p012, p013, p014, p015;
    byte p016, p017, p018, p019, p020, p021, p022, p023, p024, p025, p026, p027, p028, p029, p030, p031;
    byte p032, p033, p034, p035, p036, p037, p038, p039, p040, p041, p042, p043, p044, p045, p046, p047;
    byte p048, p049, p050, p051, p052, p053, p054, p055, p056, p057, p058, p059, p060, p061, p062, p063;
    byte p064, p065, p066, p067, p068, p069, p070, p071, p072, p073, p074, p075, p076, p077, p078, p079;
    byte p080, p081, p082, p083, p084, p085, p086, p087, p088, p089, p090, p091, p092, p093, p094, p095;
    byte p096, p097, p098, p099, p100, p101, p102, p103, p104, p105, p106, p107, p108, p109, p110, p111;
    byte p112, p113, p114, p115, p116, p117, p118, p119, p120, p121, p122, p123, p124, p125, p126, p127;
}

/**
 * The fields that the collector writes for every chunk, alone between two paddings: the I/O thread writes the rest of
 * the slot at the same time, for the same request, from another core. Unpadded, the collector's {@code addChunk}
 * took 55.0 ns beside an I/O thread on the same slot against 28.4 ns on a slot of its own
 * ({@code SlotSharingBenchmark}; docs/OVERHEAD.md, "Threads that share cache lines").
 */
abstract class RequestSlotTimeline extends RequestSlotLhsPadding
{
    // Set by the collector.
    public long[] chunkNs = new long[64];
    public int[] chunkTokens = new int[64];
    public byte[] chunkFlags = new byte[64];
    public int chunkCount;
    public long firstTokenNs;
    public long firstOutputNs;
}

/** 128 bytes after the timeline, so that the slot's own fields, the I/O thread's among them, start a line further. */
abstract class RequestSlotRhsPadding extends RequestSlotTimeline
{
    byte p128, p129, p130, p131, p132, p133, p134, p135, p136, p137, p138, p139, p140, p141, p142, p143;
    byte p144, p145, p146, p147, p148, p149, p150, p151, p152, p153, p154, p155, p156, p157, p158, p159;
    byte p160, p161, p162, p163, p164, p165, p166, p167, p168, p169, p170, p171, p172, p173, p174, p175;
    byte p176, p177, p178, p179, p180, p181, p182, p183, p184, p185, p186, p187, p188, p189, p190, p191;
    byte p192, p193, p194, p195, p196, p197, p198, p199, p200, p201, p202, p203, p204, p205, p206, p207;
    byte p208, p209, p210, p211, p212, p213, p214, p215, p216, p217, p218, p219, p220, p221, p222, p223;
    byte p224, p225, p226, p227, p228, p229, p230, p231, p232, p233, p234, p235, p236, p237, p238, p239;
    byte p240, p241, p242, p243, p244, p245, p246, p247, p248, p249, p250, p251, p252, p253, p254, p255;
}

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
public final class RequestSlot extends RequestSlotRhsPadding
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
    /** The trace's own id of the session the request belongs to (a session trace), or null. */
    public String sessionId;
    /** The request's turn in its session, 0-based, or -1 outside a session. */
    public int turn = -1;
    /** The agent task the request is a step of (a run-wide number), or -1 outside an agent workload. */
    public long task = -1;
    /** The request's step in its task, 0-based, or -1 outside an agent workload. */
    public int step = -1;
    /**
     * The prompt tokens an infinite prefix cache would have held for this request (a trace's hash blocks seen before
     * in the run, and a session's history), or -1 when the workload cannot say.
     */
    public long idealCachedTokens = -1;
    /** The inputs the request carries: 1, or {@code --embed-batch}'s texts (embeddings) or documents (rerank). */
    public int inputs = 1;
    /**
     * The most items the request asked its answer for (a rerank's {@code top_n}), or 0: one per input. An answer read
     * whole with fewer items than the lesser of this and {@link #inputs} is truncated.
     */
    public int answerLimit;
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
    /**
     * How many times (0 or 1) this request was sent again on a new connection because the kept-alive connection it
     * first went out on closed before any byte of the answer (transport's {@code RetryPolicy.resendsOnNewConnection}).
     */
    public int staleResends;
    public long usageCompletionTokens = -1;
    /**
     * The prompt's tokens the server read from its prefix cache, as its usage said, whichever API:
     * {@code usage.prompt_tokens_details.cached_tokens} (chat and completions), {@code input_tokens_details
     * .cached_tokens} (Responses), {@code cache_read_input_tokens} (Messages); -1 when it did not say (not 0).
     */
    public long cachedTokens = -1;
    /** The prompt's tokens the server wrote to its cache ({@code cache_creation_input_tokens}, Messages), or -1. */
    public long cacheWriteTokens = -1;
    /** The output's reasoning tokens as the server's usage counted them (Responses), or -1 when it did not say. */
    public long usageReasoningTokens = -1;
    /** Events of a type the API's grammar does not know: counted, never a failure. */
    public int unknownEvents;
    /** The engine's prompt time as the server reported it ({@code timings.prompt_ms}), in ns, or -1. */
    public long enginePromptNs = -1;
    /** The engine's decode time, first generated token to last ({@code timings.predicted_ms}), in ns, or -1. */
    public long engineDecodeNs = -1;
    /** The engine's count of generated tokens ({@code timings.predicted_n}), or -1. */
    public long enginePredictedTokens = -1;
    /** Tokens the engine's speculative decoder drafted for this request ({@code timings.draft_n}), or -1. */
    public long engineDraftTokens = -1;
    /** Drafted tokens the model accepted ({@code timings.draft_n_accepted}), or -1. */
    public long engineDraftAccepted = -1;
    /**
     * The items of an answer read whole (embeddings, results of a rerank), as its body counted them, or -1: a
     * stream's answer, or a body without its answer array.
     */
    public long answerItems = -1;
    /**
     * The answer comes whole, not streamed (embeddings, rerank; set by the recorder): no token is generated, and the
     * stream's metrics do not exist for the request.
     */
    public boolean wholeAnswer;
    public byte[] responseId = new byte[64];
    public int responseIdLength;
    /** Raw (still JSON-escaped) answer bytes. */
    public final AppendBuffer text = new AppendBuffer(1024);
    /** Raw (still JSON-escaped) reasoning bytes. */
    public final AppendBuffer reasoning = new AppendBuffer(64);
    /** Raw {@code delta.tool_calls} arrays of the stream, one per line, to be merged off the hot path. */
    public final AppendBuffer toolCalls = new AppendBuffer(0);

    // The collector's timeline is RequestSlotTimeline's, padded apart from these.
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
    /**
     * The SLO bounds a measured request missed, as the run's goodput verdicts count them; 0 when none (set by the
     * request stage).
     */
    public int goodputVerdict;
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
        clearPlace();
        answerItems = -1;
        wholeAnswer = false;
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
        staleResends = 0;
        usageCompletionTokens = -1;
        cachedTokens = -1;
        cacheWriteTokens = -1;
        usageReasoningTokens = -1;
        unknownEvents = 0;
        enginePromptNs = -1;
        engineDecodeNs = -1;
        enginePredictedTokens = -1;
        engineDraftTokens = -1;
        engineDraftAccepted = -1;
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
        goodputVerdict = 0;
        harnessOutputTokens = -1;
        tokenCountSource = null;
    }

    /** Clears what the workload said of the request: its user, session, task and inputs. */
    private void clearPlace()
    {
        user = -1;
        sessionId = null;
        turn = -1;
        task = -1;
        step = -1;
        idealCachedTokens = -1;
        inputs = 1;
        answerLimit = 0;
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
