package io.tokenclock.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobCondition;
import io.fabric8.kubernetes.api.model.batch.v1.JobStatusBuilder;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@code k8s render}'s objects, read with fabric8's model, then submitted, watched and collected against fabric8's
 * mock API server in CRUD mode. No controller runs there: the test plays the Job controller (it creates the pods of
 * each index and sets their and the Job's status), so what this proves is that the objects are valid to the API's
 * model and that a client can follow them to the end, not that a real cluster schedules them (docs/DISTRIBUTED.md).
 */
@EnableKubernetesMockClient(crud = true)
@Timeout(180)
final class K8sRenderTest
{
    private static final int SHARDS = 4;
    private static final String NS = "bench";

    static KubernetesClient mock;
    private static KubernetesClient client;

    @RegisterExtension
    final CapturedConsole console = new CapturedConsole();

    /** The mock's client, with request timeouts long enough for a loaded test machine: a retried POST conflicts. */
    @BeforeAll
    static void patientClient()
    {
        client = new KubernetesClientBuilder().withConfig(new ConfigBuilder(mock.getConfiguration())
            .withRequestTimeout(60_000).withConnectionTimeout(30_000).withRequestRetryBackoffLimit(0).build()).build();
    }

    @AfterAll
    static void closeClient()
    {
        client.close();
    }

    @Test
    void shouldRenderAnIndexedJobThatTheKubernetesModelReadsWithEveryListedField()
    {
        final List<HasMetadata> objects = rendered();
        assertEquals(List.of("ConfigMap", "PersistentVolumeClaim", "Job", "Job"),
            objects.stream().map(HasMetadata::getKind).toList());
        final ConfigMap contract = (ConfigMap)objects.get(0);
        assertTrue(contract.getData().get("chat-slo.yaml").contains("name: chat-slo"), "the contract, whole");
        final PersistentVolumeClaim volume = (PersistentVolumeClaim)objects.get(1);
        assertEquals(List.of("ReadWriteMany"), volume.getSpec().getAccessModes());
        final Job shards = (Job)objects.get(2);
        assertEquals("Indexed", shards.getSpec().getCompletionMode());
        assertEquals(SHARDS, shards.getSpec().getCompletions());
        assertEquals(SHARDS, shards.getSpec().getParallelism());
        assertEquals(0, shards.getSpec().getBackoffLimitPerIndex());
        assertEquals(0, shards.getSpec().getMaxFailedIndexes());
        assertEquals("Failed", shards.getSpec().getPodReplacementPolicy());
        assertEquals("Never", shards.getSpec().getTemplate().getSpec().getRestartPolicy());
        assertTrue(shards.getSpec().getPodFailurePolicy().getRules().stream()
            .allMatch(r -> r.getAction().equals("FailIndex")));
        final String script = shards.getSpec().getTemplate().getSpec().getContainers().get(0).getCommand().get(2);
        assertTrue(script.contains("--shards 4") && script.contains("/results/shard-$JOB_COMPLETION_INDEX") &&
            script.contains("--config /etc/tokenclock/chat-slo.yaml"), script);
        assertEquals("2030-01-01T00:00:00Z", env(shards).get("START_AT"));
        final Job merge = (Job)objects.get(3);
        assertTrue(merge.getSpec().getTemplate().getSpec().getContainers().get(0).getCommand().get(2)
            .contains("merge --force /results/merged /results/shard-0 /results/shard-1 /results/shard-2 " +
                "/results/shard-3"));
    }

    @Test
    void shouldBeSubmittedWatchedToCompletionAndCollectedOnTheMockServer() throws Exception
    {
        final List<HasMetadata> objects = rendered();
        client.resourceList(objects).inNamespace(NS).create();
        final Job submitted = client.batch().v1().jobs().inNamespace(NS).withName("bench-shards").get();
        assertEquals("Indexed", submitted.getSpec().getCompletionMode(), "the server kept what was sent");

        final CountDownLatch complete = new CountDownLatch(1);
        try (Watch _ = client.batch().v1().jobs().inNamespace(NS).withName("bench-shards")
            .watch(new Watcher<Job>()
            {
                @Override
                public void eventReceived(final Action action, final Job job)
                {
                    if (job.getStatus() != null && job.getStatus().getConditions() != null &&
                        job.getStatus().getConditions().stream().anyMatch(c -> c.getType().equals("Complete")))
                    {
                        complete.countDown();
                    }
                }

                @Override
                public void onClose(final WatcherException cause)
                {
                }
            }))
        {
            playTheJobController(submitted);
            assertTrue(complete.await(20, TimeUnit.SECONDS), "the watch saw the Job complete");
        }
        final List<Pod> pods = client.pods().inNamespace(NS).withLabel("tokenclock/step", "shard").list()
            .getItems();
        assertEquals(List.of("0", "1", "2", "3"), pods.stream().map(p -> p.getMetadata().getAnnotations()
            .get("batch.kubernetes.io/job-completion-index")).sorted().toList());
        assertTrue(pods.stream().allMatch(p -> p.getStatus().getPhase().equals("Succeeded")));
        assertEquals("0-3", client.batch().v1().jobs().inNamespace(NS).withName("bench-shards").get().getStatus()
            .getCompletedIndexes());
        final Job merge = client.batch().v1().jobs().inNamespace(NS).withName("bench-merge").get();
        assertEquals("merge", merge.getSpec().getTemplate().getSpec().getContainers().get(0).getName(),
            "the merge Job was submitted beside it, to run when every shard has left its exit code");
    }

    /** Creates a succeeded pod per index and marks the Job complete, as the Job controller would. */
    private static void playTheJobController(final Job job)
    {
        for (int i = 0; i < SHARDS; i++)
        {
            final Pod pod = new PodBuilder().withNewMetadata().withName("bench-shards-" + i).withNamespace(NS)
                .addToLabels(job.getSpec().getTemplate().getMetadata().getLabels())
                .addToAnnotations("batch.kubernetes.io/job-completion-index", String.valueOf(i)).endMetadata()
                .withSpec(job.getSpec().getTemplate().getSpec()).withNewStatus().withPhase("Succeeded").endStatus()
                .build();
            client.pods().inNamespace(NS).resource(pod).create();
        }
        final Job done = client.batch().v1().jobs().inNamespace(NS).withName("bench-shards").get();
        done.setStatus(new JobStatusBuilder().withSucceeded(SHARDS).withCompletedIndexes("0-3")
            .withConditions(new JobCondition(null, null, "job completed", "Completed", "True", "Complete")).build());
        client.batch().v1().jobs().inNamespace(NS).resource(done).updateStatus();
    }

    private List<HasMetadata> rendered()
    {
        final Path contract = Path.of("..", "examples", "chat-slo.yaml");
        assertTrue(Files.exists(contract), contract.toAbsolutePath().toString());
        console.start();
        assertEquals(Main.EXIT_OK, Main.execute("k8s", "render", "--shards", String.valueOf(SHARDS), "--config",
            contract.toString(), "--name", "bench", "--namespace", NS, "--image", "registry.example/tokenclock:1",
            "--start-at", "2030-01-01T00:00:00Z", "--", "--url", "http://vllm.bench.svc:8000/v1"), console.err());
        return client.load(new ByteArrayInputStream(console.out().getBytes(StandardCharsets.UTF_8))).items();
    }

    private static Map<String, String> env(final Job job)
    {
        final Map<String, String> env = new java.util.LinkedHashMap<>();
        job.getSpec().getTemplate().getSpec().getContainers().get(0).getEnv()
            .forEach(e -> env.put(e.getName(), e.getValue()));
        return env;
    }
}
