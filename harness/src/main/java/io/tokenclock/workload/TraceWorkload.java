package io.tokenclock.workload;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.SplittableRandom;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.HdrHistogram.Histogram;

import io.tokenclock.clock.NanoClock;
import io.tokenclock.json.Json;
import io.tokenclock.load.BuiltRequest;
import io.tokenclock.load.LoadGenerator;
import io.tokenclock.load.LoadPlan;
import io.tokenclock.load.RequestTag;
import io.tokenclock.load.TraceFiller;
import io.tokenclock.load.TurnResult;
import io.tokenclock.recording.SlotPool;
import io.tokenclock.workload.dataset.SessionTrace;
import io.tokenclock.workload.dataset.TraceSession;
import io.tokenclock.workload.dataset.TraceTurn;
import io.tokenclock.workload.tokenizer.Tokenizer;

/**
 * A trace of sessions replayed on its own schedule ({@link SessionTrace}): each session opens at its own time from
 * the trace divided by {@code --trace-speedup} (or, in a closed loop, as another closes), each later turn is due the
 * trace's delay, divided likewise, after the previous turn ended, and a turn's subagents run beside their parent. A
 * turn's prompt is its hash blocks, each the same text in every request ({@link TraceBlocks}), and the rest of its
 * length in text of its own; a session with history (Mooncake sessions) sends the earlier turns and the answers the
 * server actually gave before them. Sessions are read from the trace one at a time, as they open.
 * <p>
 * Each request says what an infinite prefix cache would have held of its prompt: the blocks the run had sent before
 * (each distinct block text once) and a session's history (an infinite cache holds what the server computed). A failed
 * turn does not end its session: the trace's next turn follows, the failed turn's answer missing from the history.
 * <p>
 * <b>Built ahead, counted when sent.</b> A turn is built as soon as it falls due ({@link #nextTurn}), which can be long
 * before its time, and turns due sooner (another session's, a subagent's) may be built after it and sent before it.
 * So what depends on the order of sends is counted in {@link #sending}, as the turn goes out: which of its blocks the
 * run had sent before (a block's first sending is the miss, whichever request was built first), the request in the
 * hash and the count, and the trace's wait before it. A turn the run never sends (its window or request count ended
 * it first) counts in none of them. For example, session a's second turn due 1.5 s after its first ended is built at
 * that end, at 40 ms; session b's second turn, built at 50 ms and due at 100 ms, is sent first: a block the two
 * share is b's miss and a's hit.
 * <p>
 * The hash covers the prompts' own text, not the server's answers, summed per message so that the order sessions
 * interleave in does not change it; it cannot be regenerated offline. The load generator's thread only;
 * {@link #report()} after the generator stopped.
 */
public final class TraceWorkload implements Workload, TraceFiller
{
    /** Subagents per session told apart in the keys of their fillers' random streams. */
    private static final long CHILD_KEYS = 1 << 16;

    private final SessionTrace trace;
    private final long seed;
    private final Tokenizer tokenizer;
    private final RequestBodyFactory bodies;
    private final double speedup;
    private final TraceBlocks blocks;
    private final OrderFreeDigest digest = new OrderFreeDigest();
    private final List<Open> open = new ArrayList<>();
    private final Deque<Integer> free = new ArrayDeque<>();
    private final Histogram turnsPerSession = new Histogram(10_000_000L, 3);
    private final Histogram sessionE2eMs = new Histogram(3_600_000_000L, 3);
    private int nextSession;
    private long requests;
    private long residualRequests;
    private long sessions;
    private long completed;
    private long subagents;
    private long endedTurns;
    private long inRequestsNs;
    private long traceWaitsNs;

    /** A session (or a subagent) that has opened and not yet closed. */
    private static final class Open
    {
        final TraceSession session;
        final int root;
        final long key;
        final long openedNs;
        final ArrayNode history = Json.MAPPER.createArrayNode();
        int historyTokens;
        int next;
        long dueNs;
        int children;
        int turnsSent;
        boolean turnsDone;
        long lastEndNs;
        /** The turn built and not yet sent: its own text, its history's tokens, whether a block missed its length. */
        String builtText;
        long builtHistoryTokens;
        boolean builtResidual;
        /** The trace's wait before the turn due next, counted once that turn is sent. */
        long waitNs;

