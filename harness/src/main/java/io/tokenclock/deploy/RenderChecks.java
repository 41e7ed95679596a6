package io.tokenclock.deploy;

import java.util.regex.Pattern;

/**
 * What a rendered script or manifest can hold, checked at render time: a value that its place cannot represent is
 * refused with one line naming the flag (the command line turns it into exit 2), before anything is printed. Most
 * values are not refused but quoted ({@link Shell#quote}, the YAML writer); these checks are for what no quoting
 * fixes:
 * <ul>
 *   <li>anywhere: a NUL (no argument, environment variable or C string holds one) and a lone UTF-16 surrogate (the
 *       rendered text is UTF-8, which cannot encode it); in a manifest, YAML 1.1's own line breaks as well ({@link #yaml});</li>
 *   <li>on a line of its own (a comment, an {@code #SBATCH} directive): a line break, and any other control
 *       character, which would end the line or act on the terminal of whoever reads the script;</li>
 *   <li>a Kubernetes name: the API's own rules (DNS-1123 labels and subdomains, quantities, environment
 *       variable names), since the server would refuse the object at apply time, after the render said nothing.</li>
 * </ul>
 * Stateless; each method returns the value it accepted.
 */
public final class RenderChecks
{
    private static final Pattern DNS_LABEL = Pattern.compile("[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?");
    private static final Pattern DNS_SUBDOMAIN =
        Pattern.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*");
    /** The API's quantity grammar (resource.Quantity), as apimachinery's regular expression spells it. */
    private static final Pattern QUANTITY = Pattern.compile("[+-]?[0-9.]+([eEinumkKMGTP]*[-+]?[0-9]*)");
    private static final Pattern VARIABLE = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");

    private RenderChecks()
    {
    }

    /** @return {@code value}, which holds no NUL and no lone surrogate. */
    public static String text(final String what, final String value)
    {
        if (value.indexOf('\0') >= 0)
        {
            throw new IllegalArgumentException(what + " holds a NUL byte, which no script, argument or manifest can " +
                "hold");
        }
        // a paired surrogate reads as one code point above U+FFFF; a lone one reads as itself
        if (value.codePoints().anyMatch(cp -> cp >= Character.MIN_SURROGATE && cp <= Character.MAX_SURROGATE))
        {
            throw new IllegalArgumentException(what + " holds a lone UTF-16 surrogate, which UTF-8 text cannot hold");
        }
        return value;
    }

    /** @return {@code value}, which fits on one line of a script: {@link #text}, and no control character. */
    public static String line(final String what, final String value)
    {
        text(what, value);
        for (int i = 0; i < value.length(); i++)
        {
            final char c = value.charAt(i);
            if (c < 0x20 || (c >= 0x7f && c <= 0x9f) || c == '\u2028' || c == '\u2029')
            {
                throw new IllegalArgumentException(what + " holds a " + (c == '\n' || c == '\r' ? "line break" :
                    String.format("control character (U+%04X)", (int)c)) + ", which cannot be held on a line of " +
                    "the rendered script: it would end the line there");
            }
        }
        return value;
    }

    /**
     * @return {@code value}, which a YAML manifest can hold: {@link #text}, and none of YAML 1.1's line breaks beyond
     * CR and LF: NEL (U+0085), LS (U+2028), PS (U+2029). kubectl reads YAML 1.1, and the YAML writer (SnakeYAML's
     * emitter) writes these raw, in a plain scalar too, so they come back as a space or a line feed, or break the
     * document ({@code a:}, LS, {@code b} is no scalar at all). Every other character is quoted or escaped:
     * RenderQuotingProperties reads them back, and a search of six million short strings of quotes, indicators,
     * controls and non-ASCII text found no other.
     */
    public static String yaml(final String what, final String value)
    {
        text(what, value);
        for (int i = 0; i < value.length(); i++)
        {
            final char c = value.charAt(i);
            if (c == '\u0085' || c == '\u2028' || c == '\u2029')
            {
                throw new IllegalArgumentException(what + String.format(" holds U+%04X, a line break to YAML 1.1 " +
                    "(NEL, LS or PS), which the manifest's YAML would not give back", (int)c));
            }
        }
        return value;
    }

    /** @return {@code value}, a DNS-1123 label: what Kubernetes takes as a namespace. */
    public static String dnsLabel(final String what, final String value)
    {
        if (!DNS_LABEL.matcher(value).matches())
        {
            throw new IllegalArgumentException(what + " must be a DNS-1123 label (lowercase letters, digits and " +
                "'-', at most 63, starting and ending with a letter or digit), got: " + value);
        }
        return value;
    }

    /** @return {@code value}, a DNS-1123 subdomain: what Kubernetes takes as a storage class's name. */
    public static String dnsSubdomain(final String what, final String value)
    {
        if (value.length() > 253 || !DNS_SUBDOMAIN.matcher(value).matches())
        {
            throw new IllegalArgumentException(what + " must be a DNS-1123 subdomain (lowercase letters, digits, " +
                "'-' and '.', at most 253), got: " + value);
        }
        return value;
    }

    /** @return {@code value}, a Kubernetes quantity such as {@code 5Gi} or {@code 500M}. */
    public static String quantity(final String what, final String value)
    {
        if (!QUANTITY.matcher(value).matches() || value.chars().noneMatch(Character::isDigit))
        {
            throw new IllegalArgumentException(what + " must be a Kubernetes quantity such as 5Gi or 500M, got: " +
                value);
        }
        return value;
    }

    /** @return {@code value}, a container image: not empty, and no space or control character (the API's rule). */
    public static String image(final String what, final String value)
    {
        line(what, value);
        if (value.isEmpty() || value.chars().anyMatch(Character::isWhitespace))
        {
            throw new IllegalArgumentException(what + " must be an image reference without spaces, such as " +
                "registry.example/tokenclock:0.1, got: '" + value + "'");
        }
        return value;
    }

    /** @return {@code value}, a name a shell can export and a Secret can key: letters, digits, '_'. */
    public static String variable(final String what, final String value)
    {
        if (!VARIABLE.matcher(value).matches())
        {
            throw new IllegalArgumentException(what + " must name an environment variable (letters, digits and " +
                "'_', not starting with a digit) to be carried to the job, got: " + value);
        }
        return value;
    }
}
