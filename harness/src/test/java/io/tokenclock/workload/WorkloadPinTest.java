package io.tokenclock.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.tokenclock.recording.RequestSlot;
import io.tokenclock.workload.dataset.Datasets;
import io.tokenclock.workload.dist.Fixed;
import io.tokenclock.workload.dist.Uniform;
import io.tokenclock.workload.tokenizer.WordTokenizer;

/**
 * The bytes a seed gives are pinned, so that a refactoring of how the random streams are seeded (per request, per
 * shared-prefix block, per trace block, per cancellation draw) cannot change every prompt, and with them the workload
 * hash in {@code record.json}, without a test failing. If a change is meant, the new values go here with the reason.
 */
final class WorkloadPinTest
{
    private static final RequestBodyFactory COMPLETIONS = new RequestBodyFactory(false, "m", 0, false, null, null);

    @TempDir
    Path dir;

    @Test
    void shouldPinSyntheticBodiesWithSharedPrefixesForASeed()
    {
        final WorkloadGenerator g = new WorkloadGenerator(2, COMPLETIONS, new WordTokenizer(), null,
            new Uniform(60, 120), new Fixed(16), 0, 0).prefixes(new SharedPrefixes(10, 3, 20, 0.6));
        for (int i = 0; i < 40; i++)
        {
            g.body(i);
        }
        assertEquals("5b27093d7927a0aa1af39f0c1b635800582f1aeaa36e4c391e8c060c0c1545cc", g.hash());
    }

    @Test
    void shouldPinTraceBodiesWithHashIdBlocksForASeed() throws IOException
    {
        final Path file = Files.writeString(dir.resolve("t.jsonl"), """
            {"timestamp": 0, "input_length": 30, "output_length": 5, "hash_ids": [1, 2, 3]}
            {"timestamp": 100, "input_length": 25, "output_length": 4, "hash_ids": [1, 2, 9]}
            {"timestamp": 100, "input_length": 20, "output_length": 4, "hash_ids": [4, 5]}
            """);
        final WorkloadGenerator g = new WorkloadGenerator(3, COMPLETIONS, new WordTokenizer(),
            Datasets.load(file, "mooncake", 10), false, 10, null, 0);
        for (int i = 0; i < 6; i++)
        {
            g.body(i);
        }
        // Changed in issue 36 on purpose: a prompt is its blocks, the last one partial (Mooncake's and AIPerf's
        // layout), each block text named by its id and length (TraceBlocks), where full blocks and random filler were.
        assertEquals("95659930ec73c0a96b232a494d166cb7df8615623bbb7187107ea8b0a0aa380f", g.hash());
    }

    @Test
    void shouldPinWhichRequestsACancellationRulePicksForASeed()
    {
        final CancellationRule rule = new CancellationRule(0.5, 0, 3, 17);
        final RequestSlot slot = new RequestSlot(0);
        long picked = 0;
        for (int i = 0; i < 64; i++)
        {
            slot.reset();
            rule.apply(slot, i);
            picked |= slot.cancelAfterChunks == 3 ? 1L << i : 0;
        }
        assertEquals(0x2d31ce2a8b066253L, picked, Long.toHexString(picked));
    }

    @Test
    void shouldPinSegmentedChatBodiesForASeed()
    {
        final WorkloadGenerator g = new WorkloadGenerator(9, new WordTokenizer(), null, List.of(
            new WorkloadGenerator.Segment("chat", 0.7, new Uniform(5, 20), new Fixed(30), 0,
                new RequestBodyFactory(true, "m", 0, false, null, null)),
            new WorkloadGenerator.Segment("long", 0.3, new Fixed(40), new Fixed(8), 0,
                new RequestBodyFactory(true, "m", 0, false, null, null))), 0);
        for (int i = 0; i < 40; i++)
        {
            g.body(i);
        }
        assertEquals("d865235128f23345d4ca4d49a02f4b9c9e34804091ce4418744f9503a32ce506", g.hash());
    }
}
