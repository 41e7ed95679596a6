package io.tokenclock.cli;

/**
 * A command that reads result files ({@code record}, {@code report}, {@code compare}, {@code merge}). Each reader
 * names the file and the field that is not what it claims; should one miss, {@link Main} turns whatever escapes it
 * into one line naming the command's inputs, exit 2, never a stack trace or an internal message.
 */
interface ReadsFiles
{
    /** @return the files and directories the command was given to read. */
    java.util.List<java.nio.file.Path> inputs();
}
