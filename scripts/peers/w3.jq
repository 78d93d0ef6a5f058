# W3: top level merged deeply; `items` merged by `name` (Datum DeepTuple): the later layer's
# items deep-merged over the earlier item of the same name, then the earlier unmatched items.
.[0] as $a | .[1] as $b
| (reduce $a.items[] as $i ({}; .[$i.name] = $i)) as $old
| (reduce $b.items[] as $i ({}; .[$i.name] = true)) as $seen
| ($a | del(.items)) * ($b | del(.items))
| .items = ([$b.items[] | if $old[.name] != null then $old[.name] * . else . end]
            + [$a.items[] | select($seen[.name] | not)])
