/**
 * Measured energy: power sources (NVML, nvidia-smi, DCGM, RAPL, a meter's CSV), their polling, and the integration of
 * power over the measured window per component.
 * <p>
 * What it may import is its row, {@code energy}, in docs/ARCHITECTURE.md's table, which LayeringTest holds it to; it
 * never imports a package of its own layer or above, such as {@code cli}, {@code deploy} or {@code merge}.
 */
package io.tokenclock.energy;
