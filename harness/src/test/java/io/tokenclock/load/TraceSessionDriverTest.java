package io.tokenclock.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.PriorityQueue;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import io.tokenclock.clock.ManualNanoClock;
import io.tokenclock.json.Json;
import io.tokenclock.recording.RequestSlot;
import io.tokenclock.recording.SlotPool;
import io.tokenclock.workload.RequestBodyFactory;
import io.tokenclock.workload.SessionReport;
import io.tokenclock.workload.TraceWorkload;
import io.tokenclock.workload.dataset.SessionTrace;
import io.tokenclock.workload.tokenizer.WordTokenizer;

/**
 * A trace's sessions replayed on a hand-set clock, on the test thread, through the real trace workload: every answer
 * takes 40 ms and ends when the clock reaches it. The trace (blocks of 4 tokens, replayed at speed-up 2):
 * <pre>
 * a: at 0 ms, blocks [1, 2] (6 tokens); then 100 ms after it, block [3]; then 50 ms after that, block [4] (3 tokens)
 * b: at 30 ms, block [1]; then 10 ms after it, block [1]
 * </pre>
 */
@Timeout(30)
final class TraceSessionDriverTest
{
    private static final long T0 = 5_000_000_000L;
    private static final long MS = 1_000_000L;
    private static final long ANSWER_NS = 40 * MS;

    /** A turn as it was sent. */
    private record Turn(String session, int turn, long dueNs, long ideal, JsonNode messages)
    {
    }

    /** A turn whose answer ends at {@code endNs}. */
    private record Pending(long endNs, int handle) implements Comparable<Pending>
    {
        @Override
        public int compareTo(final Pending other)
        {
            return Long.compare(endNs, other.endNs);
        }
    }

    @TempDir
    Path dir;

    private final ManualNanoClock clock = new ManualNanoClock(T0);
    private final SlotPool pool = new SlotPool(8);
    private final List<Turn> sent = new ArrayList<>();
    private final PriorityQueue<Pending> answers = new PriorityQueue<>();
    private LoadGenerator generator;

    /** Parks by moving the clock on, and hands the driver each answer whose end the clock has reached. */
    private final Waiter waiter = new Waiter()
    {
        @Override
        public void park(final long ns)
        {
            final long until = clock.nanoTime() + ns;
            final Pending next = answers.peek();
            clock.advance(Math.max(1, (next != null && next.endNs() < until ? next.endNs() : until) -
                clock.nanoTime()));
            while (!answers.isEmpty() && answers.peek().endNs() <= clock.nanoTime())
            {
                final Pending done = answers.poll();
                generator.onUserTurnEnded(done.handle(), new TurnResult(true, "two words", List.of(), "stop",
                    done.endNs()));
            }
        }

        @Override
        public void spin()
        {
            clock.advance(1);
        }

        @Override
        public void wake(final Thread thread)
        {
        }
    };

    private TraceWorkload workload() throws IOException
    {
        return workload(
            "{\"session_id\":\"a\",\"timestamp\":0,\"input_length\":6,\"output_length\":2,\"hash_ids\":[1,2]}",
            "{\"session_id\":\"b\",\"timestamp\":30,\"input_length\":4,\"output_length\":2,\"hash_ids\":[1]}",
            "{\"session_id\":\"a\",\"delay\":100,\"input_length\":4,\"output_length\":2,\"hash_ids\":[3]}",
            "{\"session_id\":\"a\",\"delay\":50,\"input_length\":3,\"output_length\":2,\"hash_ids\":[4]}",
            "{\"session_id\":\"b\",\"delay\":10,\"input_length\":4,\"output_length\":2,\"hash_ids\":[1]}");
    }

    private TraceWorkload workload(final String... rows) throws IOException
    {
        final Path file = dir.resolve("trace.jsonl");
        Files.write(file, List.of(rows), StandardCharsets.UTF_8);
        return new TraceWorkload(SessionTrace.open(file, "mooncake", 4, true), 7, new WordTokenizer(),
            new RequestBodyFactory(true, "m", 0, false, null, null), 2.0);
    }

    private void send(final RequestSlot slot)
    {
        try
        {
            sent.add(new Turn(slot.sessionId, slot.turn, slot.scheduledNs, slot.idealCachedTokens,
                Json.MAPPER.readTree(slot.body).get("messages")));
        }
        catch (final IOException ex)
        {
            throw new AssertionError(ex);
        }
        answers.add(new Pending(slot.submitNs + ANSWER_NS, slot.user));
        pool.release(slot);
    }

    @Test
    void shouldOpenEachSessionAtItsTimeAndSendEachTurnItsDelayAfterThePreviousEnded() throws IOException
    {
        final TraceWorkload trace = workload();
        generator = LoadGenerator.ofTrace(new LoadPlan(false, 0, null, 8, 0, 0, 0, 0, null, null, 1, 0, null, true),
            clock, pool, trace, this::send, waiter);
        generator.run();

        assertEquals(List.of("a/0@0", "b/0@15", "b/1@60", "a/1@90", "a/2@155"), sent.stream()
            .map(t -> t.session() + "/" + t.turn() + "@" + (t.dueNs() - T0) / MS).toList(),
            "b opens at 30 / 2 ms; a's second turn is due 100 / 2 ms after its first ended at 40 ms");
        assertEquals(List.of(0L, 4L, 10L, 8L, 14L), sent.stream().map(Turn::ideal).toList(),
            "blocks seen before, and the history (earlier turns and answers)");
        final JsonNode a1 = sent.get(3).messages();
        assertEquals(3, a1.size(), "the first turn, the server's answer, the new turn");
        assertEquals("two words", a1.get(1).get("content").asText());
        assertEquals("assistant", a1.get(1).get("role").asText());
        final String blockOne = sent.get(1).messages().get(0).get("content").asText();
        assertTrue(sent.get(0).messages().get(0).get("content").asText().startsWith(blockOne),
            "hash id 1 is the same text in a's first turn and in b's");
        assertEquals(4, blockOne.strip().split(" ").length);
        final SessionReport report = trace.report();
        assertEquals(2, report.sessions());
        assertEquals(2, report.completed());
        assertEquals(5, report.turns());
        assertEquals(0.080, report.traceWaitsS(), 1e-9, "50 + 5 + 25 ms of the trace's own waits");
        assertEquals(0.200, report.inRequestsS(), 1e-9);
        assertEquals(195, report.sessionE2eMs().getMaxValue(), "a: from 0 to its last answer at 195 ms");
        assertNull(generator.scheduleHash());
    }

