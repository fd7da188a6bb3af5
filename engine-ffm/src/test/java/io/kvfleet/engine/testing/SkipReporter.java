package io.kvfleet.engine.testing;

import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;
import org.opentest4j.TestAbortedException;

/**
 * Prints every skipped or aborted test with its reason on the console, so a skip where a library
 * or a GPU is absent is seen in CI's output, not only in the reports.
 */
public final class SkipReporter implements TestExecutionListener {
  @Override
  public void executionSkipped(TestIdentifier test, String reason) {
    System.out.println("SKIPPED " + test.getDisplayName() + ": " + reason);
  }

  @Override
  public void executionFinished(TestIdentifier test, TestExecutionResult result) {
    if (result.getStatus() == TestExecutionResult.Status.ABORTED) {
      String reason = result.getThrowable().filter(t -> t instanceof TestAbortedException)
          .map(Throwable::getMessage).orElse("aborted");
      System.out.println("SKIPPED " + test.getDisplayName() + ": " + reason);
    }
  }
}
