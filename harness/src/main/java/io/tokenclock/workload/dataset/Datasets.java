package io.tokenclock.workload.dataset;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.CharacterCodingException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.tokenclock.json.Json;

/**
 * Loads request datasets and traces. Every problem is one {@link IllegalArgumentException} line naming the file and
 * line (or entry) and what is wrong.
 * <ul>
 * <li>{@code jsonl}: one JSON object per line with {@code prompt} (string) or {@code messages} (OpenAI chat array),
 * optional {@code max_tokens}, {@code reference}, {@code segment}.</li>
 * <li>{@code sharegpt}: a JSON array of {@code {"conversations": [{"from": "human", "value": ...}, {"from": "gpt",
 * "value": ...}, ...]}}; the first human turn is the prompt and the following gpt turn's length (counted by the
 * tokenizer at generation time) its output length, as vLLM's benchmark does. Conversations without a human turn
 * followed by a gpt turn are skipped and counted.</li>
 * <li>{@code mooncake}: JSONL with {@code timestamp} (ms), {@code input_length}, {@code output_length} and
 * {@code hash_ids} (prefix blocks: equal ids are equal text, so a prefix cache sees the trace's reuse).</li>
 * </ul>
 */
public final class Datasets
{
    private static final ObjectMapper JSON = Json.MAPPER;

    /**
     * The dataset formats: those {@link #load} reads into memory, and the session traces that replay on their own
     * schedule ({@link SessionTrace}; a Mooncake trace is read either way).
     */
    public static final List<String> FORMATS = List.of("jsonl", "sharegpt", "mooncake", "tracelab", "weka");

    private Datasets()
    {
    }

    /** @return the entries of {@code file} read as {@code format}, a trace's blocks of 512 tokens. */
    public static List<DatasetEntry> load(final Path file, final String format)
    {
        return load(file, format, SessionTrace.MOONCAKE_BLOCK_TOKENS);
    }

    /**
     * @return the entries of {@code file} read as {@code format}, one of {@link #FORMATS}; a Mooncake trace's
     * {@code hash_ids} checked against its {@code input_length} in blocks of {@code blockSize} tokens.
     */
    public static List<DatasetEntry> load(final Path file, final String format, final int blockSize)
    {
        final String f = format.toLowerCase(Locale.ROOT);
        final List<DatasetEntry> entries = switch (f)
        {
            case "jsonl" -> jsonl(file);
            case "sharegpt" -> shareGpt(file);
            case "mooncake" -> mooncake(file, new TraceSession.BlockLayout(blockSize, false));
            case "tracelab", "weka" -> throw new IllegalArgumentException("a " + f + " trace replays its sessions on " +
                "their own schedule (--fixed-schedule, or --concurrency N sessions at a time)");
            default -> throw new IllegalArgumentException("dataset format must be one of " + FORMATS + ": " + format);
        };
        if (entries.isEmpty())
        {
            throw new IllegalArgumentException(file + ": the dataset has no usable entries");
        }
        return entries;
    }

    private static List<String> lines(final Path file)
    {
        try
        {
            return Files.readAllLines(file);
        }
        catch (final NoSuchFileException ex)
        {
            throw new IllegalArgumentException(file + ": no such file");
        }
        catch (final CharacterCodingException ex)
        {
            throw new IllegalArgumentException(file + ": not UTF-8 text (dataset files are UTF-8)");
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(file + ": cannot read", ex);
        }
    }

    private static JsonNode parseLine(final Path file, final int lineNo, final String line)
    {
        try
        {
            final JsonNode node = JSON.readTree(line);
            if (!node.isObject())
            {
                throw new IllegalArgumentException(file + ":" + lineNo + ": must be a JSON object");
            }
            return node;
        }
        catch (final JsonProcessingException ex)
        {
            throw new IllegalArgumentException(file + ":" + lineNo + ": not valid JSON: " + ex.getOriginalMessage());
        }
    }

