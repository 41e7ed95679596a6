package io.tokenclock.report;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Path;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.tokenclock.api.Api;
import io.tokenclock.json.Json;
import io.tokenclock.recording.ErrorClass;
import io.tokenclock.recording.RequestListener;
import io.tokenclock.recording.RequestMetrics;
import io.tokenclock.recording.RequestSlot;
import io.tokenclock.run.AnswerText;
import io.tokenclock.util.WholeFile;

/**
 * Writes {@code requests.jsonl}: one JSON object per finished request, warmup included and flagged. Lines collect in
 * memory and go to the file in one write of whole lines when 64 KiB have gathered and on every {@link #flush()}. The
 * request stage flushes at most {@code RequestStage.FLUSH_INTERVAL_NS} (100 ms) after the first unflushed line, so a
 * killed run keeps every request that finished more than about that long before the kill, and since only whole lines
 * are ever written, every line on disk is valid JSON. The fields are a public format, documented in docs/RESULTS.md.
 * <p>
 * Runs on the request stage's thread (per request, never per chunk).
 */
public final class RequestsJsonlWriter implements RequestListener, AutoCloseable
{
    private static final JsonFactory FACTORY = new JsonFactory();
    private static final ObjectMapper JSON = Json.MAPPER;

    private static final int WRITE_BYTES = 1 << 16;

    private final OutputStream out;
    private final ByteArrayOutputStream lines = new ByteArrayOutputStream(2 * WRITE_BYTES);
    /** One generator for the writer's life, over {@link #lines}: none is built per request. */
    private final JsonGenerator generator;
    /** Scratch for {@link #ms}: a long's digits, a point, three decimals. */
    private final char[] digits = new char[24];
    private final boolean saveText;
    /** The API every line names ({@code api}), as its word. */
    private final String api;
    /** Whether the API streams: an answer read whole (embeddings, rerank) has no chunk, token or TTFT to write. */
    private final boolean streamed;
    private IOException failure;

    /** Opens {@code file} for requests.jsonl of a chat run; {@code saveText} keeps each answer's text in its line. */
    public RequestsJsonlWriter(final Path file, final boolean saveText) throws IOException
    {
        this(file, saveText, Api.CHAT);
    }

    /** Opens {@code file} for requests.jsonl of a run on {@code api}; {@code saveText} keeps each answer's text. */
    public RequestsJsonlWriter(final Path file, final boolean saveText, final Api api) throws IOException
    {
        this(WholeFile.replace(file), saveText, api);
    }

    /**
     * Writes the lines of a run on {@code api} to {@code out}, which {@link #close()} closes: for a sink that is no
     * result file, such as a benchmark's {@code /dev/null} opened as it is (a run's file is opened by path, above,
     * which removes what the name held and would remove a device).
     */
    public RequestsJsonlWriter(final OutputStream out, final boolean saveText, final Api api) throws IOException
    {
        this.out = out;
        this.saveText = saveText;
        this.api = api.word();
        this.streamed = api.streamed();
        this.generator = FACTORY.createGenerator(lines, JsonEncoding.UTF8);
        generator.configure(JsonGenerator.Feature.AUTO_CLOSE_TARGET, false);
        // Lines are separated by the newline written after each object, not by Jackson's default root separator.
        generator.setRootValueSeparator(null);
    }

    @Override
    public void onRequestComplete(final RequestSlot s, final RequestMetrics m)
    {
        if (failure != null)
        {
            return;
        }
        try
        {
            final JsonGenerator g = generator;
            write(g, s, m);
            g.writeRaw('\n');
            g.flush();
            if (lines.size() >= WRITE_BYTES)
            {
                writeLines();
            }
        }
        catch (final IOException ex)
        {
            failure = ex;
        }
    }

    @Override
    public void flush()
    {
        if (failure != null)
        {
            return;
        }
        try
        {
            writeLines();
        }
        catch (final IOException ex)
        {
            failure = ex;
        }
    }

    private void writeLines() throws IOException
    {
        if (lines.size() > 0)
        {
            lines.writeTo(out);
            lines.reset();
        }
    }

