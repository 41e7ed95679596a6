package io.tokenclock.workload.dataset;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import com.fasterxml.jackson.databind.ObjectMapper;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.tokenclock.workload.RequestBodyFactory;
import io.tokenclock.workload.WorkloadGenerator;
import io.tokenclock.workload.tokenizer.WordTokenizer;

/** Datasets and traces load as documented, reject bad lines by file and line, and replay deterministically. */
final class DatasetsTest
{
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    private Path write(final String name, final String text) throws IOException
    {
        final Path file = dir.resolve(name);
        Files.writeString(file, text);
        return file;
    }

    @Test
    void shouldLoadJsonlPromptsAndMessages() throws IOException
    {
        final Path file = write("d.jsonl", """
            {"prompt": "hello there", "max_tokens": 12, "segment": "chat", "reference": "hi"}

            {"messages": [{"role": "system", "content": "be brief"}, {"role": "user", "content": "why?"}]}
            """);
        final List<DatasetEntry> entries = Datasets.load(file, "jsonl");
        assertEquals(2, entries.size());
        assertEquals("hello there", entries.get(0).prompt());
        assertEquals(12, entries.get(0).maxTokens());
        assertEquals("chat", entries.get(0).segment());
        assertEquals(2, entries.get(1).messages().size());
        assertEquals(-1, entries.get(1).maxTokens());
    }

    @Test
    void shouldTakeTheFirstHumanTurnOfShareGptAndSkipConversationsWithoutOne() throws IOException
    {
        final Path file = write("s.json", """
            [{"id": "a", "conversations": [{"from": "human", "value": "q1"}, {"from": "gpt", "value": "a b c"}]},
             {"id": "b", "conversations": [{"from": "gpt", "value": "orphan"}]},
             {"id": "c", "conversations": [{"from": "system", "value": "s"}, {"from": "human", "value": "q2"},
                                           {"from": "gpt", "value": "x"}]}]
            """);
        final List<DatasetEntry> entries = Datasets.load(file, "sharegpt");
        assertEquals(2, entries.size());
        assertEquals("q1", entries.get(0).prompt());
        assertEquals("a b c", entries.get(0).reference());
        assertEquals("q2", entries.get(1).prompt());
    }

    @Test
    void shouldLoadAMooncakeTrace() throws IOException
    {
        final Path file = write("t.jsonl", """
            {"timestamp": 0, "input_length": 20, "output_length": 5, "hash_ids": [7, 8]}
            {"timestamp": 250, "input_length": 8, "output_length": 3, "hash_ids": [7]}
            """);
        final List<DatasetEntry> entries = Datasets.load(file, "mooncake", 10);
        assertEquals(250, entries.get(1).timestampMs());
        assertEquals(20, entries.get(0).inputLength());
        assertEquals(5, entries.get(0).maxTokens());
        assertArrayEquals(new long[] {7, 8}, entries.get(0).hashIds());
    }

    @Test
    void shouldNameFileAndLineOfEveryBadEntry() throws IOException
    {
        final Path noPrompt = write("a.jsonl", "{\"prompt\": \"ok\"}\n{\"text\": \"nope\"}\n");
        assertTrue(assertThrows(IllegalArgumentException.class, () -> Datasets.load(noPrompt, "jsonl"))
            .getMessage().endsWith("a.jsonl:2: needs a \"prompt\" string or a non-empty \"messages\" array"));
        final Path badJson = write("b.jsonl", "{\"prompt\": \n");
        assertTrue(assertThrows(IllegalArgumentException.class, () -> Datasets.load(badJson, "jsonl"))
            .getMessage().contains("b.jsonl:1: not valid JSON"));
        final Path backwards = write("c.jsonl", """
            {"timestamp": 10, "input_length": 2, "output_length": 1}
            {"timestamp": 5, "input_length": 2, "output_length": 1}
            """);
        assertTrue(assertThrows(IllegalArgumentException.class, () -> Datasets.load(backwards, "mooncake"))
            .getMessage().contains("c.jsonl:2: timestamps must not decrease"));
        final Path zero = write("d.jsonl", "{\"timestamp\": 1, \"input_length\": 0, \"output_length\": 1}\n");
        assertTrue(assertThrows(IllegalArgumentException.class, () -> Datasets.load(zero, "mooncake"))
            .getMessage().contains("d.jsonl:1: \"input_length\" must be an integer >= 1"));
        final Path blocks = write("e.jsonl", "{\"timestamp\": 1, \"input_length\": 600, \"output_length\": 1, " +
            "\"hash_ids\": [1]}\n");
        assertTrue(assertThrows(IllegalArgumentException.class, () -> Datasets.load(blocks, "mooncake"))
            .getMessage().endsWith("e.jsonl:1: \"hash_ids\" has 1 blocks, but \"input_length\" 600 needs 2 of 512 " +
                "tokens (the last may be partial)"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> Datasets.load(dir.resolve("x"), "jsonl"))
            .getMessage().endsWith("x: no such file"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> Datasets.load(noPrompt, "csv"))
            .getMessage().startsWith("dataset format must be one of"));
    }

