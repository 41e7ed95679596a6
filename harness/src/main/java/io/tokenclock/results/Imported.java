package io.tokenclock.results;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import io.tokenclock.peers.PeerRun;

/**
 * A peer tool's result file read in: one run per result it holds (an {@code --append-result} or a JSONL file holds
 * several, role {@code line K}).
 *
 * @param path  the file.
 * @param peers its runs, in file order.
 */
public record Imported(Path path, List<PeerRun> peers) implements Result
{
    @Override
    public Kind kind()
    {
        return Kind.IMPORTED;
    }

    @Override
    public List<Run> runs()
    {
        final List<Run> runs = new ArrayList<>();
        for (int i = 0; i < peers.size(); i++)
        {
            runs.add(new Run(peers.size() == 1 ? peers.get(i).tool() : peers.get(i).tool() + " line " + (i + 1),
                path, peers.get(i).record()));
        }
        return runs;
    }
}