    /** Writes one line's object: the fields in the order docs/RESULTS.md lists them. */
    private void write(final JsonGenerator g, final RequestSlot s, final RequestMetrics m) throws IOException
    {
        g.writeStartObject();
        identity(g, s);
        if (!streamed)
        {
            whole(g, s, m);
            g.writeEndObject();
            return;
        }
        timeline(g, s);
        tokens(g, s, m);
        durations(g, s, m);
        if (saveText)
        {
            g.writeFieldName("output_text");
            writeRawString(g, s.text.array(), s.text.length());
            if (s.reasoning.length() > 0)
            {
                g.writeFieldName("reasoning_text");
                writeRawString(g, s.reasoning.array(), s.reasoning.length());
            }
        }
        g.writeEndObject();
    }

    /** Which request it was, how it ended, and on which connection. */
    private void identity(final JsonGenerator g, final RequestSlot s) throws IOException
    {
        g.writeNumberField("id", s.requestId);
        g.writeStringField("api", api);
        if (s.responseIdLength > 0)
        {
            g.writeFieldName("response_id");
            writeRawString(g, s.responseId, s.responseIdLength);
        }
        else
        {
            g.writeNullField("response_id");
        }
        if (s.user >= 0)
        {
            g.writeNumberField("user", s.user);
        }
        place(g, s);
        g.writeStringField("phase", phaseName(s.phase));
        g.writeStringField("status", status(s.status));
        if (s.status == RequestSlot.STATUS_OK)
        {
            g.writeNullField("error");
        }
        else
        {
            g.writeStringField("error", s.errorClass.label());
        }
        nullable(g, "error_detail", s.errorDetail);
        g.writeNumberField("http_status", s.httpStatus);
        longOrNull(g, "retry_after_ms", s.retryAfterMs);
        g.writeNumberField("retries_429", s.retries429);
        g.writeNumberField("stale_connection_resends", s.staleResends);
        g.writeNumberField("connection", s.connectionId);
        g.writeBooleanField("new_connection", s.newConnection);
    }

    /**
     * Where the request stands in its session or agent task, only for a request that has one, so that other runs'
     * lines stay as they were: {@code session_id} (the trace's own) and {@code turn}; {@code task}, {@code step}, and
     * {@code final_step}, true for the step whose answer is the task's final answer (it ended ok and called no tool).
     */
    private static void place(final JsonGenerator g, final RequestSlot s) throws IOException
    {
        if (s.sessionId != null)
        {
            g.writeStringField("session_id", s.sessionId);
            g.writeNumberField("turn", s.turn);
        }
        if (s.task >= 0)
        {
            g.writeNumberField("task", s.task);
            g.writeNumberField("step", s.step);
            g.writeBooleanField("final_step", finalStep(s));
        }
    }

    /** @return whether an agent step's answer is its task's final answer: it ended ok and called no tool. */
    public static boolean finalStep(final RequestSlot s)
    {
        return s.task >= 0 && s.status == RequestSlot.STATUS_OK && s.toolCalls.length() == 0;
    }

    /**
     * The line of a request whose answer came whole (embeddings, rerank): its stamps, inputs, the answer's items, the
     * server's prompt tokens, and the latencies it has; no chunk, output token, TTFT, TPOT or ITL, which it has not.
     */
    private void whole(final JsonGenerator g, final RequestSlot s, final RequestMetrics m) throws IOException
    {
        sendStamps(g, s);
        g.writeNumberField("end_ns", s.endNs);
        g.writeNumberField("inputs", s.inputs);
        longOrNull(g, "answer_items", s.answerItems);
        longOrNull(g, "input_tokens", m.inputTokens);
        longOrNull(g, "usage_prompt_tokens", s.usagePromptTokens);
        g.writeBooleanField("late", s.late);
        g.writeBooleanField("truncated", s.truncated || s.errorClass == ErrorClass.TRUNCATED);
        ms(g, "stream_setup_ms", m.streamSetupNs);
        ms(g, "e2e_ms", m.e2eNs);
        ms(g, "e2e_from_schedule_ms", m.e2eFromScheduleNs);
        ms(g, "send_lag_ms", m.sendLagNs);
    }

