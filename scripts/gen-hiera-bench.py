#!/usr/bin/env python3
"""Generate a Hiera 5 benchmark site (issue 15; scripts/bench-hiera.sh runs it).

    gen-hiera-bench.py OUT_DIR LEVELS KEYS [--seed N]

writes, deterministically for a given (LEVELS, KEYS, seed):

    OUT_DIR/hiera.yaml   version 5, defaults datadir data / data_hash yaml_data; LEVELS levels:
                         nodes/%{trusted.certname}.yaml first, common.yaml last, between them
                         role, environment, OS release, datacenter, cluster, team (%{::team}),
                         country, zone, OS family, virtual (as many as LEVELS - 2 needs, <= 12)
    OUT_DIR/facts.yaml   the node's facts (clientcert, role, os.family, location.zone, ...)
    OUT_DIR/data/...     one file per level, KEYS keys each
    OUT_DIR/keys.txt     "deep KEY" and "plain KEY": the two keys bench-hiera.sh looks up

Keys are `MODULE::mN::PARAM`, 20 params per module, the param's name giving its type: strings,
ints, a bool, a float, small maps (settings, config, options), lists (packages, servers,
users), a list of maps (backends), a URL (every tenth module's interpolates %{facts.datacenter}).
Half of each level's keys are `profile::mN::PARAM`, present in every level with values that
differ per level; the other half are the level's own (`role::mN::PARAM`, ...). A whole-document
lookup therefore resolves KEYS / 2 * (LEVELS + 1) distinct keys. common.yaml holds
lookup_options: for every fourth profile module settings deep, packages unique, config hash;
for the next, settings deep with knockout_prefix "--" (the node level knocks a tag out); and
a regex entry, options of every profile module deep. The deep key looked up is
profile::m100::settings (found and deep-merged on every level), the plain key
profile::m101::version (first found, on the node level).
"""
import os
import random
import sys

PARAMS = ["ensure", "version", "message", "owner", "mode", "log_level", "port", "workers",
          "timeout", "enabled", "ratio", "settings", "config", "options", "packages",
          "servers", "users", "backends", "url", "description"]
# (name, hierarchy path, data file under data/, slug for the level's own keys)
MIDDLE = [
    ("Per-role data", "role/%{facts.role}.yaml", "role/web.yaml", "role"),
    ("Per-environment data", "env/%{facts.env}.yaml", "env/production.yaml", "env"),
    ("Per-OS release", "os/%{facts.os.family}-%{facts.os.release.major}.yaml", "os/Debian-12.yaml", "osrel"),
    ("Per-datacenter data", "dc/%{facts.datacenter}.yaml", "dc/fra1.yaml", "dc"),
    ("Per-cluster data", "cluster/%{facts.cluster}.yaml", "cluster/c07.yaml", "cluster"),
    ("Per-team data", "team/%{::team}.yaml", "team/payments.yaml", "team"),
    ("Per-country data", "location/%{facts.location.country}.yaml", "location/de.yaml", "country"),
    ("Per-zone data", "zone/%{facts.location.zone}.yaml", "zone/fra1-b.yaml", "zone"),
    ("Per-OS family", "os/%{facts.os.family}.yaml", "os/Debian.yaml", "osfam"),
    ("Per-virtual data", "virtual/%{facts.virtual}.yaml", "virtual/kvm.yaml", "virtual"),
]
CERTNAME = "node0042.example.net"
FACTS = """clientcert: node0042.example.net
fqdn: node0042.example.net
hostname: node0042
domain: example.net
role: web
env: production
team: payments
datacenter: fra1
cluster: c07
virtual: kvm
os:
  family: Debian
  name: Debian
  release:
    major: "12"
    full: "12.4"
location:
  country: de
  zone: fra1-b
"""
WORDS = ["alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel", "india",
         "juliet", "kilo", "lima", "mike", "november", "oscar", "papa"]
PKGS = ["curl", "vim", "git", "htop", "jq", "rsync", "tmux", "strace", "lsof", "unzip",
        "nginx", "openssl", "ca-certificates", "chrony", "auditd", "sudo"]
LEVELS_NAMES = ["debug", "info", "notice", "warning", "err"]


def q(s):
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


def flow_list(items):
    return "[" + ", ".join(items) + "]"


