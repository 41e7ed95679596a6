package io.tokenclock.quality;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.tokenclock.testing.ScriptedSseServer;

/**
 * The LLM judge against a fake judge on loopback: it says PASS to an answer of 42, FAIL to 41, something that is no
 * verdict to "maybe", and HTTP 500 to "crash". Checks what is sent (rubric, sampling, the template) and how
 * abstentions, failures and several samples are counted.
 */
final class JudgeTest
{
    private static final ObjectMapper JSON = new ObjectMapper();

    private final List<JsonNode> received = new CopyOnWriteArrayList<>();
    /** Each request's target as the judge's request line had it, and its Authorization header. */
    private final List<String> requestLines = new CopyOnWriteArrayList<>();
    private final List<String> authorizations = new CopyOnWriteArrayList<>();
    @RegisterExtension
    final ScriptedSseServer server = new ScriptedSseServer();

    @BeforeEach
    void start() throws IOException
    {
        server.on("/v1/chat/completions", this::answer);
        server.on("/", exchange ->
        {
            requestLines.add(exchange.getRequestURI().toString());
            exchange.sendResponseHeaders(404, -1);
            exchange.close();
        });
        server.start();
    }


    private void answer(final HttpExchange exchange) throws IOException
    {
        final JsonNode body = JSON.readTree(exchange.getRequestBody());
        received.add(body);
        requestLines.add(exchange.getRequestURI().toString());
        authorizations.add(String.valueOf(exchange.getRequestHeaders().getFirst("Authorization")));
        final String user = body.path("messages").path(1).path("content").asText();
        final String answer = user.substring(user.indexOf("Answer to judge:\n") + 17).split("\n")[0];
        if (answer.equals("crash"))
        {
            exchange.sendResponseHeaders(500, -1);
            exchange.close();
            return;
        }
        final String reply = switch (answer)
        {
            case "42" -> "PASS. It is right.";
            case "41" -> "fail: off by one";
            default -> "I cannot tell.";
        };
        final byte[] out = JSON.writeValueAsBytes(JSON.createObjectNode().set("choices", JSON.createArrayNode()
            .add(JSON.createObjectNode().set("message", JSON.createObjectNode().put("role", "assistant")
                .put("content", reply)))));
        exchange.getResponseHeaders().add("Content-Type", "application/json");
        exchange.sendResponseHeaders(200, out.length);
        try (OutputStream os = exchange.getResponseBody())
        {
            os.write(out);
        }
    }

    private JudgeSpec spec(final int samples, final String aggregation, final String abstain, final String onError)
    {
        return spec(server.apiUrl(), samples, aggregation, abstain,
            onError);
    }

    private static JudgeSpec spec(final String url, final int samples, final String aggregation, final String abstain,
        final String onError)
    {
        return new JudgeSpec(url, "judge-1", "rev-7", "Judge arithmetic.", null, 0.0, 8, 5L, samples, aggregation,
            abstain, onError, null, 10, 2);
    }

    private static Sample sample(final long id, final String output)
    {
        return new Sample(id, "What is 40 + 2?", output, "42", "stop");
    }

    @Test
    void shouldSendTheRubricAndSamplingAndReadEachVerdict() throws Exception
    {
        final Map<Long, Judge.Verdict> v = new Judge(spec(1, "majority", "fail", "fail")).judge(List.of(
            sample(1, "42"), sample(2, "41"), sample(3, "maybe"), sample(4, "crash")));
        assertEquals(Judge.Vote.PASS, v.get(1L).vote());
        assertEquals(Judge.Vote.FAIL, v.get(2L).vote());
        assertEquals(Judge.Vote.ABSTAIN, v.get(3L).vote());
        assertEquals(Judge.Vote.ERROR, v.get(4L).vote());
        assertEquals("IOException: HTTP 500", v.get(4L).error());
        assertEquals(4, received.size());
        final JsonNode first = received.get(0);
        assertEquals("judge-1", first.path("model").asText());
        assertEquals(0.0, first.path("temperature").asDouble());
        assertEquals(8, first.path("max_tokens").asInt());
        assertEquals(5, first.path("seed").asLong());
        assertFalse(first.path("stream").asBoolean(true));
        assertEquals("Judge arithmetic.", first.path("messages").path(0).path("content").asText());
        assertTrue(first.path("messages").path(1).path("content").asText().startsWith(
            "Question:\nWhat is 40 + 2?\n\nReference answer:\n42\n\nAnswer to judge:\n"));
    }

    @Test
    void shouldExcludeOrFailAbstentionsAndErrorsAsTheRuleSays() throws Exception
    {
        final List<Sample> samples = List.of(sample(1, "42"), sample(2, "41"), sample(3, "maybe"), sample(4, "crash"));
        final QualityReport failing = QualityEvaluator.evaluate(new QualityRule("completed", List.of(),
            spec(1, "majority", "fail", "fail")), samples).report();
        assertEquals(4, failing.checked());
        assertEquals(1, failing.success());
        assertEquals(Map.of("judge", 1L, "judge_abstain", 1L, "judge_error", 1L), failing.failuresByReason());
        final QualityEvaluator.Result excluding = QualityEvaluator.evaluate(new QualityRule("completed", List.of(),
            spec(1, "majority", "exclude", "exclude")), samples);
        assertEquals(2, excluding.report().checked());
        assertEquals(2, excluding.report().excluded());
        assertEquals(0.5, excluding.report().successFraction(), 1e-12);
        assertTrue(excluding.verdicts().get(3L).excluded());
        assertEquals("abstain", excluding.verdicts().get(3L).toJson().path("judge").path("vote").asText());
    }

