package io.tokenclock.secrets;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * Every rule for what tokenclock never writes out, in one place. A secret is recognised by <em>what it is</em> (a
 * header value, the credentials or query of a URL, a JVM option whose name says password), never by how the user
 * happened to spell the flag that carried it: callers hand over parsed values, and this class decides what of them
 * may be shown.
 * <p>
 * What is redacted, and why:
 * <ul>
 *   <li><b>Header values</b>, all of them: {@code Authorization}, {@code X-Api-Key}, {@code api-key} and vendor
 *       headers carry keys, and no list of names can be complete. The name is kept, since which headers were sent
 *       is part of the client/server boundary (N).</li>
 *   <li><b>URL user information</b> ({@code https://user:pass@host}) and <b>every query value</b>: Azure's
 *       {@code api-version} is harmless, but {@code ?key=}, {@code ?code=} and SAS signatures are not, and a value
 *       cannot tell which it is. Query names are kept, so the shape of the URL stays reconstructible.</li>
 *   <li><b>JVM options</b>: the value of every system property ({@code -Dname=value}) that is not the JVM's own
 *       ({@code java.*}, {@code jdk.*}, {@code sun.*}, {@code file.*} and the like, see {@link #JVM_PROPERTY_PREFIXES})
 *       or tokenclock's own ({@code tokenclock.*}): an application's property may be anything, a key included, and
 *       its name cannot say which. Of those, one whose name contains password, secret, token, key, credential, auth
 *       or cookie is redacted too ({@code javax.net.ssl.trustStorePassword}). The options of
 *       {@code -javaagent}/{@code -agentlib}/{@code -agentpath} are free text, and redacted.</li>
 * </ul>
 * Worked example: {@code https://bob:pw@api.example.com/v1?api-version=2024-10-21&key=abc} is shown as
 * {@code https://<redacted>@api.example.com/v1?api-version=<redacted>&key=<redacted>}.
 * <p>
 * Stateless and thread-safe.
 */
public final class Redaction
{
    /** What a secret is replaced by, everywhere. */
    public static final String REDACTED = "<redacted>";

    private static final List<String> SECRET_WORDS = List.of("pass", "passwd", "password", "pwd", "secret", "token",
        "key", "credential", "auth", "cookie", "session", "signature", "sig");

    /**
     * The prefixes of the system properties that are the JVM's own (the Java SE and JDK properties, the JDK's
     * networking properties) or tokenclock's: their values are configuration, and kept unless the name says secret.
     */
    public static final List<String> JVM_PROPERTY_PREFIXES = List.of("java.", "javax.", "jdk.", "sun.", "com.sun.",
        "file.", "user.", "os.", "line.", "path.", "native.", "http.", "https.", "ftp.", "socksProxy",
        "networkaddress.", "tokenclock.");

    /** Splits a name into words: at dots, dashes, underscores and other separators, and at camelCase humps. */
    private static final Pattern WORD_BOUNDARY = Pattern.compile("[^A-Za-z0-9]+|(?<=[a-z0-9])(?=[A-Z])");

    private Redaction()
    {
    }

    /** @return {@code "NAME: <redacted>"} for a header given as {@code NAME:VALUE}, or {@code <redacted>} alone. */
    public static String headerArgument(final String nameColonValue)
    {
        final int colon = nameColonValue.indexOf(':');
        return colon > 0 ? nameColonValue.substring(0, colon).strip() + ": " + REDACTED : REDACTED;
    }

    /**
     * @return the URL with its user information replaced by {@code <redacted>}, each query value by
     * {@code <redacted>} (a query item without {@code =} wholly), and any fragment by {@code <redacted>}; works on
     * text that is not a valid URL, too.
     */
    public static String url(final String url)
    {
        if (url == null)
        {
            return null;
        }
        final int hash = url.indexOf('#');
        final String beforeFragment = hash >= 0 ? url.substring(0, hash) : url;
        final int question = beforeFragment.indexOf('?');
        final String beforeQuery = question >= 0 ? beforeFragment.substring(0, question) : beforeFragment;
        final StringBuilder sb = new StringBuilder(url.length() + 16);
        sb.append(withoutUserInfo(beforeQuery));
        if (question >= 0)
        {
            sb.append('?').append(query(beforeFragment.substring(question + 1)));
        }
        if (hash >= 0)
        {
            sb.append('#').append(REDACTED);
        }
        return sb.toString();
    }

    /**
     * @return free text (an exception's message, a parser's complaint that quotes an argument) with every word that
     * holds {@code ://} passed through {@link #url}; line breaks become spaces.
     */
    public static String urlsIn(final String text)
    {
        if (text == null)
        {
            return null;
        }
        final String[] words = text.replace('\n', ' ').replace('\r', ' ').split(" ", -1);
        final StringBuilder sb = new StringBuilder(text.length());
        for (int i = 0; i < words.length; i++)
        {
            sb.append(i == 0 ? "" : " ").append(words[i].contains("://") ? url(words[i]) : words[i]);
        }
        return sb.toString();
    }

    /** @return true if the text holds the user information or a query of a URL, i.e. {@link #url} changes it. */
    public static boolean urlHasSecrets(final String url)
    {
        return url != null && !url.equals(url(url));
    }

    /** @return the JVM argument with a secret value replaced; other arguments unchanged. */
    public static String jvmArgument(final String arg)
    {
        if (arg.startsWith("-D"))
        {
            final int eq = arg.indexOf('=');
            return eq > 0 && !shownProperty(arg.substring(2, eq)) ? arg.substring(0, eq + 1) + REDACTED : arg;
        }
        final String lower = arg.toLowerCase(Locale.ROOT);
        if (lower.startsWith("-javaagent:") || lower.startsWith("-agentlib:") || lower.startsWith("-agentpath:"))
        {
            final int eq = arg.indexOf('=');
            return eq > 0 ? arg.substring(0, eq + 1) + REDACTED : arg;
        }
        return arg;
    }

    /** @return the JVM arguments, each through {@link #jvmArgument}. */
    public static List<String> jvmArguments(final List<String> args)
    {
        final List<String> out = new ArrayList<>(args.size());
        for (final String a : args)
        {
            out.add(jvmArgument(a));
        }
        return out;
    }

    /**
     * @return true if a property or parameter of this name is taken to hold a secret: one of its words is, or ends
     * in, a word such as password, key or token ({@code trustStorePassword}, {@code API_KEY}, {@code apikey},
     * {@code x-auth-tokens}), while a word that merely starts with one ({@code tokenclock.home}) does not count.
     */
    public static boolean isSecretName(final String name)
    {
        for (final String word : WORD_BOUNDARY.split(name))
        {
            String w = word.toLowerCase(Locale.ROOT);
            w = w.length() > 3 && w.endsWith("s") ? w.substring(0, w.length() - 1) : w;
            for (final String secret : SECRET_WORDS)
            {
                if (w.endsWith(secret))
                {
                    return true;
                }
            }
        }
        return false;
    }

    /** @return true if the value of the system property {@code name} may be shown: see the class comment. */
    private static boolean shownProperty(final String name)
    {
        return !isSecretName(name) && JVM_PROPERTY_PREFIXES.stream().anyMatch(name::startsWith);
    }

    private static String withoutUserInfo(final String s)
    {
        final String userInfo = userInfo(s);
        return userInfo == null ? s : s.substring(0, authorityStart(s)) + REDACTED +
            s.substring(authorityStart(s) + userInfo.length());
    }

    /**
     * @return the user information of a URL-like text without its query (between {@code ://} and the last {@code @}
     * before the path), raw; null when it has none. {@link KnownSecrets} takes it from here too.
     */
    static String userInfo(final String beforeQuery)
    {
        final int start = authorityStart(beforeQuery);
        final int slash = beforeQuery.indexOf('/', start);
        final int at = beforeQuery.lastIndexOf('@', (slash < 0 ? beforeQuery.length() : slash) - 1);
        return at < start ? null : beforeQuery.substring(start, at);
    }

    private static int authorityStart(final String s)
    {
        final int scheme = s.indexOf("://");
        return scheme >= 0 ? scheme + 3 : 0;
    }

    private static String query(final String q)
    {
        final StringBuilder sb = new StringBuilder();
        for (final String pair : q.split("&", -1))
        {
            if (!sb.isEmpty())
            {
                sb.append('&');
            }
            final int eq = pair.indexOf('=');
            // a bare item (?sk-abc) may be the secret itself: nothing of it is kept
            sb.append(eq >= 0 ? pair.substring(0, eq) + "=" + REDACTED : REDACTED);
        }
        return sb.toString();
    }
}
