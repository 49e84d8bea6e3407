"""Benchmark the study searches on the bundled ES09 lexicon (636,599 words, with its errata).

Run: ``.venv/bin/python bench/bench_wordtools.py [--runs 5]``. Each line is the median and the
worst of ``runs`` timings of one search (the lexicon is loaded once, before timing), and how
many words it found.

A second table measures the work budget of the study page (``atril.web.study``): the widest
searches anyone can type, in CPU seconds, once without a budget and (median of ``runs``) with
the budget the page gives them, and whether the budget cut them.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable

from atril import wordtools as W
from atril.lexicon import Lexicon
from atril.web.study import MAX_NODES, MAX_RANKED, MAX_WORDS


def cases(lex: Lexicon) -> list[tuple[str, Callable[[], object]]]:
    return [
        ("anagram AEIRST??", lambda: W.anagrams(lex, "AEIRST??")),
        ("anagram ESTRAÑO??", lambda: W.anagrams(lex, "ESTRAÑO??")),
        ("anagram CHAVAL?", lambda: W.anagrams(lex, "CHAVAL?")),
        ("anagram ACEINORST? (10 tiles)", lambda: W.anagrams(lex, "ACEINORST?")),
        ("build AEIRST??", lambda: W.buildable(lex, "AEIRST??")),
        ("build CHAVAL?", lambda: W.buildable(lex, "CHAVAL?")),
        ("pattern ?ACH*", lambda: W.pattern_words(lex, "?ACH*")),
        ("pattern *[AEIOU]RR?", lambda: W.pattern_words(lex, "*[AEIOU]RR?")),
        ("pattern *CION", lambda: W.pattern_words(lex, "*CION")),
        ("pattern C*N", lambda: W.pattern_words(lex, "C*N")),
        ("pattern *LL*Ñ*", lambda: W.pattern_words(lex, "*LL*Ñ*")),
        ("pattern *A*E*I*O*U*", lambda: W.pattern_words(lex, "*A*E*I*O*U*")),
        ("pattern ???????? limit 201", lambda: W.pattern_words(lex, "????????", limit=201)),
        ("pattern [^AEIOU]*[AEIOU] (all)", lambda: W.pattern_words(lex, "[^AEIOU]*[AEIOU]")),
        ("hooks CASA ARRO OCHO", lambda: [W.hooks(lex, w) for w in ("CASA", "ARRO", "OCHO")]),
        ("list 2-3 tiles by probability", lambda: W.by_probability(
            W.word_list(lex, min_length=2, max_length=3))),
        ("list containing Z,X", lambda: W.word_list(lex, contains="Z,X")),
        ("list containing Ñ, 5 tiles", lambda: W.word_list(lex, min_length=5, max_length=5,
                                                           contains="Ñ")),
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    t = time.perf_counter()
    lex = Lexicon.load("ES09")
    print(f"ES09 load: {time.perf_counter() - t:.3f} s ({lex.word_count} words)")
    print(f"{'search':<34} {'median':>10} {'worst':>10} {'found':>8}")
    for name, run in cases(lex):
        times = []
        for _ in range(args.runs):
            t = time.perf_counter()
            result = run()
            times.append(time.perf_counter() - t)
        found = len(result) if isinstance(result, list) else 0
        print(f"{name:<34} {statistics.median(times) * 1000:>8.1f} ms "
              f"{max(times) * 1000:>7.1f} ms {found:>8}")
    budgeted(lex, args.runs)


def widest(lex: Lexicon) -> list[tuple[str, bool, Callable[[W.Budget | None], list[W.Found]]]]:
    """(name, ranked by probability, search): what a study page request runs, less the
    early stop of alphabetical patterns that walk forwards (``*`` alone stops at the page)."""
    return [
        ("pattern * by probability", True, lambda b: W.pattern_words(lex, "*", budget=b)),
        ("pattern *A* by probability", True, lambda b: W.pattern_words(lex, "*A*", budget=b)),
        ("pattern *? (backwards)", False, lambda b: W.pattern_words(lex, "*?", budget=b)),
        ("pattern *??????? (backwards)", False,
         lambda b: W.pattern_words(lex, "*???????", budget=b)),
        ("pattern *A?????????????? (backwards)", False,
         lambda b: W.pattern_words(lex, "*A??????????????", budget=b)),
        ("list 1-15 tiles", False, lambda b: W.word_list(lex, budget=b)),
        ("list 2-15 tiles by probability", True,
         lambda b: W.word_list(lex, min_length=2, budget=b)),
        ("build AAEEIOSRNLTCD?? by prob.", True,
         lambda b: W.buildable(lex, "AAEEIOSRNLTCD??", budget=b)),
        ("anagram AAEEIOSRNLTCD??", False, lambda b: W.anagrams(lex, "AAEEIOSRNLTCD??", budget=b)),
    ]


def cpu(search: Callable[[W.Budget | None], list[W.Found]], ranked: bool,
        budget: W.Budget | None) -> tuple[float, list[W.Found]]:
    """CPU seconds of one search (ranked, if asked, as the page does) and what it found."""
    t = time.process_time()
    found = search(budget)
    found = W.by_probability(found) if ranked else found
    return time.process_time() - t, found


def budgeted(lex: Lexicon, runs: int) -> None:
    print(f"\nstudy page budget: {MAX_NODES:,} nodes, {MAX_WORDS:,} words "
          f"({MAX_RANKED:,} ranked by probability); CPU time")
    print(f"{'search':<38} {'no budget':>10} {'found':>8} {'budget':>9} {'found':>8}  cut")
    for name, ranked, search in widest(lex):
        free, full = cpu(search, ranked, None)
        budgets = [W.Budget(MAX_NODES, MAX_RANKED if ranked else MAX_WORDS) for _ in range(runs)]
        times = [cpu(search, ranked, budget) for budget in budgets]
        print(f"{name:<38} {free:>8.2f} s {len(full):>8} "
              f"{statistics.median(t for t, _ in times):>7.2f} s {len(times[0][1]):>8}  "
              f"{'yes' if budgets[0].cut else 'no'}")

if __name__ == "__main__":
    main()
