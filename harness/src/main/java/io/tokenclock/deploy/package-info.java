/**
 * {@code tokenclock slurm render} and {@code tokenclock k8s render}: the text that runs a job of N shards and merges
 * them, an {@code sbatch} script ({@link io.tokenclock.deploy.SlurmScript}) or Kubernetes objects
 * ({@link io.tokenclock.deploy.K8sManifests}), every value quoted one way ({@link io.tokenclock.deploy.Shell}), what no
 * quoting fixes refused at render time ({@link io.tokenclock.deploy.RenderChecks}), and credentials carried in the
 * job's environment, never in its text ({@link io.tokenclock.deploy.JobCredentials}).
 * <p>
 * What it may import is its row, {@code deploy}, in docs/ARCHITECTURE.md's table, which {@code LayeringTest} holds it
 * to: {@code secrets} alone. It renders text and submits nothing, so it knows neither the run nor its results.
 */
package io.tokenclock.deploy;
