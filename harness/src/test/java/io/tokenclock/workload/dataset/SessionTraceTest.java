package io.tokenclock.workload.dataset;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.LongStream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Each trace format read as its owner defines it, from the owners' own published samples
 * ({@code src/test/resources/io/tokenclock/workload/traces/README.md}), and every malformed row refused in one line
 * naming the line and the field.
 */
final class SessionTraceTest
{
    @TempDir
    Path dir;

    static Path sample(final String name)
    {
        try
        {
            return Path.of(SessionTraceTest.class.getResource("/io/tokenclock/workload/traces/" + name).toURI());
        }
        catch (final URISyntaxException ex)
        {
            throw new IllegalStateException(ex);
        }
    }

    private static long[] range(final long from, final long to)
    {
        return LongStream.rangeClosed(from, to).toArray();
    }

    @Test
    void shouldReadAiperfSessionsWhoseLaterTurnsHaveADelayAndNoTimestamp()
    {
        try (SessionTrace trace = SessionTrace.open(sample("aiperf-inference-day-2026.jsonl"), "mooncake", 0, true))
        {
            assertEquals(3, trace.sessions());
            assertTrue(trace.sessionRows());
            final TraceSession first = trace.load(0);
            assertEquals("sess-c1ff91a76156", first.id());
            assertTrue(first.history(), "a later turn's tokens are new: the history goes before them");
            assertEquals(13, first.turns().size());
            assertEquals(0, trace.startUs(0));
            final TraceTurn opening = first.turns().get(0);
            assertEquals(42_277, opening.inputLength());
            assertEquals(83, opening.hashIds().length, "ceil(42277 / 512): the last block partial");
            final TraceTurn second = first.turns().get(1);
            assertEquals(12_219_300, second.delayUs(), "12219.3 ms after the first turn completes");
            assertArrayEquals(range(9283, 9286), second.hashIds());
            assertEquals(1_345, second.outputLength());
            assertEquals(512, first.layout().blockSize());
            assertFalse(first.layout().fullOnly());
            assertEquals(12, trace.load(1).turns().size());
            assertEquals(7, trace.load(2).turns().size());
        }
    }

    @Test
    void shouldReadMooncakeRowsWithoutSessionsAsOneRequestEachAtItsTimestamp()
    {
        try (SessionTrace trace = SessionTrace.open(sample("mooncake-conversation.jsonl"), "mooncake", 0, true))
        {
            assertEquals(11, trace.sessions());
            assertFalse(trace.sessionRows());
            final TraceSession s = trace.load(0);
            assertNull(s.id(), "a row without a session_id is no session");
            assertFalse(s.history());
            assertEquals(1, s.turns().size());
            assertEquals(6758, s.turns().get(0).inputLength());
            assertEquals(3_000_000, trace.startUs(10));
        }
    }

    @Test
    void shouldReplayTraceLabRoundsByTheirTimingEventsWithBlocksMintedFromThePrefixSplit()
    {
        try (SessionTrace trace = SessionTrace.open(sample("tracelab-example-sessions.jsonl"), "tracelab", 0, true))
        {
            assertEquals(2, trace.sessions());
            final TraceSession codex = trace.load(0);
            assertEquals("codex:a611041f-625d-6fad-5e59-845850dc6543", codex.id(), "the earlier session first");
            final TraceSession claude = trace.load(1);
            assertEquals(6_204_860_823_000L, trace.startUs(1));
            assertEquals(10, claude.turns().size());
            assertEquals(19_291_000, claude.turns().get(1).delayUs(),
                "round 1 submitted at its last tool_result, 19.291 s after round 0's last output");
            assertEquals(1_176_000, codex.turns().get(1).delayUs());
            final TraceTurn r0 = claude.turns().get(0);
            final TraceTurn r1 = claude.turns().get(1);
            assertEquals(32_272, r0.inputLength());
            assertEquals(32_272 / 64, r0.hashIds().length, "only full blocks of 64 tokens are hashed");
            assertEquals(931, r0.outputLength());
            final int reused = 29_380 / 64;
            for (int b = 0; b < reused; b++)
            {
                assertEquals(r0.hashIds()[b], r1.hashIds()[b], "block " + b + " of round 1's prefix_tokens");
            }
            assertEquals(r0.hashIds().length + 1, r1.hashIds()[reused], "the rest are new blocks");
            assertTrue(codex.layout().fullOnly());
            assertTrue(codex.scope() != claude.scope() && codex.scope() != 0, "each session's ids are its own");
            assertEquals(444 + 199, codex.turns().get(0).outputLength(), "output_tokens + reasoning_output_tokens");
        }
    }