        Open(final TraceSession session, final int root, final long key, final long openedNs)
        {
            this.session = session;
            this.root = root;
            this.key = key;
            this.openedNs = openedNs;
            this.lastEndNs = openedNs;
        }
    }

    /**
     * @param trace   the indexed trace; its sessions are read as they open.
     * @param bodies  builds the request bodies (chat messages or a prompt).
     * @param speedup every timestamp and delay of the trace is divided by it (> 0).
     */
    public TraceWorkload(final SessionTrace trace, final long seed, final Tokenizer tokenizer,
        final RequestBodyFactory bodies, final double speedup)
    {
        if (!(speedup > 0) || Double.isInfinite(speedup))
        {
            throw new IllegalArgumentException("the trace speed-up must be a number > 0: " + speedup);
        }
        this.trace = trace;
        this.seed = seed;
        this.tokenizer = tokenizer;
        this.bodies = bodies;
        this.speedup = speedup;
        this.blocks = new TraceBlocks(seed, tokenizer);
    }

    private long scaled(final long us)
    {
        return Math.round(us * 1_000.0 / speedup);
    }

    @Override
    public long nextOpeningNs()
    {
        return nextSession < trace.sessions() ? scaled(trace.startUs(nextSession)) : -1;
    }

    @Override
    public void open(final long dueNs, final Schedule schedule)
    {
        final int k = nextSession++;
        final TraceSession s = trace.load(k);
        final int handle = handleFor(s, -1, k * CHILD_KEYS, dueNs);
        schedule.due(handle, dueNs);
        spawn(handle, -1, dueNs, schedule);
    }

    /** The next session is another shard's: nothing of it is read, sent or counted here. */
    @Override
    public void skip()
    {
        nextSession++;
    }

    private int handleFor(final TraceSession s, final int root, final long key, final long dueNs)
    {
        final int handle = free.isEmpty() ? open.size() : free.pop();
        final Open o = new Open(s, root < 0 ? handle : root, key, dueNs);
        if (handle == open.size())
        {
            open.add(o);
        }
        else
        {
            open.set(handle, o);
        }
        return handle;
    }

    /** Starts the subagents that {@code handle}'s session starts after its turn {@code afterTurn}. */
    private void spawn(final int handle, final int afterTurn, final long fromNs, final Schedule schedule)
    {
        final Open parent = open.get(handle);
        int j = 0;
        for (final TraceSession.Spawn sp : parent.session.spawns())
        {
            j++;
            if (sp.afterTurn() != afterTurn)
            {
                continue;
            }
            final long dueNs = fromNs + scaled(sp.delayUs());
            final Open root = open.get(parent.root);
            root.children++;
            schedule.due(handleFor(sp.child(), parent.root, parent.key + j, dueNs), dueNs);
        }
    }

    @Override
    public BuiltRequest nextTurn(final int handle, final long dueNs)
    {
        final Open o = open.get(handle);
        final TraceSession s = o.session;
        final TraceTurn t = s.turns().get(o.next);
        o.dueNs = dueNs;
        final long residualsBefore = blocks.residualBlocks();
        final StringBuilder text = new StringBuilder();
        int covered = 0;
        final long[] ids = t.hashIds();
        for (int b = 0; b < ids.length; b++)
        {
            final int tokens = s.layout().blockTokens(b, t.inputLength());
            text.append(blocks.text(s.scope(), ids[b], tokens));
            covered += tokens;
        }
        if (covered < t.inputLength())
        {
            text.append(blocks.filler(t.inputLength() - covered,
                new SplittableRandom(Seeds.mix(seed, o.key * CHILD_KEYS + o.next))));
        }
        o.builtText = text.toString();
        o.builtHistoryTokens = s.history() ? o.historyTokens : 0;
        o.builtResidual = blocks.residualBlocks() > residualsBefore;
        // the ideal is counted as the turn is sent (sending): -1 until then
        final RequestTag tag = s.id() != null ? RequestTag.turn(s.id(), t.index(), -1) : RequestTag.ideal(-1);
        if (!s.history())
        {
            return new BuiltRequest(bodies.body(text.toString(), t.outputLength()), t.inputLength(), 0, tag);
        }
        o.history.add(message("user", text.toString()));
        final int hint = o.historyTokens + t.inputLength();
        o.historyTokens = hint;
        return new BuiltRequest(bodies.body(o.history, t.outputLength()), hint, 0, tag);
    }

