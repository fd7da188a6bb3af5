package io.kvfleet.engine.ucx.internal;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.invoke.MethodHandle;

/**
 * libucp's functions, bound once. Touch this class only after {@link UcpLibrary#loadError()} is
 * empty. Handles are {@code long} (see the package comment); structs we fill are segments. The hot
 * path (put, get, request status and free) is bound {@link Linker.Option#critical critical}: these
 * calls are short, never block and never call back into Java. {@code ucp_worker_progress} is not:
 * it runs the active-message handlers (upcalls) that confirm regions between peers.
 */
public final class Ucp {
  private Ucp() {}

  /** The API version the layouts were written against ({@code UCP_API_MAJOR/MINOR} in 1.13). */
  public static final int API_MAJOR = 1;
  public static final int API_MINOR = 13;

  public static final long PARAM_FIELD_FEATURES = 1L;
  public static final long PARAM_FIELD_MT_WORKERS_SHARED = 1L << 5;
  public static final long PARAM_FIELD_NAME = 1L << 8;
  public static final long FEATURE_RMA = 1L << 1;
  public static final long FEATURE_WAKEUP = 1L << 4;
  public static final long FEATURE_AM = 1L << 6;

  public static final long AM_HANDLER_PARAM_FIELD_ID = 1L;
  public static final long AM_HANDLER_PARAM_FIELD_FLAGS = 1L << 1;
  public static final long AM_HANDLER_PARAM_FIELD_CB = 1L << 2;
  public static final long AM_HANDLER_PARAM_FIELD_ARG = 1L << 3;
  public static final int AM_FLAG_WHOLE_MSG = 1;
  public static final int AM_SEND_FLAG_REPLY = 1;
  public static final int AM_SEND_FLAG_EAGER = 1 << 1;
  public static final long AM_RECV_ATTR_FIELD_REPLY_EP = 1L;
  public static final long AM_RECV_ATTR_FLAG_RNDV = 1L << 17;

  public static final long ATTR_FIELD_MEMORY_TYPES = 1L << 2;

  public static final long WORKER_PARAM_FIELD_THREAD_MODE = 1L;
  public static final int THREAD_MODE_SINGLE = 0;

  public static final long EP_PARAM_FIELD_REMOTE_ADDRESS = 1L;
  public static final long EP_PARAM_FIELD_ERR_HANDLING_MODE = 1L << 1;
  public static final int ERR_HANDLING_MODE_NONE = 0;
  public static final int ERR_HANDLING_MODE_PEER = 1;

  public static final long MEM_MAP_PARAM_FIELD_ADDRESS = 1L;
  public static final long MEM_MAP_PARAM_FIELD_LENGTH = 1L << 1;
  public static final long MEM_MAP_PARAM_FIELD_FLAGS = 1L << 2;
  public static final long MEM_MAP_PARAM_FIELD_MEMORY_TYPE = 1L << 4;
  public static final int MEM_MAP_ALLOCATE = 1 << 1;

  public static final long MEM_ATTR_FIELD_ADDRESS = 1L;
  public static final long MEM_ATTR_FIELD_LENGTH = 1L << 1;
  public static final long MEM_ATTR_FIELD_MEM_TYPE = 1L << 2;

  /** {@code ucs_memory_type_t}. */
  public static final int MEMORY_TYPE_HOST = 0;
  public static final int MEMORY_TYPE_CUDA = 1;
  public static final int MEMORY_TYPE_CUDA_MANAGED = 2;
  public static final int MEMORY_TYPE_ROCM = 3;
  public static final int MEMORY_TYPE_ROCM_MANAGED = 4;

  public static final int OP_ATTR_FIELD_FLAGS = 1 << 4;
  public static final int OP_ATTR_FIELD_MEMH = 1 << 8;
  public static final int EP_CLOSE_FLAG_FORCE = 1;

  private static final Linker.Option CRITICAL = Linker.Option.critical(false);