    @Test
    void shouldTimeWekaRequestsByThinkTimeInSeconds()
    {
        try (SessionTrace trace = SessionTrace.open(sample("weka-trace_0187.json"), "weka", 0, true))
        {
            final TraceSession s = trace.load(0);
            assertEquals("trace_0187", s.id());
            assertEquals(3, s.turns().size());
            assertEquals(3_000_000, s.turns().get(1).delayUs(), "think_time 3.0 s");
            assertEquals(10_261, s.turns().get(0).inputLength());
            assertEquals(160, s.turns().get(0).hashIds().length, "floor(10261 / 64): the partial block unhashed");
            assertEquals(64, s.layout().blockSize());
            assertTrue(s.spawns().isEmpty());
        }
    }

    @Test
    void shouldStartWekaSubagentsBesideTheParentWhenTheTurnBeforeThemEnds()
    {
        try (SessionTrace trace = SessionTrace.open(sample("weka-trace_0291.json"), "weka", 0, false))
        {
            final TraceSession s = trace.load(0);
            assertEquals(20, s.turns().size());
            assertEquals(2, s.spawns().size());
            final TraceSession.Spawn first = s.spawns().get(0);
            assertEquals(15, first.afterTurn(), "after the request at t = 1085 s");
            assertEquals(47_373_000, first.delayUs(), "1148.013 s - (1085 s + api_time 15.64 s)");
            assertEquals("trace_0291/agent_001", first.child().id());
            assertEquals(5, first.child().turns().size());
            assertEquals(s.scope(), first.child().scope(), "a subagent shares its parent's hash ids");
            assertEquals(3_000_000, first.child().turns().get(1).delayUs());
            assertEquals(15, s.spawns().get(1).afterTurn());
            assertEquals(7, s.spawns().get(1).child().turns().size());
        }
    }

    @Test
    void shouldReadSessionRowsThatAreNotContiguousOneSessionAtATime() throws IOException
    {
        final Path file = write("{\"session_id\":\"a\",\"timestamp\":5,\"input_length\":10,\"output_length\":2}",
            "{\"session_id\":\"b\",\"timestamp\":1,\"input_length\":20,\"output_length\":3}",
            "{\"session_id\":\"a\",\"delay\":7,\"input_length\":30,\"output_length\":4}");
        try (SessionTrace trace = SessionTrace.open(file, "mooncake", 0, true))
        {
            assertEquals("b", trace.load(0).id(), "sessions open in the order of their start");
            assertEquals(4_000, trace.startUs(1));
            final TraceSession a = trace.load(1);
            assertEquals(List.of(10, 30), a.turns().stream().map(TraceTurn::inputLength).toList());
            assertEquals(7_000, a.turns().get(1).delayUs());
        }
    }

    private Path write(final String... lines) throws IOException
    {
        final Path file = dir.resolve("trace-" + System.nanoTime() + ".jsonl");
        Files.write(file, List.of(lines));
        return file;
    }

    private String refusal(final String format, final boolean fixed, final String... lines) throws IOException
    {
        final Path file = write(lines);
        return assertThrows(IllegalArgumentException.class, () -> SessionTrace.open(file, format, 0, fixed))
            .getMessage().replace(file.toString(), "FILE");
    }

    @Test
    void shouldRefuseADelayBeforeTheSessionsFirstTurn() throws IOException
    {
        assertEquals("FILE:2: \"delay\" comes before session s's first turn: a first turn is due at its " +
            "\"timestamp\"", refusal("mooncake", true,
                "{\"session_id\":\"r\",\"timestamp\":0,\"input_length\":10,\"output_length\":2}",
                "{\"session_id\":\"s\",\"delay\":10,\"input_length\":10,\"output_length\":2}"));
    }

