package io.tokenclock.export;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import io.tokenclock.json.Json;
import io.tokenclock.metrics.Counter;
import io.tokenclock.results.record.Dist;
import io.tokenclock.results.record.LoadSection;
import io.tokenclock.results.record.ReportSection;
import io.tokenclock.results.record.RunRecord;

/**
 * {@code scenario.load}: the load generator (tokenclock, or the peer whose file was read), the load (rate or
 * concurrency), the sequence lengths (as the contract declared them, else as measured), the prompts' source, and in
 * {@code native} the command line and the record's own load and workload sections, which say the rest (arrivals,
 * warm-up, timeouts, the end-of-window rule).
 */
final class LlmdLoad
{
    /** The load generator's name in llm-d's words for the peers it converts itself. */
    private static final Map<String, String> GENERATORS = Map.of("vllm", "vllm-benchmark");

    private LlmdLoad()
    {
    }

    /**
     * @param r           the run.
     * @param peer        the peer tool whose file it was read from, or null for tokenclock's own.
     * @param stage       its stage: a sweep's point, else 0.
     * @param generators  load generators that made it together (a merged run's shards), at least 1.
     */
    static ObjectNode of(final RunRecord r, final String peer, final int stage, final int generators)
    {
        final ObjectNode nativeNode = nativeConfig(r);
        final ObjectNode load = Json.MAPPER.createObjectNode();
        final ObjectNode metadata = load.putObject("metadata").put("schema_version", "0.0.1")
            .put("cfg_id", LlmdReport.cfgId(nativeNode));
        if (r.workload() != null && r.workload().prompts() != null)
        {
            metadata.put("description", r.workload().prompts());
        }
        final ObjectNode s = load.putObject("standardized");
        s.put("tool", peer == null ? "tokenclock" : GENERATORS.getOrDefault(peer, peer))
            .put("tool_version", version(r, peer)).put("parallelism", Math.max(1, generators))
            .put("source", source(r)).put("stage", stage);
        final ObjectNode input = inputLength(r);
        if (input == null)
        {
            // the schema requires an input length: 0, with the reason where a reader of the report looks for one
            s.set("input_seq_len", length("other", 0));
            metadata.put("description", (metadata.has("description") ? metadata.get("description").asText() + "; " :
                "") + "input lengths unknown: the result states none (input_seq_len 0)");
        }
        else
        {
            s.set("input_seq_len", input);
        }
        final ObjectNode output = outputLength(r);
        if (output != null)
        {
            s.set("output_seq_len", output);
        }
        if (multiTurn(r))
        {
            s.putObject("multi_turn").put("enabled", true);
        }
        final LoadSection l = r.load();
        if (l != null && l.ratePerS() != null && l.ratePerS() > 0 && Double.isFinite(l.ratePerS()))
        {
            s.put("rate_qps", l.ratePerS());
        }
        if (l != null && l.concurrency() != null && l.concurrency() >= 1)
        {
            s.put("concurrency", l.concurrency());
        }
        load.set("native", nativeNode);
        return load;
    }

    private static String version(final RunRecord r, final String peer)
    {
        final String v = r.tokenclock() == null ? null : r.tokenclock().version();
        if (v == null)
        {
            return LlmdStack.UNKNOWN;
        }
        // a peer's record says "vllm 0.6.3": the tool, then its version when the file gave one
        return peer != null && v.startsWith(peer) ? (v.length() > peer.length() ? v.substring(peer.length() + 1) :
            LlmdStack.UNKNOWN) : v;
    }

    /** @return how prompts were made, by the workload's description: random words, sampled data, or unknown. */
    private static String source(final RunRecord r)
    {
        final String prompts = r.workload() == null || r.workload().prompts() == null ? "" : r.workload().prompts();
        if (prompts.startsWith("dataset"))
        {
            return "sampled";
        }
        return prompts.startsWith("synthetic") || multiTurn(r) ? "random" : "unknown";
    }

    private static boolean multiTurn(final RunRecord r)
    {
        final String prompts = r.workload() == null || r.workload().prompts() == null ? "" : r.workload().prompts();
        return prompts.contains("multi-turn sessions") || prompts.contains("tool-using agents");
    }

    /** @return the input length: declared, else measured, else the mean of a peer's totals; null when unknown. */
    private static ObjectNode inputLength(final RunRecord r)
    {
        final ObjectNode declared = r.workload() == null ? null : declared(r.workload().inputTokens());
        if (declared != null)
        {
            return declared;
        }
        final Dist d = r.report() == null ? null : r.report().distribution("input_tokens");
        if (d != null && d.count() > 0 && d.mean() != null)
        {
            return measured(d);
        }
        // a peer's file without per-request lengths: the mean from its totals, the only figure there is
        final ReportSection.Counts counts = r.report() == null ? null : r.report().counts();
        final long ok = counts == null ? 0 : counts.get(Counter.OK);
        final long tokens = counts == null ? 0 : counts.get(Counter.INPUT_TOKENS);
        return ok > 0 && tokens > 0 ? length("other", (double)tokens / ok) : null;
    }

