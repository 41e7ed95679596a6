package io.tokenclock.quality;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import io.tokenclock.api.Api;
import io.tokenclock.secrets.Redaction;
import io.tokenclock.transport.Endpoint;
import io.tokenclock.util.Sha256;

/**
 * An LLM judge: a second OpenAI-compatible endpoint asked, after the window, whether each output passes a rubric.
 * Fixed before the run and written whole into the record: model and revision, the rubric's text and SHA-256,
 * sampling, how several samples are combined, and what an abstention or a failed call counts as. Immutable.
 *
 * @param url         the judge's API base URL, e.g. {@code http://127.0.0.1:9000/v1}, or its
 *                    {@code .../chat/completions} URL; parsed as {@code --url} is ({@link #endpoint()}).
 * @param model       the judge model's name.
 * @param revision    the judge model's revision, or null (then the record's grade lists it as missing).
 * @param rubric      the rubric, sent as the system message.
 * @param rubricFile  the file the rubric was read from, or null for an inline rubric.
 * @param temperature sampling temperature.
 * @param maxTokens   max_tokens of each judge call.
 * @param seed        the sampling seed sent, or null.
 * @param samples     judge calls per output.
 * @param aggregation how the samples combine: {@code majority}, {@code all} or {@code any}.
 * @param abstain     what an abstention counts as: {@code fail} or {@code exclude}.
 * @param onError     what a failed judge call counts as: {@code fail} or {@code exclude}.
 * @param apiKeyEnv   the environment variable holding the judge's API key, or null (the key is never written).
 * @param timeoutS    how long one judge call may take, s.
 * @param concurrency judge calls in flight at once.
 */
public record JudgeSpec(String url, String model, String revision, String rubric, String rubricFile,
    double temperature, int maxTokens, Long seed, int samples, String aggregation, String abstain, String onError,
    String apiKeyEnv, double timeoutS, int concurrency)
{
    public static final List<String> AGGREGATIONS = List.of("majority", "all", "any");
    public static final List<String> TREATMENTS = List.of("fail", "exclude");

    public JudgeSpec
    {
        if (url == null || url.isBlank() || model == null || model.isBlank())
        {
            throw new IllegalArgumentException("quality.judge needs url and model");
        }
        if (rubric == null || rubric.isBlank())
        {
            throw new IllegalArgumentException("quality.judge needs a rubric (rubric: text, or rubric_file: path)");
        }
        if (!AGGREGATIONS.contains(aggregation) || !TREATMENTS.contains(abstain) || !TREATMENTS.contains(onError))
        {
            throw new IllegalArgumentException("quality.judge: aggregation must be one of " + AGGREGATIONS +
                ", abstain and on_error one of " + TREATMENTS);
        }
        endpoint(url);
        // the temperature's range, the OpenAI API's, is config.RunRules's alone (as for the run's own temperature)
        if (samples < 1 || maxTokens < 1 || concurrency < 1 || !(timeoutS > 0))
        {
            throw new IllegalArgumentException("quality.judge: samples, max_tokens and concurrency must be >= 1, " +
                "timeout_s > 0");
        }
    }

    /**
     * @param spec    a contract's {@code quality.judge} (shape already checked).
     * @param baseDir where a relative {@code rubric_file} is found, or null for the working directory.
     */
    public static JudgeSpec fromSpec(final JsonNode spec, final Path baseDir)
    {
        String rubric = spec.path("rubric").asText(null);
        String rubricFile = null;
        if (spec.hasNonNull("rubric_file"))
        {
            final Path given = Path.of(spec.get("rubric_file").asText());
            final Path file = baseDir == null || given.isAbsolute() ? given : baseDir.resolve(given);
            rubricFile = file.toString();
            try
            {
                rubric = Files.readString(file, StandardCharsets.UTF_8);
            }
            catch (final IOException ex)
            {
                throw new IllegalArgumentException(file + ": cannot read the judge's rubric: " + ex.getMessage());
            }
        }
        return new JudgeSpec(spec.path("url").asText(), spec.path("model").asText(),
            spec.path("revision").asText(null), rubric, rubricFile, spec.path("temperature").asDouble(0),
            spec.path("max_tokens").asInt(16), spec.hasNonNull("seed") ? spec.get("seed").asLong() : null,
            spec.path("samples").asInt(1), spec.path("aggregation").asText("majority"),
            spec.path("abstain").asText("fail"), spec.path("on_error").asText("fail"),
            spec.path("api_key_env").asText(null), spec.path("timeout_s").asDouble(60),
            spec.path("concurrency").asInt(4));
    }

    /**
     * @return where the judge is asked: the URL parsed exactly as {@code --url} is, so that the path
     * {@code /chat/completions} is joined before any query and the user information becomes a Basic
     * {@code Authorization} header ({@link Endpoint#basicAuthorization()}).
     */
    public Endpoint endpoint()
    {
        return endpoint(url);
    }

    private static Endpoint endpoint(final String url)
    {
        final Endpoint e = Endpoint.parse(url, Api.CHAT, "quality.judge.url");
        if (e.api() != Api.CHAT)
        {
            throw new IllegalArgumentException("quality.judge.url: the judge is asked through /chat/completions; " +
                "give its API base (ending in /v1): " + Redaction.url(url));
        }
        return e;
    }

    /** @return the SHA-256 of the rubric's UTF-8 bytes, hex. */
    public String rubricSha256()
    {
        return Sha256.hex(rubric.getBytes(StandardCharsets.UTF_8));
    }

    /** @return the judge as the record states it (the URL with any credential redacted; the key never). */
    public ObjectNode describe()
    {
        final ObjectNode n = Checks.JSON.createObjectNode();
        n.put("url", Redaction.url(url)).put("model", model).put("revision", revision);
        n.put("rubric", rubric).put("rubric_sha256", rubricSha256()).put("rubric_file", rubricFile);
        n.putObject("sampling").put("temperature", temperature).put("max_tokens", maxTokens).put("seed", seed)
            .put("samples", samples);
        n.put("aggregation", aggregation).put("abstain", abstain).put("on_error", onError);
        n.put("verdict_rule", "the reply's first word: PASS, FAIL or ABSTAIN (anything else is an abstention); " +
            "a call that fails or times out is an error; any error makes the output's verdict an error, else " +
            aggregation + " of the PASS and FAIL votes (a tie, or no vote, is an abstention)");
        n.put("timeout_s", timeoutS).put("concurrency", concurrency);
        return n;
    }
}
