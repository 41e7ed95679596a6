package io.tokenclock.recording;

import java.nio.charset.StandardCharsets;

import io.tokenclock.framing.BodySkim;
import io.tokenclock.framing.ChunkParser;
import io.tokenclock.framing.EventParser;
import io.tokenclock.framing.SseEventHandler;
import io.tokenclock.framing.SseFramer;
import io.tokenclock.text.UntrustedText;

/**
 * The I/O thread's side of the measurement core for one stream: stamped reads in, chunk records out.
 * <p>
 * The transport calls {@link #begin} when it sends a request, {@link #onBytes} for every read of the response body
 * with the stamp it took as the read arrived, and {@link #finish} once when the response ends or fails. In between,
 * each SSE event is framed ({@link SseFramer}), its JSON scanned by the API's grammar (an {@link EventParser}:
 * {@link ChunkParser} for chat and completions, the Responses and Messages grammars for theirs), its raw text appended
 * to the slot, and, if it carries a generated token, published as a fixed-size record to the collector ({@link
 * ChunkRecords}). None of that allocates once the slot's buffers have grown to the workload. Events of a type the
 * grammar does not know are counted on the slot ({@link RequestSlot#unknownEvents}) and otherwise ignored.
 * <p>
 * An API that answers with one JSON body (embeddings, rerank: a grammar that reads a {@link EventParser#wholeBody()})
 * is recorded on the same path: each read, stamped as every read is, goes to a {@link BodySkim} instead of the
 * framer, and the end of the body, stamped by the read that carried its last byte, is parsed once by the grammar
 * ({@link #finish}); such a request publishes no chunk record, so it has an end to end and no TTFT.
 * <p>
 * Per-chunk token counts are known only when the server reports cumulative {@code usage} on content chunks (vLLM's
 * {@code continuous_usage_stats}); otherwise a chunk's count is {@link RequestSlot#TOKENS_UNKNOWN}.
 * <p>
 * One instance per connection; used only by that connection's I/O thread.
 */
public final class StreamRecorder implements SseEventHandler
{
    private final ChunkRecords records;
    private final SseFramer framer;
    private final EventParser parser;
    /** The skim of an answer read whole, or null for a stream's grammar. */
    private final BodySkim skim;

    private RequestSlot slot;
    private int contentChunks;
    /** Content chunks recorded over every request of this recorder: the transport counts them per read. */
    private long contentChunksEver;
    private long lastCompletionTokens;
    private boolean cancelDue;
    private final int maxEventBytes;
    private final int maxOutputBytes;
    private long overflowsBefore;

    /** A recorder of chat (or completions) streams without limits: the chat grammar, {@link ChunkParser}. */
    public StreamRecorder(final ChunkRecords records)
    {
        this(records, new ChunkParser(), SseFramer.DEFAULT_MAX_EVENT_BYTES, Integer.MAX_VALUE);
    }

    /**
     * @param parser         the API's event grammar, this recorder's own (a parser is not shared between threads).
     * @param maxEventBytes  the longest SSE event kept; a longer one makes the request {@link #oversize()}.
     * @param maxOutputBytes the most text (answer, reasoning, tool calls, each) kept per request; the same.
     */
    public StreamRecorder(
        final ChunkRecords records, final EventParser parser, final int maxEventBytes, final int maxOutputBytes)
    {
        this.records = records;
        this.parser = parser;
        this.framer = new SseFramer(this, Math.min(4096, maxEventBytes), maxEventBytes);
        this.skim = parser.wholeBody() ? new BodySkim(Math.min(4096, maxEventBytes), maxEventBytes) : null;
        this.maxEventBytes = maxEventBytes;
        this.maxOutputBytes = maxOutputBytes;
    }

    /** Lets go of the request without ending it (it will be sent again, and recorded by whichever recorder then). */
    public void detach()
    {
        slot = null;
    }

    /** The error detail of a request that its cancellation rule ended, whichever transport and trigger ended it. */
    public static final String CANCEL_RULE_DETAIL = "cancelled by the workload's cancellation rule";

    /** Starts recording the response to {@code slot}; call just before the request is written. */
    public void begin(final RequestSlot slot)
    {
        this.slot = slot;
        this.contentChunks = 0;
        this.lastCompletionTokens = 0;
        this.cancelDue = false;
        slot.outputCapBytes = maxOutputBytes;
        slot.wholeAnswer = skim != null;
        framer.reset();
        if (skim != null)
        {
            skim.reset();
        }
        overflowsBefore = framer.overflowCount();
    }

