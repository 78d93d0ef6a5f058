# W1: deep merge of two maps (jq's `*`: objects merge recursively, anything else is replaced).
.[0] * .[1]
