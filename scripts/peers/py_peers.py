#!/usr/bin/env python3
"""Python peers of strata for scripts/bench.sh: the equivalent merge of each workload written
the way users do it today with each library. Usage: py_peers.py LIB WORKLOAD FILE...

LIB: pyyaml | deepmerge | hiyapyco | omegaconf.  WORKLOAD: w1 | w2 | w3.
Output (YAML) goes to stdout. A library that cannot express a workload exits 3.
W1: deep merge of maps, everything else replaced (strata merge a b).
W2: cloud-init parts with merge_how 'list(append)+dict(recurse_list)': maps recurse, lists
    append, an existing scalar keeps the first part's value; merge_how itself is dropped.
W3: top level merged deeply; `items` merged by `name` (Datum DeepTuple): each item of the later
    (more specific) layer, deep-merged over the earlier item of the same name, then the earlier
    layer's unmatched items.
"""
import sys

import yaml

Loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
Dumper = getattr(yaml, "CSafeDumper", yaml.SafeDumper)


def load(path):
    with open(path, "rb") as f:
        return yaml.load(f, Loader=Loader)


def dump(doc, header=""):
    out = sys.stdout
    out.write(header)
    yaml.dump(doc, out, Dumper=Dumper, sort_keys=False, allow_unicode=True)


def deep(a, b):
    """strata merge's default: maps merge recursively, anything else is replaced."""
    if isinstance(a, dict) and isinstance(b, dict):
        for k, v in b.items():
            a[k] = deep(a[k], v) if k in a else v
        return a
    return b


def cloud(old, new):
    """cloud-init dict(recurse_list) (no_replace) + list(append), for this workload's types."""
    if isinstance(old, dict):
        if not isinstance(new, dict):
            return old
        for k, v in new.items():
            if k not in old:
                old[k] = v
            elif isinstance(v, (dict, list)):
                old[k] = cloud(old[k], v)
        return old
    if isinstance(old, list) and isinstance(new, list):
        old.extend(new)
        return old
    return old


def deep_tuple(a_items, b_items, merge_item):
    by_name = {i["name"]: i for i in a_items}
    seen = set()
    out = []
    for item in b_items:
        seen.add(item["name"])
        prev = by_name.get(item["name"])
        out.append(merge_item(prev, item) if prev is not None else item)
    out.extend(i for i in a_items if i["name"] not in seen)
    return out


def pyyaml(workload, files):
    if workload == "w1":
        a, b = load(files[0]), load(files[1])
        dump(deep(a, b))
    elif workload == "w2":
        acc = {}
        for f in files:
            part = load(f)
            part.pop("merge_how", None)
            acc = cloud(acc, part)
        dump(acc, "#cloud-config\n")
    else:
        a, b = load(files[0]), load(files[1])
        items = deep_tuple(a.pop("items"), b.pop("items"), deep)
        doc = deep(a, b)
        doc["items"] = items
        dump(doc)


def deepmerge_(workload, files):
    from deepmerge import Merger

    if workload == "w1":
        m = Merger([(list, ["override"]), (dict, ["merge"])], ["override"], ["override"])
        a, b = load(files[0]), load(files[1])
        dump(m.merge(a, b))
    elif workload == "w2":
        m = Merger([(list, ["append"]), (dict, ["merge"])], ["use_existing"], ["use_existing"])
        acc = {}
        for f in files:
            part = load(f)
            part.pop("merge_how", None)
            acc = m.merge(acc, part)
        dump(acc, "#cloud-config\n")
    else:
        items_m = Merger([(list, ["override"]), (dict, ["merge"])], ["override"], ["override"])

        def by_name(config, path, base, nxt):
            if path == ["items"]:
                return deep_tuple(base, nxt, items_m.merge)
            return nxt

        m = Merger([(list, [by_name]), (dict, ["merge"])], ["override"], ["override"])
        a, b = load(files[0]), load(files[1])
        dump(m.merge(a, b))


def hiyapyco_(workload, files):
    import hiyapyco

    if workload != "w1":
        # METHOD_MERGE lets later scalars win and de-duplicates lists; no keyed list merge.
        sys.exit(3)
    conf = hiyapyco.load(list(files), method=hiyapyco.METHOD_SUBSTITUTE, usedefaultyamlloader=True,
                          none_behavior=hiyapyco.NONE_BEHAVIOR_OVERRIDE)
    sys.stdout.write(hiyapyco.dump(conf))


def omegaconf_(workload, files):
    from omegaconf import OmegaConf

    if workload != "w1":
        # Later scalars always win (W2 keeps the first) and lists have no keyed merge (W3).
        sys.exit(3)
    conf = OmegaConf.merge(*(OmegaConf.load(f) for f in files))
    sys.stdout.write(OmegaConf.to_yaml(conf))


if __name__ == "__main__":
    lib, workload, files = sys.argv[1], sys.argv[2], sys.argv[3:]
    {"pyyaml": pyyaml, "deepmerge": deepmerge_, "hiyapyco": hiyapyco_, "omegaconf": omegaconf_}[lib](
        workload, files
    )