def value(rng, param, level, m):
    """The YAML text (one line, flow style) of PARAM's value in module m on this level."""
    if param == "ensure":
        return q(rng.choice(["present", "latest", "absent", "running"]))
    if param == "version":
        return q("%d.%d.%d" % (rng.randint(1, 9), rng.randint(0, 20), rng.randint(0, 99)))
    if param == "message":
        return q(" ".join(rng.choice(WORDS) for _ in range(rng.randint(3, 7))))
    if param == "owner":
        return q(rng.choice(["root", "www-data", "app", "deploy", "postgres"]))
    if param == "mode":
        return q(rng.choice(["0644", "0600", "0755", "0750"]))
    if param == "log_level":
        return q(rng.choice(LEVELS_NAMES))
    if param == "port":
        return str(rng.randint(1024, 65535))
    if param == "workers":
        return str(rng.randint(1, 64))
    if param == "timeout":
        return str(rng.choice([5, 10, 30, 60, 120, 300]))
    if param == "enabled":
        return rng.choice(["true", "false"])
    if param == "ratio":
        return "%.2f" % rng.random()
    if param in ("settings", "config", "options"):
        tags = [q("t%d" % rng.randint(0, 9)) for _ in range(rng.randint(1, 3))]
        if param == "settings" and level == 0 and m % 4 == 1:
            tags.append(q("--t%d" % rng.randint(0, 9)))  # knocked out by knockout_prefix "--"
        return "{enabled: %s, port: %d, opts: {timeout: %d, retries: %d, level: %s, l%d: %d}, tags: %s}" % (
            rng.choice(["true", "false"]), rng.randint(1024, 65535), rng.choice([5, 30, 60]),
            rng.randint(0, 5), q(rng.choice(LEVELS_NAMES)), level, rng.randint(0, 999),
            flow_list(tags))
    if param == "packages":
        return flow_list(q(p) for p in rng.sample(PKGS, rng.randint(2, 4)))
    if param == "servers":
        return flow_list(q("srv%d.example.net" % rng.randint(1, 40)) for _ in range(rng.randint(1, 3)))
    if param == "users":
        return flow_list(q(rng.choice(WORDS)) for _ in range(rng.randint(1, 3)))
    if param == "backends":
        return flow_list("{host: %s, port: %d}" % (q("db%d" % rng.randint(1, 9)), rng.randint(5432, 5439))
                         for _ in range(rng.randint(1, 2)))
    if param == "url":
        if m % 10 == 0:
            return q("https://%%{facts.datacenter}.example.net/m%d/%s" % (m, rng.choice(WORDS)))
        return q("https://svc%d.example.net/%s" % (rng.randint(1, 99), rng.choice(WORDS)))
    return q("%s %s service for module %d" % (rng.choice(WORDS), rng.choice(WORDS), m))


def lookup_options(keys):
    shared_modules = (keys + 1) // 2 // len(PARAMS) + 1
    out = ["lookup_options:",
           "  '^profile::m\\d+::options$':",
           "    merge: deep"]
    for m in range(shared_modules):
        if m % 4 == 0:
            out += ["  profile::m%d::settings:" % m, "    merge: deep",
                    "  profile::m%d::packages:" % m, "    merge: unique",
                    "  profile::m%d::config:" % m, "    merge: hash"]
        elif m % 4 == 1:
            out += ["  profile::m%d::settings:" % m, "    merge:", "      strategy: deep",
                    "      knockout_prefix: \"--\""]
    return out


def main():
    args = sys.argv[1:]
    seed = 1
    if "--seed" in args:
        i = args.index("--seed")
        seed = int(args[i + 1])
        del args[i:i + 2]
    if len(args) != 3 or args[0] in ("-h", "--help"):
        print(__doc__)
        return 2
    out, nlevels, nkeys = args[0], int(args[1]), int(args[2])
    if not 2 <= nlevels <= len(MIDDLE) + 2:
        raise SystemExit("LEVELS must be 2..%d" % (len(MIDDLE) + 2))
    levels = [("Per-node data", "nodes/%{trusted.certname}.yaml", "nodes/%s.yaml" % CERTNAME, "nodes")]
    levels += MIDDLE[:nlevels - 2]
    levels.append(("Common data", "common.yaml", "common.yaml", "common"))

    os.makedirs(os.path.join(out, "data"), exist_ok=True)
    with open(os.path.join(out, "hiera.yaml"), "w") as f:
        f.write("# generated by scripts/gen-hiera-bench.py %d %d --seed %d\n" % (nlevels, nkeys, seed))
        f.write("version: 5\ndefaults:\n  datadir: data\n  data_hash: yaml_data\nhierarchy:\n")
        for name, path, _, _ in levels:
            f.write("  - name: %s\n    path: %s\n" % (q(name), q(path)))
    with open(os.path.join(out, "facts.yaml"), "w") as f:
        f.write(FACTS)

    shared = nkeys // 2
    for li, (_, _, file, slug) in enumerate(levels):
        rng = random.Random("strata-hiera-bench:%d:%d:%d:%d" % (seed, nlevels, nkeys, li))
        lines = ["---"]
        if slug == "common":
            lines += lookup_options(nkeys)
        for i in range(nkeys):
            if i < shared:
                module, j = "profile", i
            else:
                module, j = slug, i - shared
            m, param = j // len(PARAMS), PARAMS[j % len(PARAMS)]
            lines.append("%s::m%d::%s: %s" % (module, m, param, value(rng, param, li, m)))
        path = os.path.join(out, "data", file)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as f:
            f.write("\n".join(lines) + "\n")
    with open(os.path.join(out, "keys.txt"), "w") as f:
        f.write("deep profile::m100::settings\nplain profile::m101::version\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