    private static List<DatasetEntry> jsonl(final Path file)
    {
        final List<DatasetEntry> out = new ArrayList<>();
        final List<String> lines = lines(file);
        for (int i = 0; i < lines.size(); i++)
        {
            if (lines.get(i).isBlank())
            {
                continue;
            }
            final int lineNo = i + 1;
            final JsonNode n = parseLine(file, lineNo, lines.get(i));
            final JsonNode prompt = n.get("prompt");
            final JsonNode messages = n.get("messages");
            if ((prompt == null || !prompt.isTextual()) && (messages == null || !messages.isArray() ||
                messages.isEmpty()))
            {
                throw new IllegalArgumentException(file + ":" + lineNo + ": needs a \"prompt\" string or a " +
                    "non-empty \"messages\" array");
            }
            final int maxTokens = n.has("max_tokens") ? positive(file, lineNo, n.get("max_tokens"), "max_tokens") : -1;
            out.add(new DatasetEntry(prompt != null && prompt.isTextual() ? prompt.asText() : null,
                messages != null && messages.isArray() ? messages : null, maxTokens, text(n, "reference"),
                text(n, "segment"), -1, -1, null));
        }
        return out;
    }

    private static List<DatasetEntry> shareGpt(final Path file)
    {
        final JsonNode root;
        try
        {
            root = JSON.readTree(file.toFile());
        }
        catch (final JsonProcessingException ex)
        {
            throw new IllegalArgumentException(file + ": not valid JSON: " + ex.getOriginalMessage());
        }
        catch (final IOException ex)
        {
            throw new IllegalArgumentException(file + ": cannot read: " + ex.getMessage());
        }
        if (!root.isArray())
        {
            throw new IllegalArgumentException(file + ": a ShareGPT file is a JSON array of conversations");
        }
        final List<DatasetEntry> out = new ArrayList<>();
        for (final JsonNode conversation : root)
        {
            final JsonNode turns = conversation.path("conversations");
            for (int t = 0; t + 1 < turns.size(); t++)
            {
                final JsonNode ask = turns.get(t);
                final JsonNode answer = turns.get(t + 1);
                if (isFrom(ask, "human", "user") && isFrom(answer, "gpt", "assistant") &&
                    !ask.path("value").asText("").isBlank())
                {
                    out.add(new DatasetEntry(ask.get("value").asText(), null, -1, answer.path("value").asText(""),
                        null, -1, -1, null));
                    break;
                }
            }
        }
        return out;
    }

    private static boolean isFrom(final JsonNode turn, final String a, final String b)
    {
        final String from = turn.path("from").asText(turn.path("role").asText(""));
        return from.equals(a) || from.equals(b);
    }

    private static List<DatasetEntry> mooncake(final Path file, final TraceSession.BlockLayout layout)
    {
        final List<DatasetEntry> out = new ArrayList<>();
        final List<String> lines = lines(file);
        long previous = Long.MIN_VALUE;
        for (int i = 0; i < lines.size(); i++)
        {
            if (lines.get(i).isBlank())
            {
                continue;
            }
            final int lineNo = i + 1;
            final JsonNode n = parseLine(file, lineNo, lines.get(i));
            if (!n.path("timestamp").isNumber() || n.get("timestamp").asLong() < 0)
            {
                throw new IllegalArgumentException(file + ":" + lineNo + ": needs \"timestamp\" (ms, >= 0)");
            }
            final long ts = n.get("timestamp").asLong();
            if (ts < previous)
            {
                throw new IllegalArgumentException(file + ":" + lineNo + ": timestamps must not decrease (" + ts +
                    " after " + previous + ")");
            }
            previous = ts;
            final int in = positive(file, lineNo, n.get("input_length"), "input_length");
            final int outLen = positive(file, lineNo, n.get("output_length"), "output_length");
            final JsonNode ids = n.path("hash_ids");
            final long[] hashIds = new long[ids.size()];
            for (int k = 0; k < hashIds.length; k++)
            {
                if (!ids.get(k).canConvertToLong())
                {
                    throw new IllegalArgumentException(file + ":" + lineNo + ": hash_ids must be integers");
                }
                hashIds[k] = ids.get(k).asLong();
            }
            TraceFields.of(file + ":" + lineNo, n).blocks(hashIds, in, layout, "input_length");
            out.add(new DatasetEntry(null, null, outLen, null, text(n, "segment"), ts, in, hashIds));
        }
        return out;
    }

    private static int positive(final Path file, final int lineNo, final JsonNode v, final String name)
    {
        if (v == null || !v.canConvertToInt() || v.asInt() < 1)
        {
            throw new IllegalArgumentException(file + ":" + lineNo + ": \"" + name + "\" must be an integer >= 1");
        }
        return v.asInt();
    }

    private static String text(final JsonNode n, final String field)
    {
        return n.hasNonNull(field) ? n.get(field).asText() : null;
    }
}
