package io.tokenclock.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.tokenclock.recording.RequestMetrics;
import io.tokenclock.recording.RequestSlot;

/**
 * {@code requests.jsonl} is written in whole lines only, when asked to flush or when enough has gathered, so that a
 * run killed at any moment leaves a file whose every line parses.
 */
final class RequestsJsonlWriterTest
{
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    private static RequestSlot finished(final long id, final String text)
    {
        final RequestSlot slot = new RequestSlot(0);
        slot.reset();
        slot.requestId = id;
        slot.phase = RequestSlot.PHASE_MEASURE;
        slot.status = RequestSlot.STATUS_OK;
        slot.sentNs = 1_000;
        slot.addChunk(2_000, 1, RequestSlot.CHUNK_OUTPUT);
        slot.firstTokenNs = 2_000;
        slot.endNs = 3_000;
        final byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        slot.appendText(bytes, 0, bytes.length);
        return slot;
    }

    @Test
    void shouldWriteNothingUntilFlushedThenEveryLineWhole() throws IOException
    {
        final Path file = dir.resolve("requests.jsonl");
        try (RequestsJsonlWriter writer = new RequestsJsonlWriter(file, true))
        {
            final RequestMetrics m = new RequestMetrics();
            for (int i = 1; i <= 3; i++)
            {
                final RequestSlot slot = finished(i, "answer " + i);
                writer.onRequestComplete(slot, m.compute(slot));
            }
            assertEquals(0, Files.size(file), "lines wait in memory for the flush");
            writer.flush();
            final List<String> lines = Files.readAllLines(file);
            assertEquals(3, lines.size());
            assertEquals("answer 3", JSON.readTree(lines.get(2)).path("output_text").asText());
        }
    }

    @Test
    void shouldWriteDurationsInMillisecondsRoundedToTheMicrosecond() throws IOException
    {
        final Path file = dir.resolve("requests.jsonl");
        try (RequestsJsonlWriter writer = new RequestsJsonlWriter(file, false))
        {
            final RequestSlot slot = finished(1, "");
            slot.sentNs = 1_000_000_000L;
            slot.chunkCount = 0;
            slot.addChunk(slot.sentNs + 12_345_500L, 1, RequestSlot.CHUNK_OUTPUT);
            slot.addChunk(slot.sentNs + 19_345_500L, 1, RequestSlot.CHUNK_OUTPUT);
            slot.endNs = slot.sentNs + 1_234_567_890_123L;
            slot.scheduledNs = slot.sentNs - 499;
            writer.onRequestComplete(slot, new RequestMetrics().compute(slot));
        }
        final String line = Files.readAllLines(file).get(0);
        assertTrue(line.contains("\"ttft_ms\":12.346,"), "12,345,500 ns rounds half up: " + line);
        assertTrue(line.contains("\"ttst_ms\":7.0,"), "a whole number keeps one decimal: " + line);
        assertTrue(line.contains("\"tpot_ms\":7.0,"), line);
        assertTrue(line.contains("\"e2e_ms\":1234567.89,"), "trailing zeros trimmed, no exponent: " + line);
        assertTrue(line.contains("\"send_lag_ms\":0.0}"), "499 ns rounds to 0: " + line);
        assertEquals(12.346, JSON.readTree(line).path("ttft_from_schedule_ms").asDouble(), 0.0011);
    }

