package io.tokenclock.deploy;

import java.util.regex.Pattern;

/**
 * The one way a rendered script spells a value as a shell word: the sbatch script (bash) and the pods' command
 * ({@code /bin/sh -c}) both use it, for every argument, path and default they hold.
 * <p>
 * Why single quotes: inside them a POSIX shell interprets nothing, not {@code $}, not a backquote, not a backslash,
 * not a line feed; the only character they cannot hold is the single quote itself, which is written as
 * {@code '\''} (close, an escaped quote, reopen). So every string is representable except one holding a NUL, which
 * no shell word, argument or environment variable can carry ({@link RenderChecks#text} refuses it first). A word of
 * plain characters is left bare, so that the usual script reads as one would write it.
 * <p>
 * Worked example: {@code it's $HOME} becomes {@code 'it'\''s $HOME'}, which the shell reads back as the 9
 * characters it was; {@code /shared/bench} stays {@code /shared/bench}.
 */
public final class Shell
{
    /** Characters that mean nothing to a shell anywhere in a word (no {@code ~}: it expands at a word's start). */
    private static final Pattern BARE = Pattern.compile("[A-Za-z0-9_./:=@%+,-]+");

    private Shell()
    {
    }

    /** @return {@code s} as one shell word that the shell reads back as exactly {@code s}. */
    public static String quote(final String s)
    {
        if (s.indexOf('\0') >= 0)
        {
            throw new IllegalArgumentException("a NUL byte cannot be held in a shell word");
        }
        return BARE.matcher(s).matches() ? s : "'" + s.replace("'", "'\\''") + "'";
    }
}
