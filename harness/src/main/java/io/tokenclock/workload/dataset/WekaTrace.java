package io.tokenclock.workload.dataset;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;

import io.tokenclock.json.Json;

/**
 * Weka's agentic coding traces, as SemiAnalysis AgentX publishes them (cc-traces) and kv-cache-tester replays them
 * ({@code docs/trace_replay_tester.md}; AIPerf's {@code weka_trace_models.py}), read into sessions
 * ({@link SessionTrace}): one JSON object per trace, with its own {@code block_size} (often 64) and {@code requests}
 * in order, each a normal ({@code "n"}) or streaming ({@code "s"}) API call with {@code t}, {@code in}, {@code out},
 * {@code hash_ids} (only full blocks: {@code floor(in / block_size)} ids), {@code api_time} and {@code think_time}, in
 * seconds; or a {@code subagent} entry with requests of its own.
 * <ul>
 * <li>A trace's first request is due at its {@code t}; each later one {@code think_time} after the previous one
 * completed (the default timing of kv-cache-tester and AIPerf), or with no {@code think_time} its {@code t} less the
 * previous request's {@code t} and {@code api_time}.</li>
 * <li>A subagent starts when the parent's turn before it says so: its {@code t} less the end ({@code t} +
 * {@code api_time}) of the last parent request before it in the list; its requests then run beside the parent's (the
 * parent does not wait), timed among themselves as above, and share the parent's hash-id scope.</li>
 * <li>Traces carry no common clock: every trace starts at its own t = 0.</li>
 * </ul>
 * A corpus is a directory of {@code .json} traces (each read when its session opens), one {@code .json} trace, or
 * {@code .jsonl} with a trace a line.
 */
final class WekaTrace implements SessionTrace.Reader
{
    /** One trace parsed: its fields and each request with where it was read. */
    private record Parsed(String id, int blockSize, boolean local, List<TraceFields> requests)
    {
    }

    private final TraceFile file;
    private final int[] counts;

    private WekaTrace(final TraceFile file, final int[] counts)
    {
        this.file = file;
        this.counts = counts;
    }

    static SessionTrace index(final Path path, final int ignoredBlockSize)
    {
        final List<SessionTrace.Entry> entries = new ArrayList<>();
        final int[] counts = new int[3];
        if (Files.isDirectory(path))
        {
            for (final Path json : jsonFiles(path))
            {
                final SessionTrace.Entry e = entry(parseFile(json), 0, counts);
                e.file = json;
                entries.add(e);
            }
            return new SessionTrace("weka", path, null, entries, new WekaTrace(null, counts), true);
        }
        if (!path.getFileName().toString().endsWith(".jsonl"))
        {
            final SessionTrace.Entry e = entry(parseFile(path), 0, counts);
            e.file = path;
            return new SessionTrace("weka", path, null, List.of(e), new WekaTrace(null, counts), true);
        }
        final TraceFile lines = TraceFile.open(path);
        try
        {
            lines.forEachLine((lineNo, offset, length, text) ->
            {
                if (!text.isBlank())
                {
                    final SessionTrace.Entry e = entry(parseLine(lines.source() + ":" + lineNo, text), lineNo, counts);
                    e.add(offset, length, lineNo);
                    entries.add(e);
                }
            });
            return new SessionTrace("weka", path, lines, entries, new WekaTrace(lines, counts), true);
        }
        catch (final RuntimeException ex)
        {
            lines.close();
            throw ex;
        }
    }

    private static List<Path> jsonFiles(final Path dir)
    {
        try (Stream<Path> files = Files.list(dir))
        {
            final List<Path> json = files.filter(p -> p.getFileName().toString().endsWith(".json")).sorted()
                .toList();
            if (json.isEmpty())
            {
                throw new IllegalArgumentException(dir + ": no .json traces in the directory");
            }
            return json;
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(dir + ": cannot list", ex);
        }
    }

    /** Checks a parsed trace by converting it once, and counts it; @return its index entry. */
    private static SessionTrace.Entry entry(final Parsed p, final int line, final int[] counts)
    {
        final TraceSession s = session(p, 0);
        counts[0]++;
        counts[1] += s.turns().size();
        counts[2] += s.spawns().size();
        for (final TraceSession.Spawn spawn : s.spawns())
        {
            counts[1] += spawn.child().turns().size();
        }
        return new SessionTrace.Entry(p.id(), s.startUs(), line);
    }

    private static Parsed parseFile(final Path json)
    {
        try (JsonParser parser = Json.MAPPER.createParser(json.toFile()))
        {
            return parse(parser, json.toString(), true);
        }
        catch (final JsonProcessingException ex)
        {
            throw new IllegalArgumentException(json + ":" + ex.getLocation().getLineNr() + ": not valid JSON: " +
                ex.getOriginalMessage());
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(json + ": cannot read", ex);
        }
    }

    private static Parsed parseLine(final String where, final String text)
    {
        try (JsonParser parser = Json.MAPPER.createParser(text))
        {
            return parse(parser, where, false);
        }
        catch (final JsonProcessingException ex)
        {
            throw new IllegalArgumentException(where + ": not valid JSON: " + ex.getOriginalMessage());
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(where + ": cannot read", ex);
        }
    }

