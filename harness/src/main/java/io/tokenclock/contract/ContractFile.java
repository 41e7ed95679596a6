package io.tokenclock.contract;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;

import io.tokenclock.config.RunOptions;
import io.tokenclock.secrets.Redaction;

/**
 * The benchmark contract file: B = (W, A, M, R, S, H, N, E, Q) declared in one YAML document.
 * <pre>
 * name: chat-slo                 # what this experiment is
 * seed: 42
 * target:   {url: http://127.0.0.1:8000/v1, endpoint: chat}            # N: the boundary measured
 * model:    {name: m, tokenizer: cl100k_base, context_limit: 8192,     # M
 *            decoding: {max_tokens: 256, temperature: 0, ignore_eos: true}}
 * runtime:  {engine: vllm, version: 0.11.0, precision: bf16}           # R, as declared
 * hardware: {accelerators: 1x H200 141GB}                              # H, as declared (the client is captured)
 * workload: {input_tokens: {dist: lognormal, median: 512, sigma: 0.6, min: 16, max: 4096},   # W
 *            output_tokens: {dist: fixed, value: 256}, correlation: 0.3}
 * load:     {mode: open, rate: 4, arrival: gamma, burstiness: 0.5, max_concurrency: 256, duration_s: 120}  # A
 * state:    {warmup: {requests: 16}, cache: preserve, repetitions: 1}  # S
 * measurement: {formulas: tokenclock-metrics/1}                        # E
 * quality:  {success: none}                                            # Q
 * </pre>
 * Every key is checked ({@link ContractSchema}); a mistake gets one line naming its key path.
 */
public final class ContractFile
{
    /** Duplicate keys are an error: with "the last one wins", a contract could silently declare two experiments. */
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory())
        .enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION);

    private final Path path;
    private final ObjectNode tree;
    private final List<String> errors;

    private ContractFile(final Path path, final ObjectNode tree, final List<String> errors)
    {
        this.path = path;
        this.tree = tree;
        this.errors = List.copyOf(errors);
    }

    /** Reads and checks a contract file. Never throws for bad content: problems are in {@link #errors()}. */
    public static ContractFile load(final Path path)
    {
        final List<String> errors = new ArrayList<>();
        final JsonNode root;
        try
        {
            root = YAML.readTree(Files.readString(path));
        }
        catch (final NoSuchFileException ex)
        {
            return new ContractFile(path, null, List.of("no such file"));
        }
        catch (final JsonProcessingException ex)
        {
            final var loc = ex.getLocation();
            return new ContractFile(path, null, List.of((loc != null ? "line " + loc.getLineNr() + ": " : "") +
                "not valid YAML: " + ex.getOriginalMessage().replace('\n', ' ')));
        }
        catch (final IOException ex)
        {
            return new ContractFile(path, null, List.of("cannot read: " + ex.getMessage()));
        }
        if (!(root instanceof ObjectNode object))
        {
            return new ContractFile(path, null,
                List.of("must be a YAML map of sections (target, model, workload, load, ...)"));
        }
        ContractSchema.ROOT.check("", object, errors);
        if (errors.isEmpty())
        {
            ContractSchema.crossCheck(object, path.toAbsolutePath().getParent(), errors);
        }
        if (errors.isEmpty())
        {
            final String broken = brokenRule(new ContractFile(path, object, errors));
            if (broken != null)
            {
                errors.add(broken);
            }
        }
        return new ContractFile(path, object, errors);
    }

    /**
     * @return the first run rule ({@code config.RunRules}) the contract breaks on its own, named by its keys; null
     * when none. The schema checks the document's shape; the rules that also bind command-line flags live in one place
     * and are checked through the same builder a run uses.
     */
    private static String brokenRule(final ContractFile wellFormed)
    {
        try
        {
            ContractOptions.apply(wellFormed, RunOptions.builder()).build();
            return null;
        }
        catch (final IllegalArgumentException ex)
        {
            return ex.getMessage();
        }
    }

    public Path path()
    {
        return path;
    }

    /** @return the parsed document (null if it was not a YAML map). */
    public ObjectNode tree()
    {
        return tree;
    }

    /**
     * The contract as it may be written out: a deep copy in which every {@code target.headers} value is
     * {@code <redacted>} and every URL-like string (a {@code target.url}, a cache flush URL) goes through
     * {@link Redaction#url}. The record keeps this copy, never the file's own tree.
     *
     * @return the redacted copy, or null if the file was not a YAML map.
     */
    public ObjectNode redactedTree()
    {
        return tree == null ? null : redacted(tree);
    }

    /** @return a redacted deep copy of a contract tree: see {@link #redactedTree()}. */
    public static ObjectNode redacted(final ObjectNode contract)
    {
        final ObjectNode copy = contract.deepCopy();
        redactUrls(copy);
        if (copy.path("target").path("headers") instanceof ObjectNode headers)
        {
            headers.properties().forEach(h -> h.setValue(TextNode.valueOf(Redaction.REDACTED)));
        }
        return copy;
    }

    /** @return the node, with every URL-like string in it redacted (in place), or a redacted copy of a string. */
    private static JsonNode redactUrls(final JsonNode node)
    {
        if (node.isTextual() && node.asText().contains("://"))
        {
            return TextNode.valueOf(Redaction.url(node.asText()));
        }
        if (node instanceof ObjectNode object)
        {
            object.properties().forEach(field -> field.setValue(redactUrls(field.getValue())));
        }
        else if (node instanceof ArrayNode array)
        {
            for (int i = 0; i < array.size(); i++)
            {
                array.set(i, redactUrls(array.get(i)));
            }
        }
        return node;
    }

    /** @return one line per problem, each naming its key path; empty if the contract is valid. */
    public List<String> errors()
    {
        return errors;
    }

    public boolean isValid()
    {
        return errors.isEmpty();
    }
}
