package io.kvfleet.control.cluster;

import io.vertx.core.Completable;
import io.vertx.core.Vertx;
import io.vertx.ext.cluster.infinispan.InfinispanClusterManager;
import org.infinispan.configuration.cache.CacheMode;
import org.infinispan.configuration.parsing.ConfigurationBuilderHolder;
import org.infinispan.conflict.MergePolicy;
import org.infinispan.manager.DefaultCacheManager;
import org.infinispan.remoting.transport.jgroups.JGroupsTransport;
import org.jgroups.JChannel;

/**
 * Vert.x's Infinispan cluster manager over a JGroups channel of ours ({@link MembershipStack}). A
 * cache manager given to it is the caller's to start and stop, so this one starts it on a worker
 * thread when Vert.x joins and stops it when Vert.x leaves.
 */
final class FleetClusterManager extends InfinispanClusterManager {
  /** The caches vertx-infinispan uses (those of its {@code default-infinispan.xml}). */
  private static final String DEFAULT_CACHE = "distributed-cache";
  private static final String[] REPLICATED = {"__vertx.subs", "__vertx.haInfo", "__vertx.nodeInfo"};
  private static final String MAP_TEMPLATE = "__vertx.distributed.cache.configuration";

  private final DefaultCacheManager caches;
  private Vertx vertx;

  private FleetClusterManager(DefaultCacheManager caches) {
    super(caches);
    this.caches = caches;
  }

  /** A manager whose members are those of {@code clusterName} reached over {@code channel} (not yet connected). */
  static FleetClusterManager over(JChannel channel, String clusterName) {
    var holder = new ConfigurationBuilderHolder(FleetClusterManager.class.getClassLoader());
    holder.getGlobalConfigurationBuilder().clusteredDefault().defaultCacheName(DEFAULT_CACHE)
        .transport().clusterName(clusterName).transport(new JGroupsTransport(channel));
    holder.newConfigurationBuilder(DEFAULT_CACHE).clustering().cacheMode(CacheMode.DIST_SYNC);
    for (String name : REPLICATED) {
      // After a partition heals, keep the entries only one side has (each member's node info and
      // subscriptions): the default keeps the preferred side's cache as it is and drops the rest.
      holder.newConfigurationBuilder(name).clustering().cacheMode(CacheMode.REPL_SYNC)
          .partitionHandling().mergePolicy(MergePolicy.PREFERRED_NON_NULL);
    }
    holder.newConfigurationBuilder(MAP_TEMPLATE).template(true).clustering().cacheMode(CacheMode.DIST_SYNC);
    return new FleetClusterManager(new DefaultCacheManager(holder, false));
  }

  @Override
  public void init(Vertx vertx) {
    super.init(vertx);
    this.vertx = vertx;
  }

  @Override
  public void join(Completable<Void> promise) {
    vertx.<Void>executeBlocking(() -> {
      caches.start(); // connects the channel: discovery, then the join to the view
      return null;
    }, false).onComplete((ok, failure) -> {
      if (failure != null) {
        promise.fail(failure);
      } else {
        super.join(promise);
      }
    });
  }

  @Override
  public void leave(Completable<Void> promise) {
    super.leave((ok, failure) -> vertx.<Void>executeBlocking(() -> {
      caches.stop();
      return null;
    }, false).onComplete((stopped, stopFailure) -> promise.complete(null, failure != null ? failure : stopFailure)));
  }
}