    @Test
    void shouldGiveEqualHashIdsEqualPromptBlocksAndExactLengths() throws IOException
    {
        final Path file = write("t.jsonl", """
            {"timestamp": 0, "input_length": 30, "output_length": 5, "hash_ids": [1, 2, 3]}
            {"timestamp": 100, "input_length": 25, "output_length": 4, "hash_ids": [1, 2, 9]}
            {"timestamp": 100, "input_length": 20, "output_length": 4, "hash_ids": [4, 5]}
            """);
        final WordTokenizer words = new WordTokenizer();
        final WorkloadGenerator g = new WorkloadGenerator(3, new RequestBodyFactory(false, "m", 0, false, null, null),
            words, Datasets.load(file, "mooncake", 10), false, 10, null, 0);
        final String p0 = JSON.readTree(g.body(0)).get("prompt").asText().strip();
        final String p1 = JSON.readTree(g.body(1)).get("prompt").asText().strip();
        final String p2 = JSON.readTree(g.body(2)).get("prompt").asText().strip();
        assertEquals(30, words.count(p0));
        assertEquals(25, words.count(p1), "the last block, id 9, is partial: 5 tokens");
        assertEquals(20, words.count(p2));
        final String shared = String.join(" ", List.of(p0.split(" ")).subList(0, 20));
        assertTrue(p1.startsWith(shared), "blocks 1 and 2 are the same text in both requests");
        assertTrue(!p2.startsWith(p0.split(" ")[0] + " " + p0.split(" ")[1] + " " + p0.split(" ")[2]),
            "different hash ids give different text");
        assertArrayEquals(new long[] {0, 100_000_000, 100_000_000}, g.traceOffsetsNs());
        assertEquals(5, JSON.readTree(g.body(3)).get("max_tokens").asInt(), "entry 3 wraps to entry 0");
    }

    @Test
    void shouldSizeShareGptAnswersWithTheTokenizerAndSendMessagesAsGiven() throws IOException
    {
        final Path share = write("s.json", """
            [{"conversations": [{"from": "human", "value": "q"}, {"from": "gpt", "value": "one two three four"}]}]
            """);
        final WorkloadGenerator g = new WorkloadGenerator(1, new RequestBodyFactory(true, "m", 0, false, null, null),
            new WordTokenizer(), Datasets.load(share, "sharegpt"), true, 512, null, 0);
        assertEquals(4, JSON.readTree(g.body(0)).get("max_tokens").asInt());

        final Path chat = write("c.jsonl", "{\"messages\": [{\"role\": \"user\", \"content\": \"hi\"}]}\n");
        final WorkloadGenerator m = new WorkloadGenerator(1, new RequestBodyFactory(true, "m", 7, false, null, null),
            new WordTokenizer(), Datasets.load(chat, "jsonl"), false, 512, null, 7);
        final var body = JSON.readTree(new String(m.body(0), StandardCharsets.UTF_8));
        assertEquals("hi", body.get("messages").get(0).get("content").asText());
        assertEquals(7, body.get("max_tokens").asInt());
        assertNull(body.get("prompt"));
    }
}
