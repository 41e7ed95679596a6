package io.tokenclock.workload.tokenizer;

import ai.djl.engine.EngineException;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.locks.ReentrantReadWriteLock;

import io.tokenclock.util.Sha256;

/**
 * A Hugging Face {@code tokenizer.json} (the file every model repository ships: Llama, Qwen, Mistral, ...), run by the
 * Rust {@code tokenizers} library through DJL's JNI binding. Only a local file is ever read; nothing is downloaded.
 * The id is {@code hf:<absolute path>} and {@link #fileSha256()} is the SHA-256 of the exact bytes that were loaded
 * (the file is read once, hashed, and those bytes are handed to DJL, so the record cannot name a file that changed
 * between hashing and loading).
 * <p>
 * Counting follows what a server counts for a prompt's text: no special tokens added (a BOS token would make
 * {@code "hello"} 2 tokens in Llama's tokenizer), no truncation and no padding. DJL's defaults are the opposite
 * (special tokens on, truncation to 512, padding to the longest), and would silently cap every count at 512; they are
 * all switched off here.
 * <p>
 * <b>Native library and offline use.</b> DJL extracts {@code libtokenizers} from its jar into
 * {@code $DJL_CACHE_DIR/tokenizers/<version>-cpu-<os>-<arch>/} (default {@code ~/.djl.ai}, or {@code java.io.tmpdir}
 * when home is not writable; {@code ENGINE_CACHE_DIR} overrides both) the first time, and loads it from there after.
 * Two of DJL's habits would reach the network: on a host with a CUDA GPU it would download a CUDA build of the library
 * from publish.djl.ai instead of using the CPU build in the jar, and every load calls home (an EC2 metadata probe and
 * a telemetry request). Both are skipped in DJL's offline mode, so {@link #open(Path)} sets the system property
 * {@code ai.djl.offline=true} unless the {@code DJL_OFFLINE} environment variable or the property is already set.
 * <p>
 * The native handle is released by {@link #close()}; encoding after close throws {@link IllegalStateException}.
 * Thread-safe: encode and decode share a read lock, close takes the write lock.
 */
public final class HuggingFaceTokenizer implements Tokenizer, AutoCloseable
{
    /** The id prefix, and the spec prefix {@link Tokenizers#of(String)} accepts. */
    public static final String ID_PREFIX = "hf:";

    /** DJL's offline switch (system property); {@code DJL_OFFLINE} is the environment variable it also reads. */
    public static final String DJL_OFFLINE_PROPERTY = "ai.djl.offline";

    private static final Map<String, String> COUNTING_OPTIONS = Map.of(
        "addSpecialTokens", "false",
        "withOverflowingTokens", "false",
        "truncation", "false",
        "padding", "false");

    private final ai.djl.huggingface.tokenizers.HuggingFaceTokenizer tokenizer;
    private final Path file;
    private final String sha256;
    private final ReentrantReadWriteLock lock = new ReentrantReadWriteLock();
    private boolean closed;

    private HuggingFaceTokenizer(
        final ai.djl.huggingface.tokenizers.HuggingFaceTokenizer tokenizer, final Path file, final String sha256)
    {
        this.tokenizer = tokenizer;
        this.file = file;
        this.sha256 = sha256;
    }

    /**
     * Loads a {@code tokenizer.json}.
     *
     * @param tokenizerJson the file (a directory is not accepted: name the file).
     * @return the tokenizer; close it when done.
     * @throws IOException if the file cannot be read.
     * @throws IllegalArgumentException if it is not a regular file or not a tokenizer the library can load.
     * @throws IllegalStateException if DJL's native library cannot be extracted or loaded.
     */
    public static HuggingFaceTokenizer open(final Path tokenizerJson) throws IOException
    {
        final Path absolute = tokenizerJson.toAbsolutePath().normalize();
        if (!Files.isRegularFile(absolute))
        {
            throw new IllegalArgumentException("tokenizer file not found (expected a tokenizer.json): " + absolute);
        }
        final byte[] bytes = Files.readAllBytes(absolute);
        final String sha256 = Sha256.hex(bytes);
        ensureOffline();
        final ai.djl.huggingface.tokenizers.HuggingFaceTokenizer tokenizer;
        try
        {
            tokenizer = ai.djl.huggingface.tokenizers.HuggingFaceTokenizer.newInstance(
                new ByteArrayInputStream(bytes), COUNTING_OPTIONS);
        }
        catch (final EngineException ex)
        {
            throw new IllegalStateException("cannot load the Hugging Face tokenizers native library (DJL, cache " +
                "dir from DJL_CACHE_DIR or ~/.djl.ai): " + firstLine(String.valueOf(ex.getMessage())), ex);
        }
        catch (final RuntimeException ex)
        {
            throw new IllegalArgumentException(
                "cannot load tokenizer " + absolute + ": " + firstLine(String.valueOf(ex.getMessage())), ex);
        }
        return new HuggingFaceTokenizer(tokenizer, absolute, sha256);
    }

    /**
     * Turns on DJL's offline mode unless the user chose either way, so that neither the native library nor telemetry
     * is fetched over the network.
     */
    static void ensureOffline()
    {
        if (System.getenv("DJL_OFFLINE") == null && System.getProperty(DJL_OFFLINE_PROPERTY) == null)
        {
            System.setProperty(DJL_OFFLINE_PROPERTY, "true");
        }
    }

    private static String firstLine(final String message)
    {
        final int newline = message.indexOf('\n');
        return newline < 0 ? message : message.substring(0, newline);
    }

    /** @return the absolute path of the file loaded. */
    public Path file()
    {
        return file;
    }

    @Override
    public String id()
    {
        return ID_PREFIX + file;
    }

    @Override
    public String fileSha256()
    {
        return sha256;
    }

    @Override
    public int[] encode(final String text)
    {
        final long[] ids;
        lock.readLock().lock();
        try
        {
            checkOpen();
            ids = tokenizer.encode(text, false, false).getIds();
        }
        finally
        {
            lock.readLock().unlock();
        }
        final int[] result = new int[ids.length];
        for (int i = 0; i < ids.length; i++)
        {
            result[i] = Math.toIntExact(ids[i]);
        }
        return result;
    }

    /** Decodes with special tokens kept, so that a round trip shows exactly what the ids say. */
    @Override
    public String decode(final int[] ids)
    {
        final long[] longIds = new long[ids.length];
        for (int i = 0; i < ids.length; i++)
        {
            longIds[i] = ids[i];
        }
        lock.readLock().lock();
        try
        {
            checkOpen();
            return tokenizer.decode(longIds, false);
        }
        finally
        {
            lock.readLock().unlock();
        }
    }

    private void checkOpen()
    {
        if (closed)
        {
            throw new IllegalStateException("tokenizer is closed: " + id());
        }
    }

    /** Releases the native tokenizer; idempotent. */
    @Override
    public void close()
    {
        lock.writeLock().lock();
        try
        {
            if (!closed)
            {
                closed = true;
                tokenizer.close();
            }
        }
        finally
        {
            lock.writeLock().unlock();
        }
    }

    @Override
    public String toString()
    {
        return id();
    }
}
