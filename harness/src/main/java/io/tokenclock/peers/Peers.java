package io.tokenclock.peers;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * Reads a peer tool's result file into {@link PeerRun}s, after telling by its shape which tool wrote it: vLLM
 * {@code bench serve} (JSON, or {@code --append-result} lines), SGLang {@code bench_serving} (JSONL), AIPerf
 * {@code profile_export_aiperf.json} (with {@code profile_export.jsonl} beside it, or the directory holding them),
 * GuideLLM {@code benchmarks.json}. Thread-safe.
 */
public final class Peers
{
    private Peers()
    {
    }

    /**
     * @param path a file, or an AIPerf artifact directory.
     * @return its runs, or null when it is in no peer shape this build reads.
     * @throws PeerFormatException when it is in a peer's shape but a field is not what that shape holds.
     */
    public static List<PeerRun> read(final Path path) throws IOException
    {
        final Path file = Files.isDirectory(path) ? path.resolve(Aiperf.FILE) : path;
        if (!Files.isRegularFile(file))
        {
            return null;
        }
        final PeerFile f = new PeerFile(file);
        final JsonNode doc = f.document();
        if (doc != null && doc.isObject())
        {
            return one(f, doc);
        }
        final List<JsonNode> lines = f.lines();
        if (lines == null)
        {
            return null;
        }
        if (lines.stream().allMatch(Sglang::is))
        {
            return Sglang.read(f, lines);
        }
        return lines.stream().allMatch(Vllm::is) ? Vllm.read(f, lines) : null;
    }

    private static List<PeerRun> one(final PeerFile f, final JsonNode doc) throws IOException
    {
        if (Sglang.is(doc))
        {
            return Sglang.read(f, List.of(doc));
        }
        if (Vllm.is(doc))
        {
            return Vllm.read(f, List.of(doc));
        }
        if (Aiperf.is(doc))
        {
            return Aiperf.read(f, doc);
        }
        return Guidellm.is(doc) ? Guidellm.read(f, doc) : null;
    }
}
