/**
 * Who may say what: the fleet's Ed25519 keys, the trust file that binds each public key to a role and the
 * producer names and node ids it may speak for, and the checks that use them. Pure JDK and Jackson.
 */
package io.kvfleet.events.trust;
