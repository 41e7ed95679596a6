package io.tokenclock.deploy;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLGenerator;

/**
 * {@code tokenclock k8s render}: the Kubernetes objects that run a {@link ShardJob} (docs/DISTRIBUTED.md), as one
 * multi-document YAML stream for {@code kubectl apply -f -}:
 * <ol>
 * <li>a ConfigMap holding the contract;</li>
 * <li>a ReadWriteMany PersistentVolumeClaim for the results, which every shard and the merge mount;</li>
 * <li>an Indexed Job of N pods ({@code completionMode: Indexed}, completions = parallelism = N,
 * {@code restartPolicy: Never}, {@code backoffLimitPerIndex: 0}, {@code maxFailedIndexes: 0}, a
 * {@code podFailurePolicy} whose rule is {@code FailIndex}, {@code podReplacementPolicy: Failed}): pod I runs
 * {@code run --shards N}, which reads {@code JOB_COMPLETION_INDEX}, into {@code shard-I}, and leaves an
 * {@code exit-code} file there when it ends; no index is ever retried, since a retried shard would replay its part
 * of the schedule late;</li>
 * <li>a merge Job, which waits (bounded) until every shard has left its exit code, then merges.</li>
 * </ol>
 */
public final class K8sManifests
{
    /** Where the contract is mounted in each pod. */
    public static final String CONTRACT_DIR = "/etc/tokenclock";
    /** Where the results volume is mounted in each pod. */
    public static final String RESULTS_DIR = "/results";
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory()
        .disable(YAMLGenerator.Feature.WRITE_DOC_START_MARKER).enable(YAMLGenerator.Feature.MINIMIZE_QUOTES)
        .enable(YAMLGenerator.Feature.LITERAL_BLOCK_STYLE));

    /**
     * What the cluster needs beyond the job itself.
     *
     * @param image          the container image with tokenclock (its entry point or {@code tokenclock} on the PATH).
     * @param namespace      the namespace of every object.
     * @param contractName   the contract's file name inside the ConfigMap.
     * @param contract       the contract's text.
     * @param storage        the results volume's size, e.g. {@code 5Gi}.
     * @param storageClass   a storage class that provides ReadWriteMany volumes, or null for the cluster's default.
     * @param mergeTimeoutS  how long the merge waits for every shard's exit code before it merges what is there.
     */
    public record Cluster(String image, String namespace, String contractName, String contract, String storage,
        String storageClass, int mergeTimeoutS)
    {
    }

    private K8sManifests()
    {
    }

    /** @return the YAML stream of the four objects. */
    public static String render(final ShardJob job, final Cluster cluster)
    {
        return List.of(configMap(job, cluster), volume(job, cluster), shardJob(job, cluster), mergeJob(job, cluster))
            .stream().map(K8sManifests::yaml).collect(Collectors.joining("---\n"));
    }

    private static ObjectNode configMap(final ShardJob job, final Cluster c)
    {
        final ObjectNode n = object("v1", "ConfigMap", job.name() + "-contract", job, c);
        n.putObject("data").put(c.contractName(), c.contract());
        return n;
    }

    private static ObjectNode volume(final ShardJob job, final Cluster c)
    {
        final ObjectNode n = object("v1", "PersistentVolumeClaim", job.name() + "-results", job, c);
        final ObjectNode spec = n.putObject("spec");
        spec.putArray("accessModes").add("ReadWriteMany");
        if (c.storageClass() != null)
        {
            spec.put("storageClassName", c.storageClass());
        }
        spec.putObject("resources").putObject("requests").put("storage", c.storage());
        return n;
    }

    private static ObjectNode shardJob(final ShardJob job, final Cluster c)
    {
        final ObjectNode n = object("batch/v1", "Job", job.name() + "-shards", job, c);
        final ObjectNode spec = n.putObject("spec");
        spec.put("completionMode", "Indexed");
        spec.put("completions", job.shards());
        spec.put("parallelism", job.shards());
        spec.put("backoffLimitPerIndex", 0);
        spec.put("maxFailedIndexes", 0);
        spec.put("podReplacementPolicy", "Failed");
        final ArrayNode rules = spec.putObject("podFailurePolicy").putArray("rules");
        rules.addObject().put("action", "FailIndex").putObject("onExitCodes").put("containerName", "shard")
            .put("operator", "NotIn").putArray("values").add(0);
        rules.addObject().put("action", "FailIndex").putArray("onPodConditions").addObject()
            .put("type", "DisruptionTarget");
        final String run = "\"$TOKENCLOCK\" run --config " + CONTRACT_DIR + "/" + c.contractName() + " " +
            job.runArgs().stream().map(ShardJob::shellQuote).collect(Collectors.joining(" ")) + " --shards " +
            job.shards() + " --start-at \"$START_AT\" --output-dir \"" + RESULTS_DIR +
            "/shard-$JOB_COMPLETION_INDEX\" --no-progress; rc=$?; mkdir -p \"" + RESULTS_DIR +
            "/shard-$JOB_COMPLETION_INDEX\"; echo $rc > \"" + RESULTS_DIR +
            "/shard-$JOB_COMPLETION_INDEX/exit-code\"; exit $rc";
        final ObjectNode pod = template(spec, job, "shard", run, c);
        pod.put("subdomain", job.name());
        ((ObjectNode)pod.path("containers").get(0)).putObject("resources").putObject("requests")
            .put("cpu", String.valueOf(job.cpusPerTask()));
        return n;
    }

    private static ObjectNode mergeJob(final ShardJob job, final Cluster c)
    {
        final ObjectNode n = object("batch/v1", "Job", job.name() + "-merge", job, c);
        final ObjectNode spec = n.putObject("spec");
        spec.put("backoffLimit", 0);
        final String shards = IntStream.range(0, job.shards()).mapToObj(i -> RESULTS_DIR + "/shard-" + i)
            .collect(Collectors.joining(" "));
        final String wait = "deadline=$(( $(date +%s) + " + c.mergeTimeoutS() + " )); for d in " + shards +
            "; do until [ -f \"$d/exit-code\" ] || [ $(date +%s) -ge $deadline ]; do sleep 5; done; done; " +
            "exec \"$TOKENCLOCK\" merge " + RESULTS_DIR + "/merged " + shards;
        template(spec, job, "merge", wait, c);
        return n;
    }

    /** Fills {@code spec.template}: one container running {@code script} under sh, the volumes, the env. */
    private static ObjectNode template(
        final ObjectNode jobSpec, final ShardJob job, final String container, final String script, final Cluster c)
    {
        final ObjectNode template = jobSpec.putObject("template");
        template.putObject("metadata").putObject("labels").put("app.kubernetes.io/name", "tokenclock")
            .put("tokenclock/job", job.name()).put("tokenclock/step", container);
        final ObjectNode pod = template.putObject("spec");
        pod.put("restartPolicy", "Never");
        final ObjectNode box = pod.putArray("containers").addObject();
        box.put("name", container);
        box.put("image", c.image());
        box.putArray("command").add("/bin/sh").add("-c").add(script);
        final ArrayNode env = box.putArray("env");
        env.addObject().put("name", "TOKENCLOCK").put("value", job.tokenclock());
        env.addObject().put("name", "START_AT").put("value", String.valueOf(job.startAt()));
        final ArrayNode mounts = box.putArray("volumeMounts");
        mounts.addObject().put("name", "contract").put("mountPath", CONTRACT_DIR).put("readOnly", true);
        mounts.addObject().put("name", "results").put("mountPath", RESULTS_DIR);
        final ArrayNode volumes = pod.putArray("volumes");
        volumes.addObject().put("name", "contract").putObject("configMap").put("name", job.name() + "-contract");
        volumes.addObject().put("name", "results").putObject("persistentVolumeClaim")
            .put("claimName", job.name() + "-results");
        return pod;
    }

    private static ObjectNode object(
        final String apiVersion, final String kind, final String name, final ShardJob job, final Cluster c)
    {
        final ObjectNode n = YAML.createObjectNode();
        n.put("apiVersion", apiVersion);
        n.put("kind", kind);
        final ObjectNode meta = n.putObject("metadata");
        meta.put("name", name);
        meta.put("namespace", c.namespace());
        meta.putObject("labels").put("app.kubernetes.io/name", "tokenclock").put("tokenclock/job", job.name());
        return n;
    }

    private static String yaml(final ObjectNode n)
    {
        try
        {
            return YAML.writeValueAsString(n);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }
}
