package io.kvfleet.engine.ucx;

import io.kvfleet.engine.ucx.RegionQuery.Answer;
import java.lang.foreign.Arena;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The target side of {@link RegionQuery}: this backend's live UCX regions, and the handler on its
 * target worker that answers a peer's question about one of them. A peer uses a remote key only
 * once this says {@link Answer#CONFIRMED}, so a forged key or range, or a worker address that is
 * not this worker's, moves nothing. The handler runs on the target progress thread.
 */
final class RegionVouching {
  private final Set<UcxRegion> regions = ConcurrentHashMap.newKeySet();
  private final byte[] ownDigest;
  /** Answers UCX still sends; touched by the target progress thread, then by close. */
  private final List<AmSend> replies = new ArrayList<>();

  RegionVouching(byte[] targetAddress) {
    this.ownDigest = digest(targetAddress);
  }

  /** Installs the question handler on the target worker. */
  void install(UcpWorker target, Arena arena) {
    AmHandler.install(target, RegionQuery.QUERY, this::onQuery, arena);
  }

  void add(UcxRegion region) {
    regions.removeIf(UcxRegion::isClosed);
    regions.add(region);
  }

  /** What this backend says to {@code query}. */
  Answer judge(RegionQuery query) {
    if (!MessageDigest.isEqual(query.workerDigest(), ownDigest)) {
      return Answer.NOT_THIS_WORKER;
    }
    for (UcxRegion region : regions) {
      if (!region.isClosed() && region.covers(query.address(), query.length())
          && Arrays.equals(region.packedKey(), query.rkey())) {
        return Answer.CONFIRMED;
      }
    }
    return Answer.NOT_REGISTERED;
  }

  private void onQuery(byte[] data, long replyEndpoint) {
    replies.removeIf(AmSend::release);
    if (replyEndpoint == 0) {
      return;
    }
    RegionQuery.decode(data).ifPresent(query -> {
      AmSend reply = AmSend.start(replyEndpoint, RegionQuery.ANSWER,
          RegionQuery.encodeAnswer(query.id(), judge(query)), 0);
      if (!reply.release()) {
        replies.add(reply);
      }
    });
  }

  /** Hands unfinished answers back to UCX; call before the target worker is destroyed. */
  void abandonReplies() {
    replies.removeIf(AmSend::release);
    replies.forEach(AmSend::abandon);
  }

  /** Frees what {@link #abandonReplies()} left; call after the target worker is destroyed. */
  void closeAfterWorker() {
    replies.forEach(AmSend::closeAfterWorker);
    replies.clear();
  }

  static byte[] digest(byte[] workerAddress) {
    try {
      return MessageDigest.getInstance("SHA-256").digest(workerAddress);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("the JDK has no SHA-256", e);
    }
  }
}
