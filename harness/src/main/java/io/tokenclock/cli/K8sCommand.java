package io.tokenclock.cli;

import java.io.IOException;
import java.net.InetAddress;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import io.tokenclock.config.RunOptions;
import io.tokenclock.contract.ContractFile;
import io.tokenclock.deploy.JobCredentials;
import io.tokenclock.deploy.K8sManifests;
import io.tokenclock.deploy.ShardJob;
import io.tokenclock.secrets.SecretFile;
import io.tokenclock.transport.Endpoint;

/** {@code tokenclock k8s render}: the Kubernetes objects for N shards of one run. docs/DISTRIBUTED.md. */
@Command(name = "k8s", mixinStandardHelpOptions = true, description = "Run shards on Kubernetes.",
    subcommands = K8sCommand.Render.class)
public final class K8sCommand implements Callable<Integer>
{
    @Override
    public Integer call()
    {
        throw new IllegalArgumentException("missing subcommand: tokenclock k8s render --shards N --config C.yaml");
    }

    /**
     * Prints the ConfigMap, the results volume, the Indexed Job and the merge Job as one YAML stream; writes the
     * Secret of the run's credentials, if any, to a file only the user reads.
     */
    @Command(name = "render", mixinStandardHelpOptions = true, description = "Print a ConfigMap with the contract, " +
        "a ReadWriteMany volume, an Indexed Job of N shards and a merge Job. More run flags may follow --. " +
        "Credentials go to a Secret in --secrets-file, never into the printed objects.")
    static final class Render implements Callable<Integer>
    {
        @Mixin
        JobShapeFlags shape;

        @Option(names = "--config", required = true, paramLabel = "C.yaml",
            description = "The contract; the pods read it from the ConfigMap at " + K8sManifests.CONTRACT_DIR +
                "/<its file name>.")
        Path config;

        @Option(names = "--image", paramLabel = "IMAGE",
            description = "Container image with tokenclock (default ${DEFAULT-VALUE}: the image this version's " +
                "distribution builds).")
        String image = K8sManifests.DEFAULT_IMAGE;

        @Option(names = "--namespace", paramLabel = "NS", description = "Namespace (default default).")
        String namespace = "default";

        @Option(names = "--start-at", paramLabel = "TIME",
            description = "The common start (ISO-8601 UTC); default --start-in seconds after rendering.")
        String startAt;

        @Option(names = "--start-in", paramLabel = "S", description = "Default start, s after rendering (120).")
        int startInS = 120;

        @Option(names = "--storage", paramLabel = "SIZE", description = "Results volume size (default 5Gi).")
        String storage = "5Gi";

        @Option(names = "--storage-class", paramLabel = "CLASS",
            description = "A storage class with ReadWriteMany volumes (default: the cluster's).")
        String storageClass;

        @Option(names = "--merge-timeout", paramLabel = "S",
            description = "How long the merge waits for every shard, s (default 3600).")
        int mergeTimeoutS = 3600;

        @Option(names = "--tokenclock", paramLabel = "CMD",
            description = "How a pod invokes tokenclock (default tokenclock).")
        String tokenclock = "tokenclock";

        @Option(names = "--secrets-file", paramLabel = "FILE", description = "Where the Secret of the run's " +
            "credentials goes (-H values, a URL's user information or query, the API key, a contract that holds " +
            "one), readable only by you; written only when there are some (default ./<name>-secret.yaml).")
        Path secretsFile;

        @Parameters(paramLabel = "RUN_ARGS", description = "More run flags (after --), as tokenclock run takes them.")
        List<String> runArgs = new ArrayList<>();

        @Override
        public Integer call() throws IOException
        {
            if (!Files.isReadable(config))
            {
                throw new IllegalArgumentException("--config " + config + ": no such file");
            }
            if (startInS < 0)
            {
                throw new IllegalArgumentException("--start-in must be >= 0 s: " + startInS);
            }
            final Instant start = startAt != null ? ShardJobFlags.parseStart(startAt) :
                Instant.now().plus(startInS, ChronoUnit.SECONDS).truncatedTo(ChronoUnit.SECONDS);
            final List<String> checked = new ArrayList<>(List.of("--config", config.toString()));
            checked.addAll(runArgs);
            final RunOptions options = ShardJobFlags.checkRunArgs(checked, shape.shards);
            final ShardJob job = new ShardJob(shape.name, shape.shards, runArgs, K8sManifests.RESULTS_DIR, start,
                shape.cpusPerTask, tokenclock, JobCredentials.of(runArgs,
                ShardJobFlags.keyVariables(options, System.getenv())));
            final ContractFile contract = ContractFile.load(config);
            final K8sManifests.Cluster cluster = new K8sManifests.Cluster(image, namespace,
                config.getFileName().toString(), contractText(), storage, storageClass, mergeTimeoutS,
                contract.tree() != null && !contract.tree().equals(contract.redactedTree()));
            // rendered (and so checked) before the Secret is written: a refused value leaves nothing behind
            final String objects = K8sManifests.render(job, cluster);
            final String secret = K8sManifests.secret(job, cluster);
            if (secret != null)
            {
                final Path file = SecretFile.write("--secrets-file", secretsFile != null ? secretsFile :
                    Path.of(shape.name + "-secret.yaml"), secret);
                System.err.println("k8s render: the run's credentials are in the Secret " +
                    K8sManifests.secretName(job) + ", written to " + file + " (readable only by you): " +
                    "kubectl apply -f it before the objects below");
            }
            warnOnLoopback(options);
            System.out.print(objects);
            return Main.EXIT_OK;
        }

        private String contractText() throws IOException
        {
            try
            {
                return Files.readString(config, StandardCharsets.UTF_8);
            }
            catch (final CharacterCodingException ex)
            {
                throw new IllegalArgumentException("--config " + config + " is not UTF-8 text, which a ConfigMap " +
                    "holds");
            }
        }

        /** One line when the target is this machine's loopback: in a pod, loopback is the pod itself. */
        private static void warnOnLoopback(final RunOptions options)
        {
            final Endpoint target = Endpoint.parse(options.target().url(), options.target().api());
            if (loopback(target.host()))
            {
                System.err.println("tokenclock: warning: the target " + target.shownCompletionUrl() + " is " +
                    "loopback, which in a pod is the pod itself: give the server's Service or address (--url " +
                    "after --)");
            }
        }

        /** @return true for {@code localhost} and a loopback or wildcard address literal; no name is resolved. */
        static boolean loopback(final String host)
        {
            final String h = host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) :
                host;
            if (h.equalsIgnoreCase("localhost") || h.toLowerCase(Locale.ROOT).endsWith(".localhost"))
            {
                return true;
            }
            try
            {
                final InetAddress a = InetAddress.ofLiteral(h);
                return a.isLoopbackAddress() || a.isAnyLocalAddress();
            }
            catch (final IllegalArgumentException ex)
            {
                return false; // a name: the renderer's resolver says nothing of the pod's
            }
        }
    }
}
