package dev.gantry.common.config;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * A parsed cluster config: global settings, nodes and partitions, in file order. Immutable.
 *
 * @param source the file it came from (for messages)
 * @param warnings things accepted but not used, as "file:line: key: …"
 * @param topology the switch tree (TopologyPlugin=topology/tree), else {@link TopologyConfig#FLAT}
 * @param accounting QOS, accounts and users (QOS=, Account=, User= lines), resolved and checked
 */
public record ClusterConfig(Path source, Settings settings, List<NodeConfig> nodes, List<PartitionConfig> partitions,
        List<String> warnings, TopologyConfig topology, Accounting accounting) {

    public ClusterConfig {
        nodes = List.copyOf(nodes);
        partitions = List.copyOf(partitions);
        warnings = List.copyOf(warnings);
    }

    /** A config without QOS=, Account= or User= lines ({@link Accounting#DEFAULT}). */
    public ClusterConfig(Path source, Settings settings, List<NodeConfig> nodes, List<PartitionConfig> partitions,
            List<String> warnings, TopologyConfig topology) {
        this(source, settings, nodes, partitions, warnings, topology, Accounting.DEFAULT);
    }

    /** A config without a network topology (flat). */
    public ClusterConfig(Path source, Settings settings, List<NodeConfig> nodes, List<PartitionConfig> partitions,
            List<String> warnings) {
        this(source, settings, nodes, partitions, warnings, TopologyConfig.FLAT);
    }

    public <T> T get(Key<T> key) {
        return settings.get(key);
    }

    /** The same config with other QOS, accounts and users (QOS edited through the admin API). */
    public ClusterConfig withAccounting(Accounting edited) {
        return new ClusterConfig(source, settings, nodes, partitions, warnings, topology, edited);
    }

    public Optional<NodeConfig> node(String name) {
        return nodes.stream().filter(n -> n.name().equals(name)).findFirst();
    }

    public Optional<PartitionConfig> partition(String name) {
        return partitions.stream().filter(p -> p.name().equals(name)).findFirst();
    }

    /**
     * With TopologyPlugin=topology/tree, the topology file: TopologyFile= resolved against the config's directory,
     * else topology.conf there. Empty for a flat topology.
     */
    public Optional<Path> topologyFile() {
        if (!"topology/tree".equals(get(Keys.TOPOLOGY_PLUGIN))) {
            return Optional.empty();
        }
        String named = get(Keys.TOPOLOGY_FILE);
        return Optional.of(source.toAbsolutePath().getParent().resolve(named.isEmpty() ? "topology.conf" : named));
    }

    /** Every QOS, the implicit {@code normal} included, in file order. */
    public java.util.Collection<QosConfig> qos() {
        return accounting.qos().values();
    }

    /** Every account, {@code root} first. */
    public java.util.Collection<AccountConfig> accounts() {
        return accounting.accounts().values();
    }

    /** Every user: those with User= lines and those only listed in an account's Users=. */
    public java.util.Collection<UserConfig> users() {
        return accounting.users().values();
    }

    public Optional<QosConfig> qos(String name) {
        return accounting.qos(name);
    }

    public Optional<AccountConfig> account(String name) {
        return accounting.account(name);
    }

    public Optional<UserConfig> user(String name) {
        return accounting.user(name);
    }

    /** The Default=YES partition, else the first one (as Slurm). */
    public Optional<PartitionConfig> defaultPartition() {
        return partitions.stream().filter(PartitionConfig::isDefault).findFirst()
                .or(() -> partitions.stream().findFirst());
    }
}
