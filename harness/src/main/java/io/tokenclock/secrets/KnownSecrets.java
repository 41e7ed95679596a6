package io.tokenclock.secrets;

import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The credentials this process holds, by value, so that an echo of one in what a server sent is redacted before it
 * is printed or written. {@link Redaction} hides what the user gave where tokenclock shows it (a URL, a header
 * flag); this hides the same values where a <em>server</em> shows them: a proxy that answers a 401 with
 * {@code invalid key sk-...}, a 500 that dumps the request's headers, a gateway that quotes the URL it refused.
 * The values are known, so they are found by value, whatever the server wrapped around them.
 * <p>
 * Why a registry of the process, and not an object handed down: every path that turns a server's bytes into text
 * (the transports' error details, the probe and preflight, the judge, the metrics scraper, a power source, the
 * console's last guard) already goes through {@code text.UntrustedText}, which asks {@link #redact} first; one
 * registry consulted there covers every path by construction, including a path added later. A process runs one
 * command, whose credentials are its environment and its arguments: process-wide state of their own. The run
 * {@linkplain #remember remembers} them as it builds its requests; a new command {@linkplain #forget forgets}.
 * <p>
 * What is searched for, per credential: its text, its JSON-escaped and percent-encoded spellings (how a JSON body
 * or a quoted URL would carry it), and, for a URL's user information, its decoded form, its password and its Basic
 * token. A header or query value whose name does not say it is secret is still searched for (a key may sit under
 * any name: {@link Redaction}'s rule), but only from {@value #MIN_OTHER_CHARS} characters on, since shorter values
 * ({@code true}, {@code 1}, {@code json}) are ordinary words of an error message; a credential by name (a key, a
 * password, an Authorization value) from {@value #MIN_CREDENTIAL_CHARS}. A body cut short may end in the first
 * characters of a credential: such an ending, {@value #MIN_CREDENTIAL_CHARS} characters or more, is redacted too.
 * <p>
 * Worked example: with {@code OPENAI_API_KEY=sk-live-7f3a91c2} remembered, a proxy's
 * {@code {"error":"invalid api key sk-live-7f3a91c2"}} becomes {@code {"error":"invalid api key <redacted>"}}, and
 * the same body cut after {@code sk-live-7f} becomes {@code {"error":"invalid api key <redacted>}.
 * <p>
 * Thread-safe: the set is replaced whole (copy on write) and read without a lock.
 */
public final class KnownSecrets
{
    /** A credential by name (a key, a password, an Authorization value) is searched for from this length on. */
    static final int MIN_CREDENTIAL_CHARS = 4;
    /** Any other header or query value is searched for from this length on. */
    static final int MIN_OTHER_CHARS = 8;

    /** Longest first, so that a secret holding another is redacted whole. */
    private static volatile List<String> values = List.of();

    private KnownSecrets()
    {
    }

    /** Remembers a credential by value (an API key, a password); blank or short values are not searched for. */
    public static void remember(final String credential)
    {
        add(credential, MIN_CREDENTIAL_CHARS);
    }

    /**
     * Remembers a header's value: an {@code Authorization} (or {@code Proxy-Authorization}) value whole and its
     * token after the scheme, any other value whole, as a credential when its name says secret
     * ({@link Redaction#isSecretName}).
     */
    public static void rememberHeader(final String name, final String value)
    {
        if (value == null)
        {
            return;
        }
        final String lower = name.toLowerCase(Locale.ROOT);
        if (lower.equals("authorization") || lower.equals("proxy-authorization"))
        {
            add(value, MIN_CREDENTIAL_CHARS);
            final int space = value.strip().indexOf(' ');
            add(space > 0 ? value.strip().substring(space + 1) : null, MIN_CREDENTIAL_CHARS);
            return;
        }
        add(value, Redaction.isSecretName(name) ? MIN_CREDENTIAL_CHARS : MIN_OTHER_CHARS);
    }

    /**
     * Remembers what {@link Redaction#url} hides of a URL: its user information (raw, decoded, the password alone,
     * the Basic token a client makes of it) and each query value.
     */
    public static void rememberUrl(final String url)
    {
        if (url == null)
        {
            return;
        }
        final String s = url.strip();
        final int hash = s.indexOf('#');
        final String beforeFragment = hash >= 0 ? s.substring(0, hash) : s;
        final int question = beforeFragment.indexOf('?');
        final String beforeQuery = question >= 0 ? beforeFragment.substring(0, question) : beforeFragment;
        final String userInfo = Redaction.userInfo(beforeQuery);
        if (userInfo != null)
        {
            final String decoded = decode(userInfo);
            add(userInfo, MIN_CREDENTIAL_CHARS);
            add(decoded, MIN_CREDENTIAL_CHARS);
            final int colon = decoded.indexOf(':');
            add(colon >= 0 ? decoded.substring(colon + 1) : null, MIN_CREDENTIAL_CHARS);
            final int rawColon = userInfo.indexOf(':');
            add(rawColon >= 0 ? userInfo.substring(rawColon + 1) : null, MIN_CREDENTIAL_CHARS);
            add(Base64.getEncoder().encodeToString(decoded.getBytes(StandardCharsets.UTF_8)), MIN_CREDENTIAL_CHARS);
        }
        if (question >= 0)
        {
            for (final String pair : beforeFragment.substring(question + 1).split("&"))
            {
                final int eq = pair.indexOf('=');
                final String value = eq >= 0 ? pair.substring(eq + 1) : pair;
                final int min = eq < 0 || Redaction.isSecretName(pair.substring(0, eq)) ? MIN_CREDENTIAL_CHARS :
                    MIN_OTHER_CHARS;
                add(value, min);
                add(decode(value), min);
            }
        }
        if (hash >= 0)
        {
            add(s.substring(hash + 1), MIN_OTHER_CHARS);
        }
    }

    /** Forgets every value: a new command starts with its own. */
    public static void forget()
    {
        values = List.of();
    }

    /**
     * @return {@code text} with every remembered credential, and an ending that begins one, replaced by
     * {@link Redaction#REDACTED}; {@code text} itself when none occurs (null stays null).
     */
    public static String redact(final String text)
    {
        final List<String> known = values;
        if (text == null || known.isEmpty())
        {
            return text;
        }
        String s = text;
        for (final String secret : known)
        {
            if (s.contains(secret))
            {
                s = s.replace(secret, Redaction.REDACTED);
            }
        }
        return withoutCutEnding(s, known);
    }

    /** @return {@code s} without an ending that is the start of a credential (a body cut inside it). */
    private static String withoutCutEnding(final String s, final List<String> known)
    {
        int longest = 0;
        for (final String secret : known)
        {
            for (int k = Math.min(secret.length() - 1, s.length()); k >= MIN_CREDENTIAL_CHARS && k > longest; k--)
            {
                if (s.regionMatches(s.length() - k, secret, 0, k))
                {
                    longest = k;
                }
            }
        }
        return longest == 0 ? s : s.substring(0, s.length() - longest) + Redaction.REDACTED;
    }

    private static synchronized void add(final String value, final int minChars)
    {
        if (value == null || value.isBlank() || value.strip().length() < minChars)
        {
            return;
        }
        final Set<String> next = new LinkedHashSet<>(values);
        for (final String v : List.of(value, value.strip(), jsonEscaped(value), URLEncoder.encode(value,
            StandardCharsets.UTF_8)))
        {
            if (v.length() >= minChars)
            {
                next.add(v);
            }
        }
        final List<String> sorted = new ArrayList<>(next);
        sorted.sort(Comparator.comparingInt(String::length).reversed());
        values = List.copyOf(sorted);
    }

    /** @return {@code s} as a JSON string would spell it, solidus escaped too (some servers do). */
    private static String jsonEscaped(final String s)
    {
        final StringBuilder sb = new StringBuilder(s.length() + 8);
        for (int i = 0; i < s.length(); i++)
        {
            final char c = s.charAt(i);
            switch (c)
            {
                case '"' -> sb.append("\\\"");
                case '\\' -> sb.append("\\\\");
                case '/' -> sb.append("\\/");
                default -> sb.append(c);
            }
        }
        return sb.toString();
    }

    private static String decode(final String s)
    {
        try
        {
            return URLDecoder.decode(s.replace("+", "%2B"), StandardCharsets.UTF_8);
        }
        catch (final IllegalArgumentException ex)
        {
            return s; // not percent-encoding after all: the raw text is what a server would echo
        }
    }
}