    /** The stamps every line starts with, streamed or whole: scheduled, submitted, sent, and the response's head. */
    private static void sendStamps(final JsonGenerator g, final RequestSlot s) throws IOException
    {
        g.writeNumberField("scheduled_ns", s.scheduledNs);
        g.writeNumberField("submit_ns", s.submitNs);
        g.writeNumberField("sent_ns", s.sentNs);
        if (s.sentKernelNs != 0)
        {
            // only with kernel send stamps, so that other runs' lines stay as they were
            g.writeNumberField("sent_kernel_ns", s.sentKernelNs);
        }
        g.writeNumberField("headers_ns", s.headersNs);
    }

    /** The request's stamps, ns on the run's clock, and every chunk's arrival (and token count, when known). */
    private static void timeline(final JsonGenerator g, final RequestSlot s) throws IOException
    {
        sendStamps(g, s);
        g.writeNumberField("first_token_ns", s.firstTokenNs);
        g.writeNumberField("first_output_ns", s.firstOutputNs);
        g.writeNumberField("end_ns", s.endNs);
        g.writeArrayFieldStart("chunk_ns");
        for (int i = 0; i < s.chunkCount; i++)
        {
            g.writeNumber(s.chunkNs[i]);
        }
        g.writeEndArray();
        if (s.chunkTokensKnown())
        {
            g.writeArrayFieldStart("chunk_tokens");
            for (int i = 0; i < s.chunkCount; i++)
            {
                g.writeNumber(s.chunkTokens[i]);
            }
            g.writeEndArray();
        }
        g.writeNumberField("chunks", s.chunkCount);
    }

    /** Token counts with their source, and how the stream ended. */
    private static void tokens(final JsonGenerator g, final RequestSlot s, final RequestMetrics m) throws IOException
    {
        longOrNull(g, "input_tokens", m.inputTokens);
        g.writeNumberField("output_tokens", m.outputTokens);
        g.writeStringField("token_count_source", m.tokenCountSource);
        longOrNull(g, "usage_prompt_tokens", s.usagePromptTokens);
        longOrNull(g, "usage_completion_tokens", s.usageCompletionTokens);
        longOrNull(g, "cached_tokens", s.cachedTokens);
        if (s.cacheWriteTokens >= 0)
        {
            // only the Messages API says what it wrote to its cache
            g.writeNumberField("cache_write_tokens", s.cacheWriteTokens);
        }
        if (s.idealCachedTokens >= 0)
        {
            g.writeNumberField("ideal_cached_tokens", s.idealCachedTokens);
        }
        longOrNull(g, "usage_reasoning_tokens", s.usageReasoningTokens);
        longOrNull(g, "harness_output_tokens", s.harnessOutputTokens);
        g.writeStringField("finish_reason", finishReason(s.finishReason));
        g.writeBooleanField("done_marker", s.doneSeen);
        g.writeNumberField("unknown_events", s.unknownEvents);
        g.writeBooleanField("late", s.late);
        g.writeBooleanField("truncated", s.truncated || s.errorClass == ErrorClass.TRUNCATED);
    }

    /** The request's latencies in ms, then the engine's own timings for a server that reports them. */
    private void durations(final JsonGenerator g, final RequestSlot s, final RequestMetrics m) throws IOException
    {
        ms(g, "ttft_ms", m.ttftNs);
        ms(g, "stream_setup_ms", m.streamSetupNs);
        ms(g, "ttft_from_schedule_ms", m.ttftFromScheduleNs);
        ms(g, "ttfot_ms", m.ttfotNs);
        ms(g, "ttst_ms", m.ttstNs);
        ms(g, "tpot_ms", m.tpotNs >= 0 ? Math.round(m.tpotNs) : -1);
        ms(g, "e2e_ms", m.e2eNs);
        ms(g, "e2e_from_schedule_ms", m.e2eFromScheduleNs);
        ms(g, "send_lag_ms", m.sendLagNs);
        if (s.enginePromptNs >= 0 || s.engineDecodeNs >= 0 || s.enginePredictedTokens >= 0)
        {
            // Only for a server that reports its own timings, so other servers' lines stay as they were.
            ms(g, "engine_prompt_ms", s.enginePromptNs);
            ms(g, "engine_decode_ms", s.engineDecodeNs);
            longOrNull(g, "engine_predicted_tokens", s.enginePredictedTokens);
            if (s.engineDraftTokens >= 0)
            {
                // only an engine with a speculative decoder reports drafts (llama.cpp's timings.draft_n)
                g.writeNumberField("engine_draft_tokens", s.engineDraftTokens);
                longOrNull(g, "engine_draft_accepted", s.engineDraftAccepted);
            }
        }
    }

