package io.tokenclock.workload;

import java.util.Locale;

/**
 * The synthetic images every request carries: how many, their size and their format ({@code --image-count},
 * {@code --image-size}, {@code --image-format}). Immutable.
 *
 * @param count  images per request, >= 1.
 * @param width  pixels, >= 1.
 * @param height pixels, >= 1.
 * @param format how each is encoded.
 */
public record ImageSpec(int count, int width, int height, ImageFormat format)
{
    /** The largest side accepted, in pixels: a larger image is not a benchmark's but a denial of service's. */
    public static final int MAX_SIDE = 8192;

    public ImageSpec
    {
        if (count < 1 || width < 1 || height < 1 || width > MAX_SIDE || height > MAX_SIDE)
        {
            throw new IllegalArgumentException("an image spec needs count >= 1 and sides in [1, " + MAX_SIDE + "]");
        }
    }

    /**
     * @return the width and height of {@code size}, written {@code WxH} (e.g. {@code 512x512}).
     * @throws IllegalArgumentException saying what a size looks like.
     */
    public static int[] parseSize(final String size)
    {
        final String s = size == null ? "" : size.strip().toLowerCase(Locale.ROOT);
        final int x = s.indexOf('x');
        try
        {
            final int w = Integer.parseInt(s.substring(0, Math.max(0, x)));
            final int h = Integer.parseInt(s.substring(x + 1));
            if (x > 0 && w >= 1 && h >= 1 && w <= MAX_SIDE && h <= MAX_SIDE)
            {
                return new int[] {w, h};
            }
        }
        catch (final NumberFormatException | StringIndexOutOfBoundsException ex)
        {
            // told below
        }
        throw new IllegalArgumentException("must be WIDTHxHEIGHT in pixels, each in [1, " + MAX_SIDE + "] (e.g. " +
            "512x512): " + size);
    }

    /** @return {@code 2 x 512x512 png}. */
    public String describe()
    {
        return count + " x " + width + "x" + height + " " + format.word();
    }
}
