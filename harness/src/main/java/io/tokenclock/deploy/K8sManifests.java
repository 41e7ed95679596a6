package io.tokenclock.deploy;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
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
 * <li>a ConfigMap holding the contract (unless the contract holds a credential: then the Secret holds it);</li>
 * <li>a ReadWriteMany PersistentVolumeClaim for the results, which every shard and the merge mount;</li>
 * <li>an Indexed Job of N pods ({@code completionMode: Indexed}, completions = parallelism = N,
 * {@code restartPolicy: Never}, {@code backoffLimitPerIndex: 0}, {@code maxFailedIndexes: 0}, a
 * {@code podFailurePolicy} whose rule is {@code FailIndex}, {@code podReplacementPolicy: Failed}): pod I runs
 * {@code run --shards N}, which reads {@code JOB_COMPLETION_INDEX}, into {@code shard-I}, and leaves an
 * {@code exit-code} file there when it ends; no index is ever retried, since a retried shard would replay its part
 * of the schedule late;</li>
 * <li>a merge Job, which waits (bounded) until every shard has left its exit code, then merges.</li>
 * </ol>
 * The credentials ({@link JobCredentials}: the run's arguments that hold one, the API keys, a contract with headers
 * or a URL's user information) are not in that stream: {@link #secret} is a Secret of them, written to a file only
 * its owner reads, and the pods take them from it ({@code env.valueFrom.secretKeyRef}, a {@code secret} volume).
 * <p>
 * Every value is a YAML string written by Jackson's YAML generator, which quotes or escapes whatever a string holds;
 * what YAML or the API cannot hold is refused in {@link Cluster}'s checks and {@link RenderChecks}.
 */
public final class K8sManifests
{
    /** Where the contract is mounted in each pod. */
    public static final String CONTRACT_DIR = "/etc/tokenclock";
    /** Where the results volume is mounted in each pod. */
    public static final String RESULTS_DIR = "/results";
    /** The image {@code k8s render} names by default: the one the distribution builds for this version. */
    public static final String DEFAULT_IMAGE = "tokenclock:" + projectVersion();
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory()
        .disable(YAMLGenerator.Feature.WRITE_DOC_START_MARKER).enable(YAMLGenerator.Feature.MINIMIZE_QUOTES)
        .enable(YAMLGenerator.Feature.LITERAL_BLOCK_STYLE));

    /**
     * What the cluster needs beyond the job itself. Each value is checked as the API would check it, so that a
     * mistake is one line at render time and not a refusal at apply time.
     *
     * @param image            the container image with tokenclock (its entry point or {@code tokenclock} on the
     *                         PATH).
     * @param namespace        the namespace of every object.
     * @param contractName     the contract's key in the ConfigMap (or Secret) and its file name in the pod: the
     *                         file's name, its characters outside {@code [-._a-zA-Z0-9]} replaced by {@code -}.
     * @param contract         the contract's text.
     * @param storage          the results volume's size, e.g. {@code 5Gi}.
     * @param storageClass     a storage class that provides ReadWriteMany volumes, or null for the cluster's
     *                         default.
     * @param mergeTimeoutS    how long the merge waits for every shard's exit code before it merges what is there.
     * @param contractIsSecret true if the contract holds a credential: it goes to the Secret, not a ConfigMap.
     */
    public record Cluster(String image, String namespace, String contractName, String contract, String storage,
        String storageClass, int mergeTimeoutS, boolean contractIsSecret)
    {
        public Cluster
        {
            RenderChecks.image("--image", image);
            RenderChecks.dnsLabel("--namespace", namespace);
            contractName = key(contractName);
            RenderChecks.yaml("--config (the contract's text)", contract);
            RenderChecks.quantity("--storage", storage);
            if (storageClass != null)
            {
                RenderChecks.dnsSubdomain("--storage-class", storageClass);
            }
            if (mergeTimeoutS < 1)
            {
                throw new IllegalArgumentException("--merge-timeout must be >= 1 s: " + mergeTimeoutS);
            }
        }

        /** @return a file name as a ConfigMap or Secret key: {@code [-._a-zA-Z0-9]+}, never {@code .} or {@code ..}. */
        static String key(final String fileName)
        {
            String k = fileName.replaceAll("[^-._a-zA-Z0-9]", "-");
            k = k.startsWith("..") || k.isEmpty() || k.equals(".") ? "contract" + k : k;
            return k.length() > 253 ? k.substring(k.length() - 253) : k;
        }
    }

    private K8sManifests()
    {
    }

    /** @return the YAML stream of the objects: no credential is in it (see {@link #secret}). */
    public static String render(final ShardJob job, final Cluster cluster)
    {
        yamlValues(job);
        final List<ObjectNode> objects = new ArrayList<>();
        if (!cluster.contractIsSecret())
        {
            objects.add(configMap(job, cluster));
        }
        objects.addAll(List.of(volume(job, cluster), shardJob(job, cluster), mergeJob(job, cluster)));
        return objects.stream().map(K8sManifests::yaml).collect(Collectors.joining("---\n"));
    }

    /** @return the name of the job's Secret. */
    public static String secretName(final ShardJob job)
    {
        return job.name() + "-credentials";
    }

    /**
     * @return the Secret of the job's credentials, as YAML for {@code kubectl apply -f}, or null when the job
     * carries none: each carried variable under its own name, and the contract under its file name when it holds a
     * credential. It holds the values in clear ({@code stringData}): write it only to a file its owner alone reads.
     */
    public static String secret(final ShardJob job, final Cluster cluster)
    {
        yamlValues(job);
        final Map<String, String> env = job.credentials().environment(job.runArgs());
        if (env.isEmpty() && !cluster.contractIsSecret())
        {
            return null;
        }
        final ObjectNode n = object("v1", "Secret", secretName(job), job, cluster);
        n.put("type", "Opaque");
        final ObjectNode data = n.putObject("stringData");
        env.forEach(data::put);
        if (cluster.contractIsSecret())
        {
            if (env.containsKey(cluster.contractName()))
            {
                throw new IllegalArgumentException("--config's file name " + cluster.contractName() + " is also a " +
                    "variable of the job: rename the contract");
            }
            data.put(cluster.contractName(), cluster.contract());
        }
        return yaml(n);
    }

    /** The job's own strings, which every manifest holds in YAML: see {@link RenderChecks#yaml}. */
    private static void yamlValues(final ShardJob job)
    {
        RenderChecks.yaml("--tokenclock", job.tokenclock());
        for (int i = 0; i < job.runArgs().size(); i++)
        {
            RenderChecks.yaml(ShardJob.argument(i), job.runArgs().get(i));
        }
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
        final String run = "\"$TOKENCLOCK\" run --config " + Shell.quote(CONTRACT_DIR + "/" + c.contractName()) +
            (job.runArgs().isEmpty() ? "" : " " + job.runWords()) + " --shards " +
            job.shards() + " --start-at \"$START_AT\" --output-dir \"" + RESULTS_DIR +
            "/shard-$JOB_COMPLETION_INDEX\" --no-progress; rc=$?; mkdir -p \"" + RESULTS_DIR +
            "/shard-$JOB_COMPLETION_INDEX\"; echo $rc > \"" + RESULTS_DIR +
            "/shard-$JOB_COMPLETION_INDEX/exit-code\"; exit $rc";
        final ObjectNode pod = template(spec, job, "shard", run, c);
        final ArrayNode env = (ArrayNode)pod.path("containers").get(0).path("env");
        for (final String name : job.credentials().environment(job.runArgs()).keySet())
        {
            env.addObject().put("name", name).putObject("valueFrom").putObject("secretKeyRef")
                .put("name", secretName(job)).put("key", name);
        }
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
            "exec \"$TOKENCLOCK\" merge --force " + RESULTS_DIR + "/merged " + shards;
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
        if (c.contractIsSecret())
        {
            volumes.addObject().put("name", "contract").putObject("secret").put("secretName", secretName(job))
                .putArray("items").addObject().put("key", c.contractName()).put("path", c.contractName());
        }
        else
        {
            volumes.addObject().put("name", "contract").putObject("configMap").put("name", job.name() + "-contract");
        }
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

    /** @return this build's version, from the resource Maven filters ({@code version.properties}), or "dev". */
    static String projectVersion()
    {
        try (InputStream in = K8sManifests.class.getResourceAsStream("version.properties"))
        {
            final Properties p = new Properties();
            if (in != null)
            {
                p.load(in);
            }
            final String v = p.getProperty("version", "dev");
            return v.startsWith("${") ? "dev" : v;
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
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
