package io.tokenclock.workload;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import io.tokenclock.api.BodyShape;
import io.tokenclock.json.Json;
import io.tokenclock.load.BuiltRequest;
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
 * reproduce). Any conversational API (chat, Responses, Messages), each in its own body shape. On the Responses API a
 * session may instead chain its turns on the server ({@link SessionChain#PREVIOUS_RESPONSE_ID}): a turn then sends its
 * new user message and the id of the session's last response, and the server supplies the rest of the conversation;
 * the input-token hint stays the whole conversation's, which is what the server prefills.
 * <p>
 * <b>Images</b> ({@code --image-count}, {@link #images}): every user turn carries images of its own, made from the
 * seed, the user, the session and the turn ({@link ImageSynthesizer#turnImages}), in its user message after the text.
 * A later turn resends the earlier user messages with their images, as a vision client's chat history does (this is
 * what a server's prefix and multimodal caches meet again); chained by {@code previous_response_id}, a turn sends only
 * its own. The session's turns are the only bound: turn k carries k x count images. For example, {@code --turns 3
 * --image-count 2} sends 2, 4 and 6 images in a session's three requests, 12 in all, 6 of them distinct.
 * {@link #imagesSent()} counts every image in every request built, resent ones included, as the record's
 * {@code workload.images.sent} does ({@link #IMAGE_RULE}). Called on the load generator's thread only.
 */
public final class SessionWorkload extends UserWorkload
{
    private static final ObjectMapper JSON = Json.MAPPER;

    private final RequestBodyFactory bodies;
    private final LengthDistribution input;
    private final LengthDistribution output;
    private final int fixedOutput;
    private final LengthDistribution turns;
    private final LengthDistribution thinkMs;
    private final User[] users;
    private SessionChain chain = SessionChain.HISTORY;
    /** Every turn's images, or null for none. */
    private ImageSynthesizer images;
    private long imagesSent;
    private long imageBytesSent;

    /** How a session's requests carry images, as the record states it ({@code workload.images.session_rule}). */
    public static final String IMAGE_RULE = "each user turn carries images of its own (from the seed, user, session " +
        "and turn; no two turns share one) after its text; with history a later turn resends every earlier user " +
        "message with its images and the server's answers, so turn k carries k x per_request images, bounded only " +
        "by the session's turns; chained by previous_response_id a turn sends its own images only; sent and bytes " +
        "count every image of every request, resent ones included";

    private static final class User
    {
        int session = -1;
        int turn;
        int turnsInSession;
        /** Tokens of the conversation so far: the prompt-length hint of the next turn, chat template aside. */
        int historyTokens;
        final List<ObjectNode> history = new ArrayList<>();
        /** Images in {@link #history}, and their encoded bytes. */
        long historyImages;
        long historyImageBytes;
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
        super(seed, tokenizer);
        this.bodies = bodies;
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
    }

    /** Gives every user turn the images {@code images} makes; returns this workload. */
    public SessionWorkload images(final ImageSynthesizer images)
    {
        this.images = images;
        return this;
    }

    /** Sets how turns carry the conversation (default {@link SessionChain#HISTORY}); returns this workload. */
    public SessionWorkload chain(final SessionChain chain)
    {
        this.chain = chain;
        return this;
    }

    @Override
    public BuiltRequest nextTurn(final int user, final TurnResult previous, final long dueNs)
    {
        final User u = users[user];
        final String previousAnswer = previous != null && previous.ok() ? previous.text() : null;
        if (u.session < 0 || u.turn >= u.turnsInSession || previousAnswer == null)
        {
            u.session++;
            u.turn = 0;
            u.history.clear();
            u.historyTokens = 0;
            u.historyImages = 0;
            u.historyImageBytes = 0;
            u.turnsInSession = turns.sample(random(user, u.session, -1, 0));
        }
        else
        {
            u.history.add(JSON.createObjectNode().put("role", "assistant").put("content", previousAnswer));
            u.historyTokens += tokenizer.count(previousAnswer);
        }
        final SplittableRandom random = random(user, u.session, u.turn, 0);
        final int inputTokens = input.sample(random);
        final int outputTokens = output != null ? output.sample(random) : fixedOutput;
        final PromptSynthesizer.Prompt text = message(inputTokens, random,
            "user " + user + " session " + u.session + " turn " + u.turn + ":");
        final long bytesBefore = images == null ? 0 : images.bytesMade();
        final List<BodyShape.Image> turnImages = images == null ? List.of() :
            images.turnImages(user, u.session, u.turn);
        final long turnBytes = images == null ? 0 : images.bytesMade() - bytesBefore;
        hashed(turnImages);
        u.history.add(BodyShape.userMessage(text.text(), turnImages));
        u.historyTokens += text.tokens();
        u.historyImages += turnImages.size();
        u.historyImageBytes += turnBytes;
        u.turn++;
        counted();
        final ArrayNode messages = JSON.createArrayNode();
        final String previousId = chain == SessionChain.PREVIOUS_RESPONSE_ID && u.turn > 1 && previous != null ?
            previous.responseId() : null;
        if (previousId != null)
        {
            messages.add(u.history.get(u.history.size() - 1));
            imagesSent += turnImages.size();
            imageBytesSent += turnBytes;
        }
        else
        {
            u.history.forEach(messages::add);
            imagesSent += u.historyImages;
            imageBytesSent += u.historyImageBytes;
        }
        return new BuiltRequest(bodies.body(messages, outputTokens, previousId), u.historyTokens, 0);
    }

    @Override
    public long imagesSent()
    {
        return imagesSent;
    }

    @Override
    public long imageBytesSent()
    {
        return imageBytesSent;
    }

    @Override
    public long delayNs(final int user, final TurnResult previous)
    {
        final User u = users[user];
        return thinkMs.sample(random(user, u.session, u.turn, 0x7417)) * 1_000_000L;
    }

    /** @return a one-line description for the record. */
    @Override
    public String describe()
    {
        return users.length + " users running multi-turn sessions (" + (chain == SessionChain.HISTORY ?
            "history carried" : "turns chained by previous_response_id") + "): turns " + turns.describe() +
            "; think time ms " + thinkMs.describe() + "; new message " + input.describe() + " in " + tokenizer.id() +
            "; output " + (output == null ? "max_tokens " + fixedOutput : output.describe()) +
            (images == null ? "" : "; images " + images.spec().describe() + " per turn") + "; seed " + seed;
    }
}
