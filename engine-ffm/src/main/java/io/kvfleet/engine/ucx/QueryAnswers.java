package io.kvfleet.engine.ucx;

import java.lang.foreign.Arena;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The initiator side of {@link RegionQuery}: the handler on the initiator worker that keeps the
 * answers to questions this backend asked, by question id. Answers to questions nobody is waiting
 * for are dropped.
 */
final class QueryAnswers {
  private final Map<Long, RegionQuery.Answer> answers = new ConcurrentHashMap<>();
  private final Map<Long, Boolean> waiting = new ConcurrentHashMap<>();

  void install(UcpWorker initiator, Arena arena) {
    AmHandler.install(initiator, RegionQuery.ANSWER, this::onAnswer, arena);
  }

  /** Starts waiting for the answer to question {@code id}. */
  void expect(long id) {
    waiting.put(id, Boolean.TRUE);
  }

  /** The answer to {@code id} once it came, and stops waiting for it. */
  Optional<RegionQuery.Answer> take(long id) {
    RegionQuery.Answer answer = answers.remove(id);
    if (answer != null) {
      waiting.remove(id);
    }
    return Optional.ofNullable(answer);
  }

  /** Gives up on {@code id}. */
  void forget(long id) {
    waiting.remove(id);
    answers.remove(id);
  }

  private void onAnswer(byte[] data, long replyEndpoint) {
    Optional<Long> id = RegionQuery.answerId(data);
    if (id.isPresent() && waiting.containsKey(id.get())) {
      RegionQuery.answerOf(data).ifPresent(answer -> answers.put(id.get(), answer));
    }
  }
}
