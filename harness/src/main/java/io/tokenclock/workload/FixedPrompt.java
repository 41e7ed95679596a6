package io.tokenclock.workload;

/** The same prompt for every request ({@code --prompt}). */
public final class FixedPrompt implements PromptSource
{
    private final String text;
    private final int words;

    public FixedPrompt(final String text)
    {
        if (text == null || text.isBlank())
        {
            throw new IllegalArgumentException("--prompt must not be empty");
        }
        this.text = text;
        this.words = text.strip().split("\\s+").length;
    }

    @Override
    public String prompt(final long i)
    {
        return text;
    }

    @Override
    public int promptTokensHint(final long i)
    {
        return words;
    }

    @Override
    public String describe()
    {
        return "fixed prompt of " + words + " words";
    }
}