    /** Reads one trace object, each request with the line it starts on (a whole file) or its row's place. */
    private static Parsed parse(final JsonParser p, final String where, final boolean lines) throws IOException
    {
        if (p.nextToken() != JsonToken.START_OBJECT)
        {
            throw new IllegalArgumentException(where + ": a Weka trace is a JSON object");
        }
        final com.fasterxml.jackson.databind.node.ObjectNode top = Json.MAPPER.createObjectNode();
        final List<TraceFields> requests = new ArrayList<>();
        while (p.nextToken() == JsonToken.FIELD_NAME)
        {
            final String name = p.currentName();
            p.nextToken();
            if ("requests".equals(name) && p.currentToken() == JsonToken.START_ARRAY)
            {
                while (p.nextToken() == JsonToken.START_OBJECT)
                {
                    final String at = (lines ? where + ":" + p.currentTokenLocation().getLineNr() : where) +
                        ": requests[" + requests.size() + "]";
                    requests.add(TraceFields.of(at, p.readValueAsTree()));
                }
                top.putArray("requests");
                continue;
            }
            top.set(name, p.readValueAsTree());
        }
        final TraceFields f = TraceFields.of(where, top);
        if (!top.has("requests"))
        {
            throw f.bad("requests", "is missing");
        }
        final String scope = top.path("hash_id_scope").asText("local");
        if (!"local".equals(scope) && !"global".equals(scope))
        {
            throw f.bad("hash_id_scope", "must be \"local\" or \"global\", was " + top.get("hash_id_scope"));
        }
        return new Parsed(f.text("id") == null ? where : f.text("id"), f.required("block_size", 1),
            "local".equals(scope), requests);
    }

    /** @return the trace as a session: its requests in order, its subagents beside it. */
    private static TraceSession session(final Parsed p, final int k)
    {
        final TraceSession.BlockLayout layout = new TraceSession.BlockLayout(p.blockSize(), true);
        final long scope = p.local() ? k + 1L : 0;
        final List<TraceTurn> turns = new ArrayList<>();
        final List<TraceSession.Spawn> spawns = new ArrayList<>();
        long startUs = -1;
        long lastEndUs = 0;
        TraceFields before = null;
        for (final TraceFields r : p.requests())
        {
            final String type = r.node().path("type").asText("");
            final long tUs = r.micros("t", 1e6, "s");
            if (tUs < 0)
            {
                throw r.bad("t", "is missing");
            }
            if ("subagent".equals(type))
            {
                final long delay = Math.max(0, tUs - (before == null ? Math.max(0, startUs) : lastEndUs));
                spawns.add(new TraceSession.Spawn(turns.size() - 1, delay, child(p, r, layout, scope)));
                continue;
            }
            turns.add(turn(r, type, before, turns.size(), layout));
            startUs = startUs < 0 ? tUs : startUs;
            lastEndUs = tUs + Math.max(0, r.micros("api_time", 1e6, "s"));
            before = r;
        }
        if (turns.isEmpty())
        {
            throw new IllegalArgumentException(p.id() + ": a Weka trace needs at least one request of type n or s");
        }
        return new TraceSession(p.id(), Math.max(0, startUs), false, scope, layout, turns, spawns);
    }

    private static TraceSession child(final Parsed parent, final TraceFields entry,
        final TraceSession.BlockLayout layout, final long scope)
    {
        final JsonNode inner = entry.node().path("requests");
        if (!inner.isArray() || inner.isEmpty())
        {
            throw entry.bad("requests", "must be a non-empty array of the subagent's requests");
        }
        final String agent = entry.text("agent_id") == null ? "agent" : entry.text("agent_id");
        final List<TraceTurn> turns = new ArrayList<>();
        TraceFields before = null;
        for (int i = 0; i < inner.size(); i++)
        {
            final TraceFields r = TraceFields.of(entry.where() + ".requests[" + i + "]", inner.get(i));
            turns.add(turn(r, r.node().path("type").asText(""), before, i, layout));
            before = r;
        }
        return new TraceSession(parent.id() + "/" + agent, 0, false, scope, layout, turns, List.of());
    }

    private static TraceTurn turn(final TraceFields r, final String type, final TraceFields before, final int index,
        final TraceSession.BlockLayout layout)
    {
        if (!"n".equals(type) && !"s".equals(type))
        {
            throw r.bad("type", "must be \"n\", \"s\" or \"subagent\", was " + r.node().get("type"));
        }
        final int in = Math.max(1, r.required("in", 0));
        final long[] ids = r.ids("hash_ids");
        r.blocks(ids, in, layout, "in");
        final long think = r.micros("think_time", 1e6, "s");
        long waitUs = 0;
        if (before != null)
        {
            final long t = r.micros("t", 1e6, "s");
            final long previous = before.micros("t", 1e6, "s") + Math.max(0, before.micros("api_time", 1e6, "s"));
            waitUs = think >= 0 ? think : Math.max(0, t - previous);
        }
        return new TraceTurn(index, 0, waitUs, -1, in, ids, Math.max(1, r.required("out", 0)));
    }

    @Override
    public TraceSession load(final SessionTrace.Entry entry, final int k, final long traceStartUs)
    {
        final Parsed p = entry.file != null ? parseFile(entry.file) :
            parseLine(file.source() + ":" + entry.lines[0], file.line(entry.offsets[0], entry.lengths[0]));
        final TraceSession s = session(p, k);
        return new TraceSession(s.id(), s.startUs() - traceStartUs, false, s.scope(), s.layout(), s.turns(),
            s.spawns());
    }

    @Override
    public String describe()
    {
        return counts[0] + " traces, " + counts[1] + " requests, " + counts[2] + " subagents; each trace's own " +
            "block_size, only full blocks hashed; requests timed by think_time";
    }
}