    /**
     * @return the content chunks this recorder has published, over all its requests: a transport that reads its bytes
     * piece by piece learns, from the difference, which pieces carried content (their stamps are what a chunk's gaps
     * are made of).
     */
    public long contentChunksEver()
    {
        return contentChunksEver;
    }

    /** @return the content chunks published for the request being recorded (or the last one) so far. */
    public int contentChunks()
    {
        return contentChunks;
    }

    /** @return the slot being recorded, or null between requests. */
    public RequestSlot slot()
    {
        return slot;
    }

    /**
     * @return true once the request's cancellation rule asks for it to be cancelled (its K-th token arrived); the
     * transport then aborts the request as {@link ErrorClass#CANCEL_RULE}.
     */
    public boolean cancelDue()
    {
        return cancelDue;
    }

    /**
     * @return true once the response sent an event longer than the event limit, or more text than the output limit;
     * the transport then ends the request at once ({@link ErrorClass#OVERSIZE}).
     */
    public boolean oversize()
    {
        final RequestSlot s = slot;
        return s != null && (s.outputCapped || framer.overflowCount() > overflowsBefore ||
            skim != null && skim.overflowed());
    }

    /** @return what {@link #oversize()} ran into, for the error detail. */
    public String oversizeDetail()
    {
        if (skim != null && skim.overflowed())
        {
            return "an answer whose members other than its answer array pass --max-event-bytes " + maxEventBytes;
        }
        return framer.overflowCount() > overflowsBefore ? "an SSE event longer than --max-event-bytes " +
            maxEventBytes : "more answer text than --max-output-bytes " + maxOutputBytes;
    }

    /** @return true once the request's stream carried an error event; the transport then ends it at once. */
    public boolean errorSeen()
    {
        final RequestSlot s = slot;
        return s != null && s.errorEvents > 0;
    }

    /**
     * What the transport asks after each {@link #onBytes}: whether the request must end now, and as what. First an
     * error event (the server said the request failed, whether or not it ever closes the stream), then a limit
     * overrun, then the cancellation rule's token.
     *
     * @return {@link ErrorClass#ERROR_EVENT}, {@link ErrorClass#OVERSIZE}, {@link ErrorClass#CANCEL_RULE}, or
     * {@link ErrorClass#NONE} to read on.
     */
    public ErrorClass stopNow()
    {
        if (errorSeen())
        {
            return ErrorClass.ERROR_EVENT;
        }
        if (oversize())
        {
            return ErrorClass.OVERSIZE;
        }
        return cancelDue ? ErrorClass.CANCEL_RULE : ErrorClass.NONE;
    }

    /** @return the error detail for {@link #stopNow}'s class: null for an error event, whose text the slot holds. */
    public String stopDetail(final ErrorClass stop)
    {
        return switch (stop)
        {
            case OVERSIZE -> oversizeDetail();
            case CANCEL_RULE -> CANCEL_RULE_DETAIL;
            default -> null;
        };
    }

    /** Feeds one read of the response body, stamped on arrival. */
    public void onBytes(final byte[] src, final int offset, final int length, final long arrivalNs)
    {
        if (skim != null)
        {
            skim.onBytes(src, offset, length); // the end's stamp is the transport's, at finish
        }
        else
        {
            framer.onBytes(src, offset, length, arrivalNs);
        }
    }

