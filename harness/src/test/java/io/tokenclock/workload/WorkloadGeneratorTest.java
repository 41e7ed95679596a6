package io.tokenclock.workload;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;

import io.tokenclock.load.BuiltRequest;
import io.tokenclock.recording.RequestSlot;
import io.tokenclock.workload.dist.Fixed;
import io.tokenclock.workload.dist.Uniform;
import io.tokenclock.workload.tokenizer.WordTokenizer;

/** Requests depend only on (seed, i); segments are drawn by weight and carry their own lengths and body fields. */
final class WorkloadGeneratorTest
{
    private static final ObjectMapper JSON = new ObjectMapper();

    private static WorkloadGenerator twoSegments(final long seed)
    {
        final ObjectNode json = JSON.createObjectNode();
        json.putObject("response_format").put("type", "json_object");
        return new WorkloadGenerator(seed, new WordTokenizer(), null, List.of(
            new WorkloadGenerator.Segment("chat", 0.7, new Uniform(5, 20), new Fixed(30), 0,
                new RequestBodyFactory(true, "m", 0, false, null, null)),
            new WorkloadGenerator.Segment("extract", 0.3, new Fixed(40), new Fixed(8), 0,
                new RequestBodyFactory(true, "m", 0, false, null, json))), 0);
    }

    @Test
    void shouldLeaveARequestBuiltAheadButNeverSentOutOfTheHashAndTheCount()
    {
        // The driver builds request i before it waits for i's start or a free slot; when the run ends in that wait,
        // request i is never sent: replay printed "over 359 requests" for a requests.jsonl of 358 lines.
        final WorkloadGenerator run = twoSegments(5);
        for (long i = 0; i < 3; i++)
        {
            run.build(i);
        }
        run.onDropped(2);
        final WorkloadGenerator sent = twoSegments(5);
        sent.build(0);
        sent.build(1);

        assertEquals(2, run.requests(), "two were sent");
        assertEquals(sent.hash(), run.hash(), "the hash covers the two sent, as the replay regenerates them");
    }

    @Test
    void shouldDrawSegmentsByWeightWithTheirOwnLengthsAndBodyFields() throws IOException
    {
        final WorkloadGenerator g = twoSegments(9);
        final WordTokenizer words = new WordTokenizer();
        int extract = 0;
        final int n = 10_000;
        for (int i = 0; i < n; i++)
        {
            final BuiltRequest request = g.build(i);
            final JsonNode body = JSON.readTree(request.body());
            final String prompt = body.get("messages").get(0).get("content").asText();
            assertEquals(words.count(prompt), request.promptTokensHint(), "the hint is the prompt's own count");
            if (request.group() == 1)
            {
                extract++;
                assertEquals(8, body.get("max_tokens").asInt());
                assertEquals(40, words.count(prompt));
                assertEquals("json_object", body.get("response_format").get("type").asText());
            }
            else
            {
                assertEquals(30, body.get("max_tokens").asInt());
                assertTrue(words.count(prompt) >= 5 && words.count(prompt) <= 20);
                assertTrue(body.get("response_format") == null);
            }
        }
        assertEquals(0.3, extract / (double)n, 0.015, "segment shares follow the weights");
        assertEquals(List.of("chat", "extract"), g.groupNames());
    }

    @Test
    void shouldBuildTheSameBytesForTheSameSeedWhateverTheOrder()
    {
        final WorkloadGenerator a = twoSegments(4);
        final WorkloadGenerator b = twoSegments(4);
        final byte[] fifthFromA = a.body(5);
        for (int i = 0; i < 5; i++)
        {
            b.body(i);
        }
        assertEquals(new String(fifthFromA), new String(b.body(5)), "request 5 does not depend on 0..4");
        assertNotEquals(new String(twoSegments(5).body(5)), new String(fifthFromA), "another seed, other bytes");
    }

    @Test
    void shouldDescribeEachRequestByItselfWhateverWasBuiltBefore()
    {
        final WorkloadGenerator inOrder = twoSegments(11);
        final List<BuiltRequest> expected = new ArrayList<>();
        for (int i = 0; i < 20; i++)
        {
            expected.add(inOrder.build(i));
        }
        final WorkloadGenerator backwards = twoSegments(11);
        for (int i = 19; i >= 0; i--)
        {
            final BuiltRequest request = backwards.build(i);
            assertEquals(expected.get(i).group(), request.group(), "group of request " + i);
            assertEquals(expected.get(i).promptTokensHint(), request.promptTokensHint(), "hint of request " + i);
            assertArrayEquals(expected.get(i).body(), request.body(), "body of request " + i);
        }
        assertTrue(expected.stream().map(BuiltRequest::group).distinct().count() == 2, "both segments drawn");
    }

    @Test
    void shouldShareSystemAndGroupPrefixesAcrossPromptsAtTheDeclaredRate() throws IOException
    {
        final WordTokenizer words = new WordTokenizer();
        final WorkloadGenerator g = new WorkloadGenerator(2, new RequestBodyFactory(false, "m", 0, false, null, null),
            words, null, new Fixed(200), null, 0, 8).prefixes(new SharedPrefixes(10, 3, 50, 0.6));
        final Map<String, Integer> groupStarts = new HashMap<>();
        String system = null;
        int grouped = 0;
        final int n = 3_000;
        for (int i = 0; i < n; i++)
        {
            final String prompt = JSON.readTree(g.body(i)).get("prompt").asText();
            assertEquals(200, words.count(prompt), "exact length, shared prefix included");
            final String[] lines = prompt.split("\n");
            if (system == null)
            {
                system = lines[0];
            }
            assertEquals(system, lines[0], "every prompt starts with the same system block");
            assertEquals(10, words.count(lines[0]));
            if (!lines[1].startsWith("request "))
            {
                grouped++;
                assertEquals(50, words.count(lines[1]));
                groupStarts.merge(lines[1], 1, Integer::sum);
            }
        }
        assertEquals(0.6, grouped / (double)n, 0.03);
        assertEquals(3, groupStarts.size(), "three distinct group blocks, each reused");
    }

    @Test
    void shouldPickTheSameRequestsToCancelForTheSameSeed()
    {
        final CancellationRule rule = new CancellationRule(0.25, 0, 3, 17);
        final RequestSlot slot = new RequestSlot(0);
        int picked = 0;
        for (int i = 0; i < 4_000; i++)
        {
            slot.reset();
            rule.apply(slot, i);
            if (slot.cancelAfterChunks == 3)
            {
                picked++;
            }
        }
        assertEquals(0.25, picked / 4_000.0, 0.03);
        slot.reset();
        rule.apply(slot, 11);
        final int first = slot.cancelAfterChunks;
        slot.reset();
        new CancellationRule(0.25, 0, 3, 17).apply(slot, 11);
        assertEquals(first, slot.cancelAfterChunks);
    }
}
