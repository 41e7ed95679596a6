package io.tokenclock.cli;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import io.tokenclock.deploy.K8sManifests;
import io.tokenclock.deploy.ShardJob;

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

    /** Prints the ConfigMap, the results volume, the Indexed Job and the merge Job as one YAML stream. */
    @Command(name = "render", mixinStandardHelpOptions = true, description = "Print a ConfigMap with the contract, " +
        "a ReadWriteMany volume, an Indexed Job of N shards and a merge Job. More run flags may follow --.")
    static final class Render implements Callable<Integer>
    {
        @Mixin
        JobShapeFlags shape;

        @Option(names = "--config", required = true, paramLabel = "C.yaml", description = "The contract.")
        Path config;

        @Option(names = "--image", paramLabel = "IMAGE",
            description = "Container image with tokenclock (default tokenclock:latest).")
        String image = "tokenclock:latest";

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

        @Parameters(paramLabel = "RUN_ARGS", description = "More run flags (after --), as tokenclock run takes them.")
        List<String> runArgs = new ArrayList<>();

        @Override
        public Integer call() throws IOException
        {
            if (!Files.isReadable(config))
            {
                throw new IllegalArgumentException("--config " + config + ": no such file");
            }
            final Instant start = startAt != null ? ShardJobFlags.parseStart(startAt) :
                Instant.now().plus(startInS, ChronoUnit.SECONDS).truncatedTo(ChronoUnit.SECONDS);
            final ShardJob job = new ShardJob(shape.name, shape.shards, runArgs, K8sManifests.RESULTS_DIR, start,
                shape.cpusPerTask, tokenclock);
            final List<String> checked = new ArrayList<>(List.of("--config", config.toString()));
            checked.addAll(runArgs);
            ShardJobFlags.checkRunArgs(checked, shape.shards);
            final String contract = Files.readString(config, StandardCharsets.UTF_8);
            System.out.print(K8sManifests.render(job, new K8sManifests.Cluster(image, namespace,
                config.getFileName().toString(), contract, storage, storageClass, mergeTimeoutS)));
            return Main.EXIT_OK;
        }
    }
}
