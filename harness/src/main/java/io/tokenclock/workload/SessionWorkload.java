package io.tokenclock.workload;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import io.tokenclock.load.SessionFiller;
import io.tokenclock.load.TurnResult;
import io.tokenclock.workload.dist.LengthDistribution;
import io.tokenclock.workload.tokenizer.Tokenizer;

/**
 * Multi-turn chat sessions of simulated users. Each user runs sessions back to back: a session has a drawn number of
 * turns; each turn sends the whole conversation so far (every earlier user message and the answer the server actually
 * gave) plus a new user message of a drawn length, so the context grows turn by turn as in real chat. Between turns
 * the user thinks for a drawn time, counted from the end of the previous answer, so the offered rate emerges from the
 * users and a slow answer delays that user's next turn.
 * <p>
 * A turn whose request failed ends the session: the next turn starts a new one. User messages depend only on
 * (seed, user, session, turn); {@link #hash()} covers them (not the server's answers, which a rerun cannot
 * reproduce). Chat endpoint only. Called on the load generator's thread only.
 */
public final class SessionWorkload implements Workload, SessionFiller
{
    private static final ObjectMapper JSON = new ObjectMapper();

    private final long seed;
    private final RequestBodyFactory bodies;
    private final Tokenizer tokenizer;
    private final LengthDistribution input;
    private final LengthDistribution output;
    private final int fixedOutput;
    private final LengthDistribution turns;
    private final LengthDistribution thinkMs;
    private final User[] users;
    private final PromptSynthesizer synthesizer = new PromptSynthesizer();
    private final MessageDigest digest;
    private static final java.math.BigInteger MODULUS = java.math.BigInteger.ONE.shiftLeft(256);
    private java.math.BigInteger digestSum = java.math.BigInteger.ZERO;
    private long requests;
    private long residualRequests;
    private int lastPromptTokens = -1;

    private static final class User
    {
        int session = -1;
        int turn;
        int turnsInSession;
        final List<ObjectNode> history = new ArrayList<>();
    }

    /**
     * @param output      output length per turn, or null for {@code fixedOutput} {@code max_tokens}.
     * @param turns       turns per session.
     * @param thinkMs     think time between a turn's answer and the next turn, in ms (a length distribution serves:
     *                    values are integers >= 1).
     */
    public SessionWorkload(
        final long seed, final RequestBodyFactory bodies, final Tokenizer tokenizer, final LengthDistribution input,
        final LengthDistribution output, final int fixedOutput, final LengthDistribution turns,
        final LengthDistribution thinkMs, final int users)
    {
        this.seed = seed;
        this.bodies = bodies;
        this.tokenizer = tokenizer;
        this.input = input;
        this.output = output;
        this.fixedOutput = fixedOutput;
        this.turns = turns;
        this.thinkMs = thinkMs;
        this.users = new User[users];
        for (int u = 0; u < users; u++)
        {
            this.users[u] = new User();
        }
        try
        {
            this.digest = MessageDigest.getInstance("SHA-256");
        }
        catch (final NoSuchAlgorithmException ex)
        {
            throw new IllegalStateException("SHA-256 is required of every JDK", ex);
        }
    }

    private SplittableRandom random(final int user, final int session, final int turn, final long salt)
    {
        return new SplittableRandom(((seed * 31 + user) * 1_000_003L + session) * 1_009L + turn + salt);
    }

    @Override
    public byte[] nextTurn(final int user, final TurnResult previous, final long dueNs)
    {
        final User u = users[user];
        final String previousAnswer = previous != null && previous.ok() ? previous.text() : null;
        if (u.session < 0 || u.turn >= u.turnsInSession || previousAnswer == null)
        {
            u.session++;
            u.turn = 0;
            u.history.clear();
            u.turnsInSession = turns.sample(random(user, u.session, -1, 0));
        }
        else
        {
            u.history.add(JSON.createObjectNode().put("role", "assistant").put("content", previousAnswer));
        }
        final SplittableRandom random = random(user, u.session, u.turn, 0);
        final int inputTokens = input.sample(random);
        final int outputTokens = output != null ? output.sample(random) : fixedOutput;
        final PromptSynthesizer.Prompt p = synthesizer.synthesize(tokenizer, Math.max(1, inputTokens), random,
            "user " + user + " session " + u.session + " turn " + u.turn + ":");
        if (p.residual() != 0)
        {
            residualRequests++;
        }
        lastPromptTokens = p.tokens();
        u.history.add(JSON.createObjectNode().put("role", "user").put("content", p.text()));
        u.turn++;
        // Users' turns interleave in an order set by the server's timing, so the hash combines per-message digests
        // by addition (order-independent) rather than hashing a stream.
        final byte[] messageDigest = digest.digest(p.text().getBytes(StandardCharsets.UTF_8));
        digestSum = digestSum.add(new java.math.BigInteger(1, messageDigest)).mod(MODULUS);
        requests++;
        final ArrayNode messages = JSON.createArrayNode();
        u.history.forEach(messages::add);
        return bodies.body(messages, outputTokens);
    }

    @Override
    public long delayNs(final int user, final TurnResult previous)
    {
        final User u = users[user];
        return thinkMs.sample(random(user, u.session, u.turn, 0x7417)) * 1_000_000L;
    }

    @Override
    public int promptTokensHint()
    {
        return lastPromptTokens;
    }

    @Override
    public byte[] body(final long i)
    {
        throw new UnsupportedOperationException("sessions are driven by nextTurn");
    }

    @Override
    public int promptTokensHint(final long i)
    {
        return lastPromptTokens;
    }

    /**
     * @return hex sum (mod 2^256) of the SHA-256 of every user message built so far: independent of the order in
     * which users' turns interleaved, which depends on the server's timing.
     */
    @Override
    public boolean replayable()
    {
        return false;
    }

    @Override
    public String hash()
    {
        return String.format("%064x", digestSum);
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

    /** @return a one-line description for the record. */
    @Override
    public String describe()
    {
        return users.length + " users running multi-turn sessions (history carried): turns " + turns.describe() +
            "; think time ms " + thinkMs.describe() + "; new message " + input.describe() + " in " + tokenizer.id() +
            "; output " + (output == null ? "max_tokens " + fixedOutput : output.describe()) + "; seed " + seed;
    }
}
