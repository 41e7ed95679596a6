package io.tokenclock.quality;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ExecutionException;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import io.tokenclock.text.UntrustedText;
import io.tokenclock.transport.Endpoint;

/**
 * Asks the judge of a {@link JudgeSpec} about each output: {@code samples} non-streaming chat completions per output,
 * the rubric as the system message and {@link #TEMPLATE} filled in as the user message, over connections of its own
 * (the JDK's HTTP client, never the measured transport), after the window. Thread-safe; one instance per evaluation.
 */
public final class Judge
{
    /** The user message: the prompt, the reference and the answer, then what to reply. */
    public static final String TEMPLATE = "Question:\n%s\n\nReference answer:\n%s\n\nAnswer to judge:\n%s\n\n" +
        "Reply with PASS if the answer is acceptable under the rubric, FAIL if it is not, or ABSTAIN if you cannot " +
        "tell. The first word of your reply is your verdict.";

    /** One output's verdict. */
    public enum Vote
    {
        PASS, FAIL, ABSTAIN, ERROR
    }

    /**
     * @param vote    the combined verdict.
     * @param replies each call's vote, in order.
     * @param error   the first failed call's cause, or null.
     */
    public record Verdict(Vote vote, List<Vote> replies, String error)
    {
    }

    private final JudgeSpec spec;
    private final HttpClient http;
    private final URI completions;
    /** The Authorization header's value, or null: the URL's user information, else the key's variable (Bearer). */
    private final String authorization;

    /** A judge for {@code spec}: its HTTP client and the Authorization header are built once, here. */
    public Judge(final JudgeSpec spec)
    {
        this.spec = spec;
        this.http = HttpClient.newBuilder().connectTimeout(Duration.ofMillis((long)(spec.timeoutS() * 1e3))).build();
        final Endpoint endpoint = spec.endpoint();
        this.completions = URI.create(endpoint.completionUrl());
        final String apiKey = spec.apiKeyEnv() == null ? null : System.getenv(spec.apiKeyEnv());
        this.authorization = endpoint.userInfo() != null ? endpoint.basicAuthorization() :
            apiKey != null && !apiKey.isBlank() ? "Bearer " + apiKey.strip() : null;
    }

    /** @return each sample's verdict by request id; calls {@code concurrency} at a time. */
    public Map<Long, Verdict> judge(final List<Sample> samples) throws InterruptedException
    {
        final Map<Long, Verdict> out = new ConcurrentHashMap<>();
        final ExecutorService pool = Executors.newFixedThreadPool(spec.concurrency());
        try
        {
            final List<Future<?>> pending = new ArrayList<>();
            for (final Sample s : samples)
            {
                pending.add(pool.submit(() -> out.put(s.id(), judge(s))));
            }
            for (final Future<?> f : pending)
            {
                f.get();
            }
        }
        catch (final ExecutionException ex)
        {
            throw new IllegalStateException("judging failed: " + ex.getCause(), ex.getCause());
        }
        finally
        {
            pool.shutdownNow();
        }
        return out;
    }

    /** @return one sample's verdict from {@code samples} calls. */
    Verdict judge(final Sample s)
    {
        final List<Vote> replies = new ArrayList<>();
        String error = null;
        for (int k = 0; k < spec.samples(); k++)
        {
            try
            {
                replies.add(vote(call(s)));
            }
            catch (final IOException | RuntimeException ex)
            {
                replies.add(Vote.ERROR);
                // the message may quote what the judge sent (a status line that is no HTTP): escaped
                error = error != null ? error : ex.getClass().getSimpleName() + ": " +
                    UntrustedText.oneLine(String.valueOf(ex.getMessage()));
            }
            catch (final InterruptedException ex)
            {
                Thread.currentThread().interrupt();
                replies.add(Vote.ERROR);
                error = error != null ? error : "interrupted";
                break;
            }
        }
        return new Verdict(combine(replies, spec.aggregation()), List.copyOf(replies), error);
    }

    private String call(final Sample s) throws IOException, InterruptedException
    {
        final ObjectNode body = Checks.JSON.createObjectNode();
        body.put("model", spec.model()).put("stream", false).put("temperature", spec.temperature())
            .put("max_tokens", spec.maxTokens());
        if (spec.seed() != null)
        {
            body.put("seed", spec.seed());
        }
        body.putArray("messages")
            .add(Checks.JSON.createObjectNode().put("role", "system").put("content", spec.rubric()))
            .add(Checks.JSON.createObjectNode().put("role", "user").put("content", String.format(Locale.ROOT,
                TEMPLATE, orNone(s.prompt()), orNone(s.reference()), s.output())));
        final HttpRequest.Builder request = HttpRequest.newBuilder(completions)
            .timeout(Duration.ofMillis((long)(spec.timeoutS() * 1e3)))
            .header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString(Checks.JSON.writeValueAsString(body)));
        if (authorization != null)
        {
            request.header("Authorization", authorization);
        }
        final HttpResponse<String> response = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() != 200)
        {
            throw new IOException("HTTP " + response.statusCode());
        }
        final JsonNode content = Checks.JSON.readTree(response.body()).path("choices").path(0).path("message")
            .path("content");
        if (!content.isTextual())
        {
            throw new IOException("no choices[0].message.content in the judge's answer");
        }
        return content.asText();
    }

    private static String orNone(final String text)
    {
        return text == null ? "(none)" : text;
    }

    /** @return the reply's first word as a vote: PASS, FAIL, or anything else an abstention. */
    static Vote vote(final String reply)
    {
        final String[] words = reply.strip().split("[^A-Za-z]+", 2);
        final String first = words.length == 0 ? "" : words[0].toUpperCase(Locale.ROOT);
        return switch (first)
        {
            case "PASS" -> Vote.PASS;
            case "FAIL" -> Vote.FAIL;
            default -> Vote.ABSTAIN;
        };
    }

    /**
     * @return the verdict of several votes: an error if any call failed; else, over the PASS and FAIL votes,
     * {@code majority} (a tie is an abstention), {@code all} (every vote PASS; any FAIL fails), or {@code any} (one
     * PASS passes; else any FAIL fails); no PASS or FAIL vote at all is an abstention.
     */
    static Vote combine(final List<Vote> votes, final String aggregation)
    {
        if (votes.contains(Vote.ERROR))
        {
            return Vote.ERROR;
        }
        final long pass = votes.stream().filter(v -> v == Vote.PASS).count();
        final long fail = votes.stream().filter(v -> v == Vote.FAIL).count();
        if (pass + fail == 0)
        {
            return Vote.ABSTAIN;
        }
        return switch (aggregation)
        {
            case "all" -> pass == votes.size() ? Vote.PASS : fail > 0 ? Vote.FAIL : Vote.ABSTAIN;
            case "any" -> pass > 0 ? Vote.PASS : Vote.FAIL;
            default -> pass > fail ? Vote.PASS : fail > pass ? Vote.FAIL : Vote.ABSTAIN;
        };
    }
}
