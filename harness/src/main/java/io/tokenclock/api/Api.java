package io.tokenclock.api;

import java.util.Arrays;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

import io.tokenclock.framing.ChunkParser;
import io.tokenclock.framing.EventParser;
import io.tokenclock.framing.MessagesEventParser;
import io.tokenclock.framing.PoolingBodyParser;
import io.tokenclock.framing.ResponsesEventParser;

/**
 * The APIs, and everything about each that differs from the others. {@link #word()} is how a user, a
 * contract, {@code record.json} ({@code runtime.api}) and {@code requests.jsonl} ({@code api}) name it.
 * <table>
 * <caption>The APIs</caption>
 * <tr><th>word</th><th>path</th><th>key header</th><th>key variable</th><th>body</th><th>events</th></tr>
 * <tr><td>{@code chat}</td><td>{@code /chat/completions}</td><td>{@code Authorization: Bearer}</td>
 *     <td>{@code OPENAI_API_KEY}</td><td>{@link ChatBody}</td><td>{@link ChunkParser}</td></tr>
 * <tr><td>{@code completions}</td><td>{@code /completions}</td><td>{@code Authorization: Bearer}</td>
 *     <td>{@code OPENAI_API_KEY}</td><td>{@link CompletionsBody}</td><td>{@link ChunkParser}</td></tr>
 * <tr><td>{@code responses}</td><td>{@code /responses}</td><td>{@code Authorization: Bearer}</td>
 *     <td>{@code OPENAI_API_KEY}</td><td>{@link ResponsesBody}</td><td>{@link ResponsesEventParser}</td></tr>
 * <tr><td>{@code messages}</td><td>{@code /messages}</td><td>{@code x-api-key}, and
 *     {@code anthropic-version: 2023-06-01}</td><td>{@code ANTHROPIC_API_KEY}</td><td>{@link MessagesBody}</td>
 *     <td>{@link MessagesEventParser}</td></tr>
 * <tr><td>{@code embeddings}</td><td>{@code /embeddings}</td><td>{@code Authorization: Bearer}</td>
 *     <td>{@code OPENAI_API_KEY}</td><td>{@link EmbeddingsBody}</td><td>{@link PoolingBodyParser} (one body)</td></tr>
 * <tr><td>{@code rerank}</td><td>{@code /rerank}</td><td>{@code Authorization: Bearer}</td>
 *     <td>{@code OPENAI_API_KEY}</td><td>{@link RerankBody}</td><td>{@link PoolingBodyParser} (one body)</td></tr>
 * </table>
 * The first four stream their answers ({@link #streamed()}); embeddings and rerank answer with one JSON body, whose
 * grammar reads it whole ({@link EventParser#wholeBody()}): for them the request's latency is its end to end, and the
 * stream's metrics (TTFT, TPOT, ITL and the rest, {@code metrics.Metric.streamOnly()}) do not exist.
 * Immutable and thread-safe; {@link #newParser()} gives each caller a parser of its own.
 */
public enum Api
{
    /** OpenAI Chat Completions. */
    CHAT("chat", "OpenAI Chat Completions API", "/chat/completions", Key.BEARER, "OPENAI_API_KEY", new ChatBody()),
    /** OpenAI (legacy) text Completions. */
    COMPLETIONS("completions", "OpenAI Completions API", "/completions", Key.BEARER, "OPENAI_API_KEY",
        new CompletionsBody()),
    /** The OpenAI Responses API. */
    RESPONSES("responses", "OpenAI Responses API", "/responses", Key.BEARER, "OPENAI_API_KEY", new ResponsesBody()),
    /** Anthropic's Messages API. */
    MESSAGES("messages", "Anthropic Messages API", "/messages", Key.X_API_KEY, "ANTHROPIC_API_KEY",
        new MessagesBody()),
    /** OpenAI Embeddings (vLLM, TEI's OpenAI route, llama.cpp's server): not streamed. */
    EMBEDDINGS("embeddings", "OpenAI Embeddings API", "/embeddings", Key.BEARER, "OPENAI_API_KEY",
        new EmbeddingsBody()),
    /** Rerank (vLLM, Cohere, Jina, TEI, llama.cpp's server): a query and documents; not streamed. */
    RERANK("rerank", "rerank API", "/rerank", Key.BEARER, "OPENAI_API_KEY", new RerankBody());

    /** The {@code anthropic-version} the Messages API is spoken in (the version its streaming events are of). */
    public static final String ANTHROPIC_VERSION = "2023-06-01";