    /** @return the output length, if the server was held to it ({@code ignore_eos}), else null. */
    private static ObjectNode outputLength(final RunRecord r)
    {
        final RunRecord.Decoding decoding = r.model() == null ? null : r.model().decoding();
        if (decoding == null || !decoding.ignoreEos())
        {
            return null;
        }
        final ObjectNode declared = r.workload() == null ? null : declared(r.workload().outputTokens());
        if (declared != null)
        {
            return declared;
        }
        return decoding.maxTokens() == null ? null : length("fixed", decoding.maxTokens());
    }

    /** @return a contract's length distribution in the schema's four kinds, or null for none. */
    static ObjectNode declared(final JsonNode dist)
    {
        if (dist == null || !dist.isObject())
        {
            return null;
        }
        final String kind = dist.path("dist").asText();
        final ObjectNode n = switch (kind)
        {
            case "fixed" -> length("fixed", dist.path("value").asDouble());
            case "uniform" -> length("uniform", (dist.path("min").asDouble() + dist.path("max").asDouble()) / 2);
            case "normal" -> length("gaussian", dist.path("mean").asDouble());
            case "lognormal" -> length("other", dist.path("median").asDouble());
            default -> null;
        };
        if (n == null)
        {
            return null; // mixtures and empirical lengths: the measured distribution says more
        }
        if (dist.path("stdev").isNumber())
        {
            n.put("std_dev", dist.path("stdev").asDouble());
        }
        bounds(n, dist.path("min"), dist.path("max"));
        return n;
    }

    private static ObjectNode measured(final Dist d)
    {
        if (d.min() != null && d.min().equals(d.max()))
        {
            return length("fixed", d.min());
        }
        final ObjectNode n = length("other", d.mean());
        Stats.put(n, "std_dev", d.stdev());
        bounds(n, Json.MAPPER.valueToTree(d.min()), Json.MAPPER.valueToTree(d.max()));
        return n;
    }

    private static void bounds(final ObjectNode n, final JsonNode min, final JsonNode max)
    {
        if (min.isNumber() && min.asDouble() >= 0)
        {
            n.put("min", Math.round(min.asDouble()));
        }
        if (max.isNumber() && max.asDouble() >= 1)
        {
            n.put("max", Math.round(max.asDouble()));
        }
    }

    private static ObjectNode length(final String distribution, final double value)
    {
        final ObjectNode n = Json.MAPPER.createObjectNode().put("distribution", distribution);
        if (value == Math.rint(value))
        {
            n.put("value", (long)value);
        }
        else
        {
            n.put("value", value);
        }
        return n;
    }

    private static ObjectNode nativeConfig(final RunRecord r)
    {
        final ObjectNode n = Json.MAPPER.createObjectNode();
        n.set("args", args(r.command()));
        final ObjectNode config = n.putObject("config");
        if (r.contract() != null && r.contract().declared() != null)
        {
            config.put("contract_file", r.contract().file());
            config.set("contract", r.contract().declared());
        }
        config.set("load", Json.MAPPER.valueToTree(r.load()));
        config.set("workload", Json.MAPPER.valueToTree(r.workload()));
        return n;
    }

    /**
     * @return the command line as {@code args}: each {@code --flag value} under its name without dashes, a switch as
     * {@code true}, a flag given twice as a list, and the words before the first flag (the command and its
     * positional arguments) under {@code command}; null when the record has no command line (a peer's file).
     */
    static ObjectNode args(final List<String> command)
    {
        if (command == null || command.isEmpty())
        {
            return null;
        }
        final Map<String, List<String>> flags = new LinkedHashMap<>();
        final List<String> words = new ArrayList<>();
        for (int i = 0; i < command.size(); i++)
        {
            final String w = command.get(i);
            if (!w.startsWith("--") || w.length() == 2)
            {
                words.add(w);
                continue;
            }
            final int eq = w.indexOf('=');
            final String name = w.substring(2, eq > 0 ? eq : w.length());
            final boolean valueNext = eq < 0 && i + 1 < command.size() && !command.get(i + 1).startsWith("--");
            final String value = eq > 0 ? w.substring(eq + 1) : valueNext ? command.get(++i) : null;
            flags.computeIfAbsent(name, k -> new ArrayList<>()).add(value);
        }
        final ObjectNode args = Json.MAPPER.createObjectNode();
        args.set("command", Json.MAPPER.valueToTree(words));
        flags.forEach((name, values) ->
        {
            if (values.size() > 1)
            {
                args.set(name, Json.MAPPER.valueToTree(values));
            }
            else if (values.get(0) == null)
            {
                args.put(name, true);
            }
            else
            {
                args.put(name, values.get(0));
            }
        });
        return args;
    }
}
