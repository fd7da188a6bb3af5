#!/usr/bin/env bash
# Makes a fleet CA and one --cluster-tls-dir per EventBus member with the JDK's keytool
# (docs/SECURITY.md, "EventBus"):  docker/bus-certs.sh OUT coordinator prefill-0 decode-0
# OUT/ca.p12 holds the CA's private key: keep it off the fleet's hosts; give each member OUT/<name>.
set -euo pipefail
[ $# -ge 2 ] || { echo "usage: $0 OUT MEMBER..." >&2; exit 2; }
out=$1; shift
umask 077
mkdir -p "$out"
cd "$out"
[ -f password ] || head -c 18 /dev/urandom | base64 > password
pw=$(cat password)
store=(-storetype PKCS12 -storepass "$pw")
if [ ! -f ca.p12 ]; then
  keytool -genkeypair -alias ca -keyalg EC -groupname secp256r1 -dname "CN=kvfleet fleet CA" \
    -ext bc:c -validity 365 -keystore ca.p12 "${store[@]}"
fi
keytool -exportcert -rfc -alias ca -keystore ca.p12 -file ca.pem "${store[@]}"
for m in "$@"; do
  rm -rf "$m"; mkdir "$m"
  keytool -genkeypair -alias member -keyalg EC -groupname secp256r1 -dname "CN=$m" -validity 365 \
    -keystore "$m/member.p12" "${store[@]}"
  keytool -certreq -alias member -keystore "$m/member.p12" -file "$m.csr" "${store[@]}"
  keytool -gencert -alias ca -keystore ca.p12 -infile "$m.csr" -outfile "$m.pem" -rfc -validity 365 \
    -ext "san=dns:$m" "${store[@]}"
  keytool -importcert -noprompt -alias fleet-ca -file ca.pem -keystore "$m/member.p12" "${store[@]}"
  keytool -importcert -alias member -file "$m.pem" -keystore "$m/member.p12" "${store[@]}"
  keytool -importcert -noprompt -alias fleet-ca -file ca.pem -keystore "$m/trust.p12" "${store[@]}"
  cp password "$m/password"
  rm -f "$m.csr" "$m.pem"
  echo "$out/$m: --cluster-tls-dir for $m"
done
