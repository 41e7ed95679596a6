package io.tokenclock.quality;

import java.util.List;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.networknt.schema.Error;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaException;
import com.networknt.schema.SchemaLocation;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;

/**
 * The output parses as JSON and validates against a JSON Schema (draft 2020-12 unless the schema's {@code $schema}
 * names another), with networknt's json-schema-validator. The schema is read and compiled when the rule is built,
 * before the run, so a broken schema is a usage error, never a run of failures. Thread-safe.
 */
final class JsonSchemaCheck implements Check
{
    private static final String META_SCHEMA = "https://json-schema.org/draft/2020-12/schema";

    private final JsonNode schemaNode;
    private final Schema schema;

    private JsonSchemaCheck(final JsonNode schemaNode, final Schema schema)
    {
        this.schemaNode = schemaNode;
        this.schema = schema;
    }

    static JsonSchemaCheck of(final JsonNode schemaNode)
    {
        if (schemaNode == null || !schemaNode.isObject())
        {
            throw new IllegalArgumentException("quality check json_schema: the schema must be a JSON object");
        }
        try
        {
            final SchemaRegistry registry = SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12);
            // The schema itself is checked against its meta-schema (bundled with the library, read offline), so that
            // a misspelt schema fails before the run rather than passing or failing every output.
            final List<Error> metaErrors = registry.getSchema(SchemaLocation.of(META_SCHEMA)).validate(schemaNode);
            if (!metaErrors.isEmpty())
            {
                throw new IllegalArgumentException("quality check json_schema: not a valid JSON Schema (draft " +
                    "2020-12): " + metaErrors.get(0));
            }
            final Schema compiled = registry.getSchema(schemaNode);
            compiled.initializeValidators();
            return new JsonSchemaCheck(schemaNode.deepCopy(), compiled);
        }
        catch (final SchemaException ex)
        {
            throw new IllegalArgumentException("quality check json_schema: not a usable schema: " + ex.getMessage());
        }
    }

    @Override
    public String name()
    {
        return "json_schema";
    }

    @Override
    public Outcome check(final Sample s)
    {
        final JsonNode output;
        try
        {
            output = Checks.JSON.readTree(s.output().strip());
        }
        catch (final JsonProcessingException ex)
        {
            return Outcome.fail("json", ex.getOriginalMessage());
        }
        if (output == null || output.isMissingNode())
        {
            return Outcome.fail("json", "empty output");
        }
        final List<Error> errors = schema.validate(output);
        return errors.isEmpty() ? Outcome.passed() : Outcome.fail(name(), errors.get(0).toString());
    }

    @Override
    public ObjectNode describe()
    {
        final ObjectNode n = Checks.JSON.createObjectNode().put("type", name());
        n.set("schema", schemaNode.deepCopy());
        return n;
    }
}
