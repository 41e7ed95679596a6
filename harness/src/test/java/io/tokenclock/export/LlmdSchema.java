package io.tokenclock.export;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;
import com.networknt.schema.Error;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SchemaRegistryConfig;
import com.networknt.schema.SpecificationVersion;

import io.tokenclock.json.Json;

/**
 * llm-d's own JSON Schema of the Benchmark Report v0.2.1 (test resources, with its source and licence), compiled once
 * with networknt's json-schema-validator: draft 2020-12, with {@code format} asserted ({@code date-time} of
 * {@code run.time}), which the validator only annotates by default.
 */
public final class LlmdSchema
{
    /** The schema's file, copied verbatim from llm-d/llm-d-benchmark (SOURCE.md beside it). */
    public static final Path FILE = Path.of("src", "test", "resources", "io", "tokenclock", "export", "llmd",
        "br_v0_2_1_json_schema.json");

    private static final Schema SCHEMA = compile();

    private LlmdSchema()
    {
    }

    /** @return what is wrong with {@code report} under the schema, one line each; empty when it validates. */
    public static List<String> errors(final JsonNode report)
    {
        return SCHEMA.validate(report).stream().map(Error::toString).toList();
    }

    private static Schema compile()
    {
        try
        {
            final JsonNode schema = Json.MAPPER.readTree(FILE.toFile());
            final SchemaRegistry registry = SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12,
                b -> b.schemaRegistryConfig(SchemaRegistryConfig.builder().formatAssertionsEnabled(true).build()));
            final Schema compiled = registry.getSchema(schema);
            compiled.initializeValidators();
            return compiled;
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }
}
