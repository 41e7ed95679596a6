package io.tokenclock.deploy;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

/**
 * {@code tokenclock slurm render}: an {@code sbatch} script that runs a {@link ShardJob} as a Slurm job array, one
 * shard per array task, and, submitted a second time as the step {@code merge}, merges them (docs/DISTRIBUTED.md).
 * Slurm sets {@code SLURM_ARRAY_TASK_ID} and {@code SLURM_ARRAY_TASK_COUNT} in each task, which {@code run --shards}
 * reads. Tasks are never requeued: a shard run again would replay its part of the schedule late.
 * <p>
 * What the script holds, and how: every value in shell code is one {@link Shell#quote}d word; the output directory
 * also sits on an {@code #SBATCH --output} line, which Slurm's own parser reads ({@link #directive}); a comment holds
 * only values that {@link RenderChecks#line} let through. No credential is in the text: the arguments that hold one
 * and the API keys ({@link JobCredentials}) are exported by {@link #secretsFile}, a file only its owner reads, which
 * each task sources before it runs.
 */
public final class SlurmScript
{
    private SlurmScript()
    {
    }

    /**
     * @param job     the job.
     * @param secrets the absolute path of the credentials file the tasks source; null when the job carries none.
     * @return the script's text.
     */
    public static String render(final ShardJob job, final String secrets)
    {
        final String dir = RenderChecks.line("--output-dir", job.outputDir());
        final String out = Shell.quote(dir);
        final List<String> lines = new ArrayList<>();
        lines.add("#!/bin/bash");
        lines.add("# tokenclock: " + job.shards() + " shards of one run as a Slurm job array " +
            "(tokenclock slurm render).");
        lines.add("# Submit the shards, then the merge as a job that runs when every task has ended, ok or not:");
        lines.add("#   mkdir -p " + out + " && jid=$(" + (job.startAt() == null ?
            "START_AT=$(date -u -d +2min +%Y-%m-%dT%H:%M:%SZ) " : "") + "sbatch --parsable THIS_SCRIPT)");
        lines.add("#   sbatch --dependency=afterany:$jid --array=0 --export=ALL,TOKENCLOCK_STEP=merge THIS_SCRIPT");
        lines.add("# The output directory must be on storage every node shares; shard I writes shard-I under it.");
        if (secrets != null)
        {
            lines.add("# The run's credentials are not in this script: each task sources " +
                Shell.quote(RenderChecks.line("--secrets-file", secrets)) + " (readable only by you).");
        }
        lines.add("#SBATCH --job-name=" + job.name());
        lines.add("#SBATCH --array=0-" + (job.shards() - 1));
        lines.add("#SBATCH --ntasks=1");
        lines.add("#SBATCH --cpus-per-task=" + job.cpusPerTask());
        lines.add("#SBATCH --no-requeue");
        lines.add("#SBATCH --output=" + directive("--output-dir", filenamePattern(dir) + "/slurm-%A_%a.out"));
        lines.add("set -euo pipefail");
        lines.add("TOKENCLOCK=${TOKENCLOCK:-" + Shell.quote(job.tokenclock()) + "}");
        lines.add("OUT=" + out);
        lines.add("if [ \"${TOKENCLOCK_STEP:-shard}\" = merge ]; then");
        final String dirs = IntStream.range(0, job.shards()).mapToObj(i -> "\"$OUT/shard-" + i +
            "\"").collect(Collectors.joining(" "));
        // --force: the merged result is derived from the shards, so the merge step run again (a late shard re-run)
        // replaces it; merge never lets --force touch a shard.
        lines.add("  exec \"$TOKENCLOCK\" merge --force \"$OUT/merged\" " + dirs);
        lines.add("fi");
        if (secrets != null)
        {
            lines.addAll(sourceSecrets(secrets));
        }
        lines.add(job.startAt() == null ?
            ": \"${START_AT:?set START_AT to the common start, e.g. " +
                "START_AT=$(date -u -d +2min +%Y-%m-%dT%H:%M:%SZ)}\"" :
            "START_AT=${START_AT:-" + job.startAt() + "}");
        lines.add("mkdir -p \"$OUT\"");
        final List<String> cmd = new ArrayList<>();
        cmd.add("exec \"$TOKENCLOCK\" run " + job.runWords());
        cmd.add("--shards " + job.shards() + " --start-at \"$START_AT\"");
        cmd.add("--output-dir \"$OUT/shard-$SLURM_ARRAY_TASK_ID\" --no-progress");
        lines.add(String.join(" \\\n  ", cmd));
        return String.join("\n", lines) + "\n";
    }

