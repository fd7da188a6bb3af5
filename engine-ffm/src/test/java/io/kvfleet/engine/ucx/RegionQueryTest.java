package io.kvfleet.engine.ucx;

import static org.assertj.core.api.Assertions.assertThat;

import io.kvfleet.engine.ucx.RegionQuery.Answer;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** The question about a region and its answer, as they cross a UCX endpoint. */
class RegionQueryTest {
  private final RegionQuery query = new RegionQuery(42, 0x7f00_0000_1000L, 8192,
      RegionVouching.digest(new byte[] {1, 2, 3}), new byte[] {9, 8, 7, 6});

  @Test
  void aQuestionReadsBackAsWritten() {
    RegionQuery read = RegionQuery.decode(query.encode()).orElseThrow();

    assertThat(read.id()).isEqualTo(42);
    assertThat(read.address()).isEqualTo(0x7f00_0000_1000L);
    assertThat(read.length()).isEqualTo(8192);
    assertThat(read.workerDigest()).isEqualTo(query.workerDigest());
    assertThat(read.rkey()).containsExactly(9, 8, 7, 6);
  }

  @Test
  void bytesThatAreNoQuestionAreNotRead() {
    byte[] bytes = query.encode();
    assertThat(RegionQuery.decode(Arrays.copyOf(bytes, bytes.length - 1))).isEmpty();
    assertThat(RegionQuery.decode(Arrays.copyOf(bytes, bytes.length + 1))).isEmpty();
    bytes[0] ^= 1;
    assertThat(RegionQuery.decode(bytes)).isEmpty();
    assertThat(RegionQuery.decode(new byte[0])).isEmpty();
  }

  @Test
  void anAnswerCarriesItsQuestionsId() {
    byte[] answer = RegionQuery.encodeAnswer(-7, Answer.NOT_THIS_WORKER);

    assertThat(RegionQuery.answerId(answer)).contains(-7L);
    assertThat(RegionQuery.answerOf(answer)).contains(Answer.NOT_THIS_WORKER);
    answer[11] = 99;
    assertThat(RegionQuery.answerId(answer)).isEmpty();
    assertThat(RegionQuery.answerOf(new byte[5])).isEmpty();
  }
}
