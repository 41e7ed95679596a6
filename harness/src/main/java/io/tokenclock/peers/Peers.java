package io.tokenclock.peers;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Predicate;

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
        final List<PeerFile.Root> roots = f.roots();
        if (roots == null)
        {
            return null;
        }
        final JsonNode first = roots.get(0).tree();
        if (roots.size() == 1 && Aiperf.is(first))
        {
            return Aiperf.read(f, first);
        }
        if (roots.size() == 1 && Guidellm.is(first))
        {
            return Guidellm.read(f, first);
        }
        if (Sglang.is(first))
        {
            return Sglang.read(f, same(f, roots, Sglang::is, "an SGLang bench_serving result"));
        }
        return Vllm.is(first) ? Vllm.read(f, same(f, roots, Vllm::is, "a vLLM bench serve result")) : null;
    }

    /** @return {@code roots}, each in the shape of the first; one that is not is an error naming its line. */
    private static List<PeerFile.Root> same(final PeerFile f, final List<PeerFile.Root> roots,
        final Predicate<JsonNode> shape, final String what)
    {
        for (final PeerFile.Root r : roots)
        {
            if (!shape.test(r.tree()))
            {
                throw new PeerFormatException(f.file, "line " + r.line(), what + ", as the first line is");
            }
        }
        return roots;
    }
}
