package io.tokenclock.export;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import io.tokenclock.json.Json;
import io.tokenclock.results.record.RunRecord;

/**
 * {@code scenario.stack}: the server measured, as one component. The schema's {@code inference_engine} kind needs the
 * engine, its version, the accelerator model and count; a record has them only when its contract declared them
 * ({@code runtime.engine}, {@code runtime.version}, {@code hardware.accelerators} and
 * {@code hardware.accelerator_count}, or a count written as {@code "8x H100"}). Otherwise the component is of kind
 * {@code generic}, with what the run saw (the engine its metrics named, else its {@code Server} header) and
 * {@code "unknown"} where the schema needs a word that nothing stated: an invented accelerator count would read as a
 * measured one.
 */
final class LlmdStack
{
    static final String UNKNOWN = "unknown";

    private static final Pattern COUNT_X_MODEL = Pattern.compile("^\\s*(\\d+)\\s*[x\u00d7]\\s*(.+)$");
    private static final Pattern DEGREE = Pattern.compile("\\b(tp|pp|dp|ep)\\s*[=:]?\\s*(\\d+)",
        Pattern.CASE_INSENSITIVE);

    private LlmdStack()
    {
    }

    /** @return the stack of {@code r}: one component, or an empty list when the record names no model or server. */
    static ArrayNode of(final RunRecord r)
    {
        final ArrayNode stack = Json.MAPPER.createArrayNode();
        final String model = r.model() == null ? null : r.model().name();
        final String tool = tool(r);
        if (model == null && tool == null)
        {
            return stack;
        }
        final ObjectNode nativeNode = nativeConfig(r);
        final ObjectNode c = stack.addObject();
        c.set("metadata", Json.MAPPER.createObjectNode().put("schema_version", "0.0.1")
            .put("label", label(tool)).put("cfg_id", LlmdReport.cfgId(nativeNode)));
        c.set("standardized", standardized(r, tool, model));
        c.set("native", nativeNode);
        return stack;
    }

    /** @return the label of the one component: its tool's name, or {@code server}. */
    static String label(final String tool)
    {
        return tool == null || UNKNOWN.equals(tool) ? "server" : tool;
    }

    /** @return the engine: as declared, else as its metrics named it, else its {@code Server} header; or null. */
    static String tool(final RunRecord r)
    {
        final String declared = text(declared(r).path("engine"));
        if (declared != null)
        {
            return declared;
        }
        final String scraped = r.report() == null || r.report().server() == null ? null :
            text(r.report().server().path("engine"));
        if (scraped != null)
        {
            return scraped;
        }
        return r.runtime() == null || r.runtime().serverHeaders() == null ? null :
            r.runtime().serverHeaders().get("server");
    }

    private static ObjectNode standardized(final RunRecord r, final String tool, final String model)
    {
        final String version = text(declared(r).path("version"));
        final JsonNode hw = r.hardware() == null || r.hardware().serverDeclared() == null ?
            Json.MAPPER.missingNode() : r.hardware().serverDeclared();
        String accelerator = text(hw.path("accelerators"));
        Integer count = hw.path("accelerator_count").canConvertToInt() ? hw.path("accelerator_count").asInt() : null;
        final Matcher m = accelerator == null ? null : COUNT_X_MODEL.matcher(accelerator);
        if (count == null && m != null && m.matches())
        {
            count = Integer.parseInt(m.group(1));
            accelerator = m.group(2).strip();
        }
        final ObjectNode s = Json.MAPPER.createObjectNode();
        final boolean engine = tool != null && version != null && accelerator != null && count != null &&
            model != null;
        s.put("kind", engine ? "inference_engine" : "generic").put("tool", tool == null ? UNKNOWN : tool)
            .put("tool_version", version == null ? UNKNOWN : version);
        if (engine)
        {
            s.put("role", "replica").put("replicas", 1);
            s.putObject("model").put("name", model);
            final ObjectNode acc = s.putObject("accelerator").put("model", accelerator).put("count", count);
            acc.set("parallelism", parallelism(declared(r).path("parallelism")));
        }
        else if (model != null)
        {
            s.putObject("model").put("name", model); // a generic component takes any field
        }
        return s;
    }

    /** @return the degrees a declared {@code runtime.parallelism} states ({@code {tp: 4}} or {@code "tp=4 pp=2"}). */
    static ObjectNode parallelism(final JsonNode declared)
    {
        final ObjectNode p = Json.MAPPER.createObjectNode();
        if (declared.isObject())
        {
            for (final String key : new String[] {"tp", "pp", "dp", "ep", "dp_local", "workers"})
            {
                final JsonNode v = declared.path(key);
                if (v.canConvertToInt() && v.asInt() >= 1)
                {
                    p.put(key, v.asInt());
                }
            }
        }
        else if (declared.isTextual())
        {
            final Matcher m = DEGREE.matcher(declared.asText());
            while (m.find())
            {
                final int degree = Integer.parseInt(m.group(2));
                if (degree >= 1)
                {
                    p.put(m.group(1).toLowerCase(Locale.ROOT), degree);
                }
            }
        }
        return p;
    }

    private static ObjectNode nativeConfig(final RunRecord r)
    {
        final ObjectNode config = Json.MAPPER.createObjectNode();
        if (r.runtime() != null)
        {
            config.put("endpoint", r.runtime().endpoint()).put("api", r.runtime().api());
            config.set("server_headers", Json.MAPPER.valueToTree(r.runtime().serverHeaders()));
            config.set("runtime_declared", r.runtime().declared());
        }
        if (r.hardware() != null)
        {
            config.set("hardware_declared", r.hardware().serverDeclared());
        }
        if (r.model() != null)
        {
            config.set("served_models", Json.MAPPER.valueToTree(r.model().servedModels()));
            config.put("revision", r.model().revision());
        }
        final ObjectNode n = Json.MAPPER.createObjectNode();
        n.set("config", config);
        return n;
    }

    private static JsonNode declared(final RunRecord r)
    {
        return r.runtime() == null || r.runtime().declared() == null ? Json.MAPPER.missingNode() :
            r.runtime().declared();
    }

    static String text(final JsonNode n)
    {
        return n != null && n.isValueNode() && !n.isNull() && !n.asText().isBlank() ? n.asText() : null;
    }
}
