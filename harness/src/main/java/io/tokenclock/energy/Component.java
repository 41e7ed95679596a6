package io.tokenclock.energy;

/** What part of the system a power channel measures; the energy boundary is made of these. */
public enum Component
{
    /** A GPU or other accelerator board (NVML, nvidia-smi, DCGM). */
    ACCELERATOR("accelerator"),
    /** A CPU package (RAPL {@code package-N}). */
    CPU("CPU"),
    /** Memory attached to a CPU package (RAPL {@code dram}). */
    DRAM("DRAM"),
    /** A whole machine at its power plug (an external meter). */
    WALL("wall");

    private final String word;

    Component(final String word)
    {
        this.word = word;
    }

    /** @return the record's word for it. */
    public String word()
    {
        return word;
    }
}