    /** Where the API key goes. */
    private enum Key
    {
        BEARER, X_API_KEY
    }

    private final String word;
    private final String title;
    private final String path;
    private final Key key;
    private final String keyEnv;
    private final BodyShape shape;

    Api(final String word, final String title, final String path, final Key key, final String keyEnv,
        final BodyShape shape)
    {
        this.word = word;
        this.title = title;
        this.path = path;
        this.key = key;
        this.keyEnv = keyEnv;
        this.shape = shape;
    }

    /** @return the API's name for people and files: {@code chat}, {@code completions}, ... */
    public String word()
    {
        return word;
    }

    /** @return the API's name in a sentence, e.g. {@code Anthropic Messages API}. */
    public String title()
    {
        return title;
    }

    /** @return the path under the API base, e.g. {@code /responses}. */
    public String path()
    {
        return path;
    }

    /** @return the environment variable the API key is read from unless the user names another. */
    public String defaultKeyEnv()
    {
        return keyEnv;
    }

    /** @return the name of the header that carries the API key, lower case. */
    public String keyHeader()
    {
        return key == Key.BEARER ? "authorization" : "x-api-key";
    }

    /** @return the key header's value for {@code apiKey}. */
    public String keyHeaderValue(final String apiKey)
    {
        return key == Key.BEARER ? "Bearer " + apiKey : apiKey;
    }

    /** @return headers every request of the API carries unless the user sends their own (names lower case). */
    public Map<String, String> fixedHeaders()
    {
        return this == MESSAGES ? Map.of("anthropic-version", ANTHROPIC_VERSION) : Map.of();
    }

    /** @return how the API's request body is laid out. */
    public BodyShape shape()
    {
        return shape;
    }

    /** @return a new parser of the API's events, for one connection's recorder (parsers are not thread-safe). */
    public EventParser newParser()
    {
        return switch (this)
        {
            case CHAT, COMPLETIONS -> new ChunkParser();
            case RESPONSES -> new ResponsesEventParser();
            case MESSAGES -> new MessagesEventParser();
            case EMBEDDINGS -> new PoolingBodyParser(PoolingBodyParser.EMBEDDINGS);
            case RERANK -> new PoolingBodyParser(PoolingBodyParser.RERANK);
        };
    }

    /**
     * @return whether the API carries a conversation (a list of messages); completions carries one prompt, embeddings
     * and rerank texts.
     */
    public boolean conversational()
    {
        return this == CHAT || this == RESPONSES || this == MESSAGES;
    }

    /**
     * @return whether the answer streams, token by token; false for the APIs that answer with one JSON body
     * (embeddings, rerank), which generate no token: their requests have an end to end and no TTFT, TPOT or ITL.
     */
    public boolean streamed()
    {
        return this != EMBEDDINGS && this != RERANK;
    }

    /** @return whether a request of the API may carry images: those with a conversation (chat, Responses, Messages). */
    public boolean takesImages()
    {
        return conversational();
    }

    /** @return whether a request carries several inputs ({@code --embed-batch}): embeddings' texts, rerank's. */
    public boolean batched()
    {
        return !streamed();
    }

    /**
     * @return the API named {@code word} (case and surrounding blanks ignored).
     * @throws IllegalArgumentException naming the words there are.
     */
    public static Api ofWord(final String word)
    {
        final String w = word == null ? "" : word.strip().toLowerCase(Locale.ROOT);
        for (final Api api : values())
        {
            if (api.word.equals(w))
            {
                return api;
            }
        }
        throw new IllegalArgumentException("must be " + words() + ": " + word);
    }

    /**
     * @return whether the API a file names by {@code word} streams its answers: false only for a word of an API that
     * answers whole (embeddings, rerank); an unknown or absent word (a file written before it named its API) streamed.
     */
    public static boolean streams(final String word)
    {
        return Arrays.stream(values()).noneMatch(a -> a.word.equals(word) && !a.streamed());
    }

    /** @return {@code "chat, completions, responses, messages, embeddings or rerank"}. */
    public static String words()
    {
        final String all = Arrays.stream(values()).map(Api::word).collect(Collectors.joining(", "));
        final int last = all.lastIndexOf(", ");
        return all.substring(0, last) + " or " + all.substring(last + 2);
    }

    /** @return the API whose path ends {@code path} (e.g. {@code /v1/messages}), or null. */
    public static Api ofPathEnd(final String path)
    {
        for (final Api api : values())
        {
            // "/chat/completions" before "/completions": the enum's order
            if (path.endsWith(api.path))
            {
                return api;
            }
        }
        return null;
    }
}
