package io.tokenclock.workload;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.util.Arrays;
import java.util.Base64;

import javax.imageio.ImageIO;

import org.junit.jupiter.api.Test;

/**
 * Synthetic images are made from the seed, the request and the image's index alone: the same in every run of the
 * seed (so the workload hash covers them), different between requests and images, decodable at the size asked.
 */
final class ImageSynthesizerTest
{
    @Test
    void shouldMakeTheSameImagesFromTheSameSeedAndOthersFromAnother()
    {
        final ImageSpec spec = new ImageSpec(2, 40, 30, ImageFormat.PNG);
        final ImageSynthesizer a = new ImageSynthesizer(spec, 42);
        final ImageSynthesizer b = new ImageSynthesizer(spec, 42);
        assertArrayEquals(a.encoded(7, 1), b.encoded(7, 1));
        assertEquals(a.images(3), b.images(3));
        assertFalse(Arrays.equals(a.encoded(7, 0), a.encoded(7, 1)), "two images of one request differ");
        assertFalse(Arrays.equals(a.encoded(7, 0), a.encoded(8, 0)), "two requests' images differ");
        assertFalse(Arrays.equals(a.encoded(7, 0), new ImageSynthesizer(spec, 43).encoded(7, 0)), "another seed");
        final ImageSynthesizer c = new ImageSynthesizer(spec, 42);
        c.images(5);
        assertEquals(2, c.imagesMade());
        assertEquals(c.encoded(5, 0).length + c.encoded(5, 1).length, c.bytesMade(), "bytes before base64");
    }

    @Test
    void shouldEncodeEachFormatAtTheSizeAsked() throws IOException
    {
        for (final ImageFormat format : ImageFormat.values())
        {
            final ImageSynthesizer s = new ImageSynthesizer(new ImageSpec(1, 33, 17, format), 1);
            final byte[] bytes = Base64.getDecoder().decode(s.images(0).get(0).base64());
            final BufferedImage image = ImageIO.read(new ByteArrayInputStream(bytes));
            assertEquals(33, image.getWidth(), format.word());
            assertEquals(17, image.getHeight(), format.word());
            assertEquals(format.mediaType(), s.images(0).get(0).mediaType());
            assertEquals(bytes.length * 2L, s.bytesMade(), "two calls, each image's encoded bytes counted");
        }
    }

    @Test
    void shouldParseASizeOrSayWhatASizeIs()
    {
        assertArrayEquals(new int[] {640, 480}, ImageSpec.parseSize("640x480"));
        assertArrayEquals(new int[] {64, 48}, ImageSpec.parseSize("64X48"));
        for (final String bad : new String[] {"12", "0x10", "10x", "x10", "9000x10", "axb"})
        {
            assertThrows(IllegalArgumentException.class, () -> ImageSpec.parseSize(bad), bad);
        }
    }
}