    /**
     * Ends the request and publishes its end record. The outcome combines what the transport saw with what the
     * stream said: a cleanly ended response is still an error if it carried an error event, a malformed event, or no
     * token at all.
     *
     * @param endNs          stamp of the read that ended the response (or of the failure).
     * @param transportError {@link ErrorClass#NONE} if the response ended cleanly, else why it did not.
     * @param detail         a short human-readable detail for errors, or null.
     */
    public void finish(final long endNs, final ErrorClass transportError, final String detail)
    {
        final RequestSlot s = slot;
        if (s == null)
        {
            return;
        }
        if (transportError == ErrorClass.NONE)
        {
            if (skim != null)
            {
                onWholeBody(s);
            }
            else
            {
                framer.onEndOfStream(endNs);
            }
        }
        s.endNs = endNs;
        ErrorClass error = transportError;
        if (error == ErrorClass.NONE && skim != null)
        {
            error = wholeBodyOutcome(s);
        }
        else if (error == ErrorClass.NONE)
        {
            if (s.errorEvents > 0)
            {
                error = ErrorClass.ERROR_EVENT;
            }
            else if (s.malformedEvents > 0)
            {
                error = ErrorClass.MALFORMED_EVENT;
            }
            else if (contentChunks == 0)
            {
                error = ErrorClass.NO_CONTENT;
            }
            else if (!s.doneSeen && s.finishReason == ChunkParser.FINISH_NONE)
            {
                error = ErrorClass.TRUNCATED;
            }
        }
        s.errorClass = error;
        s.status = statusOf(error);
        final String why = detail != null ? detail : error == ErrorClass.TRUNCATED ?
            "the stream ended cleanly with neither a finish reason nor its end event ([DONE], response.completed, " +
            "message_stop): the answer may be cut short" :
            error == ErrorClass.NO_CONTENT ? "the response ended cleanly without a generated token" : null;
        if (why != null && s.errorDetail == null)
        {
            s.errorDetail = why;
        }
        slot = null;
        records.publishEnd(s.index(), endNs);
    }

    /**
     * Reads an answer that came whole, from its skeleton: its error, response id, prompt tokens, the engine's span
     * (where the server reports one) and items. Once per request, after the read that ended the body; allocation-free
     * unless the body is malformed or an error.
     */
    private void onWholeBody(final RequestSlot s)
    {
        final EventParser p = parser;
        if (!p.parse(skim.skeleton(), 0, skim.length()))
        {
            s.malformedEvents++;
            if (s.errorDetail == null)
            {
                s.errorDetail = "malformed answer: " + abbreviate(skim.skeleton(), 0, skim.length());
            }
            return;
        }
        s.doneSeen = true;
        if (p.isError())
        {
            s.errorEvents++;
            if (s.errorDetail == null)
            {
                s.errorDetail = "error in the answer: " + abbreviate(skim.skeleton(), 0, skim.length());
            }
        }
        if (p.idOffset() >= 0)
        {
            s.setResponseId(skim.skeleton(), p.idOffset(), p.idLength());
        }
        if (p.promptTokens() >= 0)
        {
            s.usagePromptTokens = p.promptTokens();
        }
        if (p.enginePromptNs() >= 0)
        {
            s.enginePromptNs = p.enginePromptNs(); // nothing generated: no decode time or count
        }
        s.answerItems = p.items();
    }

    /**
     * How an answer that came whole ended: an error in it, a malformed body, no answer item (no_content), fewer items
     * than the request asked for (truncated: the answer was cut short; a rerank's {@code top_n} asks for fewer than
     * its documents), else ok.
     */
    private static ErrorClass wholeBodyOutcome(final RequestSlot s)
    {
        if (s.errorEvents > 0)
        {
            return ErrorClass.ERROR_EVENT;
        }
        if (s.malformedEvents > 0)
        {
            return ErrorClass.MALFORMED_EVENT;
        }
        if (s.answerItems <= 0)
        {
            s.errorDetail = "the answer ended cleanly without an embedding or a result";
            return ErrorClass.NO_CONTENT;
        }
        final int expected = s.answerLimit > 0 ? Math.min(s.inputs, s.answerLimit) : s.inputs;
        if (s.answerItems < expected)
        {
            s.errorDetail = "the answer holds " + s.answerItems + " items for " + s.inputs + " inputs" +
                (expected < s.inputs ? " (top " + expected + " asked for)" : "");
            return ErrorClass.TRUNCATED;
        }
        return ErrorClass.NONE;
    }

    /**
     * Ends a request that never reached a connection (connect failure, client error): publishes its end record with
     * no chunks. Thread-safe.
     */
    public static void failUnsent(
        final ChunkRecords records, final RequestSlot slot, final ErrorClass error, final String detail,
        final long nowNs)
    {
        slot.endNs = nowNs;
        slot.errorClass = error;
        slot.status = statusOf(error);
        slot.errorDetail = detail;
        records.publishEnd(slot.index(), nowNs);
    }

    private static int statusOf(final ErrorClass error)
    {
        return error == ErrorClass.NONE ? RequestSlot.STATUS_OK :
            error == ErrorClass.CANCELLED || error == ErrorClass.CANCEL_RULE ? RequestSlot.STATUS_CANCELLED :
            RequestSlot.STATUS_ERROR;
    }

