# W2: cloud-init parts with merge_how 'list(append)+dict(recurse_list)': maps recurse, lists
# append, an existing scalar keeps the first part's value; merge_how itself is dropped.
def m($a; $b):
  if ($a | type) == "object" then
    if ($b | type) == "object" then
      reduce ($b | keys_unsorted[]) as $k ($a;
        if has($k) then
          (if ($b[$k] | type) == "object" or ($b[$k] | type) == "array"
           then .[$k] = m(.[$k]; $b[$k]) else . end)
        else .[$k] = $b[$k] end)
    else $a end
  elif ($a | type) == "array" and ($b | type) == "array" then $a + $b
  else $a end;
reduce .[] as $p ({}; m(.; $p | del(.merge_how)))
