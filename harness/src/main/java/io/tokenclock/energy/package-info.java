/**
 * Measured energy: power sources (NVML, nvidia-smi, DCGM, RAPL, a meter's CSV), their polling, and the integration of
 * power over the measured window per component.
 */
package io.tokenclock.energy;
