#!/bin/sh
# A private certificate authority and the broker's certificate for the tower
# link (TLS on MQTT), made with openssl. Run on the broker's machine:
#
#   sh make-certs.sh DIR BROKER_NAME_OR_IP [MORE_NAMES_OR_IPS ...]
#       DIR/ca.crt      the CA: give it to every companion (--cafile, the app's CA file)
#       DIR/ca.der      the same in DER, for the towers (mqtt_ca_file: MicroPython reads DER)
#       DIR/ca.key      the CA's key: keep it offline, it signs certificates
#       DIR/server.crt  the broker's certificate, valid for every name and IP given
#       DIR/server.key  its key (mosquitto's keyfile)
#   sh make-certs.sh DIR --client NAME
#       DIR/NAME.crt, DIR/NAME.key: an optional client certificate signed by the CA
#       DIR/NAME.der, DIR/NAME.key.der: the same in DER, for a tower (mqtt_cert_file, mqtt_key_file)
#
# A tower checks the broker's name: give the names and IP addresses the towers
# and the tablet use to reach it (e.g. 192.168.1.10 broker.local). An existing
# CA in DIR is reused, so run it again to add names or clients.
set -eu

usage() { echo "usage: sh make-certs.sh DIR BROKER_NAME_OR_IP... | DIR --client NAME" >&2; exit 2; }
[ $# -ge 2 ] || usage
dir=$1; shift
mkdir -p "$dir"
umask 077

if [ ! -f "$dir/ca.crt" ]; then
    openssl req -x509 -new -newkey rsa:2048 -nodes -sha256 -days 3650 \
        -subj "/CN=El Grande tower CA" \
        -addext "basicConstraints=critical,CA:TRUE" \
        -addext "keyUsage=critical,keyCertSign,cRLSign" \
        -keyout "$dir/ca.key" -out "$dir/ca.crt" 2>/dev/null
    openssl x509 -in "$dir/ca.crt" -outform der -out "$dir/ca.der"
    chmod 644 "$dir/ca.crt" "$dir/ca.der"
fi

sign() {  # sign NAME EXTENSIONS: NAME.key + NAME.crt signed by the CA
    openssl req -new -newkey rsa:2048 -nodes -sha256 -subj "/CN=$3" \
        -keyout "$dir/$1.key" -out "$dir/$1.csr" 2>/dev/null
    printf '%s\n' "$2" > "$dir/$1.ext"
    openssl x509 -req -sha256 -days 825 -in "$dir/$1.csr" -CA "$dir/ca.crt" -CAkey "$dir/ca.key" \
        -CAcreateserial -extfile "$dir/$1.ext" -out "$dir/$1.crt" 2>/dev/null
    rm -f "$dir/$1.csr" "$dir/$1.ext"
    chmod 644 "$dir/$1.crt"
}

common="basicConstraints=critical,CA:FALSE
keyUsage=critical,digitalSignature,keyEncipherment
subjectKeyIdentifier=hash
authorityKeyIdentifier=keyid"

if [ "$1" = "--client" ]; then
    [ $# -eq 2 ] || usage
    sign "$2" "$common
extendedKeyUsage=clientAuth" "$2"
    openssl x509 -in "$dir/$2.crt" -outform der -out "$dir/$2.der"
    openssl pkey -in "$dir/$2.key" -outform der -out "$dir/$2.key.der"
    chmod 644 "$dir/$2.der"
    echo "made $dir/$2.crt, $dir/$2.key (PEM) and $dir/$2.der, $dir/$2.key.der (DER)"
    exit 0
fi

san=""
for name in "$@"; do
    case $name in
        *[!0-9.]*) case $name in *:*) kind=IP ;; *) kind=DNS ;; esac ;;  # IPv6 has colons
        *) kind=IP ;;
    esac
    san="${san:+$san,}$kind:$name"
done
sign server "$common
extendedKeyUsage=serverAuth
subjectAltName=$san" "$1"
echo "made $dir/ca.crt (and ca.der), $dir/server.crt and $dir/server.key for $san"
