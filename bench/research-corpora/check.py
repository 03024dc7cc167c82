"""Checks a research development corpus folder: corpus.ndjson and questions.json.
usage: python3 bench/research-corpora/check.py bench/research-corpora/<market> [OTHER.ndjson ...]
Fails (exit 1) when a line does not parse or lacks a field, a key repeats, a gold URL is not a source,
a gold source states none of its question's facts, or a fact phrasing is not verbatim in any gold
source. Also prints, for information, facts that occur in sources outside gold (the scorer counts
a fact wherever the brief states it)."""
import json, os, re, sys

folder, others = sys.argv[1], sys.argv[2:]
other_text = [open(o, encoding="utf-8").read() for o in others]
errors, notes = [], []
sources, companies = {}, {}
with open(os.path.join(folder, "corpus.ndjson"), encoding="utf-8") as f:
    for n, line in enumerate(f, 1):
        try:
            o = json.loads(line)
        except ValueError as e:
            errors.append(f"corpus line {n}: does not parse ({e})")
            continue
        p, key = o.get("properties") or {}, o.get("key")
        if o.get("type") == "company":
            missing = [k for k in ("name", "domain", "description", "industry", "headquarters", "founded", "employees") if k not in p]
            if missing or p.get("domain") != key:
                errors.append(f"corpus line {n}: company {key} missing {missing} or domain != key")
            if key in companies:
                errors.append(f"corpus line {n}: company {key} repeated")
            companies[key] = p
        elif o.get("type") == "source":
            missing = [k for k in ("title", "url", "publishedAt", "content") if not p.get(k)]
            if missing or p.get("url") != key:
                errors.append(f"corpus line {n}: source {key} missing {missing} or url != key")
            if not re.fullmatch(r"\d{4}-\d{2}-\d{2}", p.get("publishedAt", "")):
                errors.append(f"corpus line {n}: publishedAt {p.get('publishedAt')!r} is not YYYY-MM-DD")
            if key in sources:
                errors.append(f"corpus line {n}: source {key} repeated")
            sources[key] = p.get("content", "")
        else:
            errors.append(f"corpus line {n}: unknown type {o.get('type')!r}")

questions = json.load(open(os.path.join(folder, "questions.json"), encoding="utf-8"))
facts_total = 0
for q in questions:
    t = q.get("topic")
    if not t or not q.get("gold") or not q.get("facts"):
        errors.append(f"question {t!r}: needs topic, gold and facts")
        continue
    for g in q["gold"]:
        if g not in sources:
            errors.append(f"question {t!r}: gold {g} is not a source key")
    gold_text = [sources.get(g, "") for g in q["gold"]]
    alts = [[f] if isinstance(f, str) else f for f in q["facts"]]
    facts_total += len(alts)
    for a in alts:
        for phrase in a:
            if not any(phrase in c for c in gold_text):
                errors.append(f"question {t!r}: fact {phrase!r} is in no gold source")
            for o, text in zip(others, other_text):
                if phrase in text:
                    errors.append(f"question {t!r}: fact {phrase!r} also occurs in {o}")
            elsewhere = [u for u, c in sources.items() if phrase in c and u not in q["gold"]]
            if elsewhere:
                notes.append(f"question {t!r}: fact {phrase!r} also in non-gold {elsewhere}")
    for g in q["gold"]:
        if g in sources and not any(p in sources[g] for a in alts for p in a):
            errors.append(f"question {t!r}: gold {g} states none of the facts")

for n in notes:
    print("note:", n)
for e in errors:
    print("ERROR:", e)
print(f"{len(companies)} companies, {len(sources)} sources, {len(questions)} questions "
      f"({sum(1 for q in questions if q.get('hard'))} hard), {facts_total} facts: "
      + ("ok" if not errors else f"{len(errors)} errors"))
sys.exit(1 if errors else 0)
