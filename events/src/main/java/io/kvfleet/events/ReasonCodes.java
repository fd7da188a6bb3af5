package io.kvfleet.events;

import java.lang.reflect.Modifier;
import java.util.HashSet;
import java.util.Set;

/**
 * The reason codes events carry. Codes are strings on the wire so that a newer producer's code is
 * still readable by an older consumer; these are the ones this build writes. A coordinator's fold
 * counts registration failures by name under these ({@link #isKnown}), so adding one is a change to
 * the fold: bump {@code FleetState.FOLD_VERSION} with it.
 */
public final class ReasonCodes {
  private ReasonCodes() {}

  // Registration (mirrors the engine's taxonomy).
  public static final String MEMORY_TYPE_UNSUPPORTED = "MEMORY_TYPE_UNSUPPORTED";
  public static final String NO_MEMORY_DOMAIN = "NO_MEMORY_DOMAIN";
  public static final String INVALID_ADDRESS = "INVALID_ADDRESS";
  /** Mapped in the agent's process, but not a buffer its engine allocated for registration (its heap, code, stacks). */
  public static final String NOT_AGENT_MEMORY = "NOT_AGENT_MEMORY";
  /** A backend that registers only memory it can grant to peers (host: its shared-memory allocations, shm: objects). */
  public static final String NOT_GRANTABLE = "NOT_GRANTABLE";
  /** A skipped entry with a null address (or an empty shared-memory name or device handle). */
  public static final String NULL_ADDRESS = "NULL_ADDRESS";
  /** A skipped entry with a zero length. */
  public static final String ZERO_LENGTH = "ZERO_LENGTH";
  /** What builds before NULL_ADDRESS and ZERO_LENGTH wrote for either skip; still read in old logs. */
  public static final String NULL_OR_EMPTY = "NULL_OR_EMPTY";
  public static final String DEVICE_UNAVAILABLE = "DEVICE_UNAVAILABLE";
  public static final String OUT_OF_MEMORY = "OUT_OF_MEMORY";
  public static final String DUPLICATE_REGISTRATION = "DUPLICATE_REGISTRATION";
  public static final String BACKEND_ERROR = "BACKEND_ERROR";
  public static final String BACKEND_UNAVAILABLE = "BACKEND_UNAVAILABLE";

  // Transfers.
  public static final String UNKNOWN_PEER = "UNKNOWN_PEER";
  public static final String PEER_NOT_ALIVE = "PEER_NOT_ALIVE";
  public static final String STALE_EPOCH = "STALE_EPOCH";
  public static final String UNKNOWN_REGION = "UNKNOWN_REGION";
  public static final String OUT_OF_BOUNDS = "OUT_OF_BOUNDS";
  public static final String SIZE_MISMATCH = "SIZE_MISMATCH";
  public static final String NOT_EXPOSED = "NOT_EXPOSED";
  /**
   * The order a dispatch would carry (the request expanded over every buffer of its components, with both sides'
   * regions and keys) is larger than a Kafka record may be: rejected with its size, never left to its deadline.
   */
  public static final String ORDER_TOO_LARGE = "ORDER_TOO_LARGE";
  public static final String DUPLICATE_TRANSFER = "DUPLICATE_TRANSFER";
  public static final String DEADLINE_PASSED = "DEADLINE_PASSED";
  public static final String PEER_LOST = "PEER_LOST";
  /** A peer the transfer needed shut down cleanly while it was in flight. */
  public static final String PEER_LEFT = "PEER_LEFT";
  public static final String TRANSPORT_ERROR = "TRANSPORT_ERROR";
  /**
   * The destination's UCX worker offers no transport the source's UCX may use (another host, or tcp only, where tcp
   * is off: {@code --ucx-allow-tcp}); nothing was moved.
   */
  public static final String NO_COMMON_TRANSPORT = "NO_COMMON_TRANSPORT";
  /** No grant of the destination's agent covers the remote region (forged, revoked or shrunk): nothing was moved through it. */
  public static final String NO_GRANT = "NO_GRANT";
  /**
   * The source's agent did not run the transfer, or gave up a batch it was running, not one more
   * poll after the moment it could not prove its lease was current (no heartbeat acknowledged by
   * Kafka within it), since the fleet may already have declared it lost.
   */
  public static final String LEASE_UNPROVEN = "LEASE_UNPROVEN";
  /** Pages the source cannot prove landed inside its lease and before the deadline; the detail starts with their bytes. */
  public static final String LANDED_AFTER_LEASE = "LANDED_AFTER_LEASE";
  /**
   * The source read in the log that the fleet had ended the transfer (a coordinator failed, timed out
   * or rejected it) before the next page, or before the order started: it sent no more. The detail
   * says what the fleet said and the bytes that landed before.
   */
  public static final String ENDED_BY_FLEET = "ENDED_BY_FLEET";
  /** A transfer request at a schema version newer than the coordinator reads; its id was readable. */
  public static final String SCHEMA_UNSUPPORTED = "SCHEMA_UNSUPPORTED";
  /** A transfer request whose data its schema version refuses (e.g. a zero-length range); its id was readable. */
  public static final String INVALID_REQUEST = "INVALID_REQUEST";
  /** A transfer request in a partition other than the one its source node's key hashes to (murmur2). */
  public static final String MISROUTED = "MISROUTED";

