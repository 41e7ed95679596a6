package io.tokenclock.workload;

import java.awt.image.BufferedImage;
import java.awt.image.DataBufferInt;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.SplittableRandom;

import javax.imageio.IIOImage;
import javax.imageio.ImageIO;
import javax.imageio.ImageWriter;
import javax.imageio.stream.ImageOutputStream;

import io.tokenclock.api.BodyShape;

/**
 * The synthetic images of a run: image {@code j} of request {@code i} from the run's seed, {@code i} and {@code j}
 * alone, so that the same contract and seed send the same images byte for byte and the workload hash (over every
 * body) covers them. Each request's images are its own, never another request's: a server that caches what it made of
 * an image (vLLM's multimodal processor cache) meets each one once, as it would meet users' images. A user session's
 * turn ({@code --users}) has images of its own in the same way, keyed by the user, the session and the turn
 * ({@link #turnImages}); a later turn resends them with its history, which is the repetition such a cache is for.
 * <p>
 * What an image is: a mosaic of {@link #TILE}-pixel square tiles, each of one colour drawn from the image's own random
 * stream, encoded by javax.imageio (PNG, or JPEG at its default quality). Why tiles and not noise: a vision encoder's
 * work depends on the pixels' count, not their content, while the encoding's cost and size depend on the content; per
 * pixel noise made a 512x512 PNG of 788 KB that took five times as long to encode as the mosaic's 35 KB (194 against 40
 * ms each, javax.imageio under Temurin 25 on the shared 2-core VM at a load average of 28), on the load generator's
 * thread. Encoding is deterministic: the bytes of the
 * same image were identical under Temurin 25 and the Debian OpenJDK 17 (ImageSynthesizerTest holds the bytes of a
 * known image to their SHA-256).
 * <p>
 * Worked example: {@code --image-count 2 --image-size 64x32 --image-format png} gives each request two 64x32 PNGs of
 * 4 x 2 tiles (about 200 bytes each), sent as {@code data:image/png;base64,...}.
 * <p>
 * Used on the load generator's thread (one request at a time), ahead of the request's intended start; not thread-safe.
 */
public final class ImageSynthesizer
{
    /** The side of a tile of one colour, in pixels. */
    public static final int TILE = 16;
    /** Mixed into the image streams' seeds, so that they are not the prompt streams' (same seed and index). */
    private static final long IMAGE_STREAM = 0x1316_6E67_0000_0000L;
    /** The key of a session turn's images is mixed from this, the user, the session and the turn. */
    private static final long SESSION_TURNS = 0x5E55_1045_7000_0000L;

    private final ImageSpec spec;
    private final long seed;
    private final BufferedImage image;
    private final int[] pixels;
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private long imagesMade;
    private long bytesMade;

    /**
     * @param spec what to make.
     * @param seed the run's seed: request i's images are the same in every run of the seed.
     */
    public ImageSynthesizer(final ImageSpec spec, final long seed)
    {
        this.spec = spec;
        this.seed = seed;
        this.image = new BufferedImage(spec.width(), spec.height(), BufferedImage.TYPE_INT_RGB);
        this.pixels = ((DataBufferInt)image.getRaster().getDataBuffer()).getData();
    }

    /** @return the spec. */
    public ImageSpec spec()
    {
        return spec;
    }

    /** @return request {@code request}'s images, in order. */
    public List<BodyShape.Image> images(final long request)
    {
        final List<BodyShape.Image> images = new ArrayList<>(spec.count());
        for (int j = 0; j < spec.count(); j++)
        {
            final byte[] bytes = encoded(request, j);
            imagesMade++;
            bytesMade += bytes.length;
            images.add(new BodyShape.Image(spec.format().mediaType(), Base64.getEncoder().encodeToString(bytes)));
        }
        return images;
    }

    /**
     * @return the images of a user's turn ({@code --users}), in order: from the seed, the user, the session and the
     * turn alone, so that a rerun of the seed sends them again byte for byte and no two turns share one.
     */
    public List<BodyShape.Image> turnImages(final int user, final int session, final int turn)
    {
        return images(Seeds.mix(Seeds.mix(Seeds.mix(SESSION_TURNS, user), session), turn));
    }

    /** @return the encoded bytes of image {@code j} of request {@code request}. */
    public byte[] encoded(final long request, final int j)
    {
        paint(new SplittableRandom(Seeds.mix(Seeds.mix(seed ^ IMAGE_STREAM, request), j)));
        out.reset();
        final ImageWriter writer = ImageIO.getImageWritersByFormatName(spec.format().word()).next();
        try (ImageOutputStream stream = ImageIO.createImageOutputStream(out))
        {
            writer.setOutput(stream);
            writer.write(null, new IIOImage(image, null, null), writer.getDefaultWriteParam());
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
        finally
        {
            writer.dispose();
        }
        return out.toByteArray();
    }

    private void paint(final SplittableRandom random)
    {
        final int w = spec.width();
        final int h = spec.height();
        for (int y = 0; y < h; y += TILE)
        {
            for (int x = 0; x < w; x += TILE)
            {
                final int rgb = random.nextInt() & 0xff_ffff;
                for (int yy = y, yEnd = Math.min(h, y + TILE); yy < yEnd; yy++)
                {
                    Arrays.fill(pixels, yy * w + x, yy * w + Math.min(w, x + TILE), rgb);
                }
            }
        }
    }

    /** @return images made so far (every request's, sent or built ahead). */
    public long imagesMade()
    {
        return imagesMade;
    }

    /** @return the encoded bytes of the images made so far (before base64). */
    public long bytesMade()
    {
        return bytesMade;
    }
}
