package org.infinispan.security;

import java.security.AccessControlException;
import java.security.Principal;
import java.security.PrivilegedAction;
import java.security.PrivilegedActionException;
import java.security.PrivilegedExceptionAction;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.function.BiFunction;
import java.util.function.Function;
import javax.security.auth.Subject;

/**
 * kvfleet's stand-in for Infinispan 14's {@code Security}, the one class of it that cannot run on
 * JDK 24 and later: it asks {@code Subject.getSubject(AccessControlContext)}, which now always throws
 * ("getSubject is not supported"), whenever a listener is added, so no cache manager starts. This
 * one answers {@link Subject#current()} instead. It comes first on the class path (this module's
 * classes precede its libraries). vertx-infinispan 5.0.7 is built on Infinispan 14.0 (Infinispan 15
 * fixes this but breaks vertx-infinispan 5.0: vert-x3/vertx-infinispan#145, #146); delete this class
 * when the Vert.x stack moves to Infinispan 15. kvfleet configures no Infinispan authorization
 * (none is on by default), and the cluster's caches hold only Vert.x's subscriptions, so
 * {@link #doPrivileged} trusts its callers. {@code ShadowedSecurityTest} checks this class is the
 * one loaded and the Infinispan version it stands in for.
 */
public final class Security {
  private static final ThreadLocal<Boolean> PRIVILEGED = ThreadLocal.withInitial(() -> Boolean.FALSE);
  private static final ThreadLocal<Deque<Subject>> SUBJECT = new ThreadLocal<>();

  public Security() {}

  /** Runs {@code action} as privileged code. */
  public static <T> T doPrivileged(PrivilegedAction<T> action) {
    if (isPrivileged()) {
      return action.run();
    }
    PRIVILEGED.set(Boolean.TRUE);
    try {
      return action.run();
    } finally {
      PRIVILEGED.remove();
    }
  }

  /** Runs {@code action} as privileged code; what it throws comes wrapped. */
  public static <T> T doPrivileged(PrivilegedExceptionAction<T> action) throws PrivilegedActionException {
    try {
      return doPrivileged((PrivilegedAction<T>) () -> {
        try {
          return action.run();
        } catch (RuntimeException e) {
          throw e;
        } catch (Exception e) {
          throw new Wrapped(e);
        }
      });
    } catch (Wrapped e) {
      throw new PrivilegedActionException(e.checked);
    }
  }

  /** Runs {@code action} with {@code subject} as the current subject. */
  public static void doAs(Subject subject, Runnable action) {
    boolean pushed = push(subject);
    try {
      action.run();
    } finally {
      pop(pushed);
    }
  }

  /** Applies {@code function} with {@code subject} as the current subject. */
  public static <T, R> R doAs(Subject subject, Function<T, R> function, T t) {
    boolean pushed = push(subject);
    try {
      return function.apply(t);
    } finally {
      pop(pushed);
    }
  }

  /** Applies {@code function} with {@code subject} as the current subject. */
  public static <T, U, R> R doAs(Subject subject, BiFunction<T, U, R> function, T t, U u) {
    boolean pushed = push(subject);
    try {
      return function.apply(t, u);
    } finally {
      pop(pushed);
    }
  }

  /** Runs {@code action} with {@code subject} as the current subject. */
  public static <T> T doAs(Subject subject, PrivilegedAction<T> action) {
    boolean pushed = push(subject);
    try {
      return action.run();
    } finally {
      pop(pushed);
    }
  }

  /** Runs {@code action} with {@code subject} as the current subject; what it throws comes wrapped. */
  public static <T> T doAs(Subject subject, PrivilegedExceptionAction<T> action) throws PrivilegedActionException {
    boolean pushed = push(subject);
    try {
      return action.run();
    } catch (RuntimeException e) {
      throw e;
    } catch (Exception e) {
      throw new PrivilegedActionException(e);
    } finally {
      pop(pushed);
    }
  }

  /** Refuses a call from code that is not running privileged. */
  @SuppressWarnings("removal")
  public static void checkPermission(CachePermission permission) throws AccessControlException {
    if (!isPrivileged()) {
      throw new AccessControlException("Call from unprivileged code", permission);
    }
  }

  /** Whether the caller runs inside {@link #doPrivileged}. */
  public static boolean isPrivileged() {
    return PRIVILEGED.get();
  }

  /** The subject of the innermost {@code doAs} on this thread, else the JDK's current one. */
  public static Subject getSubject() {
    Deque<Subject> stack = SUBJECT.get();
    if (stack != null && !stack.isEmpty()) {
      return stack.peek();
    }
    return Subject.current();
  }

  /** The subject's first principal, or null. */
  public static Principal getSubjectUserPrincipal(Subject subject) {
    if (subject == null || subject.getPrincipals().isEmpty()) {
      return null;
    }
    return subject.getPrincipals().iterator().next();
  }

  /** The subject's principals, for logs. */
  public static String toString(Subject subject) {
    return subject == null ? "null" : "Subject with principal(s): " + subject.getPrincipals();
  }

  private static boolean push(Subject subject) {
    if (subject == null) {
      return false;
    }
    Deque<Subject> stack = SUBJECT.get();
    if (stack == null) {
      stack = new ArrayDeque<>();
      SUBJECT.set(stack);
    }
    stack.push(subject);
    return true;
  }

  private static void pop(boolean pushed) {
    if (!pushed) {
      return;
    }
    Deque<Subject> stack = SUBJECT.get();
    stack.pop();
    if (stack.isEmpty()) {
      SUBJECT.remove();
    }
  }

  /** Carries a checked exception through a {@link PrivilegedAction}. */
  private static final class Wrapped extends RuntimeException {
    private final Exception checked;

    Wrapped(Exception checked) {
      super(checked);
      this.checked = checked;
    }
  }
}