    @Test
    void shouldOpenTheNextSessionOnlyWhenOneClosesInAClosedLoop() throws IOException
    {
        generator = LoadGenerator.ofTrace(new LoadPlan(true, 1, null, 1, 0, 0, 0, 0, null, null, 1, 0, null, true),
            clock, pool, workload(), this::send, waiter);
        generator.run();

        assertEquals(List.of("a/0@0", "a/1@90", "a/2@155", "b/0@195", "b/1@240"), sent.stream()
            .map(t -> t.session() + "/" + t.turn() + "@" + (t.dueNs() - T0) / MS).toList());
    }

    @Test
    void shouldReplayOnlyItsOwnSessionsInEachShardOnTheWholeRunsSchedule() throws IOException
    {
        final List<String> byShard = new ArrayList<>();
        for (int index = 0; index < 2; index++)
        {
            sent.clear();
            final TraceWorkload trace = workload();
            generator = LoadGenerator.ofTrace(new LoadPlan(false, 0, null, 8, 0, 0, 0, 0, null, null, 1, 0, null,
                true), clock, pool, trace, this::send, waiter).stripe(new Stripe(index, 2));
            final long start = clock.nanoTime();
            generator.run();
            byShard.add(String.join(" ", sent.stream().map(t -> t.session() + "/" + t.turn() + "@" +
                (t.dueNs() - start) / MS).toList()));
            assertEquals(1, trace.report().sessions(), "one session of the two is this shard's");
        }
        assertEquals(List.of("a/0@0 a/1@90 a/2@155", "b/0@15 b/1@60"), byShard,
            "session k is shard k mod 2's, each on the times it has in the whole run");
    }

    @Test
    void shouldCountOnlyTheSessionsAndTurnsItSentWhenItsRequestCountEndsTheRun() throws IOException
    {
        final TraceWorkload trace = workload();
        generator = LoadGenerator.ofTrace(new LoadPlan(false, 0, null, 8, 1, 0, 0, 0, null, null, 1, 0, null, true),
            clock, pool, trace, this::send, waiter);
        generator.run();
        while (!answers.isEmpty())
        {
            waiter.park(ANSWER_NS); // the drain: the answers in flight end
        }
        generator.settle();

        assertEquals(List.of("a/0"), sent.stream().map(t -> t.session() + "/" + t.turn()).toList());
        final SessionReport report = trace.report();
        assertEquals(1, report.turns(), "b opened and its first turn was built ahead of its time, never sent");
        assertEquals(1, report.sessions());
        assertEquals(0, report.completed());
        assertEquals(0.0, report.traceWaitsS(), "a's first turn ended in the drain; the wait before its second, " +
            "never sent, is no wait of the run");
        assertEquals(1, trace.requests(), "the hash and the count cover the turn sent, not b's built one");
    }

    /**
     * a's second turn is built when its first ends (40 ms), due 1,500 ms later; b's second turn is built at b's first
     * end (50 ms) and due at 100 ms. Built a then b, sent b then a: block 9, which both carry, is b's first sending,
     * a miss for b and a hit for a.
     */
    @Test
    void shouldCountABlocksFirstSendingAsTheMissWhenTurnsAreSentInAnotherOrderThanBuilt() throws IOException
    {
        final TraceWorkload trace = workload(
            "{\"session_id\":\"a\",\"timestamp\":0,\"input_length\":4,\"output_length\":2,\"hash_ids\":[1]}",
            "{\"session_id\":\"b\",\"timestamp\":20,\"input_length\":4,\"output_length\":2,\"hash_ids\":[2]}",
            "{\"session_id\":\"a\",\"delay\":3000,\"input_length\":4,\"output_length\":2,\"hash_ids\":[9]}",
            "{\"session_id\":\"b\",\"delay\":100,\"input_length\":4,\"output_length\":2,\"hash_ids\":[9]}");
        generator = LoadGenerator.ofTrace(new LoadPlan(false, 0, null, 8, 0, 0, 0, 0, null, null, 1, 0, null, true),
            clock, pool, trace, this::send, waiter);
        generator.run();

        assertEquals(List.of("a/0@0", "b/0@10", "b/1@100", "a/1@1540"), sent.stream()
            .map(t -> t.session() + "/" + t.turn() + "@" + (t.dueNs() - T0) / MS).toList());
        assertEquals(List.of(0L, 0L, 6L, 10L), sent.stream().map(Turn::ideal).toList(),
            "b's second turn: its history (4 + 2 tokens), block 9 new; a's: its history and block 9, sent by b");
        assertEquals(0.050 + 1.500, trace.report().traceWaitsS(), 1e-9);
    }
}
