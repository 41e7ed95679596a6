package io.tokenclock.peers;

import java.util.List;
import java.util.Map;

import io.tokenclock.results.record.Dist;
import io.tokenclock.results.record.RunRecord;

/**
 * One run of a peer tool, read from its result file: the peer's own figures under the peer's own definitions, and a
 * typed record in tokenclock's shape whose distributions were recomputed under tokenclock's definitions from the
 * file's per-request data (empty when the file has none). Both are kept, so that a report shows both.
 *
 * @param tool        {@code vllm}, {@code sglang}, {@code aiperf} or {@code guidellm}.
 * @param shape       the file shape read, e.g. {@code vllm bench serve --save-result}.
 * @param record      the run in tokenclock's record shape: what the file says, mapped; null where it says nothing.
 * @param reported    the peer's own figures, by tokenclock metric key, in ms (or tokens/s), as the peer computed them.
 * @param definitions for each metric key, how the peer defines it where it differs from tokenclock (docs/RESULTS.md).
 * @param notes       what a reader must know: a sample of requests, a clock, a unit converted ...
 * @param perRequest  the successful requests one by one, when the file has them (report.html draws them), or null.
 */
public record PeerRun(String tool, String shape, RunRecord record, Map<String, Dist> reported,
    Map<String, String> definitions, List<String> notes, PerRequest perRequest)
{
    /** A run whose file has no per-request data. */
    public PeerRun(final String tool, final String shape, final RunRecord record, final Map<String, Dist> reported,
        final Map<String, String> definitions, final List<String> notes)
    {
        this(tool, shape, record, reported, definitions, notes, null);
    }

    public PeerRun
    {
        reported = Map.copyOf(reported);
        definitions = Map.copyOf(definitions);
        notes = List.copyOf(notes);
    }
}
