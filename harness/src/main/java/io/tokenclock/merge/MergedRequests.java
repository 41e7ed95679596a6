package io.tokenclock.merge;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.LongNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import io.tokenclock.json.Json;
import io.tokenclock.report.RequestLines;
import io.tokenclock.util.WholeFile;

/**
 * The merged {@code requests.jsonl}: every shard's requests, each line as its shard wrote it plus {@code "shard": I},
 * its stamps moved from the shard's monotonic clock onto the wall clock (ns since the epoch: the stamp plus the
 * shard's {@code wall_minus_monotonic_ns}), so that requests of every shard share one axis. Shards' lines are
 * interleaved by their end stamp, reading one line ahead per shard: memory grows with the shard count, not with the
 * requests. Only a shard's whole lines are taken (those its record was checked against, {@code ShardChecks}).
 */
final class MergedRequests
{
    private static final ObjectMapper JSON = Json.MAPPER;
    /** The stamps of a line, all on its shard's monotonic clock (docs/RESULTS.md); 0 or less means "none". */
    private static final List<String> STAMPS = List.of("scheduled_ns", "submit_ns", "sent_ns", "sent_kernel_ns",
        "first_token_ns", "first_output_ns", "end_ns");

    private MergedRequests()
    {
    }

    /** One shard's file, one line ahead. */
    private static final class Cursor implements Comparable<Cursor>
    {
        private final RequestLines in;
        private final int shard;
        private final long offsetNs;
        /** Whole lines not read yet: a cut last line (a partial shard's, stopped mid-write) is never read. */
        private long left;
        private ObjectNode line;
        private long endNs;

        Cursor(final RequestLines in, final int shard, final long offsetNs, final long wholeLines)
        {
            this.in = in;
            this.shard = shard;
            this.offsetNs = offsetNs;
            this.left = wholeLines;
        }

        boolean advance() throws IOException
        {
            final ObjectNode next = left-- > 0 ? in.next() : null;
            if (next == null)
            {
                return false;
            }
            line = onAxis(next, shard, offsetNs);
            endNs = line.path("end_ns").asLong();
            return true;
        }

        @Override
        public int compareTo(final Cursor other)
        {
            final int byEnd = Long.compare(endNs, other.endNs);
            return byEnd != 0 ? byEnd : Integer.compare(shard, other.shard);
        }
    }

    /**
     * Writes {@code out} from the shards' files, whole or not at all ({@link WholeFile}).
     *
     * @return how many lines it wrote.
     */
    static long write(final Path out, final List<ShardRun> shards, final Map<ShardRun, Long> wholeLines)
        throws IOException
    {
        final long[] lines = new long[1];
        WholeFile.write(out, stream ->
        {
            try (BufferedWriter w = new BufferedWriter(new OutputStreamWriter(stream, StandardCharsets.UTF_8)))
            {
                lines[0] = write(w, shards, wholeLines);
            }
        });
        return lines[0];
    }

    private static long write(final BufferedWriter w, final List<ShardRun> shards,
        final Map<ShardRun, Long> wholeLines) throws IOException
    {
        final PriorityQueue<Cursor> heads = new PriorityQueue<>();
        final List<RequestLines> readers = new java.util.ArrayList<>();
        long lines = 0;
        try
        {
            for (final ShardRun s : shards)
            {
                final Path file = s.dir().resolve("requests.jsonl");
                if (!Files.exists(file))
                {
                    continue;
                }
                final RequestLines r = RequestLines.open(file);
                readers.add(r);
                final Cursor c = new Cursor(r, s.index(), s.wallMinusMonotonicNs(), wholeLines.get(s));
                if (c.advance())
                {
                    heads.add(c);
                }
            }
            Cursor c;
            while ((c = heads.poll()) != null)
            {
                w.write(JSON.writeValueAsString(c.line));
                w.write('\n');
                lines++;
                if (c.advance())
                {
                    heads.add(c);
                }
            }
        }
        finally
        {
            for (final RequestLines r : readers)
            {
                r.close();
            }
        }
        return lines;
    }

    /** @return {@code line} with its shard and its stamps on the wall clock. */
    static ObjectNode onAxis(final ObjectNode line, final int shard, final long offsetNs)
    {
        final ObjectNode n = JSON.createObjectNode();
        n.put("shard", shard);
        n.setAll(line);
        for (final String field : STAMPS)
        {
            final long v = n.path(field).asLong();
            if (v > 0)
            {
                n.put(field, v + offsetNs);
            }
        }
        final JsonNode chunks = n.get("chunk_ns");
        if (chunks instanceof ArrayNode a)
        {
            for (int k = 0; k < a.size(); k++)
            {
                a.set(k, LongNode.valueOf(a.get(k).asLong() + offsetNs));
            }
        }
        return n;
    }
}
