package io.tokenclock.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.tokenclock.quality.QualityVerdict;

/** {@code success} and {@code quality} are appended to each line, and nothing else of a line changes. */
final class RequestsJsonlVerdictsTest
{
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    @Test
    void shouldAppendEachRequestsSuccessAndVerdict() throws Exception
    {
        final Path file = dir.resolve("requests.jsonl");
        final List<String> lines = List.of(
            "{\"id\":0,\"phase\":\"warmup\",\"status\":\"ok\",\"error_detail\":\"}\"}",
            "{\"id\":1,\"phase\":\"measure\",\"status\":\"ok\",\"chunk_ns\":[1,2]}",
            "{\"id\":2,\"phase\":\"measure\",\"status\":\"ok\",\"chunk_ns\":[]}",
            "{\"id\":3,\"phase\":\"measure\",\"status\":\"error\",\"error\":\"http_5xx\"}",
            "{\"id\":4,\"phase\":\"measure\",\"status\":\"ok\"}",
            "{\"id\":5,\"phase\":\"measure\",\"status\":\"ok\"}");
        Files.write(file, lines);
        final Map<Long, QualityVerdict> verdicts = Map.of(
            1L, new QualityVerdict(true, false, List.of(), List.of(), null),
            2L, new QualityVerdict(false, false, List.of("numeric"), List.of("expected 42, got 41"), null),
            4L, new QualityVerdict(false, true, List.of("judge_abstain"), List.of("judge: [ABSTAIN]"), null));
        RequestsJsonlVerdicts.annotate(file, verdicts::get);
        final List<String> out = Files.readAllLines(file);
        assertEquals(6, out.size());
        for (int i = 0; i < out.size(); i++)
        {
            final String before = lines.get(i);
            assertTrue(out.get(i).startsWith(before.substring(0, before.length() - 1) + ",\"success\":"), out.get(i));
        }
        final JsonNode warmup = JSON.readTree(out.get(0));
        assertTrue(warmup.get("success").isNull(), "warm-up requests are not judged");
        assertEquals("}", warmup.get("error_detail").asText());
        assertTrue(JSON.readTree(out.get(1)).get("success").asBoolean());
        final JsonNode wrong = JSON.readTree(out.get(2));
        assertEquals(false, wrong.get("success").asBoolean(true));
        assertEquals("numeric", wrong.path("quality").path("failed").path(0).asText());
        final JsonNode failed = JSON.readTree(out.get(3));
        assertEquals(false, failed.get("success").asBoolean(true));
        assertTrue(failed.get("quality").isNull());
        assertTrue(JSON.readTree(out.get(4)).get("success").isNull(), "excluded: neither success nor failure");
        assertTrue(JSON.readTree(out.get(5)).get("success").asBoolean(), "ok and not judged: no rule, a success");
    }
}
