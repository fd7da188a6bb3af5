/** The kvfleet control plane: shared pieces (exceptions, JSON) of the Vert.x application. */
package io.kvfleet.control;
