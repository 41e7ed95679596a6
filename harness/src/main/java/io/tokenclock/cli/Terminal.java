package io.tokenclock.cli;

/**
 * What the command line knows about the terminal; nothing below the command line asks.
 */
final class Terminal
{
    private Terminal()
    {
    }

    /**
     * @return whether stderr is a terminal. The JVM cannot tell for stderr alone ({@code System.console()} looks at
     * stdin and stdout), so the launcher tests it ({@code [ -t 2 ]}) and passes {@code -Dtokenclock.tty=1}.
     */
    static boolean stderrIsTerminal()
    {
        return "1".equals(System.getProperty("tokenclock.tty"));
    }
}
