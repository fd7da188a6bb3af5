#!/bin/sh
# The secured fleet's material, made once into $SECRETS (a volume shared by the services): a CA, a
# key and certificate per broker signed by it, the truststore, a random password per SCRAM user,
# each broker's server properties and the SCRAM users to format it with, and one client properties
# file per role (the kvfleet services' --kafka-config). Runs in the apache/kafka image (its JRE has
# keytool); run again, it keeps what is there. No private key leaves this volume.
set -eu
S=${SECRETS:-/secrets}
BROKERS=${BROKERS:-kafka-1 kafka-2 kafka-3}
VOTERS=${VOTERS:-1@kafka-1:9093,2@kafka-2:9093,3@kafka-3:9093}
umask 077
if [ -f "$S/ready" ]; then
  echo "secrets: already made in $S"
  exit 0
fi
mkdir -p "$S"
password() { head -c 18 /dev/urandom | od -An -tx1 | tr -d ' \n'; }
STORE=$(password)
TRUST=$(password)
: > "$S/passwords"
for user in broker admin coordinator node router observer; do
  echo "$user=$(password)" >> "$S/passwords"
done
pw() { sed -n "s/^$1=//p" "$S/passwords"; }

keytool -genkeypair -alias ca -keyalg EC -groupname secp256r1 -dname CN=kvfleet-ca -ext bc:c -validity 825 \
  -keystore "$S/ca.p12" -storetype PKCS12 -storepass "$STORE"
keytool -exportcert -rfc -alias ca -keystore "$S/ca.p12" -storepass "$STORE" -file "$S/ca.crt"
keytool -importcert -noprompt -alias kvfleet-ca -file "$S/ca.crt" -keystore "$S/truststore.p12" \
  -storetype PKCS12 -storepass "$TRUST"

scram=""
for user in broker admin coordinator node router observer; do
  scram="$scram --add-scram SCRAM-SHA-512=[name=$user,password=$(pw "$user")]"
done
echo "$scram" > "$S/format.args"

id=0
for broker in $BROKERS; do
  id=$((id + 1))
  keytool -genkeypair -alias "$broker" -keyalg EC -groupname secp256r1 -dname "CN=$broker" -validity 825 \
    -keystore "$S/$broker.p12" -storetype PKCS12 -storepass "$STORE"
  keytool -certreq -alias "$broker" -keystore "$S/$broker.p12" -storepass "$STORE" -file "$S/$broker.csr"
  keytool -gencert -rfc -alias ca -keystore "$S/ca.p12" -storepass "$STORE" -infile "$S/$broker.csr" \
    -outfile "$S/$broker.crt" -ext "SAN=dns:$broker" -validity 825
  keytool -importcert -noprompt -alias ca -file "$S/ca.crt" -keystore "$S/$broker.p12" -storepass "$STORE"
  keytool -importcert -noprompt -alias "$broker" -file "$S/$broker.crt" -keystore "$S/$broker.p12" -storepass "$STORE"
  rm "$S/$broker.csr"
  cat > "$S/$broker.properties" <<PROPERTIES
# $broker: clients and brokers on SASL_SSL (SCRAM-SHA-512), controllers on SASL PLAIN; ACLs, no access without one.
process.roles=broker,controller
node.id=$id
controller.quorum.voters=$VOTERS
listeners=CLIENT://:9092,CONTROLLER://:9093
advertised.listeners=CLIENT://$broker:9092
controller.listener.names=CONTROLLER
inter.broker.listener.name=CLIENT
listener.security.protocol.map=CLIENT:SASL_SSL,CONTROLLER:SASL_PLAINTEXT
listener.name.client.sasl.enabled.mechanisms=SCRAM-SHA-512
sasl.mechanism.inter.broker.protocol=SCRAM-SHA-512
listener.name.client.scram-sha-512.sasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required username="broker" password="$(pw broker)";
listener.name.controller.sasl.enabled.mechanisms=PLAIN
sasl.mechanism.controller.protocol=PLAIN
listener.name.controller.plain.sasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule required username="broker" password="$(pw broker)" user_broker="$(pw broker)";
ssl.keystore.location=$S/$broker.p12
ssl.keystore.type=PKCS12
ssl.keystore.password=$STORE
ssl.key.password=$STORE
ssl.truststore.location=$S/truststore.p12
ssl.truststore.type=PKCS12
ssl.truststore.password=$TRUST
authorizer.class.name=org.apache.kafka.metadata.authorizer.StandardAuthorizer
super.users=User:admin;User:broker
allow.everyone.if.no.acl.found=false
log.dirs=/var/lib/kafka/data
offsets.topic.replication.factor=3
transaction.state.log.replication.factor=3
transaction.state.log.min.isr=2
share.coordinator.state.topic.replication.factor=3
share.coordinator.state.topic.min.isr=2
default.replication.factor=3
min.insync.replicas=2
auto.create.topics.enable=false
PROPERTIES
done
rm "$S/ca.p12" # the CA signed the brokers' certificates; nothing else is to be signed with it

for role in admin coordinator node router observer; do
  cat > "$S/$role.properties" <<PROPERTIES
# kvfleet: Kafka client properties of a $role (--kafka-config)
security.protocol=SASL_SSL
sasl.mechanism=SCRAM-SHA-512
sasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required username="$role" password="$(pw "$role")";
ssl.truststore.location=$S/truststore.p12
ssl.truststore.type=PKCS12
ssl.truststore.password=$TRUST
PROPERTIES
done
touch "$S/ready"
echo "secrets: made in $S"
