package io.tokenclock.workload;

/** How synthetic images are encoded ({@code --image-format}): the name javax.imageio writes it by, its media type. */
public enum ImageFormat
{
    /** PNG: lossless (deflate), the larger of the two for the same image. */
    PNG("png", "image/png"),
    /** JPEG at javax.imageio's default quality (0.75). */
    JPEG("jpeg", "image/jpeg");

    private final String writerName;
    private final String mediaType;

    ImageFormat(final String writerName, final String mediaType)
    {
        this.writerName = writerName;
        this.mediaType = mediaType;
    }

    /** @return the format's name for javax.imageio's writers and for people: {@code png}, {@code jpeg}. */
    public String word()
    {
        return writerName;
    }

    /** @return the media type: {@code image/png}, {@code image/jpeg}. */
    public String mediaType()
    {
        return mediaType;
    }
}