  public static final MethodHandle CONFIG_READ = UcpLibrary.bind("ucp_config_read",
      FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, ADDRESS));
  public static final MethodHandle CONFIG_MODIFY = UcpLibrary.bind("ucp_config_modify",
      FunctionDescriptor.of(JAVA_INT, JAVA_LONG, ADDRESS, ADDRESS));
  public static final MethodHandle CONFIG_RELEASE = UcpLibrary.bind("ucp_config_release",
      FunctionDescriptor.ofVoid(JAVA_LONG));
  public static final MethodHandle GET_VERSION_STRING = UcpLibrary.bind("ucp_get_version_string",
      FunctionDescriptor.of(ADDRESS));
  public static final MethodHandle INIT_VERSION = UcpLibrary.bind("ucp_init_version",
      FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_INT, ADDRESS, JAVA_LONG, ADDRESS));
  public static final MethodHandle CLEANUP = UcpLibrary.bind("ucp_cleanup",
      FunctionDescriptor.ofVoid(JAVA_LONG));
  public static final MethodHandle CONTEXT_QUERY = UcpLibrary.bind("ucp_context_query",
      FunctionDescriptor.of(JAVA_INT, JAVA_LONG, ADDRESS));
  public static final MethodHandle CONTEXT_PRINT_INFO = UcpLibrary.bind("ucp_context_print_info",
      FunctionDescriptor.ofVoid(JAVA_LONG, ADDRESS));

  public static final MethodHandle WORKER_CREATE = UcpLibrary.bind("ucp_worker_create",
      FunctionDescriptor.of(JAVA_INT, JAVA_LONG, ADDRESS, ADDRESS));
  public static final MethodHandle WORKER_DESTROY = UcpLibrary.bind("ucp_worker_destroy",
      FunctionDescriptor.ofVoid(JAVA_LONG));
  public static final MethodHandle WORKER_GET_ADDRESS = UcpLibrary.bind("ucp_worker_get_address",
      FunctionDescriptor.of(JAVA_INT, JAVA_LONG, ADDRESS, ADDRESS));
  public static final MethodHandle WORKER_RELEASE_ADDRESS = UcpLibrary.bind(
      "ucp_worker_release_address", FunctionDescriptor.ofVoid(JAVA_LONG, JAVA_LONG));
  public static final MethodHandle WORKER_PROGRESS = UcpLibrary.bind("ucp_worker_progress",
      FunctionDescriptor.of(JAVA_INT, JAVA_LONG));
  public static final MethodHandle WORKER_GET_EFD = UcpLibrary.bind("ucp_worker_get_efd",
      FunctionDescriptor.of(JAVA_INT, JAVA_LONG, ADDRESS));
  public static final MethodHandle WORKER_ARM = UcpLibrary.bind("ucp_worker_arm",
      FunctionDescriptor.of(JAVA_INT, JAVA_LONG));
  public static final MethodHandle WORKER_SIGNAL = UcpLibrary.bind("ucp_worker_signal",
      FunctionDescriptor.of(JAVA_INT, JAVA_LONG));

  public static final MethodHandle WORKER_FLUSH_NBX = UcpLibrary.bind("ucp_worker_flush_nbx",
      FunctionDescriptor.of(JAVA_LONG, JAVA_LONG, ADDRESS));
  public static final MethodHandle WORKER_SET_AM_RECV_HANDLER = UcpLibrary.bind(
      "ucp_worker_set_am_recv_handler", FunctionDescriptor.of(JAVA_INT, JAVA_LONG, ADDRESS));
  /** {@code ucp_am_send_nbx(ep, id, header, header_length, buffer, count, param)}. */
  public static final MethodHandle AM_SEND_NBX = UcpLibrary.bind("ucp_am_send_nbx",
      FunctionDescriptor.of(JAVA_LONG, JAVA_LONG, JAVA_INT, JAVA_LONG, JAVA_LONG, JAVA_LONG,
          JAVA_LONG, JAVA_LONG));

  public static final MethodHandle EP_CREATE = UcpLibrary.bind("ucp_ep_create",
      FunctionDescriptor.of(JAVA_INT, JAVA_LONG, ADDRESS, ADDRESS));
  public static final MethodHandle EP_CLOSE_NBX = UcpLibrary.bind("ucp_ep_close_nbx",
      FunctionDescriptor.of(JAVA_LONG, JAVA_LONG, ADDRESS));
  public static final MethodHandle EP_FLUSH_NBX = UcpLibrary.bind("ucp_ep_flush_nbx",
      FunctionDescriptor.of(JAVA_LONG, JAVA_LONG, JAVA_LONG), CRITICAL);
  public static final MethodHandle EP_PRINT_INFO = UcpLibrary.bind("ucp_ep_print_info",
      FunctionDescriptor.ofVoid(JAVA_LONG, ADDRESS));

  public static final MethodHandle MEM_MAP = UcpLibrary.bind("ucp_mem_map",
      FunctionDescriptor.of(JAVA_INT, JAVA_LONG, ADDRESS, ADDRESS));
  public static final MethodHandle MEM_UNMAP = UcpLibrary.bind("ucp_mem_unmap",
      FunctionDescriptor.of(JAVA_INT, JAVA_LONG, JAVA_LONG));
  public static final MethodHandle MEM_QUERY = UcpLibrary.bind("ucp_mem_query",
      FunctionDescriptor.of(JAVA_INT, JAVA_LONG, ADDRESS));
  public static final MethodHandle RKEY_PACK = UcpLibrary.bind("ucp_rkey_pack",
      FunctionDescriptor.of(JAVA_INT, JAVA_LONG, JAVA_LONG, ADDRESS, ADDRESS));
  public static final MethodHandle RKEY_BUFFER_RELEASE = UcpLibrary.bind("ucp_rkey_buffer_release",
      FunctionDescriptor.ofVoid(JAVA_LONG));
  public static final MethodHandle EP_RKEY_UNPACK = UcpLibrary.bind("ucp_ep_rkey_unpack",
      FunctionDescriptor.of(JAVA_INT, JAVA_LONG, ADDRESS, ADDRESS));
  public static final MethodHandle RKEY_DESTROY = UcpLibrary.bind("ucp_rkey_destroy",
      FunctionDescriptor.ofVoid(JAVA_LONG));

  /** {@code ucp_put_nbx(ep, buffer, count, remote_addr, rkey, param)}. */
  public static final MethodHandle PUT_NBX = UcpLibrary.bind("ucp_put_nbx",
      FunctionDescriptor.of(JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG,
          JAVA_LONG), CRITICAL);
  /** {@code ucp_get_nbx(ep, buffer, count, remote_addr, rkey, param)}. */
  public static final MethodHandle GET_NBX = UcpLibrary.bind("ucp_get_nbx",
      FunctionDescriptor.of(JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG,
          JAVA_LONG), CRITICAL);
  public static final MethodHandle REQUEST_CHECK_STATUS = UcpLibrary.bind(
      "ucp_request_check_status", FunctionDescriptor.of(JAVA_INT, JAVA_LONG), CRITICAL);
  public static final MethodHandle REQUEST_FREE = UcpLibrary.bind("ucp_request_free",
      FunctionDescriptor.ofVoid(JAVA_LONG), CRITICAL);

  /** {@code ucs_status_string}, from libucs (a dependency of libucp, so the same lookup finds it). */
  public static final MethodHandle STATUS_STRING = UcpLibrary.bind("ucs_status_string",
      FunctionDescriptor.of(ADDRESS, JAVA_INT));
}