  // Request transfers: the contract between both nodes' model layouts, checked before any byte moves.
  /** An end of a request transfer declared no model layout at its current epoch. */
  public static final String NO_LAYOUT = "NO_LAYOUT";
  /** The two layouts serve different models. */
  public static final String MODEL_MISMATCH = "MODEL_MISMATCH";
  /** A component the destination's layout needs is not in the request (nor marked recomputed). */
  public static final String COMPONENT_MISSING = "COMPONENT_MISSING";
  /** A component is in one node's layout only. */
  public static final String COMPONENT_ONE_SIDED = "COMPONENT_ONE_SIDED";
  /** The request names a component neither layout has. */
  public static final String UNKNOWN_COMPONENT = "UNKNOWN_COMPONENT";
  /** A component has fewer buffers (layers) on one side, or holds other layers. */
  public static final String BUFFER_COUNT_MISMATCH = "BUFFER_COUNT_MISMATCH";
  /** A component's item (page or slot) length differs between the nodes. */
  public static final String ITEM_LENGTH_MISMATCH = "ITEM_LENGTH_MISMATCH";
  /** A component's page size (tokens per page) differs between the nodes. */
  public static final String PAGE_SIZE_MISMATCH = "PAGE_SIZE_MISMATCH";
  /** A component's dtype, kind or memory type differs between the nodes. */
  public static final String DTYPE_MISMATCH = "DTYPE_MISMATCH";
  /** The tensor-parallel layouts cannot be mapped onto each other (only equal TP is supported). */
  public static final String TP_UNSUPPORTED = "TP_UNSUPPORTED";
  /** A page or slot index is past what the buffer was registered with. */
  public static final String INDEX_OUT_OF_RANGE = "INDEX_OUT_OF_RANGE";
  /** A request transfer that is not a WRITE, or also names regions or byte ranges. */
  public static final String INVALID_REQUEST_FORM = "INVALID_REQUEST_FORM";
  /** A part names no indices, or a different number of source and destination indices. */
  public static final String INDEX_COUNT_MISMATCH = "INDEX_COUNT_MISMATCH";

  // Liveness.
  public static final String LEASE_EXPIRED = "LEASE_EXPIRED";
  public static final String SHUTDOWN = "SHUTDOWN";
  public static final String REGISTRATION_FAILED = "REGISTRATION_FAILED";

  // Signed events (docs/SECURITY.md): why a record was not folded but dead-lettered.
  /** The record carries no signature, and this reader requires one (it was given a trust file). */
  public static final String EVENT_UNSIGNED = "EVENT_UNSIGNED";
  /** The record names a key id the trust file does not list. */
  public static final String EVENT_UNKNOWN_KEY = "EVENT_UNKNOWN_KEY";
  /** The signature is not the named key's over the record's signed bytes. */
  public static final String EVENT_BAD_SIGNATURE = "EVENT_BAD_SIGNATURE";
  /** The key may not write as the record's producer. */
  public static final String EVENT_WRONG_PRODUCER = "EVENT_WRONG_PRODUCER";
  /** The key's role may not write this type (e.g. a {@code PeerLost} from a node's key). */
  public static final String EVENT_WRONG_ROLE = "EVENT_WRONG_ROLE";
  /** The key may not speak for the node the record is about, or that its transfer was dispatched to. */
  public static final String EVENT_WRONG_NODE = "EVENT_WRONG_NODE";
  /** A node's ending of a transfer that was never dispatched (still requested, or rejected): only a dispatch runs one. */
  public static final String EVENT_NOT_DISPATCHED = "EVENT_NOT_DISPATCHED";
  /**
   * A transfer record in a partition its Kafka key does not map to, or keyed by another node than the one it is
   * about (the key and partition are not signed: a keyless copy of a signed record into another partition).
   */
  public static final String EVENT_MISPLACED = "EVENT_MISPLACED";

  // Orders an agent refuses: reported (a WARN, a metric), never an ending for the transfer they name.
  /** An order that came over the EventBus: an agent takes its orders only from the log. */
  public static final String ORDER_NOT_FROM_LOG = "ORDER_NOT_FROM_LOG";
  /** A dispatch that carries no order (schema version 1), or one whose order names another transfer, node or epoch. */
  public static final String ORDER_MALFORMED = "ORDER_MALFORMED";
  /** A dispatch to another epoch of the node than the agent's current one. */
  public static final String ORDER_WRONG_EPOCH = "ORDER_WRONG_EPOCH";
  /** An unsigned order, where the agent verifies against a fleet trust file. */
  public static final String ORDER_UNSIGNED = "ORDER_UNSIGNED";
  /** An order signed with a key the trust file does not list or does not bind to the coordinator the dispatch names. */
  public static final String ORDER_KEY_UNKNOWN = "ORDER_KEY_UNKNOWN";
  /** An order whose signature does not check against its coordinator key. */
  public static final String ORDER_SIGNATURE_INVALID = "ORDER_SIGNATURE_INVALID";

  private static final Set<String> KNOWN = known();

  /** Whether {@code reason} is one of the codes this build writes. */
  public static boolean isKnown(String reason) {
    return KNOWN.contains(reason);
  }

  private static Set<String> known() {
    var codes = new HashSet<String>();
    for (var field : ReasonCodes.class.getFields()) {
      if (field.getType() == String.class && Modifier.isStatic(field.getModifiers())) {
        try {
          codes.add((String) field.get(null));
        } catch (IllegalAccessException e) {
          throw new IllegalStateException("a public constant of ReasonCodes is unreadable: " + field, e);
        }
      }
    }
    return Set.copyOf(codes);
  }
}
