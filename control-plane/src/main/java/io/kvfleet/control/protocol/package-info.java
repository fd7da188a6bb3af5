/**
 * What crosses the Vert.x EventBus between the coordinator and the node agents, and between
 * agents: orders, their replies, staged chunks, the addresses they go to, and the typed codec they
 * travel in. It depends on the events module only, so the coordinator needs no agent to speak to one.
 */
package io.kvfleet.control.protocol;
