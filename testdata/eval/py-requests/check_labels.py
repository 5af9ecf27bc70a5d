"""Check that every label in queries.jsonl is a reference in a Loom graph export.

Usage: python3 check_labels.py /tmp/py-ws.json
"""
import json, os, sys
refs = {n["reference"] for n in json.load(open(sys.argv[1] if len(sys.argv) > 1 else "/tmp/py-ws.json"))["content_nodes"]}
labels = bad = 0
for line in open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "queries.jsonl")):
    q = json.loads(line)
    for l in q["relevant"]:
        labels += 1
        if l not in refs:
            bad += 1; print("unresolved", q["id"], l)
print(f"{labels} labels, {bad} unresolved")
sys.exit(1 if bad else 0)
