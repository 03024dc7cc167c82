"""How often a research brief's **Answer:** line (the sentence Recon puts first) states an expected fact.
usage: python3 bench/research-corpora/answer-line.py QUESTIONS.json BASE KEY
Complements shared/tools/score-research.py, which counts a fact stated anywhere in the brief. Prints each
question whose answer line states none of its facts (HARD marks questions with "hard": true) and a summary.
Waits and retries when the server answers 429."""
import json, re, sys, time, urllib.error, urllib.request

questions_path, base, key = sys.argv[1:4]
questions = json.load(open(questions_path, encoding="utf-8"))

def research(topic):
    for attempt in range(6):
        req = urllib.request.Request(base + "/api/v1/commands/research", method="POST",
            data=json.dumps({"topic": topic}).encode(),
            headers={"Authorization": "Bearer " + key, "Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(req, timeout=60) as r:
                return r.read().decode()
        except urllib.error.HTTPError as e:
            if e.code != 429 or attempt == 5:
                raise
            time.sleep(30)

hits = hard_hits = hard_total = 0
for q in questions:
    md = research(q["topic"])
    m = re.search(r"^\*\*Answer:\*\*(.*)$", md, re.M)
    answer = m.group(1) if m else ""
    hit = any(any(p in answer for p in ([f] if isinstance(f, str) else f)) for f in q["facts"])
    hits += hit
    hard_total += bool(q.get("hard"))
    hard_hits += hit and bool(q.get("hard"))
    if not hit:
        print(f"{'HARD' if q.get('hard') else '    '} {q['topic']}  =>  {answer.strip()[:140]}")
print(f"answer line states a fact: {hits}/{len(questions)} questions ({hits / len(questions):.0%}); hard {hard_hits}/{hard_total}")