    /**
     * Writes raw, still-escaped JSON string bytes (as the chunk parser keeps them) as a string value. Printable ASCII
     * without quote or backslash is already its own JSON form and is copied as it is (no decoding, no allocation);
     * anything else is decoded and re-encoded, so the line is valid JSON whatever the server sent.
     */
    private static void writeRawString(final JsonGenerator g, final byte[] raw, final int length) throws IOException
    {
        for (int i = 0; i < length; i++)
        {
            final byte b = raw[i];
            if (b < 0x20 || b > 0x7e || b == '"' || b == '\\')
            {
                g.writeString(AnswerText.decode(raw, length));
                return;
            }
        }
        g.writeRawUTF8String(raw, 0, length);
    }

    /**
     * Writes a duration in ms rounded to 1 µs ({@code 12.345}, {@code 7.0}), or null for a negative (undefined) one.
     * Formatted here into a reused buffer because Jackson formats a double through a new String: about 70 bytes for
     * each of the nine durations of every line.
     */
    private void ms(final JsonGenerator g, final String name, final long ns) throws IOException
    {
        g.writeFieldName(name);
        if (ns < 0)
        {
            g.writeNull();
            return;
        }
        final char[] b = digits;
        final long us = (ns + 500) / 1_000;
        int at = b.length;
        long frac = us % 1_000;
        int fracDigits = 3;
        while (fracDigits > 1 && frac % 10 == 0)
        {
            frac /= 10;
            fracDigits--;
        }
        for (int i = 0; i < fracDigits; i++)
        {
            b[--at] = (char)('0' + frac % 10);
            frac /= 10;
        }
        b[--at] = '.';
        long whole = us / 1_000;
        do
        {
            b[--at] = (char)('0' + whole % 10);
            whole /= 10;
        }
        while (whole > 0);
        g.writeNumber(b, at, b.length - at);
    }

    private static void longOrNull(final JsonGenerator g, final String name, final long v) throws IOException
    {
        if (v >= 0)
        {
            g.writeNumberField(name, v);
        }
        else
        {
            g.writeNullField(name);
        }
    }

    private static void nullable(final JsonGenerator g, final String name, final String v) throws IOException
    {
        if (v == null)
        {
            g.writeNullField(name);
        }
        else
        {
            g.writeStringField(name, v);
        }
    }

    /** @return the public name of a {@code RequestSlot.PHASE_*} constant. */
    public static String phaseName(final int phase)
    {
        return switch (phase)
        {
            case RequestSlot.PHASE_WARMUP -> "warmup";
            case RequestSlot.PHASE_RAMP -> "ramp";
            case RequestSlot.PHASE_COLD -> "cold";
            default -> "measure";
        };
    }

    private static String status(final int status)
    {
        return switch (status)
        {
            case RequestSlot.STATUS_OK -> "ok";
            case RequestSlot.STATUS_CANCELLED -> "cancelled";
            default -> "error";
        };
    }

    /** @return the public name of a {@code ChunkParser.FINISH_*} constant, or null. */
    public static String finishReason(final int reason)
    {
        return switch (reason)
        {
            case 1 -> "stop";
            case 2 -> "length";
            case 3 -> "tool_calls";
            case 4 -> "content_filter";
            case 5 -> "other";
            default -> null;
        };
    }

    @Override
    public void close() throws IOException
    {
        flush();
        generator.close();
        out.close();
        if (failure != null)
        {
            throw new UncheckedIOException("writing requests.jsonl failed", failure);
        }
    }
}