    @Test
    void shouldRefuseANegativeDelayAMissingOutputLengthAndBlocksThatDisagree() throws IOException
    {
        final String first = "{\"session_id\":\"s\",\"timestamp\":0,\"input_length\":10,\"output_length\":2}";
        assertEquals("FILE:2: \"delay\" must be a number of ms >= 0, was -5", refusal("mooncake", true, first,
            "{\"session_id\":\"s\",\"delay\":-5,\"input_length\":10,\"output_length\":2}"));
        assertEquals("FILE:2: \"output_length\" is missing", refusal("mooncake", true, first,
            "{\"session_id\":\"s\",\"delay\":5,\"input_length\":10}"));
        assertEquals("FILE:1: \"hash_ids\" has 2 blocks, but \"input_length\" 2000 needs 4 of 512 tokens (the last " +
            "may be partial)", refusal("mooncake", true,
                "{\"timestamp\":0,\"input_length\":2000,\"output_length\":2,\"hash_ids\":[1,2]}"));
    }

    @Test
    void shouldRefuseAFirstTurnWithoutATimestampOnTheTracesSchedule() throws IOException
    {
        assertEquals("FILE:1: \"timestamp\" is missing: session s's first turn is due at its timestamp (ms) on the " +
            "trace's schedule", refusal("mooncake", true,
                "{\"session_id\":\"s\",\"input_length\":10,\"output_length\":2}"));
    }

    @Test
    void shouldRefuseTraceLabTotalsThatAreNotPrefixPlusAppended() throws IOException
    {
        final String message = refusal("tracelab", true, "{\"session_id\":\"s\",\"round_index\":0," +
            "\"input_tokens_total\":100,\"prefix_tokens\":60,\"newly_append_tokens\":30,\"output_tokens\":5," +
            "\"timing_events\":[]}");
        assertEquals("FILE:1: \"input_tokens_total\" 100 must equal \"prefix_tokens\" 60 + \"newly_append_tokens\" " +
            "30", message);
    }

    @Test
    void shouldRefuseWekaHashIdsThatCountAPartialBlock() throws IOException
    {
        final Path file = dir.resolve("bad.json");
        Files.writeString(file, "{\"id\":\"t\",\"block_size\":64,\"hash_id_scope\":\"local\",\"requests\":[\n" +
            "{\"t\":0.0,\"type\":\"n\",\"in\":100,\"out\":5,\"hash_ids\":[1]},\n" +
            "{\"t\":1.0,\"type\":\"n\",\"in\":100,\"out\":5,\"hash_ids\":[1,2]}]}");
        final String message = assertThrows(IllegalArgumentException.class,
            () -> SessionTrace.open(file, "weka", 0, true)).getMessage();
        assertEquals(file + ":3: requests[1]: \"hash_ids\" has 2 blocks, but \"in\" 100 needs 1 of 64 tokens (only " +
            "full blocks are hashed)", message);
    }

    @Test
    void shouldIndexALongTraceWithoutReadingItsSessionsUntilTheyOpen() throws IOException
    {
        final List<String> lines = new ArrayList<>();
        for (int s = 0; s < 2_000; s++)
        {
            lines.add("{\"session_id\":\"s" + s + "\",\"timestamp\":" + s + ",\"input_length\":5,\"output_length\":1}");
            lines.add("{\"session_id\":\"s" + s + "\",\"delay\":1,\"input_length\":" + (s + 1) +
                ",\"output_length\":1}");
        }
        final Path file = write(lines.toArray(String[]::new));
        try (SessionTrace trace = SessionTrace.open(file, "mooncake", 0, true))
        {
            assertEquals(2_000, trace.sessions());
            Files.writeString(file, "");
            assertThrows(IllegalStateException.class, () -> trace.load(1_999),
                "the index keeps where the rows are, not the rows: they are read when the session opens");
        }
    }
}
