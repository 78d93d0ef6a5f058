#!/usr/bin/env python3
"""Writes a generated Ardana input model for scripts/bench-ardana.sh (seeded, deterministic):

    scripts/gen-ardana-bench.py DIR SERVERS FILES

cloudConfig.yml; FILES files under data/ (a quarter of them in subdirectories): servers split
evenly over them, each file also holding one disk model, one interface model and a network;
one file with pass-through and the dictionary sections (baremetal, control-planes as a list).
The model keeps every input-model rule, so `strata ardana read` renders it.
"""
import os, random, shutil, sys


def main():
    out, servers, files = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    rng = random.Random(servers * 1000 + files)
    shutil.rmtree(out, ignore_errors=True)
    os.makedirs(os.path.join(out, "data"))
    with open(os.path.join(out, "cloudConfig.yml"), "w") as f:
        f.write("product:\n  version: 2\ncloud:\n  name: bench\n  hostname-data:\n"
                "    host-prefix: bench\n    member-prefix: -m\n  ntp-servers: [ntp1, ntp2]\n")
    per = servers // files
    for i in range(files):
        sub = f"data/zone{i % 4}" if i % 4 == 3 else "data"
        os.makedirs(os.path.join(out, sub), exist_ok=True)
        lines = ["# generated: servers of rack %d" % i, "product:", "  version: 2", "", "servers:"]
        for j in range(per):
            n = i * per + j
            lines += [f"  - id: srv{n:05d}", f"    ip-addr: 10.{n // 65536}.{n // 256 % 256}.{n % 256}",
                      f"    role: {rng.choice(['COMPUTE-ROLE', 'CONTROLLER-ROLE', 'SWIFT-ROLE'])}",
                      f"    server-group: RACK{i}", f"    nic-mapping: {rng.choice(['HP-DL360-4PORT', 'MY-2PORT'])}",
                      f"    mac-addr: '52:54:00:{n // 65536 % 256:02x}:{n // 256 % 256:02x}:{n % 256:02x}'",
                      f"    ilo-ip: 192.168.{n // 256 % 256}.{n % 256}", "    ilo-user: admin",
                      "    ilo-password: password", f"    enabled: {rng.choice(['yes', 'no'])}"]
        lines += ["", "disk-models:", f"  - name: DISKS-{i}", "    volume-groups:",
                  "      - name: ardana-vg", "        physical-volumes: [/dev/sda_root]",
                  "        logical-volumes:", "          - {name: root, size: 35%, fstype: ext4, mount: /}",
                  "          - {name: log, size: 50%, mount: /var/log, fstype: ext4}",
                  "", "interface-models:", f"  - name: IF-{i}", "    network-interfaces:",
                  "      - name: BOND0", "        device: {name: bond0}",
                  "        network-groups: [MANAGEMENT, EXTERNAL-API]",
                  "", "networks:", f"  - name: NET-{i}", f"    vlanid: {100 + i}",
                  f"    cidr: 172.{16 + i // 256}.{i % 256}.0/24", "    network-group: MANAGEMENT"]
        with open(os.path.join(out, sub, f"rack_{i:04d}.yml"), "w") as f:
            f.write("\n".join(lines) + "\n")
    with open(os.path.join(out, "data", "control_plane.yml"), "w") as f:
        f.write("product:\n  version: 2\nbaremetal:\n  subnet: 10.0.0.0\n  netmask: 255.0.0.0\n"
                "control-planes:\n  - name: cp1\n    region-name: region1\n    clusters:\n"
                "      - {name: cluster0, cluster-prefix: c0, server-role: CONTROLLER-ROLE, member-count: 3}\n"
                "pass-through:\n  global:\n    install-env: bench\n    thirdparty: {enabled: no}\n")
    with open(os.path.join(out, "README.md"), "w") as f:
        f.write("# generated bench model\n")
    print(f"gen-ardana-bench: {out}: {servers} servers over {files} files", file=sys.stderr)


if __name__ == "__main__":
    main()