    @Test
    void shouldAskOnlyAboutOutputsThatPassedEveryCheck() throws Exception
    {
        final QualityRule rule = new QualityRule(null, List.of(new Checks.Numeric(0, 0)),
            spec(3, "majority", "fail", "fail"));
        final QualityEvaluator.Result r = QualityEvaluator.evaluate(rule, List.of(sample(1, "42"), sample(2, "41")));
        assertEquals(3, received.size(), "three samples of the one output that passed the numeric check");
        assertEquals(List.of(Judge.Vote.PASS, Judge.Vote.PASS, Judge.Vote.PASS),
            r.verdicts().get(1L).judge().replies());
        assertEquals(List.of("numeric"), r.verdicts().get(2L).reasons());
    }

    @Test
    void shouldJoinThePathBeforeTheQueryAndSendTheUserInformationAsBasicAuthorization() throws Exception
    {
        final String url = "http://judge:pw%40x@127.0.0.1:" + server.port() + "/v1/?k=q-7d1e&v=2";
        final Map<Long, Judge.Verdict> v = new Judge(spec(url, 1, "majority", "fail", "fail"))
            .judge(List.of(sample(1, "42")));
        assertEquals(List.of("/v1/chat/completions?k=q-7d1e&v=2"), requestLines);
        assertEquals(Judge.Vote.PASS, v.get(1L).vote());
        assertEquals(List.of("Basic " + Base64.getEncoder().encodeToString("judge:pw@x".getBytes(
            StandardCharsets.UTF_8))), authorizations);
    }

    @Test
    void shouldRefuseAJudgeUrlThatIsNoHttpUrlWithOneLineAndNoCredential()
    {
        for (final String bad : List.of("ftp://u:pw-3a@127.0.0.1/v1", "http://u:pw-3a@/v1?k=pw-3a",
            "http://u:pw-3a@127.0.0.1/v1/completions?k=pw-3a"))
        {
            final String message = assertThrows(IllegalArgumentException.class,
                () -> spec(bad, 1, "majority", "fail", "fail")).getMessage();
            assertTrue(message.startsWith("quality.judge.url"), message);
            assertFalse(message.contains("pw-3a"), message);
        }
    }

    @Test
    void shouldEscapeWhatAJudgeThatSpeaksNoHttpSentInTheErrorItRecords() throws Exception
    {
        try (ServerSocket raw = new ServerSocket(0, 4, InetAddress.getLoopbackAddress()))
        {
            final Thread answering = Thread.ofVirtual().start(() ->
            {
                try (Socket s = raw.accept())
                {
                    s.getInputStream().read(new byte[4096]);
                    s.getOutputStream().write("\0\377\033]0;pwned\007 garbage\r\n\r\n"
                        .getBytes(StandardCharsets.ISO_8859_1));
                }
                catch (final IOException ex)
                {
                    // the judge hung up first
                }
            });
            final Map<Long, Judge.Verdict> v = new Judge(spec("http://127.0.0.1:" + raw.getLocalPort() + "/v1", 1,
                "majority", "fail", "fail")).judge(List.of(sample(1, "42")));
            answering.join(10_000);
            assertEquals(Judge.Vote.ERROR, v.get(1L).vote());
            final String error = v.get(1L).error();
            assertTrue(error.chars().noneMatch(c -> c < 0x20 || c >= 0x7f && c <= 0x9f), error);
        }
    }

    @Test
    void shouldCombineSeveralVotesByTheDeclaredAggregation()
    {
        final List<Judge.Vote> split = List.of(Judge.Vote.PASS, Judge.Vote.FAIL, Judge.Vote.PASS);
        assertEquals(Judge.Vote.PASS, Judge.combine(split, "majority"));
        assertEquals(Judge.Vote.FAIL, Judge.combine(split, "all"));
        assertEquals(Judge.Vote.PASS, Judge.combine(split, "any"));
        assertEquals(Judge.Vote.ABSTAIN, Judge.combine(List.of(Judge.Vote.PASS, Judge.Vote.FAIL), "majority"));
        assertEquals(Judge.Vote.ABSTAIN, Judge.combine(List.of(Judge.Vote.PASS, Judge.Vote.ABSTAIN), "all"));
        assertEquals(Judge.Vote.ERROR, Judge.combine(List.of(Judge.Vote.PASS, Judge.Vote.ERROR), "any"));
        assertEquals(Judge.Vote.ABSTAIN, Judge.combine(List.of(Judge.Vote.ABSTAIN), "any"));
        assertEquals(Judge.Vote.PASS, Judge.vote("  pass"));
        assertEquals(Judge.Vote.ABSTAIN, Judge.vote("Passing grade"));
    }

    @Test
    void shouldRecordTheRubricByItsHashAndNeverTheKey()
    {
        final JsonNode d = new JudgeSpec("http://user:secret@127.0.0.1:1/v1", "judge-1", null, "abc", null, 0, 8,
            null, 1, "majority", "fail", "fail", "JUDGE_KEY", 10, 1).describe();
        assertEquals("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad", d.path("rubric_sha256")
            .asText(), "SHA-256 of \"abc\"");
        assertFalse(d.toString().contains("secret"), d.toString());
        assertFalse(d.toString().contains("JUDGE_KEY"), "not even the variable's name is needed: " + d);
    }
}
