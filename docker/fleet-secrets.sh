#!/usr/bin/env bash
# The fleet's own secrets, beside Kafka's (docker/secure/init.sh): the EventBus's mutual-TLS directories
# (docker/bus-certs.sh) and a signing key per producer with the fleet's trust file (kvfleet keys new),
# into $SECRETS/bus and $SECRETS/keys (docs/SECURITY.md, "EventBus" and "Signed events"). Run again, it
# keeps what is there. The bus CA's private key is deleted once the members' certificates are signed.
set -euo pipefail
S=${SECRETS:-/secrets}
MEMBERS=${MEMBERS:-coordinator prefill-0 decode-0}
HOME_DIR=${KVFLEET_HOME:-/opt/kvfleet}   # the image's classes, lib and scripts
kvfleet() {
  java --enable-native-access=ALL-UNNAMED -cp "$HOME_DIR/classes:$HOME_DIR/lib/*" io.kvfleet.control.cli.Kvfleet "$@"
}
umask 077
if [ ! -f "$S/bus/ready" ]; then
  # shellcheck disable=SC2086 # one member per word
  bash "$HOME_DIR/bus-certs.sh" "$S/bus" $MEMBERS
  rm -f "$S/bus/ca.p12"
  touch "$S/bus/ready"
fi
if [ ! -f "$S/keys/trust.json" ]; then
  kvfleet keys new --id coordinator-0 --role coordinator --dir "$S/keys"
  for node in $MEMBERS; do
    [ "$node" = coordinator ] || kvfleet keys new --id "$node" --role node --dir "$S/keys"
  done
fi
echo "fleet-secrets: made in $S/bus and $S/keys"