    @Test
    void shouldWriteTheEngineTimingsOnlyForAServerThatReportedThem() throws IOException
    {
        final Path file = dir.resolve("requests.jsonl");
        try (RequestsJsonlWriter writer = new RequestsJsonlWriter(file, false))
        {
            final RequestMetrics m = new RequestMetrics();
            final RequestSlot plain = finished(1, "");
            writer.onRequestComplete(plain, m.compute(plain));
            final RequestSlot engine = finished(2, "");
            engine.enginePromptNs = 31_402_000;
            engine.engineDecodeNs = 45_609_400;
            engine.enginePredictedTokens = 4;
            writer.onRequestComplete(engine, m.compute(engine));
            final RequestSlot partial = finished(3, "");
            partial.enginePredictedTokens = 7;
            writer.onRequestComplete(partial, m.compute(partial));
        }
        final List<String> lines = Files.readAllLines(file);
        assertTrue(!lines.get(0).contains("engine_"), "other servers' lines are as they were: " + lines.get(0));
        final JsonNode reported = JSON.readTree(lines.get(1));
        assertEquals(31.402, reported.path("engine_prompt_ms").asDouble(), 1e-9);
        assertEquals(45.609, reported.path("engine_decode_ms").asDouble(), 1e-9, "rounded to the microsecond");
        assertEquals(4, reported.path("engine_predicted_tokens").asInt());
        final JsonNode partial = JSON.readTree(lines.get(2));
        assertTrue(partial.path("engine_prompt_ms").isNull(), lines.get(2));
        assertTrue(partial.path("engine_decode_ms").isNull(), lines.get(2));
        assertEquals(7, partial.path("engine_predicted_tokens").asInt());
    }

    @Test
    void shouldWriteServerTextAsValidJsonWhateverItHolds() throws IOException
    {
        final Path file = dir.resolve("requests.jsonl");
        // Raw bytes as the chunk parser keeps them: still escaped. A bad escape must not make the line invalid.
        final String[] raw = {"plain ascii", "quote \\\"q\\\" and \\\\ back", "caf\u00e9 \\u00e9", "bad \\q escape",
            ""};
        try (RequestsJsonlWriter writer = new RequestsJsonlWriter(file, true))
        {
            final RequestMetrics m = new RequestMetrics();
            for (int i = 0; i < raw.length; i++)
            {
                final RequestSlot slot = finished(i, raw[i]);
                final byte[] id = raw[i].getBytes(StandardCharsets.UTF_8);
                slot.setResponseId(id, 0, id.length);
                writer.onRequestComplete(slot, m.compute(slot));
            }
        }
        final List<String> lines = Files.readAllLines(file);
        assertEquals(raw.length, lines.size());
        assertEquals("plain ascii", JSON.readTree(lines.get(0)).path("output_text").asText());
        assertEquals("quote \"q\" and \\ back", JSON.readTree(lines.get(1)).path("output_text").asText());
        assertEquals("caf\u00e9 \u00e9", JSON.readTree(lines.get(2)).path("output_text").asText());
        assertEquals("bad \\q escape", JSON.readTree(lines.get(3)).path("output_text").asText());
        assertEquals("quote \"q\" and \\ back", JSON.readTree(lines.get(1)).path("response_id").asText());
        for (final String line : lines)
        {
            assertTrue(line.startsWith("{") && line.endsWith("}"), line);
        }
    }

    @Test
    void shouldWriteOnlyWholeLinesWhenTheBufferFillsBeforeAFlush() throws IOException
    {
        final Path file = dir.resolve("requests.jsonl");
        try (RequestsJsonlWriter writer = new RequestsJsonlWriter(file, true))
        {
            final RequestMetrics m = new RequestMetrics();
            final String long40k = "y".repeat(40_000);
            for (int i = 1; i <= 5; i++)
            {
                final RequestSlot slot = finished(i, long40k);
                writer.onRequestComplete(slot, m.compute(slot));
                final String onDisk = Files.readString(file);
                assertTrue(onDisk.isEmpty() || onDisk.endsWith("\n"), "only whole lines reach the file");
                for (final String line : onDisk.lines().toList())
                {
                    final JsonNode row = JSON.readTree(line);
                    assertEquals(40_000, row.path("output_text").asText().length());
                }
            }
            assertTrue(Files.size(file) > 0, "past 64 KiB the lines went out without a flush");
        }
        assertEquals(5, Files.readAllLines(file).size(), "closing writes the rest");
    }
}