    @Override
    public BuiltRequest sending(final int handle, final BuiltRequest built)
    {
        final Open o = open.get(handle);
        final TraceSession s = o.session;
        final TraceTurn t = s.turns().get(o.next);
        long ideal = o.builtHistoryTokens;
        final long[] ids = t.hashIds();
        for (int b = 0; b < ids.length; b++)
        {
            final int tokens = s.layout().blockTokens(b, t.inputLength());
            ideal += blocks.markSeen(s.scope(), ids[b], tokens) ? tokens : 0;
        }
        digest.add(o.builtText);
        o.builtText = null;
        requests++;
        residualRequests += o.builtResidual ? 1 : 0;
        traceWaitsNs += o.waitNs;
        o.waitNs = 0;
        o.turnsSent++;
        if (o.root != handle)
        {
            open.get(o.root).turnsSent++;
        }
        return new BuiltRequest(built.body(), built.promptTokensHint(), built.group(), built.inputs(),
            built.answerLimit(), built.tag().withIdealCachedTokens(ideal));
    }

    private static ObjectNode message(final String role, final String content)
    {
        return Json.MAPPER.createObjectNode().put("role", role).put("content", content);
    }

    @Override
    public void ended(final int handle, final TurnResult result, final Schedule schedule)
    {
        final Open o = open.get(handle);
        final long endNs = result.endNs();
        inRequestsNs += Math.max(0, endNs - o.dueNs);
        if (o.session.history() && result.ok())
        {
            o.history.add(message("assistant", result.text()));
            o.historyTokens += tokenizer.count(result.text());
        }
        final Open root = open.get(o.root);
        root.lastEndNs = Math.max(root.lastEndNs, endNs);
        if (o.next == 0)
        {
            // counted once a turn of it was sent and ended: a run stopped by its count or window opens sessions and
            // builds turns it never sends
            sessions += o.root == handle ? 1 : 0;
            subagents += o.root == handle ? 0 : 1;
        }
        endedTurns++;
        final int finished = o.next++;
        spawn(handle, finished, endNs, schedule);
        if (o.next < o.session.turns().size())
        {
            final TraceTurn t = o.session.turns().get(o.next);
            final long dueNs = t.atUs() >= 0 ?
                Math.max(endNs, o.openedNs + scaled(t.atUs() - o.session.startUs())) : endNs + scaled(t.delayUs());
            o.waitNs = dueNs - endNs; // the trace's wait, counted once the turn is sent (sending)
            schedule.due(handle, dueNs);
            return;
        }
        o.turnsDone = true;
        if (o.root != handle)
        {
            root.children--;
            release(handle);
        }
        if (root.turnsDone && root.children == 0)
        {
            completed++;
            turnsPerSession.recordValue(Math.min(root.turnsSent, turnsPerSession.getHighestTrackableValue()));
            sessionE2eMs.recordValue(Math.min(Math.max(0, (root.lastEndNs - root.openedNs) / 1_000_000),
                sessionE2eMs.getHighestTrackableValue()));
            release(o.root);
            schedule.closed();
        }
    }

    private void release(final int handle)
    {
        open.set(handle, null);
        free.push(handle);
    }

    @Override
    public LoadGenerator driver(
        final LoadPlan plan, final NanoClock clock, final SlotPool pool, final LoadGenerator.RequestSink sink)
    {
        return LoadGenerator.ofTrace(plan, clock, pool, this, sink);
    }

    @Override
    public boolean traceSessions()
    {
        return true;
    }

    /** @return hex sum (mod 2^256) of the SHA-256 of every prompt's own text: independent of turn order. */
    @Override
    public String hash()
    {
        return digest.hex();
    }

    @Override
    public long requests()
    {
        return requests;
    }

    @Override
    public long residualRequests()
    {
        return residualRequests;
    }

    /** @return the sessions' figures so far; call after the generator stopped. */
    public SessionReport report()
    {
        return new SessionReport(trace.format(), speedup, sessions, completed, endedTurns, subagents, turnsPerSession,
            sessionE2eMs, inRequestsNs / 1e9, traceWaitsNs / 1e9);
    }

    @Override
    public String describe()
    {
        return trace.describe() + "; replayed at speed-up " + speedup + ", blocks of exact length in " +
            tokenizer.id() + "; seed " + seed;
    }
}