    /**
     * @return the text of the credentials file: a comment, then one {@code export NAME='value'} per variable, each
     * value {@link Shell#quote}d (a value may hold any character but NUL, a line feed included).
     */
    public static String secretsFile(final ShardJob job)
    {
        final StringBuilder sb = new StringBuilder("# tokenclock slurm render: the credentials of job " + job.name() +
            ", sourced by each of its tasks. Readable only by its owner; never copy it into a results directory.\n");
        for (final Map.Entry<String, String> e : job.credentials().environment(job.runArgs()).entrySet())
        {
            sb.append("export ").append(e.getKey()).append('=').append(Shell.quote(e.getValue())).append('\n');
        }
        return sb.toString();
    }

    /** The lines that source the credentials, refusing a file that is not the job owner's own. */
    private static List<String> sourceSecrets(final String secrets)
    {
        return List.of(
            "TOKENCLOCK_SECRETS=" + Shell.quote(secrets),
            "if [ ! -O \"$TOKENCLOCK_SECRETS\" ] || [ ! -r \"$TOKENCLOCK_SECRETS\" ]; then",
            "  echo \"tokenclock: $TOKENCLOCK_SECRETS is missing or not yours: it holds this job's credentials " +
                "(tokenclock slurm render wrote it)\" >&2",
            "  exit 2",
            "fi",
            ". \"$TOKENCLOCK_SECRETS\"");
    }

    /**
     * @return {@code value} as one argument of an {@code #SBATCH} line. sbatch reads such a line with a parser of its
     * own, not the shell's: white space ends an argument unless it is inside quotes (an escaped space does not do),
     * a backslash escapes the next character, and an unescaped {@code #} starts a comment (in older versions even
     * inside quotes). So a value with a space, a quote, a backslash or a {@code #} is put in double quotes, with
     * {@code "}, {@code \} and {@code #} escaped by a backslash, which every sbatch version reads back as the value;
     * a plain value stays bare. What cannot be held is refused: a line break or other control character (the
     * directive ends there), and the words {@code hetjob} and {@code packjob}, which sbatch blanks out of any
     * directive line before reading it.
     */
    static String directive(final String what, final String value)
    {
        RenderChecks.line(what, value);
        final String lower = value.toLowerCase(Locale.ROOT);
        if (lower.contains("hetjob") || lower.contains("packjob"))
        {
            throw new IllegalArgumentException(what + " holds the word 'hetjob' or 'packjob', which sbatch blanks " +
                "out of an #SBATCH line: choose another directory name");
        }
        if (value.chars().noneMatch(c -> c == ' ' || c == '"' || c == '\'' || c == '\\' || c == '#'))
        {
            return value;
        }
        final StringBuilder sb = new StringBuilder(value.length() + 8).append('"');
        for (int i = 0; i < value.length(); i++)
        {
            final char c = value.charAt(i);
            if (c == '"' || c == '\\' || c == '#')
            {
                sb.append('\\');
            }
            sb.append(c);
        }
        return sb.append('"').toString();
    }

    /**
     * @return {@code dir} inside a Slurm file name pattern: {@code %} doubled ({@code %%} is a literal one). A
     * backslash is refused: in a pattern it turns every replacement off, {@code %A} and {@code %a} included.
     */
    static String filenamePattern(final String dir)
    {
        if (dir.indexOf('\\') >= 0)
        {
            throw new IllegalArgumentException("--output-dir holds a backslash, which turns off Slurm's %A/%a in " +
                "the log file name (#SBATCH --output): choose a directory without one");
        }
        return dir.replace("%", "%%");
    }
}