    /**
     * One SSE event: its JSON scanned once, then what it says of the stream kept on the slot, and, if it carries a
     * generated token, its text appended and its record published. Allocation-free unless the event is malformed or an
     * error (its detail is kept as text).
     * <p>
     * The one method of the harness over 60 lines, on purpose: split into helpers (two ways, issue 10), the per-chunk
     * path measured 9-12% slower in {@code PerChunkBenchmark} (perChunk 211-224 ns whole against 235-245 ns split, same
     * tree otherwise, interleaved runs; {@code results/jmh/onevent-split/}): the JIT then inlines this method into the
     * framer and stops at its helpers. Checkstyle's MethodLength names it as the only exception in the harness
     * ({@code config/checkstyle/suppressions.xml}).
     */
    @Override
    public void onEvent(final byte[] data, final int offset, final int length, final boolean errorType, final long ns)
    {
        final RequestSlot s = slot;
        if (s == null)
        {
            return;
        }
        final EventParser p = parser;
        if (!p.parse(data, offset, length))
        {
            s.malformedEvents++;
            if (s.errorDetail == null)
            {
                s.errorDetail = "malformed event: " + abbreviate(data, offset, length);
            }
            return;
        }
        if (p.isDone())
        {
            // [DONE] carries nothing more; the Responses and Messages end events carry usage and the finish reason
            s.doneSeen = true;
        }
        if (p.isError() || errorType)
        {
            s.errorEvents++;
            if (s.errorDetail == null)
            {
                s.errorDetail = "error event: " + abbreviate(data, offset, length);
            }
        }
        if (p.isUnknown())
        {
            // an event whose type the grammar does not know is counted, never failed (an `event: error` is no such)
            if (!errorType)
            {
                s.unknownEvents++;
            }
            return;
        }
        if (s.responseIdLength == 0 && p.idOffset() >= 0)
        {
            s.setResponseId(data, p.idOffset(), p.idLength());
        }
        if (p.finishReason() != ChunkParser.FINISH_NONE)
        {
            s.finishReason = p.finishReason();
        }
        int tokens = RequestSlot.TOKENS_UNKNOWN;
        final long completion = p.completionTokens();
        if (completion >= 0)
        {
            tokens = (int)(completion - lastCompletionTokens);
            lastCompletionTokens = completion;
            s.usageCompletionTokens = completion;
            if (p.reasoningTokens() >= 0)
            {
                s.usageReasoningTokens = p.reasoningTokens();
            }
        }
        if (p.promptTokens() >= 0)
        {
            s.usagePromptTokens = p.promptTokens();
        }
        if (p.cachedTokens() >= 0)
        {
            s.cachedTokens = p.cachedTokens();
        }
        if (p.cacheWriteTokens() >= 0)
        {
            s.cacheWriteTokens = p.cacheWriteTokens();
        }
        if (p.engineDecodeNs() >= 0 || p.enginePromptNs() >= 0 || p.enginePredictedTokens() >= 0)
        {
            // A server that reports timings on every chunk (llama.cpp's timings_per_token) ends with the whole view.
            s.enginePromptNs = p.enginePromptNs();
            s.engineDecodeNs = p.engineDecodeNs();
            s.enginePredictedTokens = p.enginePredictedTokens();
            s.engineDraftTokens = p.engineDraftTokens();
            s.engineDraftAccepted = p.engineDraftAccepted();
        }
        if (p.isContentBearing())
        {
            int flags = 0;
            if (p.reasoningLength() > 0)
            {
                s.appendReasoning(data, p.reasoningOffset(), p.reasoningLength());
                flags |= RequestSlot.CHUNK_REASONING;
            }
            if (p.isOutputBearing())
            {
                if (p.contentLength() > 0)
                {
                    s.appendText(data, p.contentOffset(), p.contentLength());
                }
                if (p.toolCallsOffset() >= 0)
                {
                    s.appendToolCalls(data, p.toolCallsOffset(), p.toolCallsLength());
                }
                flags |= RequestSlot.CHUNK_OUTPUT;
            }
            records.publishChunk(s.index(), ns, tokens, flags);
            contentChunks++;
            contentChunksEver++;
            if (s.cancelAfterChunks > 0 && contentChunks >= s.cancelAfterChunks)
            {
                cancelDue = true;
            }
        }
    }

    private static String abbreviate(final byte[] data, final int offset, final int length)
    {
        return UntrustedText.oneLine(new String(data, offset, Math.min(length, UntrustedText.MAX_CHARS),
            StandardCharsets.UTF_8));
    }
}
