/** Human-readable console output of fleet events. */
package io.kvfleet.control.console;
