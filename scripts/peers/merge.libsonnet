// Peers of strata in Jsonnet for scripts/bench.sh (inputs are the JSON twins).
local isObj = std.isObject, isArr = std.isArray;
{
  // W1: maps merge recursively, anything else is replaced.
  deep(a, b)::
    if isObj(a) && isObj(b) then
      a + { [k]: if std.objectHas(a, k) then $.deep(a[k], b[k]) else b[k] for k in std.objectFields(b) }
    else b,
  // W2: cloud-init dict(recurse_list) (no_replace) + list(append).
  cloud(a, b)::
    if isObj(a) then
      if isObj(b) then
        a + { [k]: if !std.objectHas(a, k) then b[k]
                   else if isObj(b[k]) || isArr(b[k]) then $.cloud(a[k], b[k])
                   else a[k]
              for k in std.objectFields(b) if k != 'merge_how' }
      else a
    else if isArr(a) && isArr(b) then a + b
    else a,
  without(o, key):: { [k]: o[k] for k in std.objectFields(o) if k != key },
  w1(a, b):: $.deep(a, b),
  w2(parts):: std.foldl(function(acc, p) $.cloud(acc, p), parts, {}),
  // W3: `items` merged by name (DeepTuple), the rest deeply.
  w3(a, b)::
    local old = { [i.name]: i for i in a.items };
    local seen = { [i.name]: true for i in b.items };
    $.deep($.without(a, 'items'), $.without(b, 'items')) + {
      items: [if std.objectHas(old, i.name) then $.deep(old[i.name], i) else i for i in b.items]
             + [i for i in a.items if !std.objectHas(seen, i.name)],
    },
}
