#!/bin/sh
# Creates the fleet topics (with FleetTopics's settings) and the ACLs of each role as the admin (a
# super user), once the brokers are up: the kvfleet services may not create topics themselves. The
# ACLs are FleetAcls's, the same the embedded broker (kvfleet kafka --secure) grants;
# ComposeSecurityTest checks that both agree.
set -euf   # no globbing: a group named * stays *
S=${SECRETS:-/secrets}
B=${BOOTSTRAP:-kafka-1:9092,kafka-2:9092,kafka-3:9092}
K=/opt/kafka/bin
for topic in kvfleet.nodes kvfleet.transfers kvfleet.deadletter; do
  "$K/kafka-topics.sh" --bootstrap-server "$B" --command-config "$S/admin.properties" --create --if-not-exists \
    --topic "$topic" --partitions 3 --replication-factor 3 --config min.insync.replicas=2 \
    --config retention.ms=-1 --config message.timestamp.type=LogAppendTime
done
# acl ROLE OPERATION topic|group NAME [prefixed]
acl() {
  if [ "$3" = topic ]; then resource="--topic $4"; else resource="--group $4"; fi
  pattern=""
  if [ "${5:-}" = prefixed ]; then pattern="--resource-pattern-type prefixed"; fi
  # shellcheck disable=SC2086 # resource and pattern are option pairs
  "$K/kafka-acls.sh" --bootstrap-server "$B" --command-config "$S/admin.properties" --add \
    --allow-principal "User:$1" --operation "$2" $resource $pattern
}
# every role describes the fleet topics (metadata, end offsets, the topic check at start)
acl coordinator Describe topic kvfleet.nodes
acl coordinator Describe topic kvfleet.transfers
acl coordinator Describe topic kvfleet.deadletter
acl node Describe topic kvfleet.nodes
acl node Describe topic kvfleet.transfers
acl node Describe topic kvfleet.deadletter
acl router Describe topic kvfleet.nodes
acl router Describe topic kvfleet.transfers
acl router Describe topic kvfleet.deadletter
acl observer Describe topic kvfleet.nodes
acl observer Describe topic kvfleet.transfers
acl observer Describe topic kvfleet.deadletter
# coordinators fold both topics, end transfers, dead-letter poison; any group name (--group)
acl coordinator Read topic kvfleet.nodes
acl coordinator Write topic kvfleet.nodes
acl coordinator Read topic kvfleet.transfers
acl coordinator Write topic kvfleet.transfers
acl coordinator Read topic kvfleet.deadletter
acl coordinator Write topic kvfleet.deadletter
acl coordinator Read group '*'
# a node agent writes its events and outcomes, reads the nodes topic for its own loss and the
# transfers topic for its orders (the dispatches on its key's partition)
acl node Read topic kvfleet.nodes
acl node Write topic kvfleet.nodes
acl node Read topic kvfleet.transfers
acl node Write topic kvfleet.transfers
# a router requests transfers, and nothing else
acl router Write topic kvfleet.transfers
# an observer reads: tail (groups kvfleet-tail-...), export, replay, explain
acl observer Read topic kvfleet.nodes
acl observer Read topic kvfleet.transfers
acl observer Read topic kvfleet.deadletter
acl observer Read group kvfleet-tail- prefixed
echo "acls: fleet topics and ACLs in place"
